//go:build !unix

package notify

import (
	"os"
	"os/exec"
)

// ownGroup does nothing: without unix process groups only the command
// itself can be stopped.
func ownGroup(*exec.Cmd) {}

// terminate ends p: there is no gentler signal to send.
func terminate(p *os.Process) { _ = p.Kill() }

// kill ends p.
func kill(p *os.Process) { _ = p.Kill() }
