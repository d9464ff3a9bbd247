// What both request decoders, ask_user's and AskUserQuestion's, do with
// each member of an object they read with a Scanner: record that it was
// sent, refuse a second one, read a string or a boolean, name an unknown
// member with a suggestion, and report each problem at its JSON path.
//
// A decoder records, for each object, which members were present and
// which failed to decode (see Meta), so that the rules applied after
// decoding neither repeat a decoding problem nor judge a value that was
// never read (see View). The rules applied to what was decoded, and the
// problem type, are in problems.go and text.go.

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
// which could not be decoded, one bit a member, numbered in the order of
// the object's list of member names (see Unknown).
type Meta struct {
	Present, Bad uint32
}

// Whole in Meta.Bad marks a value that is not an object at all.
const Whole uint32 = 1 << 31

// Seg is one step of a JSON path: a member name, or an index when
// Idx >= 0.
type Seg struct {
	Key string
	Idx int
}

// Hint is advice for a member name that models tend to send in place of
// a real one: the name, by its lower case, the member meant, if any, and
// what to say after "unknown field %q; ".
type Hint struct {
	Name  string
	Meant string
	Text  string
}

// Object is what a request decoder knows of one kind of object: what
// messages call it ("an option"), its member names, in the order of their
// bits in Meta, and the hints for names models send in place of them. A
// list rather than a map, so that an Object is data the linker drops
// where no decoder reads it, not code run at start-up.
type Object struct {
	What  string
	Names []string
	Hints []Hint
}

// Decoder is the state both request decoders share: the scanner, the
// path to the value at its position, and the problems found.
type Decoder struct {
	*Scanner
	Segs     []Seg
	Problems List
	// NullHint, when set, returns what a type error says after "got
	// null" at the path segs; without it, the advice is to leave the
	// member out.
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

// j returns the token decoder, set up on first use.
func (d *Decoder) j() *jsontext.Decoder {
	if d.dec == nil {
		d.init()
	}
	return d.dec
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
		d.errOff, d.errMsg = int(d.j().InputOffset()), err.Error()
	}
}

// Failed reports whether a syntax error has been found.
func (d *Decoder) Failed() bool { return d.err }

// Peek returns the first byte of the next value's kind, '0' for a number.
func (d *Decoder) Peek() byte {
	if d.err {
		return 0
	}
	k := d.j().PeekKind()
	if k == 0 {
		_, err := d.j().ReadToken()
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
	base := d.j().StackDepth()
	for {
		k := d.j().PeekKind()
		depth := d.j().StackDepth() - base
		if k == ']' || k == '}' {
			if _, err := d.j().ReadToken(); err != nil {
				d.fail(err)
				return
			}
			if depth == 1 {
				return
			}
			continue
		}
		top, n := d.j().StackIndex(d.j().StackDepth())
		name := depth > 0 && top == '{' && n%2 == 0
		if !name && depth > MaxDepth {
			d.err, d.errOff, d.errMsg = true, int(d.j().InputOffset()), "values are nested too deeply"
			return
		}
		tok, err := d.j().ReadToken()
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

// Object decodes the object at the scanner's position with Members. A
// value that is not an object is a type error, what is wanted being
// want, that marks the whole object bad in m.
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
	if _, err := d.j().ReadToken(); err != nil {
		d.fail(err)
		return
	}
	for {
		if d.j().PeekKind() == '}' {
			d.j().ReadToken()
			return
		}
		raw, err := d.j().ReadValue()
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

// WantArray reports whether the value at the scanner's position is an
// array, to be read with Elements. A value that is not is a type error,
// what is wanted being want, that marks bit bad in m.
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
	if _, err := d.j().ReadToken(); err != nil {
		d.fail(err)
		return
	}
	for i := 0; ; i++ {
		k := d.j().PeekKind()
		if k == ']' {
			d.j().ReadToken()
			return
		}
		if k == 0 {
			_, err := d.j().ReadToken()
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
	d.j()
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

func (d *Decoder) end() {
	if d.err {
		return
	}
	off := int(d.j().InputOffset())
	if rest := bytes.TrimLeft(d.data[off:], " \t\r\n"); len(rest) != 0 {
		off = len(d.data) - len(rest)
		d.err, d.errOff, d.errMsg = true, off, "unexpected data after the top-level value"
	}
}

// keep copies b into the decoder's block.
func (d *Decoder) keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if cap(d.block)-len(d.block) < len(b) {
		d.block = make([]byte, 0, max(len(b), min(len(d.data)-int(d.j().InputOffset())+len(b), maxChunk)))
	}
	from := len(d.block)
	d.block = append(d.block, b...)
	return unsafe.String(&d.block[from], len(b))
}

// str reads the next string and the offset of its first bad byte.
func (d *Decoder) str() (string, int) {
	raw, err := d.j().ReadValue()
	if err != nil {
		d.fail(err)
		return "", -1
	}
	start := int(d.j().InputOffset()) - len(raw)
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
		d.block = make([]byte, 0, max(len(body), min(len(d.data)-int(d.j().InputOffset())+len(body), maxChunk)))
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

// Member marks a member present, or reports it as a duplicate and skips
// its value. It reports whether the value is to be decoded.
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

// StringMember is Member and then StringInto, for a string member.
func (d *Decoder) StringMember(dst *string, m *Meta, bit uint32) bool {
	return d.Member(m, bit) && d.StringInto(dst, m, bit)
}

// BoolInto reads the next boolean into dst.
func (d *Decoder) BoolInto(dst *bool, m *Meta, bit uint32) bool {
	if k := d.Peek(); k == 't' || k == 'f' {
		tok, err := d.j().ReadToken()
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
	raw, err := d.j().ReadValue()
	if err != nil {
		d.fail(err)
		return "", false
	}
	return string(raw), true
}

// BoolMember is Member and then BoolInto, for a boolean member.
func (d *Decoder) BoolMember(dst *bool, m *Meta, bit uint32) bool {
	return d.Member(m, bit) && d.BoolInto(dst, m, bit)
}

// OptionalBool is BoolMember for a member that may be left out: *dst
// points to the value once it is read, and stays nil otherwise.
func (d *Decoder) OptionalBool(dst **bool, m *Meta, bit uint32) {
	var b bool
	if d.BoolMember(&b, m, bit) {
		*dst = &b
	}
}

// OptionalString is StringMember for a member that may be left out: *dst
// points to the text once it is read, and stays nil otherwise.
func (d *Decoder) OptionalString(dst **string, m *Meta, bit uint32) {
	var s string
	if d.StringMember(&s, m, bit) {
		*dst = &s
	}
}

// Array is Member and then the JSON array at the scanner's position, each
// element decoded by elem into a value and its record, put in *vals and
// *metas; an empty array gives empty, non-nil slices. A value that is not
// an array is a type error that marks bit bad in m and leaves both slices
// as they were. what names the elements in that message; n is the usual
// most elements, to size the slices.
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

// Field reads member key of an object of kind o whose record is m. dst
// holds, in the order of o.Names, where each member's value goes: a
// *string or a *bool for a member read as it is (a string type of its
// own, such as a question's kind, converted to *string), a **string or a
// **bool for one that stays nil when left out, or nil for a member the
// caller reads itself; dst may end before the members the caller reads.
// Field returns such a member's bit, for the caller to read it (with
// Member first), and 0 when it has read the member or reported it
// unknown.
func (d *Decoder) Field(key string, o *Object, m *Meta, dst ...any) uint32 {
	i := slices.Index(o.Names, key)
	if i < 0 {
		d.Unknown(m, key, o)
		return 0
	}
	bit := uint32(1) << i
	if i >= len(dst) {
		return bit
	}
	switch p := dst[i].(type) {
	case *string:
		d.StringMember(p, m, bit)
	case *bool:
		d.BoolMember(p, m, bit)
	case **string:
		d.OptionalString(p, m, bit)
	case **bool:
		d.OptionalBool(p, m, bit)
	case nil:
		return bit
	default:
		panic("strictjson: Field cannot read a member into this type")
	}
	return 0
}

// Unknown reports a member that an object of kind o does not have, with
// a suggestion when one is likely: a known name it is a misspelling of,
// or else its hint. It skips the value, and marks the member the name
// most likely stood for as not decodable (see misspelt).
func (d *Decoder) Unknown(m *Meta, key string, o *Object) {
	msg := "unknown field " + strconv.Quote(key)
	meant, lower := Suggest(key, o.Names), strings.ToLower(key)
	if meant != "" {
		msg += "; did you mean " + strconv.Quote(meant) + "?"
	} else if i := slices.IndexFunc(o.Hints, func(h Hint) bool { return h.Name == lower }); i >= 0 {
		msg += "; " + o.Hints[i].Text
		meant = o.Hints[i].Meant
	} else {
		msg += "; the fields of " + o.What + " are " + strings.Join(o.Names, ", ")
	}
	d.ProblemAt(msg)
	d.Skip()
	misspelt(m, meant, o.Names)
}

// misspelt marks the member a misspelt name stood for, meant, as not
// decodable, unless it was sent under its own name too, so that the rules
// do not also report it as missing. The mark goes when the real name
// follows. Bit i of m stands for known[i].
func misspelt(m *Meta, meant string, known []string) {
	if i := slices.Index(known, meant); i >= 0 && m.Present&(1<<i) == 0 {
		m.Bad |= 1 << i
	}
}

// TypeErr reports a value of the wrong type, when want was wanted, and
// skips it.
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

// RenderPath renders a path as askuser's problems name it, such as
// questions[1].options[0].id.
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

// View is what the rule check after decoding knows of one object's
// members: for a decoded request its Meta; for a request built in Go,
// Typed, only that each member is a field that holds a value.
type View struct {
	M     Meta
	Typed bool
}

// Has reports whether a member was sent. In a typed request a member is
// sent when it is not its zero value, which nonZero tells.
func (v View) Has(bit uint32, nonZero bool) bool {
	if v.Typed {
		return nonZero
	}
	return v.M.Present&bit != 0
}

// OK reports whether a member decoded, so that the rules may look at it.
func (v View) OK(bit uint32) bool { return v.Typed || v.M.Bad&bit == 0 }
