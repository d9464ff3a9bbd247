// Appending JSON: numbers and strings written into a byte slice,
// byte for byte as encoding/json writes them with HTML escaping off, with
// no reflection and no allocation beyond the slice's growth: the Pi
// bridge's frames, on the key-to-frame path, and the in-process dialog's,
// in WebAssembly, are written with it.

package strictjson

import "unicode/utf8"

// AppendInt appends n in decimal.
func AppendInt(b []byte, n int) []byte {
	if n < 0 {
		b = append(b, '-')
		// The negation of the smallest int overflows: uint takes it.
		return AppendUint(b, uint(-(n+1))+1)
	}
	return AppendUint(b, uint(n))
}

// AppendUint appends n in decimal.
func AppendUint(b []byte, n uint) []byte {
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

// AppendString appends s as a JSON string the way encoding/json does with
// HTML escaping off: the short escapes for quote, backslash, \b, \f, \n,
// \r and \t, \u00XX for other control characters, \ufffd for each invalid
// UTF-8 byte, and \u2028 and \u2029 escaped.
func AppendString(b []byte, s string) []byte {
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

// appendInvalid is String for a string that is not valid UTF-8.
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
