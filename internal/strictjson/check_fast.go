// Check's fast pass: most JSON it is given is clean, and the Scanner
// reads it once, without allocating, where encoding/json's validation
// and the walk that finds the problem and its path took six times as
// long (BenchmarkCheck).

package strictjson

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// fastCheck reports whether the Scanner reads data as one JSON value
// that holds no duplicate key, no text that is not UTF-8 and no unpaired
// surrogate escape, nested no deeper than max. When it does, Check
// accepts data too; when it does not, Check's own walk gives the verdict
// and says where (a skipped member may hold what this refuses).
func fastCheck(data []byte, max int) bool {
	s := Scanner{Data: data, s: unsafe.String(unsafe.SliceData(data), len(data))}
	var seen [32]string
	s.Space()
	_, ok := fastValue(&s, 0, max, seen[:0])
	s.End()
	return ok && !s.failed
}

// fastNames is the most names an object may have for the fast pass to
// look for a name given twice among them, one by one.
const fastNames = 32

// fastValue checks the value at s.Pos for fastCheck. keys holds the
// names of the objects it is inside, and is returned with the room it
// may have gained.
func fastValue(s *Scanner, depth, max int, keys []string) ([]string, bool) {
	switch s.Peek() {
	case '{':
		if depth >= max {
			return keys, false
		}
		s.Open()
		mark := len(keys)
		for first := true; ; {
			key, ok := s.NextKey(&first)
			if !ok {
				break
			}
			// A name that is not text is refused here: Check says how. An
			// object of many names is left to the walk, whose search for a
			// name given twice does not grow with the square of their count.
			if len(keys)-mark >= fastNames || strings.ContainsRune(key, utf8.RuneError) || slices.Contains(keys[mark:], key) {
				return keys, false
			}
			if keys, ok = fastValue(s, depth+1, max, append(keys, key)); !ok {
				return keys, false
			}
		}
		keys = keys[:mark]
	case '[':
		if depth >= max {
			return keys, false
		}
		s.Open()
		for first := true; s.NextElem(&first); {
			var ok bool
			if keys, ok = fastValue(s, depth+1, max, keys); !ok {
				return keys, false
			}
		}
	case '"':
		if !s.textString() {
			return keys, false
		}
	default:
		s.Skip()
	}
	return keys, !s.failed
}

// textString moves past the JSON string at s.Pos without unescaping it,
// and reports whether it is valid and its text is: UTF-8, with no
// unpaired surrogate escape. A string with no escape is checked as
// String checks it; one with escapes a word at a time between them.
func (s *Scanner) textString() bool {
	d := s.Data
	start := s.Pos + 1
	if j := bytes.IndexByte(d[start:], '"'); j >= 0 {
		run := d[start : start+j]
		if plain, ascii := plainText(run); plain {
			s.Pos = start + j + 1
			return ascii || utf8.Valid(run)
		}
	}
	for i := start; i < len(d); {
		for i < len(d) && d[i]-0x20 < utf8.RuneSelf-0x20 && d[i] != '"' && d[i] != '\\' {
			i++
		}
		if i >= len(d) {
			break
		}
		switch c := d[i]; {
		case c == '"':
			s.Pos = i + 1
			return true
		case c < 0x20 || c == '\\' && i+1 >= len(d):
			return false
		case c == '\\':
			n, ok := s.escapeLen(i)
			if !ok {
				return false
			}
			i += n
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && n == 1 {
				return false
			}
			i += n
		}
	}
	return false
}

// escapeLen returns the length of the escape at Data[i], which is a
// backslash, and false when it is not valid or is an unpaired surrogate.
func (s *Scanner) escapeLen(i int) (int, bool) {
	d := s.Data
	switch d[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, true
	case 'u':
	default:
		return 0, false
	}
	r, ok := s.hex4(i + 2)
	switch {
	case !ok || r >= 0xDC00 && r < 0xE000:
		return 0, false
	case r < 0xD800 || r >= 0xE000:
		return 6, true
	}
	if i+7 >= len(d) || d[i+6] != '\\' || d[i+7] != 'u' {
		return 0, false
	}
	lo, ok := s.hex4(i + 8)
	return 12, ok && lo >= 0xDC00 && lo < 0xE000
}
