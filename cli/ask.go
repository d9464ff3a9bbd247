package cli

import (
	"context"
	"fmt"
)

func runAsk(ctx context.Context, env *Env, args []string) int {
	fmt.Fprintln(env.Stderr, "askuser ask: not implemented yet")
	return ExitError
}
