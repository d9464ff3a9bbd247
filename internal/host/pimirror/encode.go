package pimirror

import "github.com/askuser/askuser/internal/strictjson"

// AppendFrame appends f as one JSON object, {"lines":[...]} with its
// "cursor" when it has one, as encoding/json writes it with HTML escaping
// off, without reflection: the copy runs in WebAssembly, where that is
// slow.
func AppendFrame(b []byte, f Frame) []byte {
	b = append(b, `{"lines":`...)
	b = AppendLines(b, f.Lines)
	b = AppendCursor(b, f.Cursor)
	return append(b, '}')
}

// AppendLines appends a frame's lines as a JSON array of strings, as
// encoding/json writes a slice that is not nil, with HTML escaping off.
func AppendLines(b []byte, lines []string) []byte {
	b = append(b, '[')
	for i, l := range lines {
		if i > 0 {
			b = append(b, ',')
		}
		b = strictjson.AppendString(b, l)
	}
	return append(b, ']')
}

// AppendCursor appends the member `,"cursor":{"row":…,"col":…}` of a
// frame whose cursor is c, as encoding/json writes it, and nothing for a
// nil c, as its omitempty leaves the member out.
func AppendCursor(b []byte, c *Cursor) []byte {
	if c == nil {
		return b
	}
	b = append(b, `,"cursor":{"row":`...)
	b = strictjson.AppendInt(b, c.Row)
	b = append(b, `,"col":`...)
	b = strictjson.AppendInt(b, c.Col)
	return append(b, '}')
}
