package mcpserver

import (
	"testing"
	"time"
)

// fuzzBound bounds the time one fuzz input may take. An input that makes
// a decoder spin is a finding, not a slow run: the fuzzer reports it
// with the input instead of stalling.
const fuzzBound = 10 * time.Second

// bounded runs f, failing t with in if f has not returned within
// fuzzBound.
func bounded(t *testing.T, in any, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	timer := time.NewTimer(fuzzBound)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
		t.Fatalf("the input %q took longer than %v", in, fuzzBound)
	}
}
