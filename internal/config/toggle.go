package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Errors that CheckToggle wraps besides ParseKey's.
var (
	// ErrReserved: the key is one of the questionnaire's own controls, or
	// a terminal sends it as one.
	ErrReserved = errors.New("reserved")
	// ErrPrintable: the key types text, so as a toggle it would swallow
	// typing.
	ErrPrintable = errors.New("types text")
	// ErrConflicting: the chord already means something to the
	// questionnaire's shortcuts, its text inputs, the terminal or Pi.
	ErrConflicting = errors.New("conflicts with an existing binding")
)

// Reservation is a key that the overlay toggle may not use, and why.
type Reservation struct {
	// Key is the chord in canonical form.
	Key string
	// Reason says what the key already does. It names the key, so it
	// reads on its own: "esc must keep cancelling the questionnaire".
	Reason string
}

// reserved holds the questionnaire's own controls, and the keys that
// terminals send the same way as one of them. It is built on first use,
// not at every start of askuser.
var reserved = sync.OnceValue(buildReserved)

func buildReserved() []Reservation {
	controls := []Reservation{
		{"esc", "esc must keep cancelling the questionnaire"},
		{"enter", "enter selects and continues, and confirms text inputs"},
		{"tab", "tab switches to the next question tab"},
		{"shift+tab", "shift+tab switches to the previous question tab"},
		{"up", "up moves focus to the previous control"},
		{"down", "down moves focus to the next control"},
		{"left", "left moves focus, and the text cursor inside inputs"},
		{"right", "right moves focus, and the text cursor inside inputs"},
		{"space", "space selects the focused option and types a space in inputs"},
		{"pgup", "pgup (page up) scrolls long forms and previews"},
		{"pgdown", "pgdown (page down) scrolls long forms and previews"},
		{"home", "home moves the text cursor to the start of an input"},
		{"end", "end moves the text cursor to the end of an input"},
		{"backspace", "backspace deletes the character before the text cursor"},
		{"delete", "delete deletes the character under the text cursor"},
		{"ctrl+left", "ctrl+left switches to the previous question tab"},
		{"ctrl+right", "ctrl+right switches to the next question tab"},
	}
	// Legacy terminals encode these chords as the same byte as a control
	// above, so binding one would hijack that control.
	aliases := []Reservation{
		{"ctrl+[", "ctrl+[ is the same byte as esc on most terminals, and esc must keep cancelling the questionnaire"},
		{"ctrl+3", "ctrl+3 is sent as esc by many terminals, and esc must keep cancelling the questionnaire"},
		{"ctrl+i", "ctrl+i is the same byte as tab on most terminals, and tab switches question tabs"},
		{"ctrl+m", "ctrl+m is the same byte as enter on most terminals, and enter selects and continues"},
		{"ctrl+j", "ctrl+j is a line feed, which many terminals send for enter"},
		{"ctrl+h", "ctrl+h is the byte many terminals send for backspace"},
		{"ctrl+8", "ctrl+8 is sent as backspace by many terminals"},
		{"ctrl+?", "ctrl+? is the byte most terminals send for backspace"},
	}
	all := slices.Concat(controls, aliases)
	// Shift does not make a control safe: many terminals cannot tell
	// shift+enter or shift+space from the plain key, and shift is easily
	// held while typing or moving.
	for _, r := range controls {
		if strings.Contains(r.Key, "+") {
			continue
		}
		if r.Key == "tab" {
			continue // shift+tab is a control of its own
		}
		all = append(all, Reservation{
			Key:    "shift+" + r.Key,
			Reason: fmt.Sprintf("shift+%[1]s is too close to %[1]s, which the questionnaire uses: %[2]s", r.Key, r.Reason),
		})
	}
	return all
}

// conflicting holds chords that something else already means.
var conflicting = []Reservation{
	// The questionnaire's chord shortcuts.
	{"ctrl+enter", "ctrl+enter submits the whole questionnaire"},
	{"alt+q", "alt+q cancels the questionnaire's countdown"},
	// The terminal and Pi.
	{"ctrl+c", "ctrl+c interrupts the program in terminals and in Pi"},
	{"ctrl+d", "ctrl+d deletes the character under the text cursor, and ends input in terminals and Pi"},
	{"ctrl+z", "ctrl+z suspends the program in a terminal"},
	{"ctrl+p", "ctrl+p moves up in emacs-style lists and is bound by Pi"},
	{"ctrl+n", "ctrl+n moves down in emacs-style lists and is bound by Pi"},
	// Text editing in the questionnaire's inputs.
	{"ctrl+a", "ctrl+a moves the text cursor to the start of an input"},
	{"ctrl+e", "ctrl+e moves the text cursor to the end of an input"},
	{"ctrl+b", "ctrl+b moves the text cursor one character left"},
	{"ctrl+f", "ctrl+f moves the text cursor one character right"},
	{"alt+b", "alt+b moves the text cursor one word left"},
	{"alt+f", "alt+f moves the text cursor one word right"},
	{"alt+left", "alt+left moves the text cursor one word left"},
	{"alt+right", "alt+right moves the text cursor one word right"},
	{"ctrl+u", "ctrl+u deletes from the text cursor to the start of an input"},
	{"ctrl+k", "ctrl+k deletes from the text cursor to the end of an input"},
	{"ctrl+w", "ctrl+w deletes the word before the text cursor"},
	{"alt+backspace", "alt+backspace deletes the word before the text cursor"},
	{"ctrl+backspace", "ctrl+backspace deletes the word before the text cursor"},
	{"alt+d", "alt+d deletes the word after the text cursor"},
	{"alt+delete", "alt+delete deletes the word after the text cursor"},
	{"ctrl+delete", "ctrl+delete deletes the word after the text cursor"},
	{"ctrl+y", "ctrl+y pastes the text deleted last"},
	// Escape sequence introducers on legacy terminals.
	{"alt+[", "alt+[ is the start of an escape sequence (ESC [) on legacy terminals"},
	{"alt+shift+o", "alt+shift+o is the start of an escape sequence (ESC O) on legacy terminals"},
}

var (
	reservedByKey    = sync.OnceValue(func() map[string]string { return index(reserved()) })
	conflictingByKey = sync.OnceValue(func() map[string]string { return index(conflicting) })
)

func index(rs []Reservation) map[string]string {
	m := make(map[string]string, len(rs))
	for _, r := range rs {
		m[r.Key] = r.Reason
	}
	return m
}

// Reserved returns the questionnaire's own controls (Esc, Enter, Tab,
// Shift+Tab, the arrows, Space, Page Up/Down, Home/End, Backspace, Delete,
// Ctrl+Left/Right), the chords legacy terminals send as one of them (such
// as ctrl+[ for esc and ctrl+i for tab), and the shift+ form of each plain
// control. The slice is a fresh copy in a fixed order.
func Reserved() []Reservation { return slices.Clone(reserved()) }

// Conflicting returns chords that already mean something: the
// questionnaire's shortcuts (ctrl+enter, alt+q), the text-editing chords of
// its inputs (ctrl+a/e/b/f/u/k/w/y, alt+b/f/d, word deletion), chords the
// terminal or Pi claims (ctrl+c, ctrl+d, ctrl+z, ctrl+p, ctrl+n), and two
// escape-sequence introducers (alt+[, alt+shift+o). No key is in both
// Reserved and Conflicting. The slice is a fresh copy in a fixed order.
func Conflicting() []Reservation { return slices.Clone(conflicting) }

// IsReserved reports whether the canonical chord is reserved, and why.
func IsReserved(canonical string) (reason string, ok bool) {
	reason, ok = reservedByKey()[canonical]
	return reason, ok
}

// IsConflicting reports whether the canonical chord conflicts with an
// existing binding, and why.
func IsConflicting(canonical string) (reason string, ok bool) {
	reason, ok = conflictingByKey()[canonical]
	return reason, ok
}

// CheckToggle validates an overlay show/hide key and returns it in
// canonical form. It rejects, each with its own error and reason:
//
//   - a chord that does not parse (ParseKey's errors);
//   - a reserved key (ErrReserved), so that Esc always keeps cancelling;
//   - a key that types text (ErrPrintable): a letter, digit, symbol or
//     space, alone or with shift only, such as "o", "shift+o", "1" or "?";
//   - a conflicting chord (ErrConflicting).
//
// It never substitutes another key. The disable words of the config file
// ("off", "none", "disabled") are not chords and are the caller's business.
func CheckToggle(spec string) (string, error) {
	key, err := ParseKey(spec)
	if err != nil {
		return "", err
	}
	if reason, ok := IsReserved(key); ok {
		return "", fmt.Errorf("%q is %w: %s", spec, ErrReserved, reason)
	}
	if isPrintable(key) {
		base := key[strings.LastIndexByte(key[:len(key)-1], '+')+1:]
		return "", fmt.Errorf(`%q %w: it would swallow typing in the questionnaire's inputs; add ctrl or alt, as in "alt+%s"`, spec, ErrPrintable, base)
	}
	if reason, ok := IsConflicting(key); ok {
		return "", fmt.Errorf("%q %w: %s", spec, ErrConflicting, reason)
	}
	return key, nil
}

// isPrintable reports whether a canonical chord types a character: a
// single-character base key, or space, with no modifier but shift.
func isPrintable(key string) bool {
	base := key
	switch {
	case strings.HasPrefix(key, "shift+"):
		base = key[len("shift+"):]
	case strings.Contains(key[:len(key)-1], "+"):
		return false
	}
	return len(base) == 1 || base == "space"
}
