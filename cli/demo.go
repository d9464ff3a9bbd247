package cli

import (
	"context"
	"fmt"
)

func runDemo(ctx context.Context, env *Env, args []string) int {
	fmt.Fprintln(env.Stderr, "askuser demo: not implemented yet")
	return ExitError
}
