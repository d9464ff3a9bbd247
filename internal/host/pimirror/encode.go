package pimirror

import (
	"strconv"
	"unicode/utf8"
)

// AppendFrame appends f as one JSON object, {"lines":[...]} with its
// "cursor" when it has one, as encoding/json writes it with HTML escaping
// off, without reflection: the copy runs in WebAssembly, where that is
// slow.
func AppendFrame(b []byte, f Frame) []byte {
	b = append(b, `{"lines":[`...)
	for i, l := range f.Lines {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, l)
	}
	b = append(b, ']')
	if f.Cursor != nil {
		b = append(b, `,"cursor":{"row":`...)
		b = strconv.AppendInt(b, int64(f.Cursor.Row), 10)
		b = append(b, `,"col":`...)
		b = strconv.AppendInt(b, int64(f.Cursor.Col), 10)
		b = append(b, '}')
	}
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string as encoding/json does with HTML
// escaping off: short escapes for the quote, the backslash, \b, \f, \n,
// \r and \t, \u00XX for other control characters, \ufffd for each byte
// of invalid UTF-8, and U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
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
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
