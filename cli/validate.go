package cli

import (
	"context"
	"fmt"
)

func runValidate(ctx context.Context, env *Env, args []string) int {
	fmt.Fprintln(env.Stderr, "askuser validate: not implemented yet")
	return ExitError
}
