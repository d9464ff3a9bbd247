package config

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/prefs"
)

// MaxCommandArgs and MaxCommandArgLen bound the notify command: a
// program and its arguments, each at most MaxCommandArgLen bytes.
const (
	MaxCommandArgs   = 64
	MaxCommandArgLen = 4096
)

// The members of the notify object.
const (
	keyNotify  = "notify"
	keyBell    = "bell"
	keyDesktop = "desktop"
	keyTitle   = "title"
	keyCommand = "command"
)

var notifyKeys = []string{keyBell, keyDesktop, keyTitle, keyCommand}

// defaultNotify is what NotifyPrefs holds when no source sets anything.
func defaultNotify() prefs.NotifyPrefs {
	return prefs.NotifyPrefs{Bell: true, Title: true, Desktop: prefs.DesktopAuto}
}

// mergeNotify applies to n the knobs src sets.
func mergeNotify(n *prefs.NotifyPrefs, src prefs.Notify) {
	if src.Bell != nil {
		n.Bell = *src.Bell
	}
	if src.Title != nil {
		n.Title = *src.Title
	}
	if src.Desktop != "" {
		n.Desktop = src.Desktop
	}
	if src.Command != nil {
		n.Command = nil
		if len(src.Command) > 0 {
			n.Command = append([]string{}, src.Command...)
		}
	}
}

// checkNotify reports every problem of a Notify built in Go.
func checkNotify(n prefs.Notify, add func(path, format string, args ...any)) {
	switch n.Desktop {
	case "", prefs.DesktopOn, prefs.DesktopOff, prefs.DesktopOSC9, prefs.DesktopOSC777, prefs.DesktopOSC99:
	default:
		add(keyNotify+"."+keyDesktop, "must be %s, got %s", desktopWant, quote(n.Desktop))
	}
	for _, p := range commandProblems(n.Command) {
		add(p.path, "%s", p.msg)
	}
}

const desktopWant = `true, false, "osc9", "osc777" or "osc99"`

type pathMsg struct{ path, msg string }

// commandProblems checks a command's length and each argument.
func commandProblems(cmd []string) []pathMsg {
	var out []pathMsg
	path := keyNotify + "." + keyCommand
	if len(cmd) > MaxCommandArgs {
		out = append(out, pathMsg{path, fmt.Sprintf("has %d items; a command has at most %d", len(cmd), MaxCommandArgs)})
		return out
	}
	for i, a := range cmd {
		p := fmt.Sprintf("%s[%d]", path, i)
		switch {
		case i == 0 && a == "":
			out = append(out, pathMsg{p, "the program must not be empty"})
		case len(a) > MaxCommandArgLen:
			out = append(out, pathMsg{p, fmt.Sprintf("is %d bytes long; an argument has at most %d", len(a), MaxCommandArgLen)})
		case strings.IndexByte(a, 0) >= 0:
			out = append(out, pathMsg{p, "must not contain a NUL character"})
		case !utf8.ValidString(a):
			out = append(out, pathMsg{p, "is not valid UTF-8"})
		}
	}
	return out
}

// notify reads the notify object of a config file.
func (p *parser) notify(off int64, raw json.RawMessage) (prefs.Notify, bool) {
	var n prefs.Notify
	if raw[0] != '{' {
		p.add(keyNotify, off, `must be an object such as {"bell": true, "desktop": false}, got %s`, describe(raw))
		return n, false
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		p.add(keyNotify, off, "must be an object: %v", err)
		return n, false
	}
	before := len(p.problems)
	for _, m := range p.fields(keyNotify, off, raw) {
		path, at, v := m.path, m.at, m.raw
		switch m.key {
		case keyBell, keyTitle:
			b, ok := p.boolean(path, at, v)
			if !ok {
				continue
			}
			if m.key == keyBell {
				n.Bell = &b
			} else {
				n.Title = &b
			}
		case keyDesktop:
			switch v[0] {
			case 't':
				n.Desktop = prefs.DesktopOn
			case 'f':
				n.Desktop = prefs.DesktopOff
			case '"':
				var s string
				_ = json.Unmarshal(v, &s)
				switch s {
				case prefs.DesktopOSC9, prefs.DesktopOSC777, prefs.DesktopOSC99:
					n.Desktop = s
				default:
					p.add(path, at, "must be %s, got %s", desktopWant, quote(s))
				}
			default:
				p.add(path, at, "must be %s, got %s", desktopWant, describe(v))
			}
		case keyCommand:
			switch v[0] {
			case 'n':
				n.Command = []string{}
			case '[':
				var cmd []json.RawMessage
				_ = json.Unmarshal(v, &cmd)
				if len(cmd) == 0 {
					p.add(path, at, `must name a program, as in ["notify-send", "askuser"]; write null for no command`)
					continue
				}
				args := make([]string, 0, len(cmd))
				bad := false
				for i, a := range cmd {
					// encoding/json would make an unpaired surrogate
					// escape U+FFFD: the command would run with a
					// character nobody wrote.
					s, ok := p.text(fmt.Sprintf("%s[%d]", path, i), at, a)
					if !ok {
						bad = true
						continue
					}
					args = append(args, s)
				}
				if bad {
					continue
				}
				if probs := commandProblems(args); probs != nil {
					for _, pr := range probs {
						p.add(pr.path, at, "%s", pr.msg)
					}
					continue
				}
				n.Command = args
			default:
				p.add(path, at, `must be an array of strings, a program and its arguments, or null; got %s`, describe(v))
			}
		default:
			p.unknownIn(keyNotify, notifyKeys, m.key, at)
		}
	}
	return n, len(p.problems) == before
}

// boolean reads true or false.
func (p *parser) boolean(path string, off int64, raw json.RawMessage) (bool, bool) {
	switch raw[0] {
	case 't':
		return true, true
	case 'f':
		return false, true
	}
	p.add(path, off, "must be true or false, got %s", describe(raw))
	return false, false
}

// unknownIn reports an unknown member of the object at parent.
func (p *parser) unknownIn(parent string, known []string, key string, off int64) {
	path := parent + "." + key
	for _, k := range known {
		if strings.EqualFold(key, k) {
			p.add(path, off, "unknown key; keys are case-sensitive: write %q", k)
			return
		}
	}
	p.add(path, off, "unknown key; the keys of %s are %s", parent, strings.Join(known, ", "))
}

// field is one member of an object in a config file: its key, its path,
// the offset of its key in the file and its raw value.
type field struct {
	key, path string
	at        int64
	raw       json.RawMessage
}

// fields lists the members of the object raw, the value of the member
// parent at offset off, in document order; a duplicate member is
// reported and left out. Problems thus come in the order of the text.
func (p *parser) fields(parent string, off int64, raw json.RawMessage) []field {
	var out []field
	seen := map[string]bool{}
	sub := parser{file: p.file, data: raw}
	for _, m := range sub.members() {
		f := field{key: m.key, path: parent + "." + m.key, at: off + m.off, raw: m.raw}
		if seen[m.key] {
			p.add(f.path, f.at, "duplicate key")
			continue
		}
		seen[m.key] = true
		out = append(out, f)
	}
	return out
}

// member is one member of a JSON object: its key, the offset of the key
// and its raw value.
type member struct {
	key string
	off int64
	raw json.RawMessage
}

// members lists the members of the object p.data holds, which must be
// valid JSON, in document order with duplicates.
func (p *parser) members() []member {
	dec := json.NewDecoder(strings.NewReader(string(p.data)))
	if _, err := dec.Token(); err != nil {
		return nil
	}
	var out []member
	for dec.More() {
		keyOff := skipSpace(p.data, dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return out
		}
		out = append(out, member{key: tok.(string), off: keyOff, raw: raw})
	}
	return out
}
