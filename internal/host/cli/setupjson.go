package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/askuser/askuser/internal/strictjson"
)

// jsonObject is an object of a JSON text as positions in it, so that a
// member can be added without touching the rest of the text.
type jsonObject struct {
	open, close int // offsets of '{' and '}'
	firstKey    int // offset of the first member's name, if it has one
	members     []jsonMember
}

// jsonMember is one member of a jsonObject.
type jsonMember struct {
	name                 string
	valueStart, valueEnd int
	object               *jsonObject // the value, when it is an object
}

// jsonSyntaxError reports a fault at offset off of src as file:line:col.
func jsonSyntaxError(file string, src []byte, comments bool, off int, msg string) error {
	line, col := lineCol(src, off)
	kind := "JSON"
	if comments {
		kind = "JSON with comments"
	}
	return fmt.Errorf("%s:%d:%d: not valid %s: %s", file, line, col, kind, msg)
}

// lineCol returns the line and column (in bytes), from 1, of offset off.
func lineCol(src []byte, off int) (line, col int) {
	src = src[:min(off, len(src))]
	nl := bytes.LastIndexByte(src, '\n')
	return bytes.Count(src, []byte("\n")) + 1, len(src) - nl
}

// parseJSONObjectText parses src, whose top-level value must be an object,
// with the strict scanner every JSON door of askuser uses. JSONC (comments
// set) has its comments and trailing commas blanked out first, at the same
// offsets; the text the scanner read is returned with the object.
func parseJSONObjectText(file string, src []byte, comments bool) (*jsonObject, []byte, error) {
	clean := src
	if comments {
		var open int
		if clean, open = stripJSONC(src); open >= 0 {
			return nil, nil, jsonSyntaxError(file, src, comments, open, "comment not closed")
		}
	}
	sc := strictjson.NewScanner(clean)
	sc.Space()
	if sc.Peek() != '{' {
		return nil, nil, jsonSyntaxError(file, src, comments, sc.Pos, "the file must hold one JSON object")
	}
	root := scanObject(sc, 0)
	sc.End()
	if off, msg := sc.Err(); off >= 0 {
		return nil, nil, jsonSyntaxError(file, src, comments, off, msg)
	}
	return root, clean, nil
}

// scanObject reads the object at sc.Pos, recording its members and the
// objects among their values down to strictjson.MaxDepth, below which
// sc.Skip checks the rest.
func scanObject(sc *strictjson.Scanner, depth int) *jsonObject {
	o := &jsonObject{open: sc.Pos}
	sc.Open()
	sc.Space()
	o.firstKey = sc.Pos
	for first := true; ; {
		name, ok := sc.NextKey(&first)
		if !ok {
			break
		}
		m := jsonMember{name: name, valueStart: sc.Pos}
		if sc.Peek() == '{' && depth < strictjson.MaxDepth {
			m.object = scanObject(sc, depth+1)
		} else {
			sc.Skip()
		}
		m.valueEnd = sc.Pos
		o.members = append(o.members, m)
	}
	o.close = sc.Pos - 1
	return o
}

func (o *jsonObject) member(name string) *jsonMember {
	for i := range o.members {
		if o.members[i].name == name {
			return &o.members[i]
		}
	}
	return nil
}

// lineIndent returns the white space that starts the line holding off.
func lineIndent(src []byte, off int) string {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// indentUnit guesses one level of the file's indentation: the white space
// of its first indented line, two spaces if none.
func indentUnit(src []byte) string {
	for _, line := range bytes.Split(src, []byte("\n")) {
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) > 0 && len(trimmed) < len(line) {
			return string(line[:len(line)-len(trimmed)])
		}
	}
	return "  "
}

// jsonSetResult is what setJSONMember found or did.
type jsonSetResult int

const (
	jsonAdded jsonSetResult = iota
	jsonPresent
	jsonDiffers
)

// setJSONMember adds the member name, with value, to the object found by
// following path from the top-level object of src, creating the objects
// on the way, and returns the new text. The rest of the text is kept byte
// for byte. A member already there is jsonPresent when it holds every
// member of value with the same value (members of its own are the
// user's), jsonDiffers otherwise.
func setJSONMember(file string, src []byte, comments bool, path []string, name string, value ordered) ([]byte, jsonSetResult, error) {
	root, clean, err := parseJSONObjectText(file, src, comments)
	if err != nil {
		return nil, 0, err
	}
	unit := indentUnit(src)
	o := root
	for i, p := range path {
		m := o.member(p)
		if m == nil {
			v := value
			for j := len(path) - 1; j > i; j-- {
				v = ordered{{path[j], v}}
			}
			return insertMember(src, o, p, ordered{{name, v}}, unit), jsonAdded, nil
		}
		if m.object == nil {
			return nil, 0, jsonSyntaxError(file, src, comments, m.valueStart, strconv.Quote(p)+" is not an object")
		}
		o = m.object
	}
	if m := o.member(name); m != nil {
		var have map[string]any
		if json.Unmarshal(clean[m.valueStart:m.valueEnd], &have) != nil {
			return nil, jsonDiffers, nil
		}
		var want map[string]any
		if err := json.Unmarshal([]byte(value.render("", "")), &want); err != nil {
			return nil, 0, err
		}
		for k, v := range want {
			if !reflect.DeepEqual(have[k], v) {
				return nil, jsonDiffers, nil
			}
		}
		return src, jsonPresent, nil
	}
	return insertMember(src, o, name, value, unit), jsonAdded, nil
}

// insertMember adds "name": value as the last member of o.
func insertMember(src []byte, o *jsonObject, name string, value any, unit string) []byte {
	var indent string
	if len(o.members) > 0 {
		indent = lineIndent(src, o.firstKey)
		if bytes.LastIndexByte(src[:o.firstKey], '\n') < o.open {
			indent = lineIndent(src, o.open) + unit // members on the line of '{'
		}
	} else {
		indent = lineIndent(src, o.open) + unit
	}
	member := quoteJSON(name) + ": " + renderValue(value, indent, unit)
	var out bytes.Buffer
	if len(o.members) == 0 {
		out.Write(src[:o.open+1])
		out.WriteString("\n" + indent + member + "\n" + lineIndent(src, o.open))
		out.Write(src[o.close:])
		return out.Bytes()
	}
	at := o.members[len(o.members)-1].valueEnd
	out.Write(src[:at])
	// A comment that ends the last member's line stays with it.
	if eol, comma, ok := lineComment(src, at); ok {
		if !comma {
			out.WriteString(",")
		}
		out.Write(src[at:eol])
		out.WriteString("\n" + indent + member)
		out.Write(src[eol:])
		return out.Bytes()
	}
	out.WriteString(",\n" + indent + member)
	out.Write(src[at:])
	return out.Bytes()
}

// lineComment reports whether what follows off on its line is an optional
// comma and a // comment; eol is the end of the line.
func lineComment(src []byte, off int) (eol int, comma, ok bool) {
	i := off
	skip := func() {
		for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
	}
	skip()
	if i < len(src) && src[i] == ',' {
		comma = true
		i++
		skip()
	}
	if !bytes.HasPrefix(src[i:], []byte("//")) {
		return 0, false, false
	}
	eol = i + bytes.IndexByte(src[i:], '\n')
	if eol < i {
		eol = len(src)
	}
	if eol > i && src[eol-1] == '\r' {
		eol--
	}
	return eol, comma, true
}

// stripJSONC returns src with comments and trailing commas turned to spaces,
// at the same offsets, and the offset of a block comment left open, or -1.
func stripJSONC(src []byte) ([]byte, int) {
	out := bytes.Clone(src)
	inStr := false
	lastComma := -1
	var prev byte // the last byte that is not space or comment
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
			continue
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			end := bytes.Index(out[i+2:], []byte("*/"))
			if end < 0 {
				return out, i
			}
			end += i + 4
			for ; i < end; i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			i--
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		case c == ',' && prev != '{' && prev != '[' && prev != ',':
			lastComma = i
		case c == '}' || c == ']':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		default:
			inStr = c == '"'
			lastComma = -1
		}
		prev = c
	}
	return out, -1
}

// ordered is a JSON object whose members keep their order.
type ordered []struct {
	k string
	v any
}

// render writes o as JSON: members one a line under indent, arrays of
// strings on one line; with unit "" all on one line.
func (o ordered) render(indent, unit string) string { return renderValue(o, indent, unit) }

func renderValue(v any, indent, unit string) string {
	switch v := v.(type) {
	case ordered:
		if len(v) == 0 {
			return "{}"
		}
		var b strings.Builder
		b.WriteString("{")
		for i, m := range v {
			if i > 0 {
				b.WriteString(",")
			}
			if unit != "" {
				b.WriteString("\n" + indent + unit)
			}
			b.WriteString(quoteJSON(m.k) + ": " + renderValue(m.v, indent+unit, unit))
		}
		if unit != "" {
			b.WriteString("\n" + indent)
		}
		b.WriteString("}")
		return b.String()
	case []string:
		q := make([]string, len(v))
		for i, s := range v {
			q[i] = quoteJSON(s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	case string:
		return quoteJSON(v)
	case bool:
		return fmt.Sprint(v)
	}
	panic(fmt.Sprintf("renderValue: %T", v))
}

// quoteJSON quotes s as a JSON string, without HTML escapes.
func quoteJSON(s string) string { return string(strictjson.AppendString(nil, s)) }
