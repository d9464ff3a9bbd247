package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseKey(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		// Letters, digits, symbols.
		{"a", "a"},
		{"z", "z"},
		{"0", "0"},
		{"9", "9"},
		{"`", "`"},
		{"\\", "\\"},
		{"?", "?"},
		{"+", "+"},
		{"ctrl++", "ctrl++"},
		{"alt+shift++", "alt+shift++"},
		{"ctrl+-", "ctrl+-"},
		{"alt+[", "alt+["},
		// Case: names fold, letters fold, shift stays explicit.
		{"A", "a"},
		{"Alt+O", "alt+o"},
		{"ALT+o", "alt+o"},
		{"shift+a", "shift+a"},
		{"shift+A", "shift+a"},
		{"CTRL+SHIFT+TAB", "ctrl+shift+tab"},
		{"PageUp", "pgup"},
		{"pageUp", "pgup"},
		{"pagedown", "pgdown"},
		// Pi names to bubbletea names.
		{"escape", "esc"},
		{"Escape", "esc"},
		{"return", "enter"},
		{"clear", "begin"},
		{"pageDown", "pgdown"},
		// bubbletea names.
		{"esc", "esc"},
		{"pgup", "pgup"},
		{"pgdown", "pgdown"},
		{"begin", "begin"},
		{"meta+x", "meta+x"},
		{"hyper+x", "hyper+x"},
		// Every named key.
		{"enter", "enter"},
		{"tab", "tab"},
		{"space", "space"},
		{"backspace", "backspace"},
		{"delete", "delete"},
		{"insert", "insert"},
		{"home", "home"},
		{"end", "end"},
		{"up", "up"},
		{"down", "down"},
		{"left", "left"},
		{"right", "right"},
		{"f1", "f1"},
		{"F12", "f12"},
		// Modifier order is canonical whatever the input order.
		{"shift+ctrl+a", "ctrl+shift+a"},
		{"super+hyper+meta+shift+alt+ctrl+a", "ctrl+alt+shift+meta+hyper+super+a"},
		{"super+ctrl+enter", "ctrl+super+enter"},
		{"alt+ctrl+delete", "ctrl+alt+delete"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseKey(tt.in)
			if err != nil {
				t.Fatalf("ParseKey(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseKey(%q) (-want +got):\n%s", tt.in, diff)
			}
			again, err := ParseKey(got)
			if err != nil || again != got {
				t.Errorf("ParseKey(%q) = %q, %v; canonical form must be a fixed point", got, again, err)
			}
		})
	}
}

func TestParseKeyErrors(t *testing.T) {
	tests := []struct {
		in      string
		is      error
		wantMsg string
	}{
		{"", ErrEmpty, `empty key: write a chord such as "alt+o"`},
		{" ", ErrWhitespace, `whitespace in key " ": write chords without spaces, as in "alt+o", and the space bar as "space"`},
		{"alt+ o", ErrWhitespace, ""},
		{"alt+o\n", ErrWhitespace, ""},
		{"alt+o\u3000", ErrWhitespace, ""},
		{"alt+", ErrDanglingPlus, `dangling "+" in "alt+": each "+" joins a modifier to the next name, as in "ctrl+alt+o"; the plus key itself is "+" or "ctrl++"`},
		{"+o", ErrDanglingPlus, ""},
		{"++", ErrDanglingPlus, ""},
		{"ctrl++o", ErrDanglingPlus, ""},
		{"ctrl+++", ErrDanglingPlus, ""},
		{"ctrl+alt+", ErrDanglingPlus, ""},
		{"alt+banana", ErrUnknownKey, `unknown key "banana" in "alt+banana": want a letter a-z, a digit 0-9, a symbol such as - = [ ] ; ' , . /, or one of esc, enter, tab, space, backspace, delete, insert, clear, home, end, pageUp, pageDown, up, down, left, right, f1-f12`},
		{"banana", ErrUnknownKey, ""},
		{"f13", ErrUnknownKey, ""},
		{"f0", ErrUnknownKey, ""},
		{`"`, ErrUnknownKey, ""},
		{"é", ErrUnknownKey, ""},
		{"alt+\u212a", ErrUnknownKey, ""}, // Kelvin sign: Unicode lowers it to k
		{"ctrl+\x00", ErrUnknownKey, ""},
		{"alt", ErrUnknownKey, `unknown key "alt" in "alt": "alt" is a modifier; end the chord with a key, as in "alt+o"`},
		{"ctrl+Shift", ErrUnknownKey, ""},
		{"cmd+o", ErrUnknownModifier, `unknown modifier "cmd" in "cmd+o": want ctrl, alt, shift, super, meta or hyper`},
		{"control+o", ErrUnknownModifier, ""},
		{"o+alt", ErrUnknownModifier, `unknown modifier "o" in "o+alt": only the last name of a chord is a key, and the names before it are modifiers (ctrl, alt, shift, super, meta or hyper)`},
		{"alt+alt+o", ErrDuplicateModifier, `duplicate modifier "alt" in "alt+alt+o": name each modifier once`},
		{"Ctrl+ctrl+o", ErrDuplicateModifier, ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseKey(tt.in)
			if err == nil {
				t.Fatalf("ParseKey(%q) = %q, want an error", tt.in, got)
			}
			if !errors.Is(err, tt.is) {
				t.Errorf("ParseKey(%q) error %q does not wrap %q", tt.in, err, tt.is)
			}
			if tt.wantMsg != "" {
				if diff := cmp.Diff(tt.wantMsg, err.Error()); diff != "" {
					t.Errorf("ParseKey(%q) message (-want +got):\n%s", tt.in, diff)
				}
			}
			if got != "" {
				t.Errorf("ParseKey(%q) returned %q with an error", tt.in, got)
			}
		})
	}
}

func TestCheckToggle(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{DefaultToggle, "alt+o"},
		{"Alt+O", "alt+o"},
		{"ctrl+o", "ctrl+o"},
		{"ctrl+shift+h", "ctrl+shift+h"},
		{"ctrl+]", "ctrl+]"},
		{"alt+1", "alt+1"},
		{"f2", "f2"},
		{"insert", "insert"},
		{"clear", "begin"},
		{"super+o", "super+o"},
		{"ctrl+alt+q", "ctrl+alt+q"},
		{"ctrl+shift+enter", "ctrl+shift+enter"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := CheckToggle(tt.in)
			if err != nil {
				t.Fatalf("CheckToggle(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("CheckToggle(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestCheckToggleErrors(t *testing.T) {
	tests := []struct {
		in      string
		is      error
		wantMsg string
	}{
		{"alt+banana", ErrUnknownKey, ""},
		{"", ErrEmpty, ""},
		{"escape", ErrReserved, `"escape" is reserved: esc must keep cancelling the questionnaire`},
		{"esc", ErrReserved, ""},
		{"ctrl+[", ErrReserved, `"ctrl+[" is reserved: ctrl+[ is the same byte as esc on most terminals, and esc must keep cancelling the questionnaire`},
		{"enter", ErrReserved, ""},
		{"return", ErrReserved, ""},
		{"tab", ErrReserved, ""},
		{"shift+tab", ErrReserved, ""},
		{"up", ErrReserved, ""},
		{"down", ErrReserved, ""},
		{"left", ErrReserved, ""},
		{"right", ErrReserved, ""},
		{"space", ErrReserved, ""},
		{"shift+space", ErrReserved, ""},
		{"pageUp", ErrReserved, ""},
		{"pageDown", ErrReserved, ""},
		{"home", ErrReserved, ""},
		{"end", ErrReserved, ""},
		{"backspace", ErrReserved, ""},
		{"delete", ErrReserved, ""},
		{"ctrl+left", ErrReserved, ""},
		{"ctrl+right", ErrReserved, ""},
		{"shift+enter", ErrReserved, `"shift+enter" is reserved: shift+enter is too close to enter, which the questionnaire uses: enter selects and continues, and confirms text inputs`},
		{"ctrl+i", ErrReserved, ""},
		{"ctrl+m", ErrReserved, ""},
		{"o", ErrPrintable, `"o" types text: it would swallow typing in the questionnaire's inputs; add ctrl or alt, as in "alt+o"`},
		{"O", ErrPrintable, ""},
		{"shift+o", ErrPrintable, `"shift+o" types text: it would swallow typing in the questionnaire's inputs; add ctrl or alt, as in "alt+o"`},
		{"1", ErrPrintable, ""},
		{"?", ErrPrintable, `"?" types text: it would swallow typing in the questionnaire's inputs; add ctrl or alt, as in "alt+?"`},
		{"+", ErrPrintable, ""},
		{"shift++", ErrPrintable, `"shift++" types text: it would swallow typing in the questionnaire's inputs; add ctrl or alt, as in "alt++"`},
		{"ctrl+c", ErrConflicting, `"ctrl+c" conflicts with an existing binding: ctrl+c interrupts the program in terminals and in Pi`},
		{"ctrl+d", ErrConflicting, ""},
		{"ctrl+u", ErrConflicting, ""},
		{"ctrl+p", ErrConflicting, ""},
		{"ctrl+n", ErrConflicting, ""},
		{"ctrl+enter", ErrConflicting, ""},
		{"alt+q", ErrConflicting, `"alt+q" conflicts with an existing binding: alt+q cancels the questionnaire's countdown`},
		{"Alt+Q", ErrConflicting, ""},
		{"ctrl+b", ErrConflicting, ""},
		{"ctrl+f", ErrConflicting, ""},
		{"ctrl+a", ErrConflicting, ""},
		{"ctrl+e", ErrConflicting, ""},
		{"ctrl+k", ErrConflicting, ""},
		{"ctrl+w", ErrConflicting, ""},
		{"alt+backspace", ErrConflicting, ""},
		{"alt+shift+o", ErrConflicting, ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := CheckToggle(tt.in)
			if err == nil {
				t.Fatalf("CheckToggle(%q) = %q, want an error", tt.in, got)
			}
			if !errors.Is(err, tt.is) {
				t.Errorf("CheckToggle(%q) error %q does not wrap %q", tt.in, err, tt.is)
			}
			if tt.wantMsg != "" {
				if diff := cmp.Diff(tt.wantMsg, err.Error()); diff != "" {
					t.Errorf("CheckToggle(%q) message (-want +got):\n%s", tt.in, diff)
				}
			}
		})
	}
}

// TestLists checks the tables themselves: every key is canonical, appears
// once, in one list only, and has a reason that names it.
func TestLists(t *testing.T) {
	seen := map[string]string{}
	check := func(list string, rs []Reservation) {
		for _, r := range rs {
			if c, err := ParseKey(r.Key); err != nil || c != r.Key {
				t.Errorf("%s: key %q is not canonical: Parse gives %q, %v", list, r.Key, c, err)
			}
			if prev, dup := seen[r.Key]; dup {
				t.Errorf("%s: key %q is already in %s", list, r.Key, prev)
			}
			seen[r.Key] = list
			if !strings.HasPrefix(r.Reason, r.Key+" ") {
				t.Errorf("%s: reason for %q does not start with the key: %q", list, r.Key, r.Reason)
			}
			if strings.HasSuffix(r.Reason, ".") {
				t.Errorf("%s: reason for %q ends with a period", list, r.Key)
			}
		}
	}
	check("Reserved", Reserved())
	check("Conflicting", Conflicting())
	if _, ok := seen[DefaultToggle]; ok {
		t.Errorf("DefaultToggle %q is in %s", DefaultToggle, seen[DefaultToggle])
	}
	if _, err := CheckToggle(DefaultToggle); err != nil {
		t.Errorf("CheckToggle(DefaultToggle): %v", err)
	}
	// The keys the contract names must be claimed.
	for _, k := range []string{"esc", "enter", "tab", "shift+tab", "up", "down", "left", "right", "space", "pgup", "pgdown", "home", "end", "backspace", "delete", "ctrl+left", "ctrl+right"} {
		if _, ok := IsReserved(k); !ok {
			t.Errorf("IsReserved(%q) = false", k)
		}
	}
	for _, k := range []string{"ctrl+c", "ctrl+d", "ctrl+u", "ctrl+p", "ctrl+n", "ctrl+enter", "alt+q", "ctrl+b", "ctrl+f", "ctrl+a", "ctrl+e", "ctrl+k", "ctrl+w", "alt+backspace"} {
		if _, ok := IsConflicting(k); !ok {
			t.Errorf("IsConflicting(%q) = false", k)
		}
	}
	// Every listed key is refused by CheckToggle.
	for k := range seen {
		if _, err := CheckToggle(k); err == nil {
			t.Errorf("CheckToggle(%q) accepted a listed key", k)
		}
	}
}

func TestListsAreCopies(t *testing.T) {
	r := Reserved()
	r[0].Key = "changed"
	if Reserved()[0].Key == "changed" {
		t.Error("Reserved returned its own slice")
	}
	c := Conflicting()
	c[0].Key = "changed"
	if Conflicting()[0].Key == "changed" {
		t.Error("Conflicting returned its own slice")
	}
}

func BenchmarkParseKey(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseKey("Shift+Ctrl+PageUp"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseKeyCanonical(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseKey("alt+o"); err != nil {
			b.Fatal(err)
		}
	}
}
