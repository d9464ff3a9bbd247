package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
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
	array                *jsonArray  // the value, when it is an array
}

// jsonArray is an array of a JSON text as positions in it: its brackets
// and where each element starts and ends.
type jsonArray struct {
	open, close int
	elems       [][2]int
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
		switch {
		case depth >= strictjson.MaxDepth:
			sc.Skip()
		case sc.Peek() == '{':
			m.object = scanObject(sc, depth+1)
		case sc.Peek() == '[':
			m.array = scanArray(sc)
		default:
			sc.Skip()
		}
		m.valueEnd = sc.Pos
		o.members = append(o.members, m)
	}
	o.close = sc.Pos - 1
	return o
}

// scanArray reads the array at sc.Pos, recording where its elements are;
// sc.Skip checks each.
func scanArray(sc *strictjson.Scanner) *jsonArray {
	a := &jsonArray{open: sc.Pos}
	sc.Open()
	for first := true; sc.NextElem(&first); {
		start := sc.Pos
		sc.Skip()
		a.elems = append(a.elems, [2]int{start, sc.Pos})
	}
	a.close = sc.Pos - 1
	return a
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

// jsonPath follows path from the top-level object of src as far as its
// objects go. It returns the last object reached and how many names of
// path led there; a name that holds something else than an object is an
// error.
func jsonPath(file string, src []byte, comments bool, path []string) (*jsonObject, int, []byte, error) {
	root, clean, err := parseJSONObjectText(file, src, comments)
	if err != nil {
		return nil, 0, nil, err
	}
	o := root
	for i, p := range path {
		m := o.member(p)
		if m == nil {
			return o, i, clean, nil
		}
		if m.object == nil {
			return nil, 0, nil, jsonSyntaxError(file, src, comments, m.valueStart, strconv.Quote(p)+" is not an object")
		}
		o = m.object
	}
	return o, len(path), clean, nil
}

// insertPath adds to o, reached by path[:i], the member path[i] holding
// the objects named by the rest of path, the innermost holding value.
func insertPath(src []byte, o *jsonObject, path []string, i int, value any) []byte {
	v := value
	for j := len(path) - 1; j > i; j-- {
		v = ordered{{path[j], v}}
	}
	return insertMember(src, o, path[i], v, indentUnit(src))
}

// setJSONMember adds the member name, with value, to the object found by
// following path from the top-level object of src, creating the objects
// on the way, and returns the new text. The rest of the text is kept byte
// for byte. A member already there is jsonPresent when it holds every
// member of value with the same value (members of its own are the
// user's), jsonDiffers otherwise.
func setJSONMember(file string, src []byte, comments bool, path []string, name string, value ordered) ([]byte, jsonSetResult, error) {
	return setJSONValue(file, src, comments, append(slices.Clone(path), name), value)
}

// setJSONValue is setJSONMember for any value, its name the last of path.
// A value that is not an object is present only when equal.
func setJSONValue(file string, src []byte, comments bool, path []string, value any) ([]byte, jsonSetResult, error) {
	o, i, clean, err := jsonPath(file, src, comments, path[:len(path)-1])
	if err != nil {
		return nil, 0, err
	}
	if i < len(path)-1 {
		return insertPath(src, o, path, i, value), jsonAdded, nil
	}
	m := o.member(path[len(path)-1])
	if m == nil {
		return insertPath(src, o, path, i, value), jsonAdded, nil
	}
	var have, want any
	if json.Unmarshal(clean[m.valueStart:m.valueEnd], &have) != nil {
		return nil, jsonDiffers, nil
	}
	if err := json.Unmarshal([]byte(renderValue(value, "", "")), &want); err != nil {
		return nil, 0, err
	}
	if reflect.DeepEqual(have, want) {
		return src, jsonPresent, nil
	}
	h, ok1 := have.(map[string]any)
	w, ok2 := want.(map[string]any)
	if !ok1 || !ok2 {
		return nil, jsonDiffers, nil
	}
	for k, v := range w {
		if !reflect.DeepEqual(h[k], v) {
			return nil, jsonDiffers, nil
		}
	}
	return src, jsonPresent, nil
}

// addJSONArrayElement adds elem as the last element of the array found by
// following path from the top-level object of src, creating the array
// and the objects on the way. It is jsonPresent when an element already
// there is the same, by same.
func addJSONArrayElement(file string, src []byte, comments bool, path []string, elem ordered, same func(raw []byte) bool) ([]byte, jsonSetResult, error) {
	o, i, clean, err := jsonPath(file, src, comments, path[:len(path)-1])
	if err != nil {
		return nil, 0, err
	}
	last := path[len(path)-1]
	var m *jsonMember
	if i == len(path)-1 {
		m = o.member(last)
	}
	if m == nil {
		return insertPath(src, o, path, i, []any{elem}), jsonAdded, nil
	}
	a := m.array
	if a == nil {
		return nil, 0, jsonSyntaxError(file, src, comments, m.valueStart, strconv.Quote(last)+" is not an array")
	}
	for _, e := range a.elems {
		if same(clean[e[0]:e[1]]) {
			return src, jsonPresent, nil
		}
	}
	unit := indentUnit(src)
	if len(a.elems) == 0 {
		return insertFirst(src, a.open, a.close, renderValue(elem, lineIndent(src, a.open)+unit, unit), unit), jsonAdded, nil
	}
	indent := lineIndent(src, a.elems[0][0])
	if bytes.LastIndexByte(src[:a.elems[0][0]], '\n') < a.open {
		indent = lineIndent(src, a.open) + unit // elements on the line of '['
	}
	return insertAfter(src, a.elems[len(a.elems)-1][1], indent, renderValue(elem, indent, unit)), jsonAdded, nil
}

// jsonValueAt returns the value at path from the top-level object of
// src, decoded; it is an error when the value is not there.
func jsonValueAt(file string, src []byte, comments bool, path []string) (any, error) {
	o, i, clean, err := jsonPath(file, src, comments, path[:len(path)-1])
	if err != nil {
		return nil, err
	}
	var m *jsonMember
	if i == len(path)-1 {
		m = o.member(path[len(path)-1])
	}
	if m == nil {
		return nil, fmt.Errorf("%s: %s is not there", file, strings.Join(path, "."))
	}
	var v any
	err = json.Unmarshal(clean[m.valueStart:m.valueEnd], &v)
	return v, err
}

// updateJSONObject makes each member of value a member of the object at
// path with the same value: a member that differs has its value replaced
// where it is, a missing one is added last. The rest of the text,
// members of the object's own among it, is kept byte for byte.
func updateJSONObject(file string, src []byte, comments bool, path []string, value ordered) ([]byte, error) {
	for _, kv := range value {
		var err error
		if src, err = replaceJSONValue(file, src, comments, append(slices.Clone(path), kv.k), kv.v); err != nil {
			return nil, err
		}
	}
	return src, nil
}

// replaceJSONValue sets the value at path, the last of its names, to
// value, unless it is equal already: in place of the old value, or as a
// new member when there is none.
func replaceJSONValue(file string, src []byte, comments bool, path []string, value any) ([]byte, error) {
	text, res, err := setJSONValue(file, src, comments, path, value)
	if err != nil || res != jsonDiffers {
		return text, err
	}
	o, _, _, err := jsonPath(file, src, comments, path[:len(path)-1])
	if err != nil {
		return nil, err
	}
	m := o.member(path[len(path)-1])
	var out bytes.Buffer
	out.Write(src[:m.valueStart])
	out.WriteString(renderValue(value, lineIndent(src, m.valueStart), indentUnit(src)))
	out.Write(src[m.valueEnd:])
	return out.Bytes(), nil
}

// jsonMemberEdit is setJSONValue for a setup edit: the value name at
// path, in a file that may be empty or missing; a value there that
// differs is an error.
func jsonMemberEdit(file string, old []byte, comments bool, path []string, name string, value any) ([]byte, bool, error) {
	if len(bytes.TrimSpace(old)) == 0 {
		old = []byte("{}\n")
	}
	full := append(slices.Clone(path), name)
	text, res, err := setJSONValue(file, old, comments, full, value)
	switch {
	case err != nil:
		return nil, false, err
	case res == jsonDiffers:
		return nil, false, fmt.Errorf("%s: %s is already there and differs from %s; change or remove it by hand", file, strings.Join(full, "."), renderValue(value, "", ""))
	}
	return text, res == jsonPresent, nil
}

// insertMember adds "name": value as the last member of o.
func insertMember(src []byte, o *jsonObject, name string, value any, unit string) []byte {
	if len(o.members) == 0 {
		indent := lineIndent(src, o.open) + unit
		return insertFirst(src, o.open, o.close, quoteJSON(name)+": "+renderValue(value, indent, unit), unit)
	}
	indent := lineIndent(src, o.firstKey)
	if bytes.LastIndexByte(src[:o.firstKey], '\n') < o.open {
		indent = lineIndent(src, o.open) + unit // members on the line of '{'
	}
	member := quoteJSON(name) + ": " + renderValue(value, indent, unit)
	return insertAfter(src, o.members[len(o.members)-1].valueEnd, indent, member)
}

// insertFirst puts item, on a line of its own, into the empty object or
// array whose brackets are at open and close.
func insertFirst(src []byte, open, close int, item, unit string) []byte {
	var out bytes.Buffer
	out.Write(src[:open+1])
	out.WriteString("\n" + lineIndent(src, open) + unit + item + "\n" + lineIndent(src, open))
	out.Write(src[close:])
	return out.Bytes()
}

// insertAfter puts item, on a line of its own under indent, after the
// member or element that ends at at.
func insertAfter(src []byte, at int, indent, item string) []byte {
	var out bytes.Buffer
	out.Write(src[:at])
	// A comment that ends the last member's line stays with it.
	if eol, comma, ok := lineComment(src, at); ok {
		if !comma {
			out.WriteString(",")
		}
		out.Write(src[at:eol])
		out.WriteString("\n" + indent + item)
		out.Write(src[eol:])
		return out.Bytes()
	}
	out.WriteString(",\n" + indent + item)
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

// render writes o as JSON: members and the elements of arrays of objects
// one a line under indent, arrays of strings on one line; with unit ""
// all on one line.
func (o ordered) render(indent, unit string) string { return renderValue(o, indent, unit) }

func renderValue(v any, indent, unit string) string {
	switch v := v.(type) {
	case ordered:
		return renderItems("{", "}", len(v), indent, unit, func(i int) string {
			return quoteJSON(v[i].k) + ": " + renderValue(v[i].v, indent+unit, unit)
		})
	case []any:
		return renderItems("[", "]", len(v), indent, unit, func(i int) string {
			return renderValue(v[i], indent+unit, unit)
		})
	case []string:
		q := make([]string, len(v))
		for i, s := range v {
			q[i] = quoteJSON(s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	case string:
		return quoteJSON(v)
	case bool, int:
		return fmt.Sprint(v)
	}
	panic(fmt.Sprintf("renderValue: %T", v))
}

// renderItems writes n items of an object or array between open and
// close: one a line under indent when unit is not "".
func renderItems(open, close string, n int, indent, unit string, item func(int) string) string {
	if n == 0 {
		return open + close
	}
	var b strings.Builder
	b.WriteString(open)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		if unit != "" {
			b.WriteString("\n" + indent + unit)
		}
		b.WriteString(item(i))
	}
	if unit != "" {
		b.WriteString("\n" + indent)
	}
	b.WriteString(close)
	return b.String()
}

// quoteJSON quotes s as a JSON string, without HTML escapes.
func quoteJSON(s string) string { return string(strictjson.AppendString(nil, s)) }
