package cli

import (
	"context"
	"fmt"
)

func runMCP(ctx context.Context, env *Env, args []string) int {
	fmt.Fprintln(env.Stderr, "askuser mcp: not implemented yet")
	return ExitError
}
