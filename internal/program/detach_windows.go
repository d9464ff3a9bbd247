package program

import (
	"os/exec"
	"syscall"
)

// detach runs cmd without a console and in a process group of its own,
// so that neither the end of askuser nor its console's Ctrl-C reaches it.
func detach(cmd *exec.Cmd) {
	const detachedProcess = 0x00000008
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: detachedProcess | syscall.CREATE_NEW_PROCESS_GROUP}
}
