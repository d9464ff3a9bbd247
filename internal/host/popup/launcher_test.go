package popup

import (
	"context"
	"os"
	"path/filepath"
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
		{"silent", `[ "$1" = display-message ] && { echo "%1 1 80 24"; exit 0; }; exit 129`, "tmux display-popup ended (exit status 129) and tmux gave no reason; the client showing the popup may have detached or closed it"},
		{"with a reason", `[ "$1" = display-message ] && { echo "%1 1 80 24"; exit 0; }; echo 'no current client' >&2; exit 1`, "tmux display-popup: exit status 1: no current client"},
		{"a reason with an escape", `[ "$1" = display-message ] && { echo "%1 1 80 24"; exit 0; }; printf 'bad\033]0;x\007' >&2; exit 1`, "tmux display-popup: exit status 1: bad␛]0;x␇"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tm := &Tmux{Path: fakeTmux(t, tt.script), Pane: "%1"}
			w, err := tm.Launch(context.Background(), []string{"true"}, func(w, h int) (int, int) { return w, h })
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

func TestCheck(t *testing.T) {
	usage := `display-popup (popup) [-BCE] [-c target-client] [-h height] [-t target-pane] [-w width] [shell-command]`
	tests := []struct{ name, script, want string }{
		{"good", "echo '%1 1 120 40'; echo '" + usage + "'", ""},
		{"no client", "echo '%1 0  '; echo '" + usage + "'", "no tmux client is attached to the session of pane %1, so a popup would show nowhere"},
		{"pane gone", "echo; echo '" + usage + "'", "tmux pane %1, where askuser was started, no longer exists"},
		{"no server", "echo 'no server running on /tmp/x' >&2; exit 1", "tmux display-message: no server running on /tmp/x"},
		{"silent failure", "exit 129", "tmux display-message failed (exit status 129) and gave no reason"},
		{"no display-popup", `[ "$1" = -V ] && { echo 'tmux 3.1c'; exit 0; }; echo '%1 1 120 40'`, "tmux 3.1c has no display-popup -B, which came in tmux 3.2"},
		{"nonsense", "echo '%1 1 wide 40'; echo '" + usage + "'", `tmux gave a bad size for the client showing pane %1: "%1 1 wide 40"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if err := (&Tmux{Path: fakeTmux(t, tt.script), Pane: "%1"}).Check(); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("Check() = %q; want %q", got, tt.want)
			}
		})
	}
}

func TestTmuxKey(t *testing.T) {
	tests := []struct{ key, want, err string }{
		{"alt+o", "M-o", ""},
		{"ctrl+alt+o", "C-M-o", ""},
		{"alt+shift+o", "M-O", ""},
		{"ctrl+shift+tab", "C-S-Tab", ""},
		{"ctrl+shift+q", "C-S-q", ""},
		{"f5", "F5", ""},
		{"ctrl+f12", "C-F12", ""},
		{"alt+pgup", "M-PPage", ""},
		{"alt+;", `M-\;`, ""},
		{"ctrl++", "C-+", ""},
		{"alt+backspace", "M-BSpace", ""},
		{"super+o", "", "tmux cannot bind super+o: it has no super modifier"},
		{"alt+clear", "", "tmux has no name for the key alt+clear"},
	}
	for _, tt := range tests {
		got, err := TmuxKey(tt.key)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tt.want || gotErr != tt.err {
			t.Errorf("TmuxKey(%q) = %q, %q; want %q, %q", tt.key, got, gotErr, tt.want, tt.err)
		}
	}
}
