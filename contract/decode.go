package contract

import (
	"slices"
	"strconv"
	"strings"

	"github.com/askuser/askuser/internal/jsonnum"
	"github.com/askuser/askuser/internal/jsonpath"
	"github.com/askuser/askuser/internal/jsonscan"
)

// The decoder reads a request with internal/jsonscan, the strict scanner
// both contracts share. encoding/json is not used because it matches keys
// without regard to case, keeps the last of duplicate keys and turns
// invalid UTF-8 into U+FFFD; all three would let a malformed call
// through. The decoder walks the input once, fills a Request, and records
// for each object which members were present and which failed to decode,
// so that the rule check neither repeats a decoding problem nor builds on
// a value that was never read.

// The members of each object, one bit each. present and bad in objMeta
// use these bits.
const (
	rQuestions uint32 = 1 << iota
	rHeader
	rAllowFreeText
	rDisplayMode
	rTimeout
)

const (
	qID uint32 = 1 << iota
	qTitle
	qPrompt
	qKind
	qOptions
	qDefault
	qFields
)

const (
	oLabel uint32 = 1 << iota
	oDescription
	oPreview
)

const (
	fName uint32 = 1 << iota
	fLabel
	fKind
	fRequired
	fOptions
	fDefault
)

// whole marks an object that is not an object at all.
const whole uint32 = 1 << 31

// objMeta records which members of one decoded object were present and
// which could not be decoded.
type objMeta struct {
	present, bad uint32
}

type reqMeta struct {
	obj       objMeta
	questions []questionMeta
}

type questionMeta struct {
	obj     objMeta
	options []objMeta
	fields  []fieldMeta
}

type fieldMeta struct {
	obj     objMeta
	options []objMeta
}

// The member names of each object, in the order the schema lists them.
var (
	requestKeys  = []string{"questions", "header", "allowFreeText", "displayMode", "timeoutPerQuestionMs"}
	questionKeys = []string{"id", "title", "prompt", "kind", "options", "default", "fields"}
	optionKeys   = []string{"label", "description", "preview"}
	fieldKeys    = []string{"name", "label", "kind", "required", "options", "default"}
)

// hint is advice for a member name that models tend to send in place of
// a real one: the member meant, if any, and what to say after
// "unknown field %q; ".
type hint struct {
	meant string
	text  string
}

// The hints of each object, by lowercased name.
var (
	requestHints = map[string]hint{
		"title":    {"header", `use "header" for a heading above the questionnaire`},
		"timeout":  {"timeoutPerQuestionMs", `use "timeoutPerQuestionMs"`},
		"freetext": {"allowFreeText", `use "allowFreeText"`},
		"question": {"questions", `put questions in the "questions" array`},
	}
	questionHints = map[string]hint{
		"question":    {"title", `use "title" for the question text`},
		"text":        {"title", `use "title" for the question text`},
		"label":       {"title", `use "title" for the question text`},
		"header":      {"title", `use "title"; "header" belongs at the top level`},
		"description": {"prompt", `use "prompt" for a hint under the title`},
		"choices":     {"options", `use "options"`},
		"type":        {"kind", `use "kind"`},
		"multiselect": {"kind", `set "kind" to "multi" instead`},
		"required":    {"", `every question is required; remove "required"`},
		"placeholder": {"default", `use "default" to pre-fill the text`},
	}
	optionHints = map[string]hint{
		"value": {"label", `use "label"; the label is what the answer reports`},
		"text":  {"label", `use "label"`},
		"title": {"label", `use "label"`},
		"name":  {"label", `use "label"`},
		"id":    {"", `options have no id; the label identifies the option`},
	}
	fieldHints = map[string]hint{
		"id":      {"name", `use "name" for the field's output key`},
		"key":     {"name", `use "name" for the field's output key`},
		"title":   {"label", `use "label"`},
		"type":    {"kind", `use "kind"`},
		"choices": {"options", `use "options"`},
		"fields":  {"", `forms are flat: a field cannot hold fields`},
	}
)

// seg is one step of a JSON path: a member name, or an index when idx >= 0.
type seg struct {
	key string
	idx int
}

type decoder struct {
	sc *jsonscan.Scanner
	// stop is set when the input cannot be a request at all; a syntax
	// error in sc stops the decoder too.
	stop  bool
	segs  []seg
	probs []problem
}

// failed reports whether decoding has stopped.
func (d *decoder) failed() bool { return d.stop || d.sc.Failed() }

// problem is a Problem with its position in the questionnaire, used to
// order problems question by question.
type problem struct {
	Problem
	q, f, o int
}

// decode fills r and m from data and reports whether the input was
// well-formed JSON. Problems go to d.probs.
func (d *decoder) decode(r *Request, m *reqMeta) {
	d.sc.Space()
	if d.sc.Pos >= len(d.sc.Data) {
		d.problemAt(`the request is empty; send a JSON object such as {"questions":[{"title":"…"}]}`)
		d.stop = true
		return
	}
	if d.sc.Data[d.sc.Pos] != '{' {
		got := d.sc.Type()
		d.sc.Skip()
		if d.failed() {
			return
		}
		d.problemAt("the request must be a JSON object, got " + got)
		d.trailing()
		d.stop = true
		return
	}
	d.request(r, m)
	if d.failed() {
		return
	}
	d.trailing()
}

func (d *decoder) trailing() {
	d.sc.Space()
	if d.sc.Pos < len(d.sc.Data) {
		d.sc.Fail(d.sc.Pos, "unexpected data after the top-level value")
	}
}

func (d *decoder) request(r *Request, m *reqMeta) {
	d.sc.Pos++ // '{'
	for first := true; ; {
		key, ok := d.sc.NextKey(&first)
		if !ok {
			return
		}
		d.push(key)
		switch key {
		case "questions":
			if d.member(&m.obj, rQuestions) {
				d.questions(r, m)
			}
		case "header":
			if d.member(&m.obj, rHeader) {
				d.stringInto(&r.Header, &m.obj, rHeader)
			}
		case "allowFreeText":
			if d.member(&m.obj, rAllowFreeText) {
				var b bool
				if d.boolInto(&b, &m.obj, rAllowFreeText) {
					r.AllowFreeText = &b
				}
			}
		case "displayMode":
			if d.member(&m.obj, rDisplayMode) {
				var s string
				d.stringInto(&s, &m.obj, rDisplayMode)
				r.DisplayMode = DisplayMode(s)
			}
		case "timeoutPerQuestionMs":
			if d.member(&m.obj, rTimeout) {
				d.timeout(r, m)
			}
		default:
			misspelt(&m.obj, d.unknown(key, "the request", requestKeys, requestHints), requestKeys)
		}
		d.pop()
		if d.failed() {
			return
		}
	}
}

func (d *decoder) timeout(r *Request, m *reqMeta) {
	c := d.sc.Data[d.sc.Pos]
	if c != '-' && (c < '0' || c > '9') {
		d.typeErr("a whole number of milliseconds")
		m.obj.bad |= rTimeout
		return
	}
	start := d.sc.Pos
	if !d.sc.Number() {
		return
	}
	n, msg := jsonnum.WholeMillis(string(d.sc.Data[start:d.sc.Pos]), jsonnum.MaxSafeInteger)
	if msg != "" {
		d.problemAt(msg)
		m.obj.bad |= rTimeout
		return
	}
	r.TimeoutPerQuestionMs = &n
}

func (d *decoder) questions(r *Request, m *reqMeta) {
	r.Questions, m.questions = array(d, "question", &m.obj, rQuestions, MaxQuestions, (*decoder).question)
}

func (d *decoder) question(q *Question, m *questionMeta) {
	if d.sc.Data[d.sc.Pos] != '{' {
		d.typeErr("a question object")
		m.obj.bad = whole
		return
	}
	d.sc.Pos++
	for first := true; ; {
		key, ok := d.sc.NextKey(&first)
		if !ok {
			return
		}
		d.push(key)
		switch key {
		case "id":
			if d.member(&m.obj, qID) {
				d.stringInto(&q.ID, &m.obj, qID)
			}
		case "title":
			if d.member(&m.obj, qTitle) {
				d.stringInto(&q.Title, &m.obj, qTitle)
			}
		case "prompt":
			if d.member(&m.obj, qPrompt) {
				d.stringInto(&q.Prompt, &m.obj, qPrompt)
			}
		case "kind":
			if d.member(&m.obj, qKind) {
				var s string
				d.stringInto(&s, &m.obj, qKind)
				q.Kind = Kind(s)
			}
		case "options":
			if d.member(&m.obj, qOptions) {
				q.Options, m.options = d.options(&m.obj, qOptions)
			}
		case "default":
			if d.member(&m.obj, qDefault) {
				q.Default = d.value(&m.obj, qDefault)
			}
		case "fields":
			if d.member(&m.obj, qFields) {
				d.fields(q, m)
			}
		default:
			misspelt(&m.obj, d.unknown(key, "a question", questionKeys, questionHints), questionKeys)
		}
		d.pop()
		if d.failed() {
			return
		}
	}
}

func (d *decoder) options(om *objMeta, bit uint32) ([]Option, []objMeta) {
	return array(d, "option", om, bit, MaxOptions, (*decoder).option)
}

// array decodes the JSON array at d.sc.Pos, each element with elem, into
// values and their metadata; an empty array gives empty, non-nil slices.
// A value that is not an array is a type error that marks bit bad in om,
// and gives nil slices. n is the usual most elements, to size the slices.
func array[T, M any](d *decoder, what string, om *objMeta, bit uint32, n int, elem func(*decoder, *T, *M)) ([]T, []M) {
	if d.sc.Data[d.sc.Pos] != '[' {
		d.typeErr("an array of " + what + " objects")
		om.bad |= bit
		return nil, nil
	}
	d.sc.Pos++
	vals := make([]T, 0, n)
	metas := make([]M, 0, n)
	for first := true; d.sc.NextElem(&first); {
		i := len(vals)
		vals = append(vals, *new(T))
		metas = append(metas, *new(M))
		d.pushIndex(i)
		elem(d, &vals[i], &metas[i])
		d.pop()
		if d.failed() {
			break
		}
	}
	return vals, metas
}

func (d *decoder) option(o *Option, m *objMeta) {
	if d.sc.Data[d.sc.Pos] != '{' {
		d.typeErr(`an option object such as {"label":"…"}`)
		m.bad = whole
		return
	}
	d.sc.Pos++
	for first := true; ; {
		key, ok := d.sc.NextKey(&first)
		if !ok {
			return
		}
		d.push(key)
		switch key {
		case "label":
			if d.member(m, oLabel) {
				d.stringInto(&o.Label, m, oLabel)
			}
		case "description":
			if d.member(m, oDescription) {
				d.stringInto(&o.Description, m, oDescription)
			}
		case "preview":
			if d.member(m, oPreview) {
				d.stringInto(&o.Preview, m, oPreview)
			}
		default:
			misspelt(m, d.unknown(key, "an option", optionKeys, optionHints), optionKeys)
		}
		d.pop()
		if d.failed() {
			return
		}
	}
}

func (d *decoder) fields(q *Question, m *questionMeta) {
	q.Fields, m.fields = array(d, "field", &m.obj, qFields, MaxFormFields, (*decoder).field)
}

func (d *decoder) field(f *Field, m *fieldMeta) {
	if d.sc.Data[d.sc.Pos] != '{' {
		d.typeErr("a field object")
		m.obj.bad = whole
		return
	}
	d.sc.Pos++
	for first := true; ; {
		key, ok := d.sc.NextKey(&first)
		if !ok {
			return
		}
		d.push(key)
		switch key {
		case "name":
			if d.member(&m.obj, fName) {
				d.stringInto(&f.Name, &m.obj, fName)
			}
		case "label":
			if d.member(&m.obj, fLabel) {
				d.stringInto(&f.Label, &m.obj, fLabel)
			}
		case "kind":
			if d.member(&m.obj, fKind) {
				var s string
				d.stringInto(&s, &m.obj, fKind)
				f.Kind = Kind(s)
			}
		case "required":
			if d.member(&m.obj, fRequired) {
				d.boolInto(&f.Required, &m.obj, fRequired)
			}
		case "options":
			if d.member(&m.obj, fOptions) {
				f.Options, m.options = d.options(&m.obj, fOptions)
			}
		case "default":
			if d.member(&m.obj, fDefault) {
				f.Default = d.value(&m.obj, fDefault)
			}
		default:
			misspelt(&m.obj, d.unknown(key, "a form field", fieldKeys, fieldHints), fieldKeys)
		}
		d.pop()
		if d.failed() {
			return
		}
	}
}

// value decodes a default: a string, a boolean or an array of strings.
// Which of them is allowed depends on the kind, which the rule check
// decides.
func (d *decoder) value(m *objMeta, bit uint32) *Value {
	switch d.sc.Data[d.sc.Pos] {
	case '"':
		var s string
		if !d.stringInto(&s, m, bit) {
			return nil
		}
		v := StringValue(s)
		return &v
	case 't', 'f':
		var b bool
		if !d.boolInto(&b, m, bit) {
			return nil
		}
		v := BoolValue(b)
		return &v
	case '[':
		d.sc.Pos++
		list := []string{}
		ok := true
		for first := true; d.sc.NextElem(&first); {
			d.pushIndex(len(list))
			var s string
			if d.sc.Data[d.sc.Pos] != '"' {
				d.typeErr("a string (an option label)")
				ok = false
			} else if !d.stringInto(&s, m, bit) {
				ok = false
			}
			list = append(list, s)
			d.pop()
			if d.failed() {
				return nil
			}
		}
		if !ok {
			m.bad |= bit
			return nil
		}
		return &Value{kind: ValueStrings, list: list}
	}
	d.typeErr("a string, a boolean or an array of strings, as the kind requires")
	m.bad |= bit
	return nil
}

// member marks a member present, or reports it as a duplicate and skips
// its value. It reports whether the value is to be decoded.
func (d *decoder) member(m *objMeta, bit uint32) bool {
	if m.present&bit != 0 {
		d.problemAt("appears more than once; send each field once")
		d.sc.Skip()
		return false
	}
	m.present |= bit
	m.bad &^= bit
	return true
}

func (d *decoder) stringInto(dst *string, m *objMeta, bit uint32) bool {
	if d.sc.Data[d.sc.Pos] != '"' {
		d.typeErr("a string")
		m.bad |= bit
		return false
	}
	s, bad := d.sc.String()
	if d.failed() {
		return false
	}
	if bad >= 0 {
		d.problemAt("is not valid UTF-8 (at byte offset " + strconv.Itoa(bad) + "); send text as UTF-8")
		m.bad |= bit
		return false
	}
	*dst = s
	return true
}

func (d *decoder) boolInto(dst *bool, m *objMeta, bit uint32) bool {
	if v, ok := d.sc.Bool(); ok {
		*dst = v
		return true
	}
	d.typeErr("a boolean (true or false)")
	m.bad |= bit
	return false
}

// unknown reports a member that the object does not have, with a
// suggestion when one is likely, and skips its value. It returns the
// member the name most likely stood for, or "".
func (d *decoder) unknown(key, what string, known []string, hints map[string]hint) string {
	msg := "unknown field " + strconv.Quote(key)
	meant := jsonscan.Suggest(key, known)
	if meant != "" {
		msg += "; did you mean " + strconv.Quote(meant) + "?"
	} else if h, ok := hints[strings.ToLower(key)]; ok {
		msg += "; " + h.text
		meant = h.meant
	} else {
		msg += "; the fields of " + what + " are " + strings.Join(known, ", ")
	}
	d.problemAt(msg)
	d.sc.Skip()
	return meant
}

// misspelt marks the member a misspelt name stood for as not decodable,
// unless it was sent under its own name too, so that the rules do not
// also report it as missing. The mark goes when the real name follows.
func misspelt(m *objMeta, meant string, known []string) {
	if i := slices.Index(known, meant); i >= 0 && m.present&(1<<i) == 0 {
		m.bad |= 1 << i
	}
}

func (d *decoder) push(key string) { d.segs = append(d.segs, seg{key: key, idx: -1}) }
func (d *decoder) pushIndex(i int) { d.segs = append(d.segs, seg{idx: i}) }
func (d *decoder) pop()            { d.segs = d.segs[:len(d.segs)-1] }

// typeErr reports a value of the wrong type and skips it.
func (d *decoder) typeErr(want string) {
	got := d.sc.Type()
	msg := "must be " + want + ", got " + got
	if got == "null" {
		msg += "; leave the field out instead of sending null"
	}
	d.problemAt(msg)
	d.sc.Skip()
}

// problemAt records a problem at the current path.
func (d *decoder) problemAt(msg string) {
	p := problem{Problem: Problem{Path: renderPath(d.segs), Message: msg}, q: -1, f: -1, o: -1}
	for i, s := range d.segs {
		if s.idx < 0 || i == 0 {
			continue
		}
		switch d.segs[i-1].key {
		case "questions":
			p.q = s.idx
		case "fields":
			p.f = s.idx
		case "options":
			p.o = s.idx
		}
	}
	d.probs = append(d.probs, p)
}

func renderPath(segs []seg) string {
	var b strings.Builder
	for _, s := range segs {
		if s.idx >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.idx))
			b.WriteByte(']')
			continue
		}
		jsonpath.AppendMember(&b, s.key)
	}
	return strings.TrimPrefix(b.String(), ".")
}
