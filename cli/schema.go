package cli

import (
	"context"
	"fmt"
)

func runSchema(ctx context.Context, env *Env, args []string) int {
	fmt.Fprintln(env.Stderr, "askuser schema: not implemented yet")
	return ExitError
}
