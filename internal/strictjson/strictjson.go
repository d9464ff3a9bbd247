// Package strictjson refuses what encoding/json lets through silently:
// it keeps the last of duplicate keys and turns invalid UTF-8 and
// unpaired surrogate escapes into U+FFFD, so that a message its writer
// cannot have sent passes as another one. Check finds these in a line of
// JSON that encoding/json has accepted, and says where.
package strictjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Options tune Check. The zero value checks everything, up to 64 levels
// deep.
type Options struct {
	// Skip names top-level members that are left unchecked, because the
	// parser that reads them is as strict and says where the problem is.
	Skip []string
	// MaxDepth bounds the nesting Check walks; 0 means 64. A deeper
	// value is refused.
	MaxDepth int
}

// Check refuses data, which must be valid JSON (encoding/json has
// accepted it), when it is not valid UTF-8, or holds a duplicate key or an
// unpaired surrogate escape in a value it checks, or nests deeper than
// opts allow. A nil opts means the zero Options.
func Check(data []byte, opts *Options) error {
	if opts == nil {
		opts = &Options{}
	}
	if err := checkUTF8(data); err != nil {
		return err
	}
	c := checker{skip: opts.Skip, max: opts.MaxDepth}
	if c.max <= 0 {
		c.max = 64
	}
	return c.value(data, "", 0)
}

type checker struct {
	skip []string
	max  int
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

func (c *checker) value(raw json.RawMessage, path string, depth int) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	switch raw[0] {
	case '"':
		if i := unpairedSurrogate(raw); i >= 0 {
			return fmt.Errorf("%s: an unpaired surrogate escape at byte %d of the string; send text as UTF-8", where(path), i)
		}
		return nil
	case '{', '[':
	default:
		return nil
	}
	if depth >= c.max {
		return fmt.Errorf("%s: nested deeper than %d levels", where(path), c.max)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i := 0; dec.More(); i++ {
		sub := path + "[" + strconv.Itoa(i) + "]"
		if raw[0] == '{' {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := tok.(string)
			if seen[key] {
				return fmt.Errorf("%s: duplicate key %q", where(path), key)
			}
			seen[key] = true
			sub = key
			if path != "" {
				sub = path + "." + key
			}
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if depth == 0 && slices.Contains(c.skip, sub) {
			continue
		}
		if err := c.value(v, sub, depth+1); err != nil {
			return err
		}
	}
	return nil
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
