// Package jsonline writes JSON values one to a line, the framing of
// askuser's results and of the messages on its sockets and pipes, and
// keeps every JSON text askuser writes free of characters that a
// terminal obeys or does not show (Escape).
package jsonline

import (
	"bytes"
	"encoding/json"
	"io"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/askuser/askuser/internal/safetext"
)

// Write writes v to w as one line of JSON ending in a newline, with <, >
// and & as they are rather than escaped for HTML, and the characters
// Escape names escaped. The line goes out in a single Write, so a reader
// never sees half of it from this call.
func Write(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(Escape(buf.Bytes()))
	return err
}

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

// appendU appends the JSON escape \uXXXX of r, which is at most U+FFFF,
// in lower case as encoding/json writes its escapes.
func appendU(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}

// NewEscaper returns a writer that writes the JSON text written to it on
// to w with Escape applied, for a writer of JSON that askuser does not
// encode itself, such as the MCP SDK's. A character split between two
// writes is held until the rest of it comes; JSON texts end in ASCII,
// so nothing is held after a whole one. The writer is not safe for
// concurrent use; a failed write to w is returned, and what it carried
// is lost.
func NewEscaper(w io.Writer) io.Writer { return &escaper{w: w} }

type escaper struct {
	w    io.Writer
	held []byte // the start of a character split by the last write
}

func (e *escaper) Write(p []byte) (int, error) {
	data := p
	if len(e.held) > 0 {
		data = append(e.held, p...)
	}
	n := len(data) - splitTail(data)
	var err error
	if n > 0 {
		_, err = e.w.Write(Escape(data[:n]))
	}
	e.held = append(e.held[:0], data[n:]...)
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// splitTail returns how many bytes at the end of b start a UTF-8
// character that is not complete yet.
func splitTail(b []byte) int {
	for k := 1; k < utf8.UTFMax && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[len(b)-k:]) {
				return 0
			}
			return k
		}
	}
	return 0
}
