//go:build windows

package hubserver

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockFile takes f's exclusive lock without waiting; errLocked means
// another process holds it. The lock ends with the process, even a
// killed one.
func lockFile(f *os.File) error {
	var ol windows.Overlapped
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return errLocked
	}
	return err
}
