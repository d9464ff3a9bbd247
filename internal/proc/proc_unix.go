//go:build unix

// Package proc says whether a process has ended, for the programs that
// find a process by the id a file left behind.
package proc

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// Gone reports whether process pid has ended: no process has that id,
// or, where /proc says so, it is a zombie, as one stays in a container
// whose first process reaps nothing. An id of 0 or less is never gone.
func Gone(pid int) bool {
	if pid <= 0 {
		return false
	}
	if syscall.Kill(pid, 0) == syscall.ESRCH {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) state ...; comm may hold spaces and parentheses.
	rest := stat[bytes.LastIndexByte(stat, ')')+1:]
	return bytes.HasPrefix(bytes.TrimSpace(rest), []byte("Z"))
}
