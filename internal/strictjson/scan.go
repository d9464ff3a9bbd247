// The Scanner: a small JSON scanner for decoders that must be stricter
// than encoding/json. A decoder walks the input with it member by member,
// matches member names exactly, sees every duplicate, and learns where
// text is not UTF-8 (unpaired surrogate escapes included) instead of
// getting U+FFFD in its place.
//
// The scanner checks syntax as it goes. The first syntax error is fatal:
// Failed reports it and every method then does nothing, since nothing
// after it can be read.

package strictjson

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// MaxDepth bounds the nesting of the values Skip walks over, and is
// Check's limit unless CheckOptions says otherwise.
const MaxDepth = 64

// Scanner reads one JSON document. Pos is the byte offset it has reached;
// a decoder reads Data[Pos] to see which kind of value comes next. Use it
// through the pointer NewScanner returns: a Scanner must not be copied.
// A Scanner is not safe for concurrent use.
type Scanner struct {
	Data []byte
	Pos  int

	s      string // Data as a string, so strings can be substrings of it
	failed bool
	errOff int
	errMsg string
	// block holds the strings without escapes handed out (see keep),
	// and text those with escapes (see escaped).
	block strings.Builder
	text  []byte
}

// NewScanner returns a Scanner at the start of data, which must not change
// while the Scanner is in use. The strings String returns never share
// memory with data, so they outlive it; member names from NextKey do.
func NewScanner(data []byte) *Scanner {
	return &Scanner{Data: data, s: unsafe.String(unsafe.SliceData(data), len(data))}
}

// Failed reports whether a syntax error has been found.
func (s *Scanner) Failed() bool { return s.failed }

// Err returns the byte offset and the description of the syntax error, or
// -1 and "" when there is none.
func (s *Scanner) Err() (int, string) {
	if !s.failed {
		return -1, ""
	}
	return s.errOff, s.errMsg
}

// Fail records a syntax error at byte offset off. Only the first counts.
func (s *Scanner) Fail(off int, msg string) {
	if s.failed {
		return
	}
	s.failed, s.errOff, s.errMsg = true, off, msg
}

// Space skips white space.
func (s *Scanner) Space() {
	for s.Pos < len(s.Data) {
		switch s.Data[s.Pos] {
		case ' ', '\t', '\n', '\r':
			s.Pos++
		default:
			return
		}
	}
}

// AtEnd reports whether only white space is left.
func (s *Scanner) AtEnd() bool {
	s.Space()
	return s.Pos >= len(s.Data)
}

// End fails when anything but white space follows the top-level value.
func (s *Scanner) End() {
	if !s.AtEnd() {
		s.Fail(s.Pos, "unexpected data after the top-level value")
	}
}

// Open moves past the '{' or '[' at Pos.
func (s *Scanner) Open() { s.Pos++ }

// NextMember is NextKey for an object whose members may each appear
// once: it also reports whether the name is one seen already holds, and
// adds it there. seen must start empty for each object.
func (s *Scanner) NextMember(first *bool, seen *[]string) (key string, dup, ok bool) {
	key, ok = s.NextKey(first)
	if !ok {
		return "", false, false
	}
	dup = slices.Contains(*seen, key)
	*seen = append(*seen, key)
	return key, dup, true
}

// NextKey reads the next member name of an object whose '{' has been
// read, and the colon after it, leaving Pos at the value. first must
// start true for each object. It returns false at the closing brace or on
// a syntax error. The name shares memory with Data: copy it to keep it
// after Data changes. A name that is not UTF-8 is returned with U+FFFD in
// place of the bad bytes, so that it matches no member and reads safely.
func (s *Scanner) NextKey(first *bool) (string, bool) {
	if s.failed {
		return "", false
	}
	s.Space()
	if s.Pos >= len(s.Data) {
		s.Fail(s.Pos, "unexpected end of input inside an object")
		return "", false
	}
	c := s.Data[s.Pos]
	if c == '}' {
		s.Pos++
		return "", false
	}
	if !*first {
		if c != ',' {
			s.Fail(s.Pos, "expected ',' or '}' after an object member")
			return "", false
		}
		s.Pos++
		s.Space()
		if s.Pos >= len(s.Data) {
			s.Fail(s.Pos, "unexpected end of input inside an object")
			return "", false
		}
		c = s.Data[s.Pos]
	}
	*first = false
	if c != '"' {
		s.Fail(s.Pos, "expected a field name in double quotes")
		return "", false
	}
	key, bad := s.str(false)
	if s.failed {
		return "", false
	}
	if bad >= 0 {
		key = strings.ToValidUTF8(key, "\uFFFD")
	}
	s.Space()
	if s.Pos >= len(s.Data) || s.Data[s.Pos] != ':' {
		s.Fail(s.Pos, "expected ':' after a field name")
		return "", false
	}
	s.Pos++
	s.Space()
	if s.Pos >= len(s.Data) {
		s.Fail(s.Pos, "unexpected end of input, expected a value")
		return "", false
	}
	return key, true
}

// NextElem moves to the next element of an array whose '[' has been
// read, leaving Pos at the value. first must start true for each array.
// It returns false at the closing bracket or on a syntax error.
func (s *Scanner) NextElem(first *bool) bool {
	if s.failed {
		return false
	}
	s.Space()
	if s.Pos >= len(s.Data) {
		s.Fail(s.Pos, "unexpected end of input inside an array")
		return false
	}
	c := s.Data[s.Pos]
	if c == ']' {
		s.Pos++
		return false
	}
	if !*first {
		if c != ',' {
			s.Fail(s.Pos, "expected ',' or ']' after an array element")
			return false
		}
		s.Pos++
		s.Space()
		if s.Pos >= len(s.Data) {
			s.Fail(s.Pos, "unexpected end of input inside an array")
			return false
		}
		if s.Data[s.Pos] == ']' {
			s.Fail(s.Pos, "expected a value after ','")
			return false
		}
	}
	*first = false
	return true
}

// String reads the JSON string at Pos. It returns the decoded text, which
// shares no memory with Data, and the byte offset of the first byte that
// is not valid UTF-8, or of an escape that is an unpaired surrogate, or -1
// when the text is valid.
func (s *Scanner) String() (string, int) { return s.str(true) }

// str is String; when own is false, a string without escapes is returned
// as a part of Data rather than a copy.
func (s *Scanner) str(own bool) (string, int) {
	start := s.Pos + 1
	// Most strings hold no escape and no control character: find the
	// closing quote with the library's vectorized search and check the
	// bytes before it a word at a time, several times faster than the
	// loop below.
	if j := bytes.IndexByte(s.Data[start:], '"'); j >= 0 {
		seg := s.Data[start : start+j]
		if plain, ascii := plainText(seg); plain {
			s.Pos = start + j + 1
			bad := -1
			if !ascii {
				bad = invalidAt(seg, start)
			}
			if own {
				return s.keep(seg, len(s.Data)-start), bad
			}
			return s.s[start : start+j], bad
		}
	}
	bad := -1
	for i := start; i < len(s.Data); {
		if i+8 <= len(s.Data) && plainASCII(binary.LittleEndian.Uint64(s.Data[i:])) {
			i += 8
			continue
		}
		c := s.Data[i]
		switch {
		case c == '"':
			s.Pos = i + 1
			if own {
				return s.keep(s.Data[start:i], len(s.Data)-start), bad
			}
			return s.s[start:i], bad
		case c == '\\':
			return s.escaped(start, i, bad)
		case c < 0x20:
			s.Fail(i, "control character in a string; escape it, for example as \\n")
			return "", -1
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(s.Data[i:])
			if r == utf8.RuneError && size == 1 && bad < 0 {
				bad = i
			}
			i += size
		}
	}
	s.Fail(len(s.Data), "unexpected end of input inside a string")
	return "", -1
}

// maxChunk bounds the blocks strings are copied into. Copying each string
// on its own costs an allocation per string; copying all of Data at once
// is one allocation that, past 32 KiB, takes the heap's slow path and made
// parsing a large request twice as slow. Blocks up to this size take the
// fast path and are shared by many strings.
const maxChunk = 32 << 10

// keep returns a copy of b as a string, in the current block or in a new
// one, sized for rest, the bytes from b to the end of Data: every string
// still to come fits in them. The blocks are strings.Builders, which
// allocate without clearing memory; a block is never written again where
// a string uses it, and never grows, so the strings stay valid.
func (s *Scanner) keep(b []byte, rest int) string {
	if len(b) == 0 {
		return ""
	}
	if s.block.Cap()-s.block.Len() < len(b) {
		s.block = strings.Builder{}
		s.block.Grow(max(len(b), min(rest, maxChunk)))
	}
	from := s.block.Len()
	s.block.Write(b)
	return s.block.String()[from:]
}

// plainText reports whether b holds no byte below 0x20 (a control
// character, which a JSON string may not hold) and no backslash, so that
// it is the string's text as it is, and whether all of it is ASCII, so
// valid UTF-8 without further checks.
//
// The library's vectorized search finds a backslash. The rest is done a
// word at a time, four words a round while they are printable ASCII, the
// usual case, since the words do not depend on each other and the
// processor works on them at once: about five times as fast as one word a
// round that also looks for backslashes.
func plainText(b []byte) (plain, ascii bool) {
	if bytes.IndexByte(b, '\\') >= 0 {
		return false, false
	}
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	// A byte below 0x20 borrows and has its high bit clear, so it sets
	// its own high bit in w - 0x20…, and (w - 0x20…) &^ w; so does a zero
	// byte. A byte that borrows only because of a lower one may set a
	// high bit too, but then the lower byte is flagged already, so the
	// test, that some byte is, stays exact. OR-ing w itself in flags the
	// bytes that are not ASCII as well.
	for len(b) >= 32 {
		w0 := binary.LittleEndian.Uint64(b[0:8])
		w1 := binary.LittleEndian.Uint64(b[8:16])
		w2 := binary.LittleEndian.Uint64(b[16:24])
		w3 := binary.LittleEndian.Uint64(b[24:32])
		if ((w0-0x20*ones)|w0|(w1-0x20*ones)|w1|(w2-0x20*ones)|w2|(w3-0x20*ones)|w3)&highs != 0 {
			break
		}
		b = b[32:]
	}
	var bad, all uint64
	for len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		bad |= (w - 0x20*ones) &^ w
		all |= w
		b = b[8:]
	}
	for _, c := range b {
		if c < 0x20 {
			return false, false
		}
		all |= uint64(c)
	}
	return bad&highs == 0, all&highs == 0
}

// invalidAt returns the offset, counted from off, of the first byte of b
// that is not valid UTF-8, or -1.
func invalidAt(b []byte, off int) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return off + i
		}
		i += n
	}
	return -1
}

// plainASCII reports whether the eight bytes packed in w are all printable
// ASCII other than '"' and '\\': bytes a string can hold as they are.
func plainASCII(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	// Once every byte is below 0x80 (w's own high bits), subtracting
	// sets a byte's high bit exactly when it borrows: below 0x20 for the
	// first term, equal to '"' or '\\' (zero after the XOR) for the others.
	// A borrow runs on only past a byte that is flagged already.
	return (w|(w-0x20*ones)|((w^'"'*ones)-ones)|((w^'\\'*ones)-ones))&highs == 0
}

// escaped continues String from the first backslash at i. The unescaped
// text is appended to s.text and the string returned shares its bytes, so
// a document full of escaped text costs a few allocations rather than one
// per string.
func (s *Scanner) escaped(start, i, bad int) (string, int) {
	// The text still to come is at most the rest of Data, so a small
	// document gets a buffer no larger than itself.
	if rest := len(s.Data) - start; cap(s.text)-len(s.text) < min(rest, 4096) {
		s.text = make([]byte, 0, min(rest, 16<<10))
	}
	from := len(s.text)
	buf := append(s.text, s.Data[start:i]...)
	for i < len(s.Data) {
		if i+8 <= len(s.Data) && plainASCII(binary.LittleEndian.Uint64(s.Data[i:])) {
			buf = append(buf, s.Data[i:i+8]...)
			i += 8
			continue
		}
		c := s.Data[i]
		switch {
		case c == '"':
			s.Pos = i + 1
			s.text = buf
			return unsafe.String(unsafe.SliceData(buf[from:]), len(buf)-from), bad
		case c < 0x20:
			s.Fail(i, "control character in a string; escape it, for example as \\n")
			return "", -1
		case c == '\\':
			if i+1 >= len(s.Data) {
				s.Fail(len(s.Data), "unexpected end of input inside a string")
				return "", -1
			}
			esc := s.Data[i+1]
			switch esc {
			case '"', '\\', '/':
				buf = append(buf, esc)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := s.hex4(i + 2)
				if !ok {
					return "", -1
				}
				n := 6
				switch {
				case r >= 0xD800 && r < 0xDC00:
					// A high surrogate must be followed by a low one.
					if i+n+1 < len(s.Data) && s.Data[i+n] == '\\' && s.Data[i+n+1] == 'u' {
						lo, ok := s.hex4(i + n + 2)
						if !ok {
							return "", -1
						}
						if lo >= 0xDC00 && lo < 0xE000 {
							r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
							n += 6
							break
						}
					}
					if bad < 0 {
						bad = i
					}
					r = utf8.RuneError
				case r >= 0xDC00 && r < 0xE000:
					if bad < 0 {
						bad = i
					}
					r = utf8.RuneError
				}
				buf = utf8.AppendRune(buf, r)
				i += n
				continue
			default:
				s.Fail(i, "invalid escape \\"+string(rune(esc))+" in a string")
				return "", -1
			}
			i += 2
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			i++
		default:
			r, size := utf8.DecodeRune(s.Data[i:])
			if r == utf8.RuneError && size == 1 && bad < 0 {
				bad = i
			}
			buf = append(buf, s.Data[i:i+size]...)
			i += size
		}
	}
	s.Fail(len(s.Data), "unexpected end of input inside a string")
	return "", -1
}

func (s *Scanner) hex4(at int) (rune, bool) {
	if at+4 > len(s.Data) {
		s.Fail(at-2, "incomplete \\u escape in a string")
		return 0, false
	}
	var r rune
	for _, c := range s.Data[at : at+4] {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			s.Fail(at-2, "invalid \\u escape in a string; it needs four hex digits")
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}

// Bool reads the literal true or false at Pos. It returns false for ok,
// and moves nowhere, when the value is something else.
func (s *Scanner) Bool() (v, ok bool) {
	switch {
	case strings.HasPrefix(s.s[s.Pos:], "true"):
		s.Pos += 4
		return true, true
	case strings.HasPrefix(s.s[s.Pos:], "false"):
		s.Pos += 5
		return false, true
	}
	return false, false
}

// Number checks the JSON number at Pos and moves past it.
func (s *Scanner) Number() bool {
	i := s.Pos
	n := len(s.Data)
	if i < n && s.Data[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < n && s.Data[i] >= '0' && s.Data[i] <= '9' {
			i++
		}
		return i - j
	}
	switch {
	case i < n && s.Data[i] == '0':
		i++
	case digits() == 0:
		s.Fail(i, "invalid number")
		return false
	}
	if i < n && s.Data[i] == '.' {
		i++
		if digits() == 0 {
			s.Fail(i, "invalid number: expected a digit after '.'")
			return false
		}
	}
	if i < n && (s.Data[i] == 'e' || s.Data[i] == 'E') {
		i++
		if i < n && (s.Data[i] == '+' || s.Data[i] == '-') {
			i++
		}
		if digits() == 0 {
			s.Fail(i, "invalid number: expected a digit in the exponent")
			return false
		}
	}
	s.Pos = i
	return true
}

// Skip checks the value at Pos and moves past it. A value nested more
// than MaxDepth levels deep is a syntax error.
func (s *Scanner) Skip() { s.skip(0) }

func (s *Scanner) skip(depth int) {
	if s.failed {
		return
	}
	if depth > MaxDepth {
		s.Fail(s.Pos, "values are nested too deeply")
		return
	}
	if s.Pos >= len(s.Data) {
		s.Fail(s.Pos, "unexpected end of input, expected a value")
		return
	}
	switch c := s.Data[s.Pos]; {
	case c == '{':
		s.Pos++
		for first := true; ; {
			if _, ok := s.NextKey(&first); !ok {
				return
			}
			s.skip(depth + 1)
			if s.failed {
				return
			}
		}
	case c == '[':
		s.Pos++
		for first := true; s.NextElem(&first); {
			s.skip(depth + 1)
			if s.failed {
				return
			}
		}
	case c == '"':
		s.str(false)
	case c == '-' || c >= '0' && c <= '9':
		s.Number()
	case strings.HasPrefix(s.s[s.Pos:], "true"):
		s.Pos += 4
	case strings.HasPrefix(s.s[s.Pos:], "false"):
		s.Pos += 5
	case strings.HasPrefix(s.s[s.Pos:], "null"):
		s.Pos += 4
	default:
		if c >= 0x20 && c < utf8.RuneSelf {
			s.Fail(s.Pos, "unexpected character "+strconv.QuoteRune(rune(c))+", expected a value")
		} else {
			s.Fail(s.Pos, "unexpected byte "+strconv.Quote(string(c))+", expected a value")
		}
	}
}

// Type names the type of the value at Pos, for a message: "an object",
// "an array", "a string", "a boolean", "null" or "a number".
func (s *Scanner) Type() string {
	if s.Pos >= len(s.Data) {
		return "nothing"
	}
	switch s.Data[s.Pos] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// Peek returns the byte at Pos, or 0 at the end of the input.
func (s *Scanner) Peek() byte {
	if s.Pos >= len(s.Data) {
		return 0
	}
	return s.Data[s.Pos]
}
