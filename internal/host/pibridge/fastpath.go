package pibridge

import (
	"bytes"
	"unicode/utf8"
)

// The key message as the shim writes it, which is most of what the
// bridge reads while a dialog is open.
var (
	keyPrefix = []byte(`{"type":"key","call":"`)
	keyName   = []byte(`","key":"`)
	keyText   = []byte(`","text":"`)
)

// decodeKey reads a key message written exactly as the shim writes one,
// {"type":"key","call":"c1","key":"down"} or with "text" for "key", whose
// strings hold no escape, no control character and no invalid UTF-8. The
// general decoder reads such a line to the same message; decodeKey does it
// without reflection or a second pass. It reports false for any other
// line, which is then the general decoder's to read and judge.
func decodeKey(line []byte) (inMsg, bool) {
	rest, ok := bytes.CutPrefix(line, keyPrefix)
	if !ok {
		return inMsg{}, false
	}
	call, rest, ok := plainString(rest)
	if !ok {
		return inMsg{}, false
	}
	isText := false
	if r, ok := bytes.CutPrefix(rest, keyName); ok {
		rest = r
	} else if r, ok := bytes.CutPrefix(rest, keyText); ok {
		rest, isText = r, true
	} else {
		return inMsg{}, false
	}
	val, rest, ok := plainString(rest)
	if !ok || len(rest) != 2 || rest[0] != '"' || rest[1] != '}' {
		return inMsg{}, false
	}
	m := inMsg{Type: typeKey, Call: string(call)}
	if isText {
		m.Text = string(val)
	} else {
		m.Key = string(val)
	}
	return m, true
}

// plainString splits b at the first quote or backslash: the bytes before
// it, which must be printable UTF-8, and the rest from that byte on. It
// reports false when the first such byte is not a quote, or when a
// control character or invalid UTF-8 comes before it.
func plainString(b []byte) (s, rest []byte, ok bool) {
	i := bytes.IndexAny(b, "\"\\")
	if i < 0 || b[i] != '"' {
		return nil, nil, false
	}
	s = b[:i]
	for _, c := range s {
		if c < 0x20 {
			return nil, nil, false
		}
	}
	if !utf8.Valid(s) {
		return nil, nil, false
	}
	return s, b[i:], true
}

// appendFrame appends msg as one line, byte for byte as encoding/json
// writes a whole frame with HTML escaping off, without reflection and
// into a buffer that is reused. A patch carries "at" and "length" before
// its lines, also when they are 0.
func appendFrame(b []byte, msg *frameMsg) []byte {
	b = append(b, `{"type":`...)
	b = appendString(b, msg.Type)
	b = append(b, `,"call":`...)
	b = appendString(b, msg.Call)
	if msg.Patch {
		b = append(b, `,"at":`...)
		b = appendInt(b, msg.At)
		b = append(b, `,"length":`...)
		b = appendInt(b, msg.Length)
	}
	b = append(b, `,"lines":`...)
	if msg.Lines == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, l := range msg.Lines {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, l)
		}
		b = append(b, ']')
	}
	if msg.Cursor != nil {
		b = append(b, `,"cursor":{"row":`...)
		b = appendInt(b, msg.Cursor.Row)
		b = append(b, `,"col":`...)
		b = appendInt(b, msg.Cursor.Col)
		b = append(b, '}')
	}
	if msg.Tick {
		b = append(b, `,"tick":true`...)
	}
	return append(b, "}\n"...)
}

func appendInt(b []byte, n int) []byte {
	if n < 0 {
		b = append(b, '-')
		// The negation of the smallest int overflows: uint takes it.
		return appendUint(b, uint(-(n+1))+1)
	}
	return appendUint(b, uint(n))
}

func appendUint(b []byte, n uint) []byte {
	var d [20]byte
	i := len(d)
	for {
		i--
		d[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return append(b, d[i:]...)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string the way encoding/json does with
// HTML escaping off: the short escapes for quote, backslash, \b, \f, \n,
// \r and \t, \u00XX for other control characters, \ufffd for each invalid
// UTF-8 byte, and \u2028 and \u2029 escaped.
func appendString(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		return appendInvalid(b, s)
	}
	// Valid UTF-8 needs no decoding: of its multibyte characters only
	// U+2028 and U+2029 (E2 80 A8 and E2 80 A9) are escaped.
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c != 0xe2 {
			continue
		}
		if c == 0xe2 {
			if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9) {
				b = append(b, s[start:i]...)
				b = append(b, '\\', 'u', '2', '0', '2', hexDigits[s[i+2]&0xf])
				i += 2
				start = i + 1
			}
			continue
		}
		b = append(b, s[start:i]...)
		b = appendEscape(b, c)
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendEscape appends the escape of the ASCII byte c.
func appendEscape(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}

// appendInvalid is appendString for a string that is not valid UTF-8.
func appendInvalid(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			b = appendEscape(b, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
