package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/internal/dialog"
)

// TestTerminalBytes decodes what terminals send with Bubble Tea's own
// decoder and checks the dialog key each becomes.
func TestTerminalBytes(t *testing.T) {
	tests := []struct {
		name, in string
		want     dialog.Key
	}{
		{"down", "\x1b[B", dialog.Key{Name: "down"}},
		{"up, application mode", "\x1bOA", dialog.Key{Name: "up"}},
		{"enter", "\r", dialog.Key{Name: "enter"}},
		{"tab", "\t", dialog.Key{Name: "tab"}},
		{"shift+tab", "\x1b[Z", dialog.Key{Name: "shift+tab"}},
		{"backspace", "\x7f", dialog.Key{Name: "backspace"}},
		{"space", " ", dialog.Key{Name: "space"}},
		{"ctrl+c", "\x03", dialog.Key{Name: "ctrl+c"}},
		{"esc", "\x1b", dialog.Key{Name: "esc"}},
		{"alt+o", "\x1bo", dialog.Key{Name: "alt+o"}},
		{"alt+q", "\x1bq", dialog.Key{Name: "alt+q"}},
		{"page down", "\x1b[6~", dialog.Key{Name: "pgdown"}},
		{"home", "\x1b[H", dialog.Key{Name: "home"}},
		{"ctrl+left", "\x1b[1;5D", dialog.Key{Name: "ctrl+left"}},
		{"ctrl+enter, kitty", "\x1b[13;5u", dialog.Key{Name: "ctrl+enter"}},
		{"ctrl+enter, modifyOtherKeys", "\x1b[27;5;13~", dialog.Key{Name: "ctrl+enter"}},
		{"ctrl+shift+q, kitty", "\x1b[113;6u", dialog.Key{Name: "ctrl+shift+q"}},
		{"letter", "a", dialog.Key{Text: "a"}},
		{"capital", "A", dialog.Key{Text: "A"}},
		{"accented", "é", dialog.Key{Text: "é"}},
		{"wide", "日", dialog.Key{Text: "日"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d uv.EventDecoder
			n, ev := d.Decode([]byte(tt.in))
			if n != len(tt.in) {
				t.Fatalf("decoded %d of %d bytes into %T %v", n, len(tt.in), ev, ev)
			}
			k, ok := ev.(uv.KeyPressEvent)
			if !ok {
				t.Fatalf("decoded %T %v, want a key press", ev, ev)
			}
			got, ok := toKey(tea.KeyPressMsg(k))
			if !ok {
				t.Fatalf("toKey dropped %v", k)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%q mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}
