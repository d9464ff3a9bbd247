// Package jsonline writes JSON values one to a line, the framing of
// askuser's results and of the messages on its sockets and pipes.
package jsonline

import (
	"bytes"
	"encoding/json"
	"io"
)

// Write writes v to w as one line of JSON ending in a newline, with <, >
// and & as they are rather than escaped for HTML. The line goes out in a
// single Write, so a reader never sees half of it from this call.
func Write(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
