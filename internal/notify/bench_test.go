package notify

import (
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/prefs"
)

// BenchmarkOpen is the cost a questionnaire's opening adds: detecting
// the terminal, building the Notifier and its opening sequences.
func BenchmarkOpen(b *testing.B) {
	env := []string{"TERM=tmux-256color", "TMUX=/tmp/t,1,0", "KITTY_WINDOW_ID=1", "PATH=/usr/bin", "HOME=/home/u"}
	prefs := prefs.NotifyPrefs{Bell: true, Title: true, Desktop: prefs.DesktopAuto}
	header := strings.Repeat("Release plan ", 8)
	b.ReportAllocs()
	for b.Loop() {
		n := New(prefs, Detect(env), Subject{Header: header})
		if n.Open(4*time.Minute, true) == "" {
			b.Fatal("no sequences")
		}
	}
}
