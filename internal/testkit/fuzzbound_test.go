package testkit

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// watch makes the watchdog fire after d and send its message on the
// returned channel instead of crashing, until the test ends.
func watch(t *testing.T, d time.Duration) <-chan string {
	fired := make(chan string, 1)
	oldLimit, oldOnTimeout := fuzzLimit, onFuzzTimeout
	fuzzLimit = d
	onFuzzTimeout = func(msg string) { fired <- msg }
	t.Cleanup(func() { fuzzLimit, onFuzzTimeout = oldLimit, oldOnTimeout })
	return fired
}

func TestFuzzBoundFast(t *testing.T) {
	fired := watch(t, time.Hour)
	ran := false
	FuzzBound(t, "x", func() { ran = true })
	if !ran {
		t.Fatal("FuzzBound did not call f")
	}
	select {
	case msg := <-fired:
		t.Fatalf("the watchdog fired for a fast input: %s", msg)
	default:
	}
}

func TestFuzzBoundSlow(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"string", "a\x1b\"b", `TestFuzzBoundSlow/string: the input "a\x1b\"b" took longer than 1ms`},
		{"bytes", []byte("\xff{"), `TestFuzzBoundSlow/bytes: the input "\xff{" took longer than 1ms`},
		{"other", struct {
			Seed uint64
			Text string
		}{7, "k"}, `TestFuzzBoundSlow/other: the input struct { Seed uint64; Text string }{Seed:0x7, Text:"k"} took longer than 1ms`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fired := watch(t, time.Millisecond)
			var got string
			// f stands for an input that spins: it returns only once the
			// watchdog has fired, so that the test does not leave it behind,
			// or after a bound when the watchdog never fires.
			FuzzBound(t, tt.in, func() {
				select {
				case got = <-fired:
				case <-time.After(Patience(t)):
					t.Error("the watchdog did not fire")
				}
			})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCrashFuzz: the default action panics with the message and the stacks,
// which is what ends the fuzz worker.
func TestCrashFuzz(t *testing.T) {
	var got any
	func() {
		defer func() { got = recover() }()
		crashFuzz("the input took too long")
	}()
	s, ok := got.(string)
	if !ok || !strings.HasPrefix(s, "the input took too long\n\ngoroutine ") || !strings.Contains(s, "TestCrashFuzz") {
		t.Errorf("crash panicked with %q; want the message then the stacks", got)
	}
}

func TestFuzzNumbers(t *testing.T) {
	got := FuzzNumbers()
	if len(got) != 25 {
		t.Errorf("FuzzNumbers has %d texts, want 25", len(got))
	}
	if n := len(got[11]); n != 400 {
		t.Errorf("the long integer has %d digits, want 400", n)
	}
	got[0] = "changed"
	if FuzzNumbers()[0] == "changed" {
		t.Error("FuzzNumbers returned a shared slice")
	}
}
