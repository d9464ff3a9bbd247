//go:build !unix && !windows

package program

import "os/exec"

// detach leaves cmd as it is where processes have no sessions.
func detach(*exec.Cmd) {}
