package cli

import (
	"context"
	"fmt"
)

func runVersion(ctx context.Context, env *Env, args []string) int {
	fmt.Fprintln(env.Stderr, "askuser version: not implemented yet")
	return ExitError
}
