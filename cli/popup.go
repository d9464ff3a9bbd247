package cli

import (
	"context"
	"fmt"
)

func runPopup(ctx context.Context, env *Env, args []string) int {
	fmt.Fprintln(env.Stderr, "askuser popup: not implemented yet")
	return ExitError
}
