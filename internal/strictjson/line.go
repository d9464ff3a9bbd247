// Writing JSON one value to a line, the framing of askuser's results and
// of the messages on its sockets and pipes, with Escape applied, and
// reading one value back.

package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"
)

// ErrTrailing is DecodeOne's error for data after the value.
var ErrTrailing = errors.New("data after the value")

// DecodeOne decodes the one JSON value data holds into v with
// encoding/json, refusing members v has no field for (encoding/json's
// error) and data after the value (ErrTrailing).
func DecodeOne(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return ErrTrailing
	}
	return nil
}

// WriteLine writes v to w as one line of JSON ending in a newline, with <, >
// and & as they are rather than escaped for HTML, and the characters
// Escape names escaped. The line goes out in a single Write, so a reader
// never sees half of it from this call.
func WriteLine(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(Escape(buf.Bytes()))
	return err
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
