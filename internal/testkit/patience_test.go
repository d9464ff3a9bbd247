package testkit

import (
	"testing"
	"time"
)

// fakeDeadline is a testing.TB whose binary's deadline is chosen by the test.
type fakeDeadline struct {
	testing.TB
	end time.Time
	ok  bool
}

func (f fakeDeadline) Deadline() (time.Time, bool) { return f.end, f.ok }

func TestPatience(t *testing.T) {
	for _, tc := range []struct {
		name     string
		left     time.Duration
		ok       bool
		min, max time.Duration
	}{
		{"no deadline", 0, false, patienceCap, patienceCap},
		{"far deadline", time.Hour, true, patienceCap, patienceCap},
		{"near deadline", time.Minute, true, time.Minute - patienceMargin - time.Second, time.Minute - patienceMargin},
		{"past deadline", -time.Minute, true, patienceFloor, patienceFloor},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Patience(fakeDeadline{TB: t, end: time.Now().Add(tc.left), ok: tc.ok})
			if got < tc.min || got > tc.max {
				t.Errorf("Patience = %v, want between %v and %v", got, tc.min, tc.max)
			}
		})
	}
	// A testing.TB with no Deadline method, such as a *testing.B, gets
	// the most patience.
	if got := Patience(struct{ testing.TB }{t}); got != patienceCap {
		t.Errorf("Patience without a Deadline method = %v, want %v", got, patienceCap)
	}
	if d := time.Until(PatienceDeadline(t)); d <= 0 || d > patienceCap {
		t.Errorf("PatienceDeadline is %v from now, want within (0, %v]", d, patienceCap)
	}
}
