package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/askuser/askuser/internal/host/pibridge"
	"github.com/askuser/askuser/internal/strictjson"
)

// runBridge serves the Pi package on stdin and stdout until stdin ends.
func runBridge(ctx context.Context, env *Env, args []string) int {
	if len(args) > 0 {
		fmt.Fprintf(env.Stderr, "askuser bridge: takes no arguments, got %q\n", args)
		return ExitUsage
	}
	err := pibridge.Serve(ctx, env.Stdin, strictjson.NewEscaper(env.Stdout))
	switch {
	case err == nil:
		return 0
	case errors.Is(err, pibridge.ErrVersion), errors.Is(err, pibridge.ErrRelease):
		fmt.Fprintf(env.Stderr, "askuser bridge: %v\n", err)
		return ExitUsage
	default:
		fmt.Fprintf(env.Stderr, "askuser bridge: %v\n", err)
		return ExitError
	}
}
