package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/askuser/askuser/internal/safetext"
	"github.com/askuser/askuser/internal/strictjson"
	"github.com/askuser/askuser/prefs"

	"github.com/askuser/askuser/contract"
)

// The keys of a config file, in the order problems about missing
// knowledge list them.
const (
	keyMode        = "mode"
	keyDisplayMode = "displayMode"
	keyToggle      = "overlayToggleKey"
	keyTimeout     = "timeoutPerQuestionMs"
	keyTool        = "tool"
	keyHub         = "hub"
)

var knownKeys = []string{keyMode, keyDisplayMode, keyToggle, keyTimeout, keyTool, keyNotify, keyHub}

// disableWords turn the overlay toggle off. They are matched in any
// ASCII case, like key names.
var disableWords = []string{"off", "none", "disabled"}

// Parse decodes a user config file strictly. file names the source in
// errors.
//
// Empty data, or data that is only white space (Unicode's, so a
// non-breaking or ideographic space counts too), means no preferences: zero Prefs and no error. Otherwise data must be
// one JSON object in valid UTF-8, without a byte order mark, holding only
// the keys mode, displayMode, overlayToggleKey, timeoutPerQuestionMs, tool,
// notify and hub, each at most once and spelled exactly, each with a valid value. Parse
// reports every problem it finds in one *Error, each with the key and
// its line and column; a JSON syntax error is reported alone, since
// nothing after it can be trusted. overlayToggleKey null, "off", "none"
// or "disabled" disables the toggle (Prefs.ToggleKey points to "").
func Parse(file string, data []byte) (prefs.Prefs, error) {
	p := parser{file: file, data: data}
	return p.parse()
}

// ParseOptions decodes programmatic options sent as JSON, such as the
// options the Pi extension passes to registerAskUser. They have the
// config file's keys and rules; errors name the source OptionsSource.
func ParseOptions(data []byte) (prefs.Prefs, error) {
	return Parse(OptionsSource, data)
}

type parser struct {
	file     string
	data     []byte
	problems []contract.Problem
}

func (p *parser) add(path string, off int64, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if off >= 0 {
		msg += " (" + position(p.data, off) + ")"
	}
	p.problems = append(p.problems, contract.Problem{Path: path, Message: msg})
}

func (p *parser) fail() error {
	return &Error{File: p.file, Problems: p.problems}
}

func (p *parser) parse() (prefs.Prefs, error) {
	data := p.data
	if len(bytes.TrimFunc(data, unicode.IsSpace)) == 0 && utf8.Valid(data) {
		return prefs.Prefs{}, nil
	}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		p.add("", -1, "byte order mark at the start; save as UTF-8 without one")
		return prefs.Prefs{}, p.fail()
	}
	if !utf8.Valid(data) {
		off := invalidUTF8At(data)
		p.add("", int64(off), "not valid UTF-8")
		return prefs.Prefs{}, p.fail()
	}
	// Check the syntax of the whole input first: json.Unmarshal reports
	// the absolute offset of a syntax error, and afterwards the token
	// walk below cannot fail halfway.
	var whole json.RawMessage
	if err := json.Unmarshal(data, &whole); err != nil {
		p.syntaxError(err)
		return prefs.Prefs{}, p.fail()
	}

	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	start := skipSpace(data, 0)
	tok, err := dec.Token()
	if err != nil {
		return prefs.Prefs{}, fmt.Errorf("config: re-reading valid JSON: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		p.add("", start, "the config must be a JSON object such as {\"overlayToggleKey\": \"alt+o\"}, not %s", describe(data[start:]))
		return prefs.Prefs{}, p.fail()
	}

	var got prefs.Prefs
	seen := map[string]int64{}
	for dec.More() {
		keyOff := skipSpace(data, dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return prefs.Prefs{}, fmt.Errorf("config: re-reading valid JSON: %w", err)
		}
		key := tok.(string)
		valOff := skipSpace(data, dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return prefs.Prefs{}, fmt.Errorf("config: re-reading valid JSON: %w", err)
		}
		if first, dup := seen[key]; dup {
			p.add(key, keyOff, "duplicate key; it is first set at %s", position(data, first))
			continue
		}
		seen[key] = keyOff
		switch key {
		case keyMode:
			if s, ok := p.enum(key, valOff, raw, `"custom" or "native"`, "omit mode to let askuser choose the route", string(contract.RouteCustom), string(contract.RouteNative)); ok {
				got.Mode = contract.Route(s)
			}
		case keyDisplayMode:
			if s, ok := p.enum(key, valOff, raw, `"overlay" or "inline"`, "omit displayMode for the default, overlay", string(contract.DisplayOverlay), string(contract.DisplayInline)); ok {
				got.DisplayMode = contract.DisplayMode(s)
			}
		case keyToggle:
			if k, ok := p.toggle(valOff, raw); ok {
				got.ToggleKey = &k
			}
		case keyTimeout:
			if n, ok := p.timeout(valOff, raw); ok {
				got.TimeoutPerQuestionMs = &n
			}
		case keyTool:
			if s, ok := p.enum(key, valOff, raw, toolWant, "omit tool for the default, ask_user", prefs.ToolAskUser, prefs.ToolAskUserQuestion); ok {
				got.Tool = s
			}
		case keyHub:
			if raw[0] == '{' {
				if r, ok := p.hubRemote(valOff, raw); ok {
					got.Hub, got.HubRemote = prefs.HubAuto, &r
				}
			} else if s, ok := p.enum(key, valOff, raw, hubWant, "omit hub for the default, auto", prefs.HubAuto, prefs.HubOff); ok {
				got.Hub = s
			}
		case keyNotify:
			if n, ok := p.notify(valOff, raw); ok {
				got.Notify = n
			}
		default:
			p.unknownKey(key, keyOff)
		}
	}
	if len(p.problems) > 0 {
		return prefs.Prefs{}, p.fail()
	}
	return got, nil
}

func (p *parser) syntaxError(err error) {
	se, ok := errors.AsType[*json.SyntaxError](err)
	if !ok {
		p.add("", -1, "invalid JSON: %v", err)
		return
	}
	msg := strings.TrimPrefix(se.Error(), "json: ")
	// Offset counts the bytes read, including the offending one.
	off := max(se.Offset-1, 0)
	switch {
	case se.Offset >= int64(len(p.data)) && strings.Contains(msg, "unexpected end"):
		p.add("", int64(len(p.data)), "invalid JSON: unexpected end of input; a string, array or object is not closed")
		return
	case strings.Contains(msg, "after top-level value"):
		p.add("", off, "invalid JSON: unexpected data after the config object")
		return
	}
	hint := ""
	switch c := p.data[off]; {
	case c == '/' || c == '#':
		hint = "; JSON has no comments"
	case c == '\'':
		hint = "; JSON strings use double quotes"
	case c == '}' || c == ']':
		if prev := lastNonSpace(p.data[:off]); prev == ',' {
			hint = "; JSON allows no comma after the last item"
		}
	}
	p.add("", off, "invalid JSON: %s%s", msg, hint)
}

// enum checks a string value against its allowed values.
func (p *parser) enum(key string, off int64, raw json.RawMessage, want, nullHint string, allowed ...string) (string, bool) {
	switch raw[0] {
	case '"':
	case 'n':
		p.add(key, off, "must be %s, got null; %s", want, nullHint)
		return "", false
	default:
		p.add(key, off, "must be %s, got %s", want, describe(raw))
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		p.add(key, off, "must be %s: %v", want, err)
		return "", false
	}
	for _, a := range allowed {
		if s == a {
			return s, true
		}
	}
	p.add(key, off, "must be %s, got %s", want, quote(s))
	return "", false
}

const toolWant = `"ask_user" or "AskUserQuestion"`

const toggleWant = `a key chord such as "alt+o", or null, "off", "none" or "disabled" to turn the toggle off`

func (p *parser) toggle(off int64, raw json.RawMessage) (string, bool) {
	switch raw[0] {
	case 'n':
		return "", true
	case '"':
	default:
		p.add(keyToggle, off, "must be %s; got %s", toggleWant, describe(raw))
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		p.add(keyToggle, off, "must be %s: %v", toggleWant, err)
		return "", false
	}
	k, err := ParseToggle(s)
	if err != nil {
		p.add(keyToggle, off, "%v", err)
		return "", false
	}
	return k, true
}

func (p *parser) timeout(off int64, raw json.RawMessage) (int64, bool) {
	c := raw[0]
	if c != '-' && (c < '0' || c > '9') {
		hint := ""
		if c == '"' {
			var s string
			if json.Unmarshal(raw, &s) == nil && json.Valid([]byte(s)) && len(s) > 0 && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
				hint = "; write the number without quotes"
			}
		}
		p.add(keyTimeout, off, "must be a number of milliseconds (0 for no deadline), got %s%s", describe(raw), hint)
		return 0, false
	}
	n, problem := strictjson.WholeMillis(string(raw), MaxTimeoutPerQuestionMs)
	if problem != "" {
		p.add(keyTimeout, off, "%s", problem)
		return 0, false
	}
	return n, true
}

func (p *parser) unknownKey(key string, off int64) {
	for _, k := range knownKeys {
		if strings.EqualFold(key, k) {
			p.add(pathOf(key), off, "unknown key; keys are case-sensitive: write %q", k)
			return
		}
	}
	p.add(pathOf(key), off, "unknown key; the config keys are mode, displayMode, overlayToggleKey, timeoutPerQuestionMs, tool, notify and hub")
}

// ParseToggle reads an overlay toggle setting: one of the disable words
// "off", "none" or "disabled" (in any ASCII case) gives "", and anything
// else must pass CheckToggle and gives its canonical chord. An empty
// spec is an error: the file way to disable the toggle is a disable word
// or null.
func ParseToggle(spec string) (string, error) {
	if spec == "" {
		return "", errors.New(`must not be empty: write a chord such as "alt+o", or "off" to turn the toggle off`)
	}
	for _, w := range disableWords {
		if safetext.EqualFold(spec, w) {
			return "", nil
		}
	}
	return CheckToggle(spec)
}

// pathOf is the Problem path of a top-level key.
func pathOf(key string) string { return strictjson.MemberPath("", key) }

// describe names the JSON type of the value that starts data, for
// "got ..." in messages. Strings are quoted and shortened.
func describe(data []byte) string {
	if len(data) == 0 {
		return "nothing"
	}
	switch data[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '"':
		var s string
		if json.NewDecoder(bytes.NewReader(data)).Decode(&s) == nil {
			return "the string " + quote(s)
		}
		return "a string"
	}
	return "a number"
}

// quote writes untrusted text for a message: Go-quoted, so control
// characters are escaped, and shortened to 40 characters.
func quote(s string) string {
	const limit = 40
	if utf8.RuneCountInString(s) > limit {
		r := []rune(s)
		return fmt.Sprintf("%q…", string(r[:limit]))
	}
	return fmt.Sprintf("%q", s)
}

// position describes a byte offset as "line L, column C", both counted
// from 1 and columns in characters.
func position(data []byte, off int64) string {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	col := utf8.RuneCount(before[lineStart:]) + 1
	return fmt.Sprintf("line %d, column %d", line, col)
}

// skipSpace returns the offset of the first byte at or after off that is
// not JSON whitespace or a separator.
func skipSpace(data []byte, off int64) int64 {
	for off < int64(len(data)) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

func lastNonSpace(data []byte) byte {
	for i := len(data) - 1; i >= 0; i-- {
		switch data[i] {
		case ' ', '\t', '\r', '\n':
		default:
			return data[i]
		}
	}
	return 0
}

func invalidUTF8At(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(data)
}
