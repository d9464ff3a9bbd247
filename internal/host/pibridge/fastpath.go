package pibridge

import (
	"bytes"
	"unicode/utf8"

	"github.com/askuser/askuser/internal/host/pimirror"
	"github.com/askuser/askuser/internal/strictjson"
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
	b = strictjson.AppendString(b, msg.Type)
	b = append(b, `,"call":`...)
	b = strictjson.AppendString(b, msg.Call)
	if msg.Patch {
		b = append(b, `,"at":`...)
		b = strictjson.AppendInt(b, msg.At)
		b = append(b, `,"length":`...)
		b = strictjson.AppendInt(b, msg.Length)
	}
	b = append(b, `,"lines":`...)
	if msg.Lines == nil {
		b = append(b, "null"...)
	} else {
		b = pimirror.AppendLines(b, msg.Lines)
	}
	b = pimirror.AppendCursor(b, msg.Cursor)
	if msg.Tick {
		b = append(b, `,"tick":true`...)
	}
	return append(b, "}\n"...)
}
