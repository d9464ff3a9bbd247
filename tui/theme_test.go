package tui

import (
	"testing"

	"github.com/askuser/askuser/internal/dialog"
)

// The conversions between Theme and the dialog's theme keep every role.
func TestThemeConversion(t *testing.T) {
	tests := []struct {
		name string
		in   *Theme
		want dialog.Theme
	}{
		{"nil is the default", nil, dialog.DefaultTheme()},
		{"plain", &Theme{}, dialog.PlainTheme()},
		{"default round trip", func() *Theme { th := DefaultTheme(); return &th }(), dialog.DefaultTheme()},
		{"each role", &Theme{
			Accent: Style{"a", "A"}, Muted: Style{"m", "M"}, Selection: Style{"s", "S"}, Warning: Style{"w", "W"},
			Error: Style{"e", "E"}, Border: Style{"b", "B"}, Bold: Style{"d", "D"}, Code: Style{"c", "C"},
		}, dialog.Theme{
			Accent: dialog.Style{Prefix: "a", Suffix: "A"}, Muted: dialog.Style{Prefix: "m", Suffix: "M"},
			Selection: dialog.Style{Prefix: "s", Suffix: "S"}, Warning: dialog.Style{Prefix: "w", Suffix: "W"},
			Error: dialog.Style{Prefix: "e", Suffix: "E"}, Border: dialog.Style{Prefix: "b", Suffix: "B"},
			Bold: dialog.Style{Prefix: "d", Suffix: "D"}, Code: dialog.Style{Prefix: "c", Suffix: "C"},
		}},
	}
	for _, tt := range tests {
		if got := dialogTheme(tt.in); got != tt.want {
			t.Errorf("%s: dialogTheme = %+v, want %+v", tt.name, got, tt.want)
		}
	}
	if got := themeOf(dialogTheme(tests[3].in)); got != *tests[3].in {
		t.Errorf("themeOf(dialogTheme(t)) = %+v, want %+v", got, *tests[3].in)
	}
	if got := (Style{"<", ">"}).Render("x"); got != "<x>" {
		t.Errorf("Render = %q, want %q", got, "<x>")
	}
}
