//go:build unix

package program

import (
	"os/exec"
	"syscall"
)

// detach makes cmd a session of its own, so that neither the end of
// askuser nor its terminal's hangup reaches it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
