package contract

import (
	"encoding/binary"
	"github.com/askuser/askuser/internal/jsonpath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/askuser/askuser/internal/jsonnum"
)

// The decoder is a small JSON scanner written for requests. encoding/json
// is not used because it matches keys without regard to case, keeps the
// last of duplicate keys and turns invalid UTF-8 into U+FFFD; all three
// would let a malformed call through. The scanner walks the input once,
// fills a Request, and records for each object which members were present
// and which failed to decode, so that the rule check neither repeats a
// decoding problem nor builds on a value that was never read.

// maxDepth bounds the nesting of values the decoder skips over. A request
// nests four levels deep; anything far deeper is not a questionnaire.
const maxDepth = 64

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
	data  []byte
	s     string // data as a string, so unescaped strings can be substrings of it
	pos   int
	fatal bool
	segs  []seg
	probs []problem
	// text holds the unescaped strings, one after another. It only grows:
	// a string handed out is never written again, so the strings can share
	// it (see readEscaped).
	text []byte
}

// problem is a Problem with its position in the questionnaire, used to
// order problems question by question.
type problem struct {
	Problem
	q, f, o int
}

// decode fills r and m from data and reports whether the input was
// well-formed JSON. Problems go to d.probs.
func (d *decoder) decode(r *Request, m *reqMeta) {
	d.ws()
	if d.pos >= len(d.data) {
		d.problemAt(`the request is empty; send a JSON object such as {"questions":[{"title":"…"}]}`)
		d.fatal = true
		return
	}
	if d.data[d.pos] != '{' {
		got := d.typeHere()
		d.skipValue(0)
		if d.fatal {
			return
		}
		d.problemAt("the request must be a JSON object, got " + got)
		d.trailing()
		d.fatal = true
		return
	}
	d.request(r, m)
	if d.fatal {
		return
	}
	d.trailing()
}

func (d *decoder) trailing() {
	d.ws()
	if d.pos < len(d.data) {
		d.syntax(d.pos, "unexpected data after the top-level value")
	}
}

func (d *decoder) request(r *Request, m *reqMeta) {
	d.pos++ // '{'
	for first := true; ; {
		key, ok := d.nextKey(&first)
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
		if d.fatal {
			return
		}
	}
}

func (d *decoder) timeout(r *Request, m *reqMeta) {
	c := d.data[d.pos]
	if c != '-' && (c < '0' || c > '9') {
		d.typeErr("a whole number of milliseconds")
		m.obj.bad |= rTimeout
		return
	}
	start := d.pos
	if !d.number() {
		return
	}
	n, msg := jsonnum.WholeMillis(string(d.data[start:d.pos]), jsonnum.MaxSafeInteger)
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
	if d.data[d.pos] != '{' {
		d.typeErr("a question object")
		m.obj.bad = whole
		return
	}
	d.pos++
	for first := true; ; {
		key, ok := d.nextKey(&first)
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
		if d.fatal {
			return
		}
	}
}

func (d *decoder) options(om *objMeta, bit uint32) ([]Option, []objMeta) {
	return array(d, "option", om, bit, MaxOptions, (*decoder).option)
}

// array decodes the JSON array at d.pos, each element with elem, into
// values and their metadata; an empty array gives empty, non-nil slices.
// A value that is not an array is a type error that marks bit bad in om,
// and gives nil slices. n is the usual most elements, to size the slices.
func array[T, M any](d *decoder, what string, om *objMeta, bit uint32, n int, elem func(*decoder, *T, *M)) ([]T, []M) {
	if d.data[d.pos] != '[' {
		d.typeErr("an array of " + what + " objects")
		om.bad |= bit
		return nil, nil
	}
	d.pos++
	vals := make([]T, 0, n)
	metas := make([]M, 0, n)
	for first := true; d.nextElem(&first); {
		i := len(vals)
		vals = append(vals, *new(T))
		metas = append(metas, *new(M))
		d.pushIndex(i)
		elem(d, &vals[i], &metas[i])
		d.pop()
		if d.fatal {
			break
		}
	}
	return vals, metas
}

func (d *decoder) option(o *Option, m *objMeta) {
	if d.data[d.pos] != '{' {
		d.typeErr(`an option object such as {"label":"…"}`)
		m.bad = whole
		return
	}
	d.pos++
	for first := true; ; {
		key, ok := d.nextKey(&first)
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
		if d.fatal {
			return
		}
	}
}

func (d *decoder) fields(q *Question, m *questionMeta) {
	q.Fields, m.fields = array(d, "field", &m.obj, qFields, MaxFormFields, (*decoder).field)
}

func (d *decoder) field(f *Field, m *fieldMeta) {
	if d.data[d.pos] != '{' {
		d.typeErr("a field object")
		m.obj.bad = whole
		return
	}
	d.pos++
	for first := true; ; {
		key, ok := d.nextKey(&first)
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
		if d.fatal {
			return
		}
	}
}

// value decodes a default: a string, a boolean or an array of strings.
// Which of them is allowed depends on the kind, which the rule check
// decides.
func (d *decoder) value(m *objMeta, bit uint32) *Value {
	switch d.data[d.pos] {
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
		d.pos++
		list := []string{}
		ok := true
		for first := true; d.nextElem(&first); {
			d.pushIndex(len(list))
			var s string
			if d.data[d.pos] != '"' {
				d.typeErr("a string (an option label)")
				ok = false
			} else if !d.stringInto(&s, m, bit) {
				ok = false
			}
			list = append(list, s)
			d.pop()
			if d.fatal {
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
		d.skipValue(0)
		return false
	}
	m.present |= bit
	m.bad &^= bit
	return true
}

func (d *decoder) stringInto(dst *string, m *objMeta, bit uint32) bool {
	if d.data[d.pos] != '"' {
		d.typeErr("a string")
		m.bad |= bit
		return false
	}
	s, bad := d.readString()
	if d.fatal {
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
	switch {
	case strings.HasPrefix(d.s[d.pos:], "true"):
		*dst = true
		d.pos += 4
		return true
	case strings.HasPrefix(d.s[d.pos:], "false"):
		*dst = false
		d.pos += 5
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
	meant := suggest(key, known)
	if meant != "" {
		msg += "; did you mean " + strconv.Quote(meant) + "?"
	} else if h, ok := hints[strings.ToLower(key)]; ok {
		msg += "; " + h.text
		meant = h.meant
	} else {
		msg += "; the fields of " + what + " are " + strings.Join(known, ", ")
	}
	d.problemAt(msg)
	d.skipValue(0)
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

// suggest returns the known key that key most likely meant: one that
// differs only in case, or by at most two edits for longer names.
func suggest(key string, known []string) string {
	for _, k := range known {
		if strings.EqualFold(k, key) {
			return k
		}
	}
	if len(key) < 4 {
		return ""
	}
	lower := strings.ToLower(key)
	best, bestDist := "", 3
	for _, k := range known {
		if dist := editDistance(lower, strings.ToLower(k), bestDist); dist < bestDist {
			best, bestDist = k, dist
		}
	}
	return best
}

// editDistance returns the Levenshtein distance of a and b, or limit when
// it is at least limit.
func editDistance(a, b string, limit int) int {
	if len(a) > 64 || len(b) > 64 {
		return limit
	}
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	var prev, cur [65]int
	for j := range len(b) + 1 {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return min(prev[len(b)], limit)
}

func (d *decoder) push(key string) { d.segs = append(d.segs, seg{key: key, idx: -1}) }
func (d *decoder) pushIndex(i int) { d.segs = append(d.segs, seg{idx: i}) }
func (d *decoder) pop()            { d.segs = d.segs[:len(d.segs)-1] }

// typeErr reports a value of the wrong type and skips it.
func (d *decoder) typeErr(want string) {
	got := d.typeHere()
	msg := "must be " + want + ", got " + got
	if got == "null" {
		msg += "; leave the field out instead of sending null"
	}
	d.problemAt(msg)
	d.skipValue(0)
}

// typeHere names the type of the value at d.pos.
func (d *decoder) typeHere() string {
	switch d.data[d.pos] {
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
	}
	return "a number"
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

// syntax records a fatal syntax error. Nothing after it can be trusted,
// so it replaces every problem found so far.
func (d *decoder) syntax(off int, msg string) {
	if d.fatal {
		return
	}
	d.fatal = true
	d.probs = append(d.probs[:0], problem{
		Problem: Problem{Message: "invalid JSON at byte offset " + strconv.Itoa(off) + ": " + msg},
		q:       -1, f: -1, o: -1,
	})
}

func (d *decoder) ws() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// nextKey reads the next member name of an object and the colon after
// it, leaving d.pos at the value. It returns false at the closing brace
// or on a syntax error.
func (d *decoder) nextKey(first *bool) (string, bool) {
	d.ws()
	if d.pos >= len(d.data) {
		d.syntax(d.pos, "unexpected end of input inside an object")
		return "", false
	}
	c := d.data[d.pos]
	if c == '}' {
		d.pos++
		return "", false
	}
	if !*first {
		if c != ',' {
			d.syntax(d.pos, "expected ',' or '}' after an object member")
			return "", false
		}
		d.pos++
		d.ws()
		if d.pos >= len(d.data) {
			d.syntax(d.pos, "unexpected end of input inside an object")
			return "", false
		}
		c = d.data[d.pos]
	}
	*first = false
	if c != '"' {
		d.syntax(d.pos, "expected a field name in double quotes")
		return "", false
	}
	key, bad := d.readString()
	if d.fatal {
		return "", false
	}
	if bad >= 0 {
		// A name that is not UTF-8 matches no field; it is reported as
		// unknown, spelled so that the report itself stays valid text.
		key = strings.ToValidUTF8(key, "\uFFFD")
	}
	d.ws()
	if d.pos >= len(d.data) || d.data[d.pos] != ':' {
		d.syntax(d.pos, "expected ':' after a field name")
		return "", false
	}
	d.pos++
	d.ws()
	if d.pos >= len(d.data) {
		d.syntax(d.pos, "unexpected end of input, expected a value")
		return "", false
	}
	return key, true
}

// nextElem moves to the next element of an array, leaving d.pos at the
// value. It returns false at the closing bracket or on a syntax error.
func (d *decoder) nextElem(first *bool) bool {
	d.ws()
	if d.pos >= len(d.data) {
		d.syntax(d.pos, "unexpected end of input inside an array")
		return false
	}
	c := d.data[d.pos]
	if c == ']' {
		d.pos++
		return false
	}
	if !*first {
		if c != ',' {
			d.syntax(d.pos, "expected ',' or ']' after an array element")
			return false
		}
		d.pos++
		d.ws()
		if d.pos >= len(d.data) {
			d.syntax(d.pos, "unexpected end of input inside an array")
			return false
		}
		if d.data[d.pos] == ']' {
			d.syntax(d.pos, "expected a value after ','")
			return false
		}
	}
	*first = false
	return true
}

// readString reads the JSON string at d.pos. It returns the decoded text
// and the byte offset of the first byte that is not valid UTF-8, or of an
// escape that is an unpaired surrogate, or -1 when the text is valid.
func (d *decoder) readString() (string, int) {
	start := d.pos + 1
	bad := -1
	for i := start; i < len(d.data); {
		if i+8 <= len(d.data) && plainASCII(binary.LittleEndian.Uint64(d.data[i:])) {
			i += 8
			continue
		}
		c := d.data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			return d.s[start:i], bad
		case c == '\\':
			return d.readEscaped(start, i, bad)
		case c < 0x20:
			d.syntax(i, "control character in a string; escape it, for example as \\n")
			return "", -1
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(d.data[i:])
			if r == utf8.RuneError && size == 1 && bad < 0 {
				bad = i
			}
			i += size
		}
	}
	d.syntax(len(d.data), "unexpected end of input inside a string")
	return "", -1
}

// plainASCII reports whether the eight bytes packed in w are all printable
// ASCII other than '"' and '\\': bytes a string can hold as they are.
func plainASCII(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	// Once every byte is below 0x80 (w's own high bits), subtracting
	// sets a byte's high bit exactly when it borrows: below 0x20 for the
	// first term, equal to '"' or '\\' (zero after the XOR) for the others.
	// A borrow runs on only past a byte that is flagged already.
	return (w|(w-0x20*ones)|((w^'"'*ones)-ones)|((w^'\\'*ones)-ones))&highs == 0
}

// readEscaped continues readString from the first backslash at i. The
// unescaped text is appended to d.text and the string returned shares its
// bytes, so a questionnaire full of escaped previews costs a few
// allocations rather than one per string.
func (d *decoder) readEscaped(start, i, bad int) (string, int) {
	if d.text == nil {
		d.text = make([]byte, 0, 4096)
	}
	from := len(d.text)
	buf := append(d.text, d.data[start:i]...)
	for i < len(d.data) {
		if i+8 <= len(d.data) && plainASCII(binary.LittleEndian.Uint64(d.data[i:])) {
			buf = append(buf, d.data[i:i+8]...)
			i += 8
			continue
		}
		c := d.data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			d.text = buf
			return unsafe.String(unsafe.SliceData(buf[from:]), len(buf)-from), bad
		case c < 0x20:
			d.syntax(i, "control character in a string; escape it, for example as \\n")
			return "", -1
		case c == '\\':
			if i+1 >= len(d.data) {
				d.syntax(len(d.data), "unexpected end of input inside a string")
				return "", -1
			}
			esc := d.data[i+1]
			switch esc {
			case '"', '\\', '/':
				buf = append(buf, esc)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := d.hex4(i + 2)
				if !ok {
					return "", -1
				}
				n := 6
				switch {
				case r >= 0xD800 && r < 0xDC00:
					// A high surrogate must be followed by a low one.
					if i+n+1 < len(d.data) && d.data[i+n] == '\\' && d.data[i+n+1] == 'u' {
						lo, ok := d.hex4(i + n + 2)
						if !ok {
							return "", -1
						}
						if lo >= 0xDC00 && lo < 0xE000 {
							r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
							n += 6
							break
						}
					}
					if bad < 0 {
						bad = i
					}
					r = utf8.RuneError
				case r >= 0xDC00 && r < 0xE000:
					if bad < 0 {
						bad = i
					}
					r = utf8.RuneError
				}
				buf = utf8.AppendRune(buf, r)
				i += n
				continue
			default:
				d.syntax(i, "invalid escape \\"+string(rune(esc))+" in a string")
				return "", -1
			}
			i += 2
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			i++
		default:
			r, size := utf8.DecodeRune(d.data[i:])
			if r == utf8.RuneError && size == 1 && bad < 0 {
				bad = i
			}
			buf = append(buf, d.data[i:i+size]...)
			i += size
		}
	}
	d.syntax(len(d.data), "unexpected end of input inside a string")
	return "", -1
}

func (d *decoder) hex4(at int) (rune, bool) {
	if at+4 > len(d.data) {
		d.syntax(at-2, "incomplete \\u escape in a string")
		return 0, false
	}
	var r rune
	for _, c := range d.data[at : at+4] {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			d.syntax(at-2, "invalid \\u escape in a string; it needs four hex digits")
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}

// number checks the JSON number at d.pos and moves past it.
func (d *decoder) number() bool {
	i := d.pos
	n := len(d.data)
	if i < n && d.data[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < n && d.data[i] >= '0' && d.data[i] <= '9' {
			i++
		}
		return i - j
	}
	switch {
	case i < n && d.data[i] == '0':
		i++
	case digits() == 0:
		d.syntax(i, "invalid number")
		return false
	}
	if i < n && d.data[i] == '.' {
		i++
		if digits() == 0 {
			d.syntax(i, "invalid number: expected a digit after '.'")
			return false
		}
	}
	if i < n && (d.data[i] == 'e' || d.data[i] == 'E') {
		i++
		if i < n && (d.data[i] == '+' || d.data[i] == '-') {
			i++
		}
		if digits() == 0 {
			d.syntax(i, "invalid number: expected a digit in the exponent")
			return false
		}
	}
	d.pos = i
	return true
}

// skipValue checks the value at d.pos and moves past it.
func (d *decoder) skipValue(depth int) {
	if depth > maxDepth {
		d.syntax(d.pos, "values are nested too deeply")
		return
	}
	if d.pos >= len(d.data) {
		d.syntax(d.pos, "unexpected end of input, expected a value")
		return
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		d.pos++
		for first := true; ; {
			if _, ok := d.nextKey(&first); !ok {
				return
			}
			d.skipValue(depth + 1)
			if d.fatal {
				return
			}
		}
	case c == '[':
		d.pos++
		for first := true; d.nextElem(&first); {
			d.skipValue(depth + 1)
			if d.fatal {
				return
			}
		}
	case c == '"':
		d.readString()
	case c == '-' || c >= '0' && c <= '9':
		d.number()
	case strings.HasPrefix(d.s[d.pos:], "true"):
		d.pos += 4
	case strings.HasPrefix(d.s[d.pos:], "false"):
		d.pos += 5
	case strings.HasPrefix(d.s[d.pos:], "null"):
		d.pos += 4
	default:
		if c >= 0x20 && c < utf8.RuneSelf {
			d.syntax(d.pos, "unexpected character "+strconv.QuoteRune(rune(c))+", expected a value")
		} else {
			d.syntax(d.pos, "unexpected byte "+strconv.Quote(string(c))+", expected a value")
		}
	}
}
