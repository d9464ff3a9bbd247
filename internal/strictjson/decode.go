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

package strictjson

import (
	"slices"
	"strconv"
	"strings"
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

// Members reads the object whose '{' is at the scanner's position member
// by member: it calls member with each key, pushed on the path, and the
// scanner at the value, which member must read or skip. It stops at a
// syntax error.
func (d *Decoder) Members(member func(key string)) {
	d.Open()
	for first := true; ; {
		key, ok := d.NextKey(&first)
		if !ok {
			return
		}
		d.Push(key)
		member(key)
		d.Pop()
		if d.Failed() {
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

// Elements reads the array whose '[' is at the scanner's position element
// by element: it calls elem with each index, pushed on the path, and the
// scanner at the element, which elem must read or skip. It stops at a
// syntax error.
func (d *Decoder) Elements(elem func(i int)) {
	d.Open()
	for first, i := true, 0; d.NextElem(&first); i++ {
		d.PushIndex(i)
		elem(i)
		d.Pop()
		if d.Failed() {
			return
		}
	}
}

// Document reads the whole input as one request: an object, which body
// reads from its '{' (with Members), and nothing after it but white
// space. Input with no value is the problem empty; a value that is not an
// object is a problem too. Invalid JSON replaces every problem found with
// one that gives its byte offset, since nothing after it can be trusted.
// Document reports whether the object was read, so that the rules may
// judge it: not after any of these.
func (d *Decoder) Document(empty string, body func()) bool {
	ok := d.document(empty, body)
	if off, msg := d.Err(); off >= 0 {
		d.Problems = append(d.Problems[:0], Placed{
			Problem: Problem{Message: "invalid JSON at byte offset " + strconv.Itoa(off) + ": " + msg},
			Q:       -1, F: -1, O: -1,
		})
		return false
	}
	return ok
}

func (d *Decoder) document(empty string, body func()) bool {
	if d.AtEnd() {
		d.ProblemAt(empty)
		return false
	}
	if d.Peek() != '{' {
		got := d.Type()
		d.Skip()
		if !d.Failed() {
			d.ProblemAt("the request must be a JSON object, got " + got)
			d.End()
		}
		return false
	}
	body()
	d.End()
	return true
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

// StringInto reads the string at the scanner's position into dst. A
// value of another type, or text that is not UTF-8, is reported and marks
// bit bad in m. It reports whether dst was set.
func (d *Decoder) StringInto(dst *string, m *Meta, bit uint32) bool {
	if d.Peek() != '"' {
		d.TypeErr("a string")
		m.Bad |= bit
		return false
	}
	s, bad := d.String()
	if d.Failed() {
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

// BoolInto reads the boolean at the scanner's position into dst. A value
// of another type is reported and marks bit bad in m. It reports whether
// dst was set.
func (d *Decoder) BoolInto(dst *bool, m *Meta, bit uint32) bool {
	if v, ok := d.Bool(); ok {
		*dst = v
		return true
	}
	d.TypeErr("a boolean (true or false)")
	m.Bad |= bit
	return false
}

// NumberText reads the number at the scanner's position and returns its
// text as sent, for a reader that must read it exactly. It returns false
// on a syntax error.
func (d *Decoder) NumberText() (string, bool) {
	start := d.Pos
	if !d.Number() {
		return "", false
	}
	return string(d.Data[start:d.Pos]), true
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
