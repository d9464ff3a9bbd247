package testkit

import (
	"testing"
	"time"
)

// Most patience a wait is given, the time kept back before the test
// binary's deadline to report a wait that never ends, and the least.
const (
	patienceCap    = 3 * time.Minute
	patienceMargin = 10 * time.Second
	patienceFloor  = time.Second
)

// Patience is how long a test waits for a state it expects to come: a
// question to reach the hub, a process to start or stop, a line on a
// terminal. It is generous on purpose, so that a slow or loaded machine
// makes a test slower, never failing: the time left before the test
// binary's own deadline (go test -timeout), less a margin to report the
// wait that failed, at most a few minutes. A wait that checks that
// something does not happen within a window needs a window of its own,
// not this.
func Patience(t testing.TB) time.Duration {
	wait := patienceCap
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if end, ok := d.Deadline(); ok {
			wait = min(wait, time.Until(end)-patienceMargin)
		}
	}
	return max(wait, patienceFloor)
}

// PatienceDeadline is the time at which a wait for a state that starts
// now gives up: now plus Patience.
func PatienceDeadline(t testing.TB) time.Time { return time.Now().Add(Patience(t)) }
