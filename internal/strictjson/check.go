// Check, for JSON that encoding/json has accepted: it keeps the last of
// duplicate keys and turns invalid UTF-8 and unpaired surrogate escapes
// into U+FFFD, so Check finds these in a line of JSON and says where.
// Members and StringProblem apply the same rules to the members of one
// object and to one string, and Depth measures nesting.

package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"
)

// CheckOptions tune Check. The zero value checks everything, up to
// MaxDepth levels deep.
type CheckOptions struct {
	// Skip names top-level members that are left unchecked, because the
	// parser that reads them is as strict and says where the problem is.
	Skip []string
	// MaxDepth bounds the nesting Check walks; 0 means the package's
	// MaxDepth. A deeper value is refused.
	MaxDepth int
}

// Check refuses data when it is not valid UTF-8 or not valid JSON, or
// holds a duplicate key or an unpaired surrogate escape in a value it
// checks, or nests deeper than opts allow. A nil opts means the zero CheckOptions.
//
// Most data is clean: the Scanner reads it in one pass, without
// allocating (fastCheck). Only what that pass refuses is walked again, to
// apply opts.Skip and say where the problem is.
func Check(data []byte, opts *CheckOptions) error {
	if opts == nil {
		opts = &CheckOptions{}
	}
	depth := opts.MaxDepth
	if depth <= 0 {
		depth = MaxDepth
	}
	if fastCheck(data, depth) {
		return nil
	}
	return checkWalk(data, opts.Skip, depth)
}

// checkWalk is Check after the fast pass has refused data: it finds the
// first problem outside the members skip names, at depth at most max.
func checkWalk(data []byte, skip []string, max int) error {
	if err := checkUTF8(data); err != nil {
		return err
	}
	if !json.Valid(data) {
		// The walk below relies on it.
		return errors.New("not valid JSON")
	}
	_, err := (&checker{skip: skip, max: max}).value(data, "", 0)
	return err
}

type checker struct {
	skip []string
	max  int
}

// names are the member names of one object met so far: a list while it
// is short, a set once it is long, so that an object of many names costs
// time in proportion to their count, not its square.
type names struct {
	list []string
	set  map[string]struct{}
}

// add adds name and reports whether it was there already.
func (n *names) add(name string) bool {
	if n.set != nil {
		if _, ok := n.set[name]; ok {
			return true
		}
		n.set[name] = struct{}{}
		return false
	}
	if slices.Contains(n.list, name) {
		return true
	}
	n.list = append(n.list, name)
	if len(n.list) > fastNames {
		n.set = make(map[string]struct{}, 2*len(n.list))
		for _, m := range n.list {
			n.set[m] = struct{}{}
		}
		n.list = nil
	}
	return false
}

// checkUTF8 refuses data that is not UTF-8.
func checkUTF8(line []byte) error {
	if utf8.Valid(line) {
		return nil
	}
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRune(line[i:])
		if r == utf8.RuneError && n == 1 {
			return fmt.Errorf("not valid UTF-8 at byte %d", i)
		}
		i += n
	}
	return nil
}

// value checks the JSON value at the start of raw, which is valid JSON,
// and returns the rest of raw after it. It scans the bytes itself: going
// through encoding/json again would cost a decoder and allocations per
// value on every line.
func (c *checker) value(raw []byte, path string, depth int) ([]byte, error) {
	raw = skipSpace(raw)
	if len(raw) == 0 {
		return raw, nil
	}
	switch raw[0] {
	case '"':
		n := stringEnd(raw)
		if i := unpairedSurrogate(raw[:n]); i >= 0 {
			return nil, fmt.Errorf("%s: an unpaired surrogate escape at byte %d of the string; send text as UTF-8", where(path), i)
		}
		return raw[n:], nil
	case '{', '[':
	default:
		return skipValue(raw), nil
	}
	if depth >= c.max {
		return nil, fmt.Errorf("%s: nested deeper than %d levels", where(path), c.max)
	}
	obj := raw[0] == '{'
	raw = skipSpace(raw[1:])
	var seen names
	for i := 0; len(raw) > 0 && raw[0] != '}' && raw[0] != ']'; i++ {
		sub := ""
		if obj {
			n := stringEnd(raw)
			key, err := memberName(raw[:n])
			if err != nil {
				return nil, err
			}
			if seen.add(key) {
				return nil, fmt.Errorf("%s: duplicate key %q", where(path), key)
			}
			// Past the colon and the white space after it: the value,
			// checked or skipped, starts at raw[0].
			raw = skipSpace(skipSpace(raw[n:])[1:])
			sub = key
			if path != "" {
				sub = path + "." + key
			}
		} else {
			sub = path + "[" + strconv.Itoa(i) + "]"
		}
		var err error
		if depth == 0 && obj && slices.Contains(c.skip, sub) {
			raw = skipValue(raw)
		} else {
			raw, err = c.value(raw, sub, depth+1)
		}
		if err != nil {
			return nil, err
		}
		raw = skipSpace(raw)
		if len(raw) > 0 && raw[0] == ',' {
			raw = skipSpace(raw[1:])
		}
	}
	if len(raw) > 0 {
		raw = raw[1:]
	}
	return raw, nil
}

// memberName returns the text of the JSON string lit, a member name, as
// encoding/json reads it; lit is taken as it is when it holds no escape
// and is UTF-8, the usual case.
func memberName(lit []byte) (string, error) {
	if bytes.IndexByte(lit, '\\') < 0 && utf8.Valid(lit) {
		return string(lit[1 : len(lit)-1]), nil
	}
	var name string
	err := json.Unmarshal(lit, &name)
	return name, err
}

// Members returns the members of obj, a valid JSON object, by name, each
// value as its JSON text without the white space around it, sharing
// memory with obj. It fails on a name not in known or given twice. Names
// are compared exactly, after unescaping them as encoding/json does; a
// name that is not UTF-8 is unknown, and is named in the error with
// U+FFFD in place of its bad bytes.
func Members(obj []byte, known ...string) (map[string]json.RawMessage, error) {
	raw := skipSpace(obj)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, errors.New("is not a JSON object")
	}
	raw = skipSpace(raw[1:])
	m := map[string]json.RawMessage{}
	for len(raw) > 0 && raw[0] != '}' {
		n := stringEnd(raw)
		key, err := memberName(raw[:n])
		if err != nil {
			return nil, err
		}
		raw = skipSpace(skipSpace(raw[n:])[1:])
		rest := skipValue(raw)
		v := raw[:len(raw)-len(rest)]
		if !slices.Contains(known, key) {
			return nil, fmt.Errorf("has the unknown key %s", strconv.QuoteToASCII(key))
		}
		if _, dup := m[key]; dup {
			return nil, fmt.Errorf("has the key %s twice", strconv.QuoteToASCII(key))
		}
		m[key] = v
		raw = skipSpace(rest)
		if len(raw) > 0 && raw[0] == ',' {
			raw = skipSpace(raw[1:])
		}
	}
	return m, nil
}

// StringProblem says what is wrong with lit, a valid JSON string literal,
// that encoding/json would read as other text: invalid UTF-8 or an
// unpaired surrogate escape, which it replaces with U+FFFD. It returns ""
// for a good string.
func StringProblem(lit []byte) string {
	switch {
	case !utf8.Valid(lit):
		return "is not valid UTF-8"
	case unpairedSurrogate(lit) >= 0:
		return "holds an unpaired surrogate escape"
	}
	return ""
}

// Depth returns how deep objects and arrays nest in data, a valid JSON
// text: 0 for a scalar, 1 for {} or [].
func Depth(data []byte) int {
	var d, deepest int
	inString, escaped := false, false
	for _, b := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			d++
			deepest = max(deepest, d)
		case '}', ']':
			d--
		}
	}
	return deepest
}

// skipValue returns what follows the valid JSON value at the start of b,
// which must not start with white space: a scalar ends at the first.
func skipValue(b []byte) []byte {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i += stringEnd(b[i:]) - 1
			if depth == 0 {
				return b[i+1:]
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return b[i:] // a scalar ended by its container
			}
			depth--
			if depth == 0 {
				return b[i+1:]
			}
		case ',', ' ', '\t', '\r', '\n':
			if depth == 0 {
				return b[i:]
			}
		}
	}
	return nil
}

func skipSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	return b
}

// stringEnd returns the length of the JSON string at the start of b,
// quotes included.
func stringEnd(b []byte) int {
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

func where(path string) string {
	if path == "" {
		return "message"
	}
	return strconv.Quote(path)
}

// unpairedSurrogate returns the offset in the JSON string s of the first
// \u escape of a surrogate that is not half of a pair, or -1.
func unpairedSurrogate(s []byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		i++
		if i >= len(s) || s[i] != 'u' {
			continue // an escaped quote or backslash, skipped whole
		}
		r, ok := hex4(s, i+1)
		if !ok {
			return -1 // not valid JSON: the decoder has said so already
		}
		switch {
		case r >= 0xD800 && r < 0xDC00:
			if lo, ok := hex4(s, i+7); ok && s[i+5] == '\\' && s[i+6] == 'u' && lo >= 0xDC00 && lo < 0xE000 {
				i += 10
				continue
			}
			return i - 1
		case r >= 0xDC00 && r < 0xE000:
			return i - 1
		}
		i += 4
	}
	return -1
}

// hex4 reads the four hex digits at s[i:].
func hex4(s []byte, i int) (rune, bool) {
	if i < 0 || i+4 > len(s) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(s[i:i+4]), 16, 32)
	return rune(n), err == nil
}
