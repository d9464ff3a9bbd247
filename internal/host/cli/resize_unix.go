//go:build unix

package cli

import (
	"os"
	"os/signal"
	"syscall"
)

// notifyResize delivers the terminal's size changes (SIGWINCH) until stop.
func notifyResize() (<-chan os.Signal, func()) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGWINCH)
	return c, func() { signal.Stop(c) }
}
