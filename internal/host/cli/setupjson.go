package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// jsonObject is an object of a JSON text as positions in it, so that a
// member can be added without touching the rest of the text.
type jsonObject struct {
	open, close int // offsets of '{' and '}'
	members     []jsonMember
}

// jsonMember is one member of a jsonObject.
type jsonMember struct {
	name                 string
	keyStart             int
	valueStart, valueEnd int
	object               *jsonObject // the value, when it is an object
}

// jsonScanner reads a JSON text, or JSONC (comments and trailing commas)
// when comments is set, and records where each object and member is.
type jsonScanner struct {
	src      []byte
	pos      int
	comments bool
	file     string
}

// syntaxError reports a fault at offset off as file:line:col.
func (s *jsonScanner) syntaxError(off int, format string, args ...any) error {
	line, col := 1, 1
	for _, c := range s.src[:min(off, len(s.src))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	kind := "JSON"
	if s.comments {
		kind = "JSON with comments"
	}
	return fmt.Errorf("%s:%d:%d: not valid %s: %s", s.file, line, col, kind, fmt.Sprintf(format, args...))
}

// parseJSONObjectText parses src, whose top-level value must be an object.
func parseJSONObjectText(file string, src []byte, comments bool) (*jsonObject, error) {
	s := &jsonScanner{src: src, comments: comments, file: file}
	if err := s.space(); err != nil {
		return nil, err
	}
	if s.pos >= len(src) || src[s.pos] != '{' {
		return nil, s.syntaxError(s.pos, "the file must hold one JSON object")
	}
	v, _, err := s.value()
	if err != nil {
		return nil, err
	}
	if err := s.space(); err != nil {
		return nil, err
	}
	if s.pos != len(src) {
		return nil, s.syntaxError(s.pos, "unexpected %q after the object", src[s.pos])
	}
	return v, nil
}

// space skips white space and, in JSONC, comments.
func (s *jsonScanner) space() error {
	for s.pos < len(s.src) {
		switch c := s.src[s.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			s.pos++
		case c == '/' && s.comments && s.pos+1 < len(s.src) && s.src[s.pos+1] == '/':
			for s.pos < len(s.src) && s.src[s.pos] != '\n' {
				s.pos++
			}
		case c == '/' && s.comments && s.pos+1 < len(s.src) && s.src[s.pos+1] == '*':
			end := bytes.Index(s.src[s.pos+2:], []byte("*/"))
			if end < 0 {
				return s.syntaxError(s.pos, "comment not closed")
			}
			s.pos += end + 4
		default:
			return nil
		}
	}
	return nil
}

// value reads one value; it returns the object when the value is one.
func (s *jsonScanner) value() (*jsonObject, int, error) {
	start := s.pos
	if s.pos >= len(s.src) {
		return nil, start, s.syntaxError(s.pos, "unexpected end of file")
	}
	switch c := s.src[s.pos]; {
	case c == '{':
		o, err := s.object()
		return o, start, err
	case c == '[':
		s.pos++
		for first := true; ; first = false {
			if err := s.space(); err != nil {
				return nil, start, err
			}
			if s.pos < len(s.src) && s.src[s.pos] == ']' && (first || s.comments) {
				s.pos++
				return nil, start, nil
			}
			if _, _, err := s.value(); err != nil {
				return nil, start, err
			}
			if err := s.space(); err != nil {
				return nil, start, err
			}
			if s.pos < len(s.src) && s.src[s.pos] == ']' {
				s.pos++
				return nil, start, nil
			}
			if s.pos >= len(s.src) || s.src[s.pos] != ',' {
				return nil, start, s.unexpected("',' or ']'")
			}
			s.pos++
		}
	case c == '"':
		_, err := s.str()
		return nil, start, err
	default:
		end := s.pos
		for end < len(s.src) && strings.IndexByte("+-0123456789.eEtruefalsn", s.src[end]) >= 0 {
			end++
		}
		var v any
		if end == s.pos || json.Unmarshal(s.src[s.pos:end], &v) != nil {
			return nil, start, s.unexpected("a value")
		}
		s.pos = end
		return nil, start, nil
	}
}

func (s *jsonScanner) unexpected(want string) error {
	if s.pos >= len(s.src) {
		return s.syntaxError(s.pos, "unexpected end of file, want %s", want)
	}
	return s.syntaxError(s.pos, "unexpected %q, want %s", s.src[s.pos], want)
}

// str reads a string and returns its value.
func (s *jsonScanner) str() (string, error) {
	start := s.pos
	s.pos++
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case '\\':
			s.pos += 2
			continue
		case '"':
			s.pos++
			var v string
			if err := json.Unmarshal(s.src[start:s.pos], &v); err != nil {
				return "", s.syntaxError(start, "bad string")
			}
			return v, nil
		case '\n':
			return "", s.syntaxError(s.pos, "newline in a string")
		}
		s.pos++
	}
	return "", s.syntaxError(start, "string not closed")
}

func (s *jsonScanner) object() (*jsonObject, error) {
	o := &jsonObject{open: s.pos}
	s.pos++
	for first := true; ; first = false {
		if err := s.space(); err != nil {
			return nil, err
		}
		if s.pos < len(s.src) && s.src[s.pos] == '}' && (first || s.comments) {
			o.close = s.pos
			s.pos++
			return o, nil
		}
		if s.pos >= len(s.src) || s.src[s.pos] != '"' {
			return nil, s.unexpected("a member name")
		}
		m := jsonMember{keyStart: s.pos}
		name, err := s.str()
		if err != nil {
			return nil, err
		}
		m.name = name
		if err := s.space(); err != nil {
			return nil, err
		}
		if s.pos >= len(s.src) || s.src[s.pos] != ':' {
			return nil, s.unexpected("':'")
		}
		s.pos++
		if err := s.space(); err != nil {
			return nil, err
		}
		if m.object, m.valueStart, err = s.value(); err != nil {
			return nil, err
		}
		m.valueEnd = s.pos
		o.members = append(o.members, m)
		if err := s.space(); err != nil {
			return nil, err
		}
		if s.pos < len(s.src) && s.src[s.pos] == '}' {
			o.close = s.pos
			s.pos++
			return o, nil
		}
		if s.pos >= len(s.src) || s.src[s.pos] != ',' {
			return nil, s.unexpected("',' or '}'")
		}
		s.pos++
	}
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
	root, err := parseJSONObjectText(file, src, comments)
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
			s := &jsonScanner{src: src, file: file}
			return nil, 0, s.syntaxError(m.valueStart, "%q is not an object", p)
		}
		o = m.object
	}
	if m := o.member(name); m != nil {
		clean := stripJSONC(src)
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
		indent = lineIndent(src, o.members[0].keyStart)
		if bytes.LastIndexByte(src[:o.members[0].keyStart], '\n') < o.open {
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
// at the same offsets.
func stripJSONC(src []byte) []byte {
	out := bytes.Clone(src)
	inStr := false
	lastComma := -1
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr, lastComma = true, -1
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			for ; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			if i+1 < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		case c == ',':
			lastComma = i
		case c == '}' || c == ']':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		case c != ' ' && c != '\t' && c != '\n' && c != '\r':
			lastComma = -1
		}
	}
	return out
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
func quoteJSON(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
