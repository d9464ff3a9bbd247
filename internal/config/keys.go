// Key chords: ParseKey reads chords such as "alt+o" or "ctrl+shift+tab" and
// writes them in one canonical form, so that keys from a terminal, from Pi
// and from a config file compare equal.
//
// The canonical form is bubbletea's Keystroke: modifiers in the order ctrl,
// alt, shift, meta, hyper, super, then a lowercase base name such as "a",
// "enter", "esc", "space", "pgup" or "f5".
//
// The accepted grammar is Pi's KeyId plus bubbletea's own names:
//
//   - modifiers: ctrl, alt, shift, super (Pi) and meta, hyper (bubbletea),
//     each at most once, in any order, joined to the key with "+";
//   - base keys: a letter a-z, a digit 0-9, one of the symbols
//     ` - = [ ] \ ; ' , . / ! @ # $ % ^ & * ( ) _ + | ~ { } : < > ?,
//     or a named key: escape or esc, enter or return, tab, space,
//     backspace, delete, insert, clear (bubbletea's begin), home, end,
//     pageUp or pgup, pageDown or pgdown, up, down, left, right, f1 to f12.
//
// Names are case-insensitive, so "Alt+O", "PageUp" and "CTRL+ESC" are
// accepted. A letter's case carries no meaning: "A" is the key a, and a
// chord that needs shift says so ("shift+a"). Only ASCII letters are
// folded. Function keys stop at f12 because Pi's grammar does, so that a
// chord valid in one host is valid in all of them. The plus key is written
// "+" alone or last after a "+", as in "ctrl++".
//
// This file and toggle.go also own the keys the questionnaire dialog claims (Reserved
// and Conflicting) and the check that an overlay toggle key avoids them
// (CheckToggle).

package config

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/askuser/askuser/internal/safetext"
)

// DefaultToggle is the overlay show/hide chord when none is configured.
const DefaultToggle = "alt+o"

// Errors that ParseKey wraps, so that callers can tell them apart with
// errors.Is. The wrapping error says where the problem is and what is
// allowed.
var (
	ErrEmpty             = errors.New("empty key")
	ErrWhitespace        = errors.New("whitespace in key")
	ErrDanglingPlus      = errors.New(`dangling "+"`)
	ErrUnknownModifier   = errors.New("unknown modifier")
	ErrDuplicateModifier = errors.New("duplicate modifier")
	ErrUnknownKey        = errors.New("unknown key")
)

// modifier bits, in canonical order.
const (
	modCtrl = 1 << iota
	modAlt
	modShift
	modMeta
	modHyper
	modSuper
)

// canonicalMods lists the modifiers in the order Keystroke writes them.
var canonicalMods = [...]struct {
	bit  int
	name string
}{
	{modCtrl, "ctrl"},
	{modAlt, "alt"},
	{modShift, "shift"},
	{modMeta, "meta"},
	{modHyper, "hyper"},
	{modSuper, "super"},
}

// symbols are Pi's symbol keys. The double quote is not among them.
const symbols = "`-=[]\\;',./!@#$%^&*()_+|~{}:<>?"

// named maps every lowercase accepted name of a non-character key to its
// canonical name.
var named = map[string]string{
	"escape":    "esc",
	"esc":       "esc",
	"enter":     "enter",
	"return":    "enter",
	"tab":       "tab",
	"space":     "space",
	"backspace": "backspace",
	"delete":    "delete",
	"insert":    "insert",
	"clear":     "begin",
	"begin":     "begin",
	"home":      "home",
	"end":       "end",
	"pageup":    "pgup",
	"pgup":      "pgup",
	"pagedown":  "pgdown",
	"pgdown":    "pgdown",
	"up":        "up",
	"down":      "down",
	"left":      "left",
	"right":     "right",
	"f1":        "f1",
	"f2":        "f2",
	"f3":        "f3",
	"f4":        "f4",
	"f5":        "f5",
	"f6":        "f6",
	"f7":        "f7",
	"f8":        "f8",
	"f9":        "f9",
	"f10":       "f10",
	"f11":       "f11",
	"f12":       "f12",
}

const allowedKeys = "a letter a-z, a digit 0-9, a symbol such as - = [ ] ; ' , . /, " +
	"or one of esc, enter, tab, space, backspace, delete, insert, clear, home, end, " +
	"pageUp, pageDown, up, down, left, right, f1-f12"

const allowedMods = "ctrl, alt, shift, super, meta or hyper"

// Parse reads a chord and returns it in canonical form, or an error that
// wraps one of the Err values above and says what is wrong with s.
//
// Parse of a canonical chord returns it unchanged. Parse accepts any key
// the grammar allows; it does not judge whether a key makes a good
// binding (see CheckToggle).
func ParseKey(s string) (string, error) {
	if s == "" {
		return "", fmt.Errorf(`%w: write a chord such as "alt+o"`, ErrEmpty)
	}
	if strings.ContainsFunc(s, unicode.IsSpace) {
		return "", fmt.Errorf(`%w %q: write chords without spaces, as in "alt+o", and the space bar as "space"`, ErrWhitespace, s)
	}
	base, modPart, err := split(s)
	if err != nil {
		return "", err
	}
	mods := 0
	if modPart != "" {
		for name := range strings.SplitSeq(modPart, "+") {
			if name == "" {
				return "", danglingPlus(s)
			}
			bit, ok := modifierBit(name)
			if !ok {
				if _, isKey := baseName(name); isKey {
					return "", fmt.Errorf(`%w %q in %q: only the last name of a chord is a key, and the names before it are modifiers (%s)`, ErrUnknownModifier, name, s, allowedMods)
				}
				return "", fmt.Errorf("%w %q in %q: want %s", ErrUnknownModifier, name, s, allowedMods)
			}
			if mods&bit != 0 {
				return "", fmt.Errorf("%w %q in %q: name each modifier once", ErrDuplicateModifier, lowerASCII(name), s)
			}
			mods |= bit
		}
	}
	key, ok := baseName(base)
	if !ok {
		if _, isMod := modifierBit(base); isMod {
			return "", fmt.Errorf(`%w %q in %q: %q is a modifier; end the chord with a key, as in "alt+o"`, ErrUnknownKey, base, s, lowerASCII(base))
		}
		return "", fmt.Errorf("%w %q in %q: want %s", ErrUnknownKey, base, s, allowedKeys)
	}
	// Build in a stack buffer, and return s itself when it was already
	// canonical, so that the common case does not allocate.
	var buf [64]byte
	out := buf[:0]
	for _, m := range canonicalMods {
		if mods&m.bit != 0 {
			out = append(out, m.name...)
			out = append(out, '+')
		}
	}
	out = append(out, key...)
	if string(out) == s {
		return s, nil
	}
	return string(out), nil
}

// split separates the base key from the modifiers before it. The plus key
// makes this more than a cut at the last "+": "+" alone and a trailing
// "++" name it.
func split(s string) (base, modPart string, err error) {
	switch {
	case s == "+":
		return "+", "", nil
	case strings.HasSuffix(s, "++"):
		if len(s) == 2 {
			return "", "", danglingPlus(s)
		}
		return "+", s[:len(s)-2], nil
	}
	i := strings.LastIndexByte(s, '+')
	if i < 0 {
		return s, "", nil
	}
	if i == 0 || i == len(s)-1 {
		return "", "", danglingPlus(s)
	}
	return s[i+1:], s[:i], nil
}

func danglingPlus(s string) error {
	return fmt.Errorf(`%w in %q: each "+" joins a modifier to the next name, as in "ctrl+alt+o"; the plus key itself is "+" or "ctrl++"`, ErrDanglingPlus, s)
}

// modifierBit returns the bit of a modifier name, in any ASCII case.
func modifierBit(name string) (int, bool) {
	for _, m := range canonicalMods {
		if safetext.EqualFold(name, m.name) {
			return m.bit, true
		}
	}
	return 0, false
}

// baseName returns the canonical name of a base key, in any ASCII case.
func baseName(s string) (string, bool) {
	if len(s) == 1 {
		c := s[0]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			return s, true
		case c >= 'A' && c <= 'Z':
			return string(rune(c + 'a' - 'A')), true
		case strings.IndexByte(symbols, c) >= 0:
			return s, true
		}
		return "", false
	}
	var buf [len("backspace")]byte
	if len(s) > len(buf) {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	k, ok := named[string(buf[:len(s)])]
	return k, ok
}

// lowerASCII folds ASCII letters only, so that no exotic character (such
// as the Kelvin sign, which Unicode lowers to "k") turns into a key name.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
