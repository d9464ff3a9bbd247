package pimirror

import "github.com/askuser/askuser/internal/strictjson"

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
		b = strictjson.AppendString(b, l)
	}
	b = append(b, ']')
	if f.Cursor != nil {
		b = append(b, `,"cursor":{"row":`...)
		b = strictjson.AppendInt(b, f.Cursor.Row)
		b = append(b, `,"col":`...)
		b = strictjson.AppendInt(b, f.Cursor.Col)
		b = append(b, '}')
	}
	return append(b, '}')
}
