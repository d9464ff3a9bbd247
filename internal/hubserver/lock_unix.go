//go:build unix

package hubserver

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes f's exclusive lock without waiting; errLocked means
// another process holds it. The lock ends with the process, even a
// killed one.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}
