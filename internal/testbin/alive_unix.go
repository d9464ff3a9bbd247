//go:build unix

package testbin

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"syscall"
)

// alive reports whether a process with this id runs. A process that
// exists but belongs to another user counts as running.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Running reports whether process pid runs: it exists and, where /proc
// says, is not a zombie left for a parent that does not reap it, as a
// process whose parent ended may be in a container.
func Running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return !os.IsNotExist(err)
	}
	// pid (comm) state ...; comm may hold spaces and parentheses.
	rest := stat[bytes.LastIndexByte(stat, ')')+1:]
	return !bytes.HasPrefix(bytes.TrimSpace(rest), []byte("Z"))
}
