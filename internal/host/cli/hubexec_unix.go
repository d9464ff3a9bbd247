//go:build unix

package cli

import (
	"context"
	"fmt"
	"os"
	"syscall"

	"github.com/askuser/askuser/internal/program"
)

// execHub replaces this process with the hub's program, so that a
// service manager's SIGTERM reaches the hub itself.
func execHub(_ context.Context, env *Env, path string, args []string) int {
	err := syscall.Exec(path, append([]string{program.HubBinary}, args...), os.Environ())
	fmt.Fprintf(env.Stderr, "askuser hub: run %s: %v\n", path, err)
	return ExitError
}
