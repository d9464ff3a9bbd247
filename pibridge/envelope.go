package pibridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// encoding/json keeps the last of duplicate keys and turns invalid UTF-8
// and unpaired surrogate escapes into U+FFFD: a message the shim cannot
// have written would pass as another one. checkLine and checkMembers
// refuse such lines instead. The members that carry a questionnaire, a
// result or options are left to the parsers that read them, which are
// as strict and say where the problem is.

// maxEnvelopeDepth bounds the nesting checkMembers walks: the deepest
// envelope member, a theme colour, is two levels down.
const maxEnvelopeDepth = 8

// checkLine refuses a line that is not UTF-8.
func checkLine(line []byte) error {
	if utf8.Valid(line) {
		return nil
	}
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRune(line[i:])
		if r == utf8.RuneError && n == 1 {
			return fmt.Errorf("the line is not valid UTF-8 at byte %d", i)
		}
		i += n
	}
	return nil
}

// checkMembers refuses a message, already known to be a valid JSON
// object, with a duplicate key or an unpaired surrogate escape in a
// member of the envelope.
func checkMembers(line []byte) error {
	return checkValue(line, "", 0)
}

func checkValue(raw json.RawMessage, path string, depth int) error {
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
	if depth >= maxEnvelopeDepth {
		return fmt.Errorf("%s: nested too deeply for a message", where(path))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("bad message: %w", err)
	}
	seen := map[string]bool{}
	for i := 0; dec.More(); i++ {
		sub := path + "[" + strconv.Itoa(i) + "]"
		if raw[0] == '{' {
			tok, err := dec.Token()
			if err != nil {
				return fmt.Errorf("bad message: %w", err)
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
			return fmt.Errorf("bad message: %w", err)
		}
		if depth == 0 && (sub == "params" || sub == "result" || sub == "options") {
			continue
		}
		if err := checkValue(v, sub, depth+1); err != nil {
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
