// Escaping: every JSON text askuser writes is kept free of characters
// that a terminal obeys or does not show.

package strictjson

import (
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/askuser/askuser/internal/safetext"
)

// Escape returns the JSON text js with every character that a terminal
// obeys or does not show written as a \u escape (a surrogate pair above
// U+FFFF): DEL, the C1 controls, and every invisible character
// safetext.Invisible names, such as bidirectional overrides and isolates,
// zero-width characters, the byte order mark, tag characters and U+2028
// and U+2029. The result is valid JSON with the same values: outside its
// strings a JSON text holds only ASCII, and the C0 controls there are
// whitespace, while inside them an encoder has escaped every C0 control
// already. A model's text in a result therefore reaches a terminal or a
// log that shows the JSON as visible escapes, never raw.
//
// js must be valid JSON; bytes that are not UTF-8 pass unchanged. When
// there is nothing to escape, js itself is returned.
func Escape(js []byte) []byte {
	i, n, r := nextEscape(js)
	if i < 0 {
		return js
	}
	out := make([]byte, 0, len(js)+32)
	for i >= 0 {
		out = append(out, js[:i]...)
		if r > 0xffff {
			hi, lo := utf16.EncodeRune(r)
			out = appendU(appendU(out, hi), lo)
		} else {
			out = appendU(out, r)
		}
		js = js[i+n:]
		i, n, r = nextEscape(js)
	}
	return append(out, js...)
}

// nextEscape returns the offset, the length and the rune of the first
// character in js that Escape rewrites, or -1 for none.
func nextEscape(js []byte) (int, int, rune) {
	for i := 0; i < len(js); {
		// Most of a JSON text is ASCII other than DEL: pass over it a
		// word at a time.
		if i+8 <= len(js) && plainWord(binary.LittleEndian.Uint64(js[i:])) {
			i += 8
			continue
		}
		c := js[i]
		if c < utf8.RuneSelf {
			if c == 0x7f {
				return i, 1, 0x7f
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(js[i:])
		if !(r == utf8.RuneError && n == 1) && safetext.Invisible(r) {
			return i, n, r
		}
		i += n
	}
	return -1, 0, 0
}

// plainWord reports whether the eight bytes packed in w are all ASCII
// other than DEL (0x7f), which Escape leaves as they are.
func plainWord(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	// Once every byte is below 0x80 (w's own high bits), adding one sets
	// a byte's high bit exactly when it is 0x7f, and carries into no
	// other byte.
	return (w|(w+ones))&highs == 0
}

// appendU appends the JSON escape \uXXXX of r, which is at most U+FFFF,
// in lower case as encoding/json writes its escapes.
func appendU(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}
