package popup

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTmux writes a tmux that runs script and returns its path.
func fakeTmux(t *testing.T, script string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tmux")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// A popup that tmux ends without a word still gets a reason a person can
// act on, not a bare exit status.
func TestLaunchSilentFailure(t *testing.T) {
	tests := []struct{ name, script, want string }{
		{"silent", "exit 129", "tmux display-popup ended (exit status 129) and tmux gave no reason; the client showing the popup may have detached or closed it"},
		{"with a reason", "echo 'no current client' >&2; exit 1", "tmux display-popup: exit status 1: no current client"},
		{"a reason with an escape", "printf 'bad\\033]0;x\\007' >&2; exit 1", "tmux display-popup: exit status 1: bad␛]0;x␇"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tm := &Tmux{Path: fakeTmux(t, tt.script), Pane: "%1"}
			w, err := tm.Launch(context.Background(), []string{"true"})
			if err != nil {
				t.Fatal(err)
			}
			tw := w.(*tmuxWindow)
			<-tw.done
			if tw.err == nil || tw.err.Error() != tt.want {
				t.Errorf("error %v; want %q", tw.err, tt.want)
			}
		})
	}
}

func TestAttached(t *testing.T) {
	tests := []struct {
		name, script string
		want         bool
		wantErr      string
	}{
		{"one client", "echo 1", true, ""},
		{"none", "echo 0", false, ""},
		{"no server", "echo 'no server running on /tmp/x' >&2; exit 1", false, "no server running"},
		{"nonsense", "echo many", false, `tmux reported "many" clients`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := (&Tmux{Path: fakeTmux(t, tt.script), Pane: "%1"}).Attached()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error %v; want one with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Attached() = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}
