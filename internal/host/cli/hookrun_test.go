package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// Whatever ends a hook's decision without one, a panic among them,
// prints nothing on stdout; only a decision made is printed, escaped.
func TestHookRunPrintsOnlyADecision(t *testing.T) {
	tests := []struct {
		name      string
		decide    func(context.Context, *hookRun, []byte) ([]byte, error)
		stdout    string
		stderrHas string
		cancelled bool
	}{
		{"a decision", func(context.Context, *hookRun, []byte) ([]byte, error) {
			return []byte("{\"m\":\"\u202e\"}"), nil
		}, `{"m":"\u202e"}` + "\n", "", false},
		{"an error", func(context.Context, *hookRun, []byte) ([]byte, error) {
			return []byte(`{"allow":true}`), errors.New("no \x1b[31mway")
		}, "", "no ␛[31mway; no decision", false},
		{"a panic", func(context.Context, *hookRun, []byte) ([]byte, error) {
			panic("broken")
		}, "", "internal failure, so no decision: broken", false},
		{"a decision made as the hook is stopped", func(context.Context, *hookRun, []byte) ([]byte, error) {
			return []byte(`{"allow":true}`), nil
		}, "", "no decision", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			h := &hookRun{env: &Env{Stdin: strings.NewReader("{}"), Stdout: &stdout, Stderr: &stderr}, client: "codex"}
			ctx, cancel := context.WithCancel(context.Background())
			if tt.cancelled {
				cancel()
			}
			defer cancel()
			h.run(ctx, tt.decide)
			if stdout.String() != tt.stdout {
				t.Errorf("stdout %q, want %q", stdout.String(), tt.stdout)
			}
			if !strings.Contains(stderr.String(), tt.stderrHas) || strings.ContainsRune(stderr.String(), 0x1b) {
				t.Errorf("stderr %q, want it to hold %q, escaped", stderr.String(), tt.stderrHas)
			}
		})
	}
}

// A client that never closes standard input does not hold the hook past
// a stop.
func TestHookRunStdinNeverEnds(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	var stdout, stderr bytes.Buffer
	h := &hookRun{env: &Env{Stdin: r, Stdout: &stdout, Stderr: &stderr}, client: "codex"}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	h.run(ctx, func(context.Context, *hookRun, []byte) ([]byte, error) { return []byte(`{"allow":true}`), nil })
	if stdout.Len() != 0 || !strings.Contains(stderr.String(), "standard input did not end") {
		t.Errorf("stdout %q, stderr %q; want nothing, and that standard input did not end", stdout.String(), stderr.String())
	}
}
