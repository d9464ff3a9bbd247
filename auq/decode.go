package auq

import (
	"slices"
	"strconv"
	"strings"

	"github.com/askuser/askuser/internal/jsonpath"
	"github.com/askuser/askuser/internal/jsonscan"
)

// The decoder reads a request with internal/jsonscan rather than
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
const whole uint32 = 1 << 31

// The member names of each object, in the order the schema lists them.
var (
	requestKeys  = []string{"questions", "metadata"}
	questionKeys = []string{"id", "question", "header", "multiSelect", "required", "options"}
	optionKeys   = []string{"id", "label", "description", "preview", "recommended"}
	metadataKeys = []string{"source", "flowId", "tags"}
)

// optionalKeys are the members a request may leave out.
var optionalKeys = map[string]bool{
	"metadata": true, "source": true, "flowId": true, "tags": true,
	"multiSelect": true, "required": true, "preview": true, "recommended": true,
}

// hint is advice for a member name that models tend to send in place of
// a real one: the member meant, if any, and what to say after
// "unknown field %q; ".
type hint struct {
	meant string
	text  string
}

// The hints of each object, by lowercased name. Many come from ask_user,
// whose questions look alike but are not the same.
var (
	requestHints = map[string]hint{
		"question": {"questions", `put questions in the "questions" array`},
		"header":   {"", `each question has its own "header"; there is none for the whole request`},
		"title":    {"", `each question has its own "header"; there is none for the whole request`},
		"meta":     {"metadata", `use "metadata"`},
		"tags":     {"", `put tags in "metadata": {"tags": [...]}`},
		"source":   {"", `put source in "metadata": {"source": "..."}`},
		"flowid":   {"", `put flowId in "metadata": {"flowId": "..."}`},
	}
	questionHints = map[string]hint{
		"title":       {"question", `use "question" for the question text, and "header" for its short tag`},
		"text":        {"question", `use "question" for the question text`},
		"prompt":      {"question", `use "question" for the question text; put details in the options' descriptions`},
		"description": {"question", `put context in the question text or in the options' descriptions`},
		"name":        {"id", `use "id" for the question's stable id`},
		"key":         {"id", `use "id" for the question's stable id`},
		"choices":     {"options", `use "options"`},
		"kind":        {"multiSelect", `set "multiSelect": true for a multiple choice, leave it out for a single choice`},
		"type":        {"multiSelect", `set "multiSelect": true for a multiple choice, leave it out for a single choice`},
		"multi":       {"multiSelect", `use "multiSelect"`},
		"multiple":    {"multiSelect", `use "multiSelect"`},
		"default":     {"", `mark the option you suggest with "recommended": true instead`},
		"optional":    {"required", `set "required": false for a question the user may skip`},
	}
	optionHints = map[string]hint{
		"value":   {"id", `use "id" for the option's stable id and "label" for its text`},
		"key":     {"id", `use "id" for the option's stable id`},
		"name":    {"label", `use "label" for the option's text`},
		"text":    {"label", `use "label" for the option's text`},
		"title":   {"label", `use "label" for the option's text`},
		"detail":  {"description", `use "description"`},
		"details": {"description", `use "description"`},
		"default": {"recommended", `use "recommended": true`},
		"other":   {"", `do not add an Other option: the tool adds one to every question by itself`},
	}
	metadataHints = map[string]hint{
		"tag":  {"tags", `use "tags", an array of strings`},
		"flow": {"flowId", `use "flowId"`},
		"id":   {"flowId", `use "flowId"`},
	}
)

// objMeta records which members of one decoded object were present and
// which could not be decoded.
type objMeta struct {
	present, bad uint32
}

type reqMeta struct {
	obj       objMeta
	meta      objMeta
	questions []questionMeta
}

type questionMeta struct {
	obj     objMeta
	options []objMeta
}

// seg is one step of a JSON path: a member name, or an index when idx >= 0.
type seg struct {
	key string
	idx int
}

type decoder struct {
	*jsonscan.Scanner
	segs  []seg
	probs []problem
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

// decode fills r and m. Problems go to d.probs; a syntax error leaves one
// problem alone, since nothing after it can be trusted.
func (d *decoder) decode(r *Request, m *reqMeta) {
	defer d.syntax()
	if d.AtEnd() {
		d.problemAt(`the request is empty; send a JSON object such as {"questions":[...]}`)
		d.Fail(d.Pos, "")
		return
	}
	if d.Peek() != '{' {
		got := d.Type()
		d.Skip()
		if d.Failed() {
			return
		}
		d.problemAt("the request must be a JSON object, got " + got)
		d.End()
		d.Fail(d.Pos, "")
		return
	}
	d.request(r, m)
	d.End()
}

// syntax turns a syntax error into the only problem. An error with no
// message marks a request refused as a whole, whose problem is already
// recorded.
func (d *decoder) syntax() {
	off, msg := d.Err()
	if msg == "" {
		return
	}
	d.probs = append(d.probs[:0], problem{
		Problem: Problem{Message: "invalid JSON at byte offset " + strconv.Itoa(off) + ": " + msg},
		q:       -1, o: -1,
	})
}

func (d *decoder) request(r *Request, m *reqMeta) {
	d.Open()
	for first := true; ; {
		key, ok := d.NextKey(&first)
		if !ok {
			return
		}
		d.push(key)
		switch key {
		case "questions":
			if d.member(&m.obj, rQuestions) {
				d.questions(r, m)
			}
		case "metadata":
			if d.member(&m.obj, rMetadata) {
				d.metadata(r, m)
			}
		default:
			misspelt(&m.obj, d.unknown(key, "the request", requestKeys, requestHints), requestKeys)
		}
		d.pop()
		if d.Failed() {
			return
		}
	}
}

func (d *decoder) metadata(r *Request, m *reqMeta) {
	if d.Peek() != '{' {
		d.typeErr(`an object such as {"source":"…","flowId":"…","tags":["…"]}`)
		m.obj.bad |= rMetadata
		return
	}
	md := new(Metadata)
	r.Metadata = md
	d.Open()
	for first := true; ; {
		key, ok := d.NextKey(&first)
		if !ok {
			return
		}
		d.push(key)
		switch key {
		case "source":
			if d.member(&m.meta, mSource) {
				var s string
				if d.stringInto(&s, &m.meta, mSource) {
					md.Source = &s
				}
			}
		case "flowId":
			if d.member(&m.meta, mFlowID) {
				var s string
				if d.stringInto(&s, &m.meta, mFlowID) {
					md.FlowID = &s
				}
			}
		case "tags":
			if d.member(&m.meta, mTags) {
				d.tags(md, &m.meta)
			}
		default:
			misspelt(&m.meta, d.unknown(key, "metadata", metadataKeys, metadataHints), metadataKeys)
		}
		d.pop()
		if d.Failed() {
			return
		}
	}
}

func (d *decoder) tags(md *Metadata, m *objMeta) {
	if d.Peek() != '[' {
		d.typeErr("an array of strings")
		m.bad |= mTags
		return
	}
	d.Open()
	md.Tags = make([]string, 0, MaxTags)
	for first := true; d.NextElem(&first); {
		d.pushIndex(len(md.Tags))
		var s string
		d.stringInto(&s, m, mTags)
		md.Tags = append(md.Tags, s)
		d.pop()
		if d.Failed() {
			return
		}
	}
}

func (d *decoder) questions(r *Request, m *reqMeta) {
	if d.Peek() != '[' {
		d.typeErr("an array of question objects")
		m.obj.bad |= rQuestions
		return
	}
	d.Open()
	r.Questions = make([]Question, 0, MaxQuestions)
	m.questions = make([]questionMeta, 0, MaxQuestions)
	for first := true; d.NextElem(&first); {
		i := len(r.Questions)
		r.Questions = append(r.Questions, Question{})
		m.questions = append(m.questions, questionMeta{})
		d.pushIndex(i)
		d.question(&r.Questions[i], &m.questions[i])
		d.pop()
		if d.Failed() {
			return
		}
	}
}

func (d *decoder) question(q *Question, m *questionMeta) {
	if d.Peek() != '{' {
		d.typeErr("a question object")
		m.obj.bad = whole
		return
	}
	d.Open()
	for first := true; ; {
		key, ok := d.NextKey(&first)
		if !ok {
			return
		}
		d.push(key)
		switch key {
		case "id":
			if d.member(&m.obj, qID) {
				d.stringInto(&q.ID, &m.obj, qID)
			}
		case "question":
			if d.member(&m.obj, qQuestion) {
				d.stringInto(&q.Question, &m.obj, qQuestion)
			}
		case "header":
			if d.member(&m.obj, qHeader) {
				d.stringInto(&q.Header, &m.obj, qHeader)
			}
		case "multiSelect":
			if d.member(&m.obj, qMultiSelect) {
				d.boolInto(&q.MultiSelect, &m.obj, qMultiSelect)
			}
		case "required":
			if d.member(&m.obj, qRequired) {
				var b bool
				if d.boolInto(&b, &m.obj, qRequired) {
					q.Required = d.newBool(b)
				}
			}
		case "options":
			if d.member(&m.obj, qOptions) {
				d.options(q, m)
			}
		default:
			misspelt(&m.obj, d.unknown(key, "a question", questionKeys, questionHints), questionKeys)
		}
		d.pop()
		if d.Failed() {
			return
		}
	}
}

func (d *decoder) options(q *Question, m *questionMeta) {
	if d.Peek() != '[' {
		d.typeErr("an array of option objects")
		m.obj.bad |= qOptions
		return
	}
	d.Open()
	if d.opts == nil {
		d.opts = make([]Option, 0, MaxQuestions*MaxOptions)
		d.optMeta = make([]objMeta, 0, MaxQuestions*MaxOptions)
	}
	start := len(d.opts)
	defer func() {
		end := len(d.opts)
		q.Options = d.opts[start:end:end]
		m.options = d.optMeta[start:end:end]
	}()
	for first := true; d.NextElem(&first); {
		k := len(d.opts) - start
		d.opts = append(d.opts, Option{})
		d.optMeta = append(d.optMeta, objMeta{})
		d.pushIndex(k)
		d.option(&d.opts[start+k], &d.optMeta[start+k])
		d.pop()
		if d.Failed() {
			return
		}
	}
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
	if d.Peek() != '{' {
		d.typeErr(`an option object such as {"id":"…","label":"…","description":"…"}`)
		m.bad = whole
		return
	}
	d.Open()
	for first := true; ; {
		key, ok := d.NextKey(&first)
		if !ok {
			return
		}
		d.push(key)
		switch key {
		case "id":
			if d.member(m, oID) {
				d.stringInto(&o.ID, m, oID)
			}
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
		case "recommended":
			if d.member(m, oRecommended) {
				d.boolInto(&o.Recommended, m, oRecommended)
			}
		default:
			misspelt(m, d.unknown(key, "an option", optionKeys, optionHints), optionKeys)
		}
		d.pop()
		if d.Failed() {
			return
		}
	}
}

// member marks a member present, or reports it as a duplicate and skips
// its value. It reports whether the value is to be decoded.
func (d *decoder) member(m *objMeta, bit uint32) bool {
	if m.present&bit != 0 {
		d.problemAt("appears more than once; send each field once")
		d.Skip()
		return false
	}
	m.present |= bit
	m.bad &^= bit
	return true
}

func (d *decoder) stringInto(dst *string, m *objMeta, bit uint32) bool {
	if d.Peek() != '"' {
		d.typeErr("a string")
		m.bad |= bit
		return false
	}
	s, bad := d.String()
	if d.Failed() {
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
	if v, ok := d.Bool(); ok {
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
	d.Skip()
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
	got := d.Type()
	msg := "must be " + want + ", got " + got
	if got == "null" && len(d.segs) > 0 {
		switch last := d.segs[len(d.segs)-1]; {
		case last.idx >= 0:
		case optionalKeys[last.key]:
			msg += "; leave the field out instead of sending null"
		default:
			msg += "; the field is required"
		}
	}
	d.problemAt(msg)
	d.Skip()
}

// problemAt records a problem at the current path.
func (d *decoder) problemAt(msg string) {
	p := problem{Problem: Problem{Path: renderPath(d.segs), Message: msg}, q: -1, o: -1}
	for i, s := range d.segs {
		if s.idx < 0 || i == 0 {
			continue
		}
		switch d.segs[i-1].key {
		case "questions":
			if i == 1 {
				p.q = s.idx
			}
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
