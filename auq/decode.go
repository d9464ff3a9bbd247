package auq

import "github.com/askuser/askuser/internal/strictjson"

// The decoder reads a request with internal/strictjson rather than
// encoding/json, which matches member names without regard to case, keeps
// the last of duplicate members and turns invalid UTF-8 into U+FFFD: each
// would let a malformed call through. It fills a Request and records, for
// each object, which members were present and which failed to decode, so
// that the rules neither repeat a decoding problem nor judge a value that
// was never read.

// The members of each object, one bit each, in the order of the key
// lists below.
const (
	rQuestions uint32 = 1 << iota
	rMetadata
)

const (
	qID uint32 = 1 << iota
	qQuestion
	qHeader
	qMultiSelect
	qRequired
	qOptions
)

const (
	oID uint32 = 1 << iota
	oLabel
	oDescription
	oPreview
	oRecommended
)

const (
	mSource uint32 = 1 << iota
	mFlowID
	mTags
)

// whole marks a value that is not an object at all.
const whole = strictjson.Whole

// optional reports whether key names a member a request may leave out;
// a switch rather than a map, which would be built at start-up.
func optional(key string) bool {
	switch key {
	case "metadata", "source", "flowId", "tags", "multiSelect", "required", "preview", "recommended":
		return true
	}
	return false
}

// hint is advice for a member name that models tend to send in place of
// a real one.
type hint = strictjson.Hint

// What the decoder knows of each object: its member names, in the order
// the schema lists them and of their bits in Meta, and the hints, by
// lowercased name, for names models send in their place. Many hints come
// from ask_user, whose questions look alike but are not the same. The
// lists are written out here rather than copied from variables of their
// own, so that the compiler lays them out as data: a copy would run at
// start-up, since this package's other variables call functions as they
// are initialized.
var (
	requestObject = strictjson.Object{What: "the request", Names: []string{"questions", "metadata"}, Hints: []hint{
		{Name: "question", Meant: "questions", Text: `put questions in the "questions" array`},
		{Name: "header", Text: `each question has its own "header"; there is none for the whole request`},
		{Name: "title", Text: `each question has its own "header"; there is none for the whole request`},
		{Name: "meta", Meant: "metadata", Text: `use "metadata"`},
		{Name: "tags", Text: `put tags in "metadata": {"tags": [...]}`},
		{Name: "source", Text: `put source in "metadata": {"source": "..."}`},
		{Name: "flowid", Text: `put flowId in "metadata": {"flowId": "..."}`},
	}}
	questionObject = strictjson.Object{What: "a question", Names: []string{"id", "question", "header", "multiSelect", "required", "options"}, Hints: []hint{
		{Name: "title", Meant: "question", Text: `use "question" for the question text, and "header" for its short tag`},
		{Name: "text", Meant: "question", Text: `use "question" for the question text`},
		{Name: "prompt", Meant: "question", Text: `use "question" for the question text; put details in the options' descriptions`},
		{Name: "description", Meant: "question", Text: `put context in the question text or in the options' descriptions`},
		{Name: "name", Meant: "id", Text: `use "id" for the question's stable id`},
		{Name: "key", Meant: "id", Text: `use "id" for the question's stable id`},
		{Name: "choices", Meant: "options", Text: `use "options"`},
		{Name: "kind", Meant: "multiSelect", Text: `set "multiSelect": true for a multiple choice, leave it out for a single choice`},
		{Name: "type", Meant: "multiSelect", Text: `set "multiSelect": true for a multiple choice, leave it out for a single choice`},
		{Name: "multi", Meant: "multiSelect", Text: `use "multiSelect"`},
		{Name: "multiple", Meant: "multiSelect", Text: `use "multiSelect"`},
		{Name: "default", Text: `mark the option you suggest with "recommended": true instead`},
		{Name: "optional", Meant: "required", Text: `set "required": false for a question the user may skip`},
	}}
	optionObject = strictjson.Object{What: "an option", Names: []string{"id", "label", "description", "preview", "recommended"}, Hints: []hint{
		{Name: "value", Meant: "id", Text: `use "id" for the option's stable id and "label" for its text`},
		{Name: "key", Meant: "id", Text: `use "id" for the option's stable id`},
		{Name: "name", Meant: "label", Text: `use "label" for the option's text`},
		{Name: "text", Meant: "label", Text: `use "label" for the option's text`},
		{Name: "title", Meant: "label", Text: `use "label" for the option's text`},
		{Name: "detail", Meant: "description", Text: `use "description"`},
		{Name: "details", Meant: "description", Text: `use "description"`},
		{Name: "default", Meant: "recommended", Text: `use "recommended": true`},
		{Name: "other", Text: `do not add an Other option: the tool adds one to every question by itself`},
	}}
	metadataObject = strictjson.Object{What: "metadata", Names: []string{"source", "flowId", "tags"}, Hints: []hint{
		{Name: "tag", Meant: "tags", Text: `use "tags", an array of strings`},
		{Name: "flow", Meant: "flowId", Text: `use "flowId"`},
		{Name: "id", Meant: "flowId", Text: `use "flowId"`},
	}}
)

// objMeta records which members of one decoded object were present and
// which could not be decoded.
type objMeta = strictjson.Meta

type reqMeta struct {
	obj       objMeta
	meta      objMeta
	questions []questionMeta
}

type questionMeta struct {
	obj     objMeta
	options []objMeta
}

type decoder struct {
	strictjson.Decoder
	// opts, optMeta and bools are blocks that the questions' options,
	// their records and their required flags are cut from, a few
	// allocations for the whole request rather than some for each
	// question. Each question's options are a part of opts with no room
	// after them, so that appending to them copies rather than writes
	// over the next question's.
	opts    []Option
	optMeta []objMeta
	bools   []bool
}

// decode fills r and m and reports whether the rules may judge them.
// Problems go to d.Problems; a syntax error leaves one problem alone,
// since nothing after it can be trusted.
func (d *decoder) decode(r *Request, m *reqMeta) bool {
	return d.Document(`the request is empty; send a JSON object such as {"questions":[...]}`, func() { d.request(r, m) })
}

func (d *decoder) request(r *Request, m *reqMeta) {
	d.Members(func(key string) {
		switch d.Field(key, &requestObject, &m.obj) {
		case rQuestions:
			strictjson.Array(&d.Decoder, &r.Questions, &m.questions, "question", &m.obj, rQuestions, MaxQuestions, d.question)
		case rMetadata:
			if d.Member(&m.obj, rMetadata) {
				d.metadata(r, m)
			}
		}
	})
}

func (d *decoder) metadata(r *Request, m *reqMeta) {
	if d.Peek() != '{' {
		d.TypeErr(`an object such as {"source":"…","flowId":"…","tags":["…"]}`)
		m.obj.Bad |= rMetadata
		return
	}
	md := new(Metadata)
	r.Metadata = md
	d.Members(func(key string) {
		if d.Field(key, &metadataObject, &m.meta, &md.Source, &md.FlowID) == mTags && d.Member(&m.meta, mTags) {
			d.tags(md, &m.meta)
		}
	})
}

func (d *decoder) tags(md *Metadata, m *objMeta) {
	if !d.WantArray(m, mTags, "an array of strings") {
		return
	}
	md.Tags = make([]string, 0, MaxTags)
	d.Elements(func(int) {
		var s string
		d.StringInto(&s, m, mTags)
		md.Tags = append(md.Tags, s)
	})
}

func (d *decoder) question(q *Question, m *questionMeta) {
	d.Object(&m.obj, "a question object", func(key string) {
		switch d.Field(key, &questionObject, &m.obj, &q.ID, &q.Question, &q.Header, &q.MultiSelect) {
		case qRequired:
			var b bool
			if d.BoolMember(&b, &m.obj, qRequired) {
				q.Required = d.newBool(b)
			}
		case qOptions:
			if d.Member(&m.obj, qOptions) {
				d.options(q, m)
			}
		}
	})
}

func (d *decoder) options(q *Question, m *questionMeta) {
	if !d.WantArray(&m.obj, qOptions, "an array of option objects") {
		return
	}
	if d.opts == nil {
		d.opts = make([]Option, 0, MaxQuestions*MaxOptions)
		d.optMeta = make([]objMeta, 0, MaxQuestions*MaxOptions)
	}
	start := len(d.opts)
	d.Elements(func(k int) {
		d.opts = append(d.opts, Option{})
		d.optMeta = append(d.optMeta, objMeta{})
		d.option(&d.opts[start+k], &d.optMeta[start+k])
	})
	end := len(d.opts)
	q.Options = d.opts[start:end:end]
	m.options = d.optMeta[start:end:end]
}

// newBool returns a pointer to a copy of b, cut from d.bools.
func (d *decoder) newBool(b bool) *bool {
	if len(d.bools) == cap(d.bools) {
		d.bools = make([]bool, 0, MaxQuestions)
	}
	d.bools = append(d.bools, b)
	return &d.bools[len(d.bools)-1]
}

func (d *decoder) option(o *Option, m *objMeta) {
	d.Object(m, `an option object such as {"id":"…","label":"…","description":"…"}`, func(key string) {
		d.Field(key, &optionObject, m, &o.ID, &o.Label, &o.Description, &o.Preview, &o.Recommended)
	})
}

// nullHint says what to do instead of sending null: for an element of
// an array nothing, as the type wanted says it already; for a member,
// whether it may be left out or is required.
func nullHint(segs []strictjson.Seg) string {
	if len(segs) == 0 {
		return ""
	}
	switch last := segs[len(segs)-1]; {
	case last.Idx >= 0:
		return ""
	case optional(last.Key):
		return "; leave the field out instead of sending null"
	}
	return "; the field is required"
}
