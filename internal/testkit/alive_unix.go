//go:build unix

package testkit

import (
	"errors"
	"syscall"

	"github.com/askuser/askuser/internal/program"
)

// alive reports whether a process with this id runs. A process that
// exists but belongs to another user counts as running.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Running reports whether process pid runs: it exists and is not a
// zombie (see program.ProcessGone).
func Running(pid int) bool { return !program.ProcessGone(pid) }
