//go:build unix

package testbin

import (
	"errors"
	"syscall"
)

// alive reports whether a process with this id runs. A process that
// exists but belongs to another user counts as running.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
