//go:build unix

package notify

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup makes cmd the leader of a process group of its own, so that
// what it starts can be stopped with it.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// terminate asks the process group p leads to end.
func terminate(p *os.Process) { _ = syscall.Kill(-p.Pid, syscall.SIGTERM) }

// kill ends the process group p leads.
func kill(p *os.Process) { _ = syscall.Kill(-p.Pid, syscall.SIGKILL) }
