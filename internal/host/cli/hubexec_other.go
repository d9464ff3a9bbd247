//go:build !unix

package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
)

// execHub runs the hub's program and waits for it; an interrupt of
// askuser interrupts it.
func execHub(ctx context.Context, env *Env, path string, args []string) int {
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, env.Stdout, env.Stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		fmt.Fprintf(env.Stderr, "askuser hub: run %s: %v\n", path, err)
		return ExitError
	}
	return 0
}
