//go:build unix

package program

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// ProcessGone reports whether process pid has ended: no process has that id,
// or, where /proc says so, it is a zombie, as one stays in a container
// whose first process reaps nothing. An id of 0 or less is never gone.
func ProcessGone(pid int) bool {
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
