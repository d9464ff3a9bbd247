package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
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
		}, "", "stopped", true},
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
