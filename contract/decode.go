package contract

import "github.com/askuser/askuser/internal/strictjson"

// The decoder reads a request with internal/strictjson, the strict scanner
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
const whole = strictjson.Whole

// objMeta records which members of one decoded object were present and
// which could not be decoded.
type objMeta = strictjson.Meta

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

// hint is advice for a member name that models tend to send in place of
// a real one.
type hint = strictjson.Hint

// What the decoder knows of each object: its member names, in the order
// the schema lists them and of their bits in Meta, and the hints, by
// lowercased name, for names models send in their place. The lists are
// written out here rather than copied from variables of their own, so
// that the compiler lays them out as data, as it would not once a
// variable initialized before them called a function.
var (
	requestObject = strictjson.Object{What: "the request", Names: []string{"questions", "header", "allowFreeText", "displayMode", "timeoutPerQuestionMs"}, Hints: []hint{
		{Name: "title", Meant: "header", Text: `use "header" for a heading above the questionnaire`},
		{Name: "timeout", Meant: "timeoutPerQuestionMs", Text: `use "timeoutPerQuestionMs"`},
		{Name: "freetext", Meant: "allowFreeText", Text: `use "allowFreeText"`},
		{Name: "question", Meant: "questions", Text: `put questions in the "questions" array`},
	}}
	questionObject = strictjson.Object{What: "a question", Names: []string{"id", "title", "prompt", "kind", "options", "default", "fields"}, Hints: []hint{
		{Name: "question", Meant: "title", Text: `use "title" for the question text`},
		{Name: "text", Meant: "title", Text: `use "title" for the question text`},
		{Name: "label", Meant: "title", Text: `use "title" for the question text`},
		{Name: "header", Meant: "title", Text: `use "title"; "header" belongs at the top level`},
		{Name: "description", Meant: "prompt", Text: `use "prompt" for a hint under the title`},
		{Name: "choices", Meant: "options", Text: `use "options"`},
		{Name: "type", Meant: "kind", Text: `use "kind"`},
		{Name: "multiselect", Meant: "kind", Text: `set "kind" to "multi" instead`},
		{Name: "required", Text: `every question is required; remove "required"`},
		{Name: "placeholder", Meant: "default", Text: `use "default" to pre-fill the text`},
	}}
	optionObject = strictjson.Object{What: "an option", Names: []string{"label", "description", "preview"}, Hints: []hint{
		{Name: "value", Meant: "label", Text: `use "label"; the label is what the answer reports`},
		{Name: "text", Meant: "label", Text: `use "label"`},
		{Name: "title", Meant: "label", Text: `use "label"`},
		{Name: "name", Meant: "label", Text: `use "label"`},
		{Name: "id", Text: `options have no id; the label identifies the option`},
	}}
	fieldObject = strictjson.Object{What: "a form field", Names: []string{"name", "label", "kind", "required", "options", "default"}, Hints: []hint{
		{Name: "id", Meant: "name", Text: `use "name" for the field's output key`},
		{Name: "key", Meant: "name", Text: `use "name" for the field's output key`},
		{Name: "title", Meant: "label", Text: `use "label"`},
		{Name: "type", Meant: "kind", Text: `use "kind"`},
		{Name: "choices", Meant: "options", Text: `use "options"`},
		{Name: "fields", Text: `forms are flat: a field cannot hold fields`},
	}}
)

type decoder struct {
	strictjson.Decoder
}

// decode fills r and m from the data and reports whether the rule check
// may judge them. Problems go to d.Problems.
func (d *decoder) decode(r *Request, m *reqMeta) bool {
	return d.Document(`the request is empty; send a JSON object such as {"questions":[{"title":"…"}]}`, func() { d.request(r, m) })
}

func (d *decoder) request(r *Request, m *reqMeta) {
	d.Members(func(key string) {
		switch d.Field(key, &requestObject, &m.obj, nil, &r.Header, &r.AllowFreeText, (*string)(&r.DisplayMode)) {
		case rQuestions:
			d.questions(r, m)
		case rTimeout:
			if d.Member(&m.obj, rTimeout) {
				d.timeout(r, m)
			}
		}
	})
}

func (d *decoder) timeout(r *Request, m *reqMeta) {
	c := d.Peek()
	if c != '-' && (c < '0' || c > '9') {
		d.TypeErr("a whole number of milliseconds")
		m.obj.Bad |= rTimeout
		return
	}
	lit, ok := d.NumberText()
	if !ok {
		return
	}
	n, msg := strictjson.WholeMillis(lit, strictjson.MaxSafeInteger)
	if msg != "" {
		d.ProblemAt(msg)
		m.obj.Bad |= rTimeout
		return
	}
	r.TimeoutPerQuestionMs = &n
}

func (d *decoder) questions(r *Request, m *reqMeta) {
	strictjson.Array(&d.Decoder, &r.Questions, &m.questions, "question", &m.obj, rQuestions, MaxQuestions, d.question)
}

func (d *decoder) question(q *Question, m *questionMeta) {
	d.Object(&m.obj, "a question object", func(key string) {
		switch d.Field(key, &questionObject, &m.obj, &q.ID, &q.Title, &q.Prompt, (*string)(&q.Kind)) {
		case qOptions:
			d.options(&q.Options, &m.options, &m.obj, qOptions)
		case qDefault:
			if d.Member(&m.obj, qDefault) {
				q.Default = d.value(&m.obj, qDefault)
			}
		case qFields:
			strictjson.Array(&d.Decoder, &q.Fields, &m.fields, "field", &m.obj, qFields, MaxFormFields, d.field)
		}
	})
}

func (d *decoder) options(opts *[]Option, metas *[]objMeta, om *objMeta, bit uint32) {
	strictjson.Array(&d.Decoder, opts, metas, "option", om, bit, MaxOptions, d.option)
}

func (d *decoder) option(o *Option, m *objMeta) {
	d.Object(m, `an option object such as {"label":"…"}`, func(key string) {
		d.Field(key, &optionObject, m, &o.Label, &o.Description, &o.Preview)
	})
}

func (d *decoder) field(f *Field, m *fieldMeta) {
	d.Object(&m.obj, "a field object", func(key string) {
		switch d.Field(key, &fieldObject, &m.obj, &f.Name, &f.Label, (*string)(&f.Kind), &f.Required) {
		case fOptions:
			d.options(&f.Options, &m.options, &m.obj, fOptions)
		case fDefault:
			if d.Member(&m.obj, fDefault) {
				f.Default = d.value(&m.obj, fDefault)
			}
		}
	})
}

// value decodes a default: a string, a boolean or an array of strings.
// Which of them is allowed depends on the kind, which the rule check
// decides.
func (d *decoder) value(m *objMeta, bit uint32) *Value {
	switch d.Peek() {
	case '"':
		var s string
		if !d.StringInto(&s, m, bit) {
			return nil
		}
		v := StringValue(s)
		return &v
	case 't', 'f':
		var b bool
		if !d.BoolInto(&b, m, bit) {
			return nil
		}
		v := BoolValue(b)
		return &v
	case '[':
		list := []string{}
		ok := true
		d.Elements(func(int) {
			var s string
			if d.Peek() != '"' {
				d.TypeErr("a string (an option label)")
				ok = false
			} else if !d.StringInto(&s, m, bit) {
				ok = false
			}
			list = append(list, s)
		})
		if d.Failed() {
			return nil
		}
		if !ok {
			m.Bad |= bit
			return nil
		}
		return &Value{kind: ValueStrings, list: list}
	}
	d.TypeErr("a string, a boolean or an array of strings, as the kind requires")
	m.Bad |= bit
	return nil
}
