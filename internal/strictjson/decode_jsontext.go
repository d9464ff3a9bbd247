//go:build jsonv2proto

// A prototype of Decoder on the JSON v2 token layer
// (github.com/go-json-experiment/json/jsontext), built with
// -tags jsonv2proto, to measure it against the Scanner.

package strictjson

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// Meta records which members of one decoded object were present and
// which could not be decoded.
type Meta struct {
	Present, Bad uint32
}

// Whole in Meta.Bad marks a value that is not an object at all.
const Whole uint32 = 1 << 31

// Seg is one step of a JSON path.
type Seg struct {
	Key string
	Idx int
}

// Hint is advice for a member name.
type Hint struct {
	Meant string
	Text  string
}

// Decoder reads a request with a jsontext.Decoder.
type Decoder struct {
	*Scanner
	Segs     []Seg
	Problems List
	NullHint func(segs []Seg) string

	dec    *jsontext.Decoder
	data   []byte
	err    bool
	errOff int
	errMsg string
	block  []byte
	pool   *pooled
}

// decoders keeps jsontext's decoders, whose set-up allocates, for reuse.
var decoders = sync.Pool{New: func() any { return new(pooled) }}

type pooled struct {
	dec jsontext.Decoder
	buf bytes.Buffer
}

func (d *Decoder) init() {
	d.data = d.Scanner.Data
	p := decoders.Get().(*pooled)
	p.buf = *bytes.NewBuffer(d.data)
	p.dec.Reset(&p.buf, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	d.dec = &p.dec
	d.pool = p
}

func (d *Decoder) release() {
	d.pool.buf = bytes.Buffer{}
	decoders.Put(d.pool)
	d.dec, d.pool = nil, nil
}

func (d *Decoder) fail(err error) {
	if d.err {
		return
	}
	d.err = true
	var se *jsontext.SyntacticError
	switch {
	case errors.As(err, &se):
		d.errOff, d.errMsg = int(se.ByteOffset), se.Err.Error()
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		d.errOff, d.errMsg = len(d.data), "unexpected end of input"
	default:
		d.errOff, d.errMsg = int(d.dec.InputOffset()), err.Error()
	}
}

// Failed reports whether a syntax error has been found.
func (d *Decoder) Failed() bool { return d.err }

// Peek returns the first byte of the next value's kind, '0' for a number.
func (d *Decoder) Peek() byte {
	if d.err {
		return 0
	}
	k := d.dec.PeekKind()
	if k == 0 {
		_, err := d.dec.ReadToken()
		d.fail(err)
		return 0
	}
	return byte(k)
}

// Type names the type of the next value.
func (d *Decoder) Type() string {
	switch d.Peek() {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case 0:
		return "nothing"
	}
	return "a number"
}

// Skip moves past the next value, no deeper than MaxDepth.
func (d *Decoder) Skip() {
	if d.err {
		return
	}
	base := d.dec.StackDepth()
	for {
		k := d.dec.PeekKind()
		depth := d.dec.StackDepth() - base
		if k == ']' || k == '}' {
			if _, err := d.dec.ReadToken(); err != nil {
				d.fail(err)
				return
			}
			if depth == 1 {
				return
			}
			continue
		}
		top, n := d.dec.StackIndex(d.dec.StackDepth())
		name := depth > 0 && top == '{' && n%2 == 0
		if !name && depth > MaxDepth {
			d.err, d.errOff, d.errMsg = true, int(d.dec.InputOffset()), "values are nested too deeply"
			return
		}
		tok, err := d.dec.ReadToken()
		if err != nil {
			d.fail(err)
			return
		}
		if k := tok.Kind(); k != '{' && k != '[' && !name && depth == 0 {
			return
		}
	}
}

// Push enters the value of member key.
func (d *Decoder) Push(key string) { d.Segs = append(d.Segs, Seg{Key: key, Idx: -1}) }

// PushIndex enters element i of an array.
func (d *Decoder) PushIndex(i int) { d.Segs = append(d.Segs, Seg{Idx: i}) }

// Pop leaves the value entered last.
func (d *Decoder) Pop() { d.Segs = d.Segs[:len(d.Segs)-1] }

// Object decodes an object with Members.
func (d *Decoder) Object(m *Meta, want string, member func(key string)) {
	if d.Peek() != '{' {
		d.TypeErr(want)
		m.Bad = Whole
		return
	}
	d.Members(member)
}

// Members reads an object member by member.
func (d *Decoder) Members(member func(key string)) {
	if _, err := d.dec.ReadToken(); err != nil {
		d.fail(err)
		return
	}
	for {
		if d.dec.PeekKind() == '}' {
			d.dec.ReadToken()
			return
		}
		raw, err := d.dec.ReadValue()
		if err != nil {
			d.fail(err)
			return
		}
		body := raw[1 : len(raw)-1]
		var key string
		if bytes.IndexByte(body, '\\') < 0 {
			key = unsafe.String(unsafe.SliceData(body), len(body))
		} else {
			u, _ := jsontext.AppendUnquote(nil, raw)
			key = string(u)
		}
		if !utf8.ValidString(key) {
			key = strings.ToValidUTF8(key, "\uFFFD")
		}
		d.Push(key)
		member(key)
		d.Pop()
		if d.err {
			return
		}
	}
}

// WantArray reports whether the next value is an array.
func (d *Decoder) WantArray(m *Meta, bit uint32, want string) bool {
	if d.Peek() != '[' {
		d.TypeErr(want)
		m.Bad |= bit
		return false
	}
	return true
}

// Elements reads an array element by element.
func (d *Decoder) Elements(elem func(i int)) {
	if _, err := d.dec.ReadToken(); err != nil {
		d.fail(err)
		return
	}
	for i := 0; ; i++ {
		k := d.dec.PeekKind()
		if k == ']' {
			d.dec.ReadToken()
			return
		}
		if k == 0 {
			_, err := d.dec.ReadToken()
			d.fail(err)
			return
		}
		d.PushIndex(i)
		elem(i)
		d.Pop()
		if d.err {
			return
		}
	}
}

// Document reads the whole input as one request.
func (d *Decoder) Document(empty string, body func()) bool {
	d.init()
	ok := d.document(empty, body)
	defer d.release()
	if d.err {
		d.Problems = append(d.Problems[:0], Placed{
			Problem: Problem{Message: "invalid JSON at byte offset " + strconv.Itoa(d.errOff) + ": " + d.errMsg},
			Q:       -1, F: -1, O: -1,
		})
		return false
	}
	return ok
}

func (d *Decoder) end() {
	if d.err {
		return
	}
	off := int(d.dec.InputOffset())
	if rest := bytes.TrimLeft(d.data[off:], " \t\r\n"); len(rest) != 0 {
		off = len(d.data) - len(rest)
		d.err, d.errOff, d.errMsg = true, off, "unexpected data after the top-level value"
	}
}

func (d *Decoder) document(empty string, body func()) bool {
	if len(bytes.TrimLeft(d.data, " \t\r\n")) == 0 {
		d.ProblemAt(empty)
		return false
	}
	if d.Peek() != '{' {
		got := d.Type()
		d.Skip()
		if !d.err {
			d.ProblemAt("the request must be a JSON object, got " + got)
			d.end()
		}
		return false
	}
	body()
	d.end()
	return true
}

// Member marks a member present, or reports it as a duplicate.
func (d *Decoder) Member(m *Meta, bit uint32) bool {
	if m.Present&bit != 0 {
		d.ProblemAt("appears more than once; send each field once")
		d.Skip()
		return false
	}
	m.Present |= bit
	m.Bad &^= bit
	return true
}

// keep copies b into the decoder's block.
func (d *Decoder) keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if cap(d.block)-len(d.block) < len(b) {
		d.block = make([]byte, 0, max(len(b), min(len(d.data)-int(d.dec.InputOffset())+len(b), maxChunk)))
	}
	from := len(d.block)
	d.block = append(d.block, b...)
	return unsafe.String(&d.block[from], len(b))
}

// str reads the next string and the offset of its first bad byte.
func (d *Decoder) str() (string, int) {
	raw, err := d.dec.ReadValue()
	if err != nil {
		d.fail(err)
		return "", -1
	}
	start := int(d.dec.InputOffset()) - len(raw)
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		bad := -1
		if !utf8.Valid(body) {
			bad = invalidAt(body, start+1)
		}
		return d.keep(body), bad
	}
	bad := badEscaped(body, start+1)
	if cap(d.block)-len(d.block) < len(body) {
		d.block = make([]byte, 0, max(len(body), min(len(d.data)-int(d.dec.InputOffset())+len(body), maxChunk)))
	}
	from := len(d.block)
	d.block, _ = jsontext.AppendUnquote(d.block, raw)
	return unsafe.String(&d.block[from], len(d.block)-from), bad
}

// badEscaped returns the offset of the first byte that is not UTF-8, or
// of an unpaired surrogate escape, in a string's quoted text.
func badEscaped(b []byte, off int) int {
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '\\':
			if b[i+1] != 'u' {
				i += 2
				continue
			}
			r, _ := strconv.ParseUint(string(b[i+2:i+6]), 16, 32)
			switch {
			case r >= 0xD800 && r < 0xDC00:
				if i+12 <= len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
					lo, _ := strconv.ParseUint(string(b[i+8:i+12]), 16, 32)
					if lo >= 0xDC00 && lo < 0xE000 {
						i += 12
						continue
					}
				}
				return off + i
			case r >= 0xDC00 && r < 0xE000:
				return off + i
			}
			i += 6
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				return off + i
			}
			i += n
		}
	}
	return -1
}

// StringInto reads the next string into dst.
func (d *Decoder) StringInto(dst *string, m *Meta, bit uint32) bool {
	if d.Peek() != '"' {
		d.TypeErr("a string")
		m.Bad |= bit
		return false
	}
	s, bad := d.str()
	if d.err {
		return false
	}
	if bad >= 0 {
		d.ProblemAt("is not valid UTF-8 (at byte offset " + strconv.Itoa(bad) + "); send text as UTF-8")
		m.Bad |= bit
		return false
	}
	*dst = s
	return true
}

// StringMember is Member and then StringInto.
func (d *Decoder) StringMember(dst *string, m *Meta, bit uint32) bool {
	return d.Member(m, bit) && d.StringInto(dst, m, bit)
}

// BoolInto reads the next boolean into dst.
func (d *Decoder) BoolInto(dst *bool, m *Meta, bit uint32) bool {
	if k := d.Peek(); k == 't' || k == 'f' {
		tok, err := d.dec.ReadToken()
		if err != nil {
			d.fail(err)
			return false
		}
		*dst = tok.Bool()
		return true
	}
	d.TypeErr("a boolean (true or false)")
	m.Bad |= bit
	return false
}

// NumberText reads the next number as sent.
func (d *Decoder) NumberText() (string, bool) {
	raw, err := d.dec.ReadValue()
	if err != nil {
		d.fail(err)
		return "", false
	}
	return string(raw), true
}

// BoolMember is Member and then BoolInto.
func (d *Decoder) BoolMember(dst *bool, m *Meta, bit uint32) bool {
	return d.Member(m, bit) && d.BoolInto(dst, m, bit)
}

// OptionalBool is BoolMember for a member that may be left out.
func (d *Decoder) OptionalBool(dst **bool, m *Meta, bit uint32) {
	var b bool
	if d.BoolMember(&b, m, bit) {
		*dst = &b
	}
}

// OptionalString is StringMember for a member that may be left out.
func (d *Decoder) OptionalString(dst **string, m *Meta, bit uint32) {
	var s string
	if d.StringMember(&s, m, bit) {
		*dst = &s
	}
}

// NameMember is StringMember for a named string type.
func NameMember[T ~string](d *Decoder, dst *T, m *Meta, bit uint32) bool {
	var s string
	if !d.StringMember(&s, m, bit) {
		return false
	}
	*dst = T(s)
	return true
}

// Array is Member and then an array of objects.
func Array[T, M any](d *Decoder, vals *[]T, metas *[]M, what string, m *Meta, bit uint32, n int, elem func(*T, *M)) {
	if !d.Member(m, bit) || !d.WantArray(m, bit, "an array of "+what+" objects") {
		return
	}
	*vals = make([]T, 0, n)
	*metas = make([]M, 0, n)
	d.Elements(func(i int) {
		*vals = append(*vals, *new(T))
		*metas = append(*metas, *new(M))
		elem(&(*vals)[i], &(*metas)[i])
	})
}

// Unknown reports a member that the object does not have.
func (d *Decoder) Unknown(m *Meta, key, what string, known []string, hints map[string]Hint) {
	msg := "unknown field " + strconv.Quote(key)
	meant := Suggest(key, known)
	if meant != "" {
		msg += "; did you mean " + strconv.Quote(meant) + "?"
	} else if h, ok := hints[strings.ToLower(key)]; ok {
		msg += "; " + h.Text
		meant = h.Meant
	} else {
		msg += "; the fields of " + what + " are " + strings.Join(known, ", ")
	}
	d.ProblemAt(msg)
	d.Skip()
	misspelt(m, meant, known)
}

func misspelt(m *Meta, meant string, known []string) {
	if i := slices.Index(known, meant); i >= 0 && m.Present&(1<<i) == 0 {
		m.Bad |= 1 << i
	}
}

// TypeErr reports a value of the wrong type and skips it.
func (d *Decoder) TypeErr(want string) {
	got := d.Type()
	msg := "must be " + want + ", got " + got
	if got == "null" {
		if d.NullHint != nil {
			msg += d.NullHint(d.Segs)
		} else {
			msg += "; leave the field out instead of sending null"
		}
	}
	d.ProblemAt(msg)
	d.Skip()
}

// ProblemAt records a problem at the current path.
func (d *Decoder) ProblemAt(msg string) {
	p := Placed{Problem: Problem{Path: RenderPath(d.Segs), Message: msg}, Q: -1, F: -1, O: -1}
	for i, s := range d.Segs {
		if s.Idx < 0 || i == 0 {
			continue
		}
		switch d.Segs[i-1].Key {
		case "questions":
			p.Q = s.Idx
		case "fields":
			p.F = s.Idx
		case "options":
			p.O = s.Idx
		}
	}
	d.Problems = append(d.Problems, p)
}

// RenderPath renders a path.
func RenderPath(segs []Seg) string {
	var b strings.Builder
	for _, s := range segs {
		if s.Idx >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.Idx))
			b.WriteByte(']')
			continue
		}
		AppendMember(&b, s.Key)
	}
	return strings.TrimPrefix(b.String(), ".")
}

// View is what the rule check knows of one object's members.
type View struct {
	M     Meta
	Typed bool
}

// Has reports whether a member was sent.
func (v View) Has(bit uint32, nonZero bool) bool {
	if v.Typed {
		return nonZero
	}
	return v.M.Present&bit != 0
}

// OK reports whether a member decoded.
func (v View) OK(bit uint32) bool { return v.Typed || v.M.Bad&bit == 0 }
