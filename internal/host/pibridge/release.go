package pibridge

import (
	"errors"
	"fmt"

	"github.com/askuser/askuser/internal/program"
)

// ErrRelease is returned by Serve, wrapped, when the hello names another
// release of askuser than this binary's, or none. A binary left on PATH by
// an older install must not half-work with a newer package: the bridge
// protocol may not have changed, but the tool's contract may have.
var ErrRelease = errors.New("pibridge: release mismatch")

// checkRelease compares the release a hello names with this binary's.
// The message is for the user, through the shim; the error wraps
// ErrRelease.
func checkRelease(release *string) (msg string, err error) {
	switch {
	case release == nil:
		msg = fmt.Sprintf("the Pi package did not say which askuser release it is, and this askuser binary is release %s: install matching versions", program.Release())
	case *release != program.Release():
		msg = fmt.Sprintf("the Pi package is release %s and this askuser binary is release %s: install matching versions, or remove the other askuser binary", *release, program.Release())
	default:
		return "", nil
	}
	return msg, fmt.Errorf("%w: %s", ErrRelease, msg)
}
