package cli

import (
	"context"
	"fmt"
)

func runBridge(ctx context.Context, env *Env, args []string) int {
	fmt.Fprintln(env.Stderr, "askuser bridge: not implemented yet")
	return ExitError
}
