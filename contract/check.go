package contract

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/internal/strictjson"
)

// checker applies the rules of the contract to a request it owns and
// normalizes it in place. meta is nil for a typed request; for a decoded
// one it tells which members were present and which failed to decode, so
// that no rule reports a problem the decoder already reported.
type checker struct {
	meta     *reqMeta
	probs    strictjson.List
	warnings []string
}

func (c *checker) add(q, f, o int, prop, msg string) { c.probs.Add(q, f, o, prop, msg) }

// pathOf renders the JSON path of a member; -1 leaves an index out.
func pathOf(q, f, o int, prop string) string { return strictjson.Path(q, f, o, prop) }

// view is what the checker knows of one object's members.
type view = strictjson.View

func (c *checker) request(r *Request) {
	rv := view{Typed: c.meta == nil}
	if c.meta != nil {
		rv.M = c.meta.obj
	}
	if rv.OK(rHeader) {
		c.text(-1, -1, -1, "header", r.Header, MaxHeaderLen, rv.Typed)
	}
	if rv.OK(rDisplayMode) && rv.Has(rDisplayMode, r.DisplayMode != "") {
		switch r.DisplayMode {
		case DisplayOverlay, DisplayInline:
		default:
			c.add(-1, -1, -1, "displayMode", `must be "overlay" or "inline", got `+quote(string(r.DisplayMode)))
		}
	}
	if t := r.TimeoutPerQuestionMs; rv.OK(rTimeout) && t != nil {
		if msg := strictjson.CheckMillis(*t, strictjson.MaxSafeInteger); msg != "" {
			c.add(-1, -1, -1, "timeoutPerQuestionMs", msg)
		}
	}
	if !rv.OK(rQuestions) {
		return
	}
	n := len(r.Questions)
	switch {
	case n == 0 && !rv.Has(rQuestions, r.Questions != nil):
		c.add(-1, -1, -1, "questions", "is required: send 1 to "+strconv.Itoa(MaxQuestions)+` questions, for example [{"title":"Which database?","options":[{"label":"Postgres"},{"label":"SQLite"}]}]`)
	case n == 0:
		c.add(-1, -1, -1, "questions", "must hold at least 1 question (at most "+strconv.Itoa(MaxQuestions)+")")
	case n > MaxQuestions:
		c.add(-1, -1, -1, "questions", "has "+strconv.Itoa(n)+" questions; the limit is "+strconv.Itoa(MaxQuestions)+": ask the most important ones first and the rest in a later call")
	}
	c.ids(r, rv)
	free := r.FreeTextAllowed()
	for i := range r.Questions {
		qv := view{Typed: rv.Typed}
		var qm *questionMeta
		if !rv.Typed {
			qm = &c.meta.questions[i]
			qv.M = qm.obj
		}
		c.question(i, &r.Questions[i], qv, qm, free)
	}
}

// ids checks explicit ids and gives every question without one an id of
// its own: "q" and its 1-based position, or, when an explicit id already
// has that name, the first free of "q<position>-2", "q<position>-3", ….
func (c *checker) ids(r *Request, rv view) {
	qs := r.Questions
	taken := strictjson.MakeNames(len(qs))
	for i := range qs {
		q := &qs[i]
		qv := c.questionView(i, rv)
		if qv.M.Bad&whole != 0 || !qv.Has(qID, q.ID != "") || !qv.OK(qID) {
			continue
		}
		switch {
		case q.ID == "":
			c.add(i, -1, -1, "id", "must not be empty; leave id out to get a generated one")
			continue
		case strings.TrimSpace(q.ID) == "":
			c.add(i, -1, -1, "id", "must not be blank; leave id out to get a generated one")
			continue
		}
		if !c.text(i, -1, -1, "id", q.ID, MaxIDLen, qv.Typed) {
			continue
		}
		if j, dup := taken.Add(q.ID, i); dup {
			c.add(i, -1, -1, "id", quote(q.ID)+" is already the id of questions["+strconv.Itoa(j)+"]; ids must be unique")
		}
	}
	for i := range qs {
		q := &qs[i]
		qv := c.questionView(i, rv)
		if qv.Has(qID, q.ID != "") {
			continue
		}
		base := "q" + strconv.Itoa(i+1)
		id := base
		for n := 2; taken.Has(id); n++ {
			id = base + "-" + strconv.Itoa(n)
		}
		taken.Add(id, i)
		q.ID = id
	}
}

func (c *checker) questionView(i int, rv view) view {
	if rv.Typed {
		return rv
	}
	return view{M: c.meta.questions[i].obj}
}

var questionKinds = "single, multi, input, bool or simple-form"

func (c *checker) question(i int, q *Question, qv view, qm *questionMeta, free bool) {
	if qv.M.Bad&whole != 0 {
		return
	}
	if qv.OK(qTitle) {
		c.required(i, -1, -1, "title", q.Title, MaxTitleLen, qv, "give the question a short heading")
	}
	if qv.OK(qPrompt) {
		c.text(i, -1, -1, "prompt", q.Prompt, MaxPromptLen, qv.Typed)
	}

	hasOptions := qv.Has(qOptions, q.Options != nil)
	hasFields := qv.Has(qFields, q.Fields != nil)
	hasDefault := qv.Has(qDefault, q.Default != nil)
	optionsOK := hasOptions && qv.OK(qOptions)
	fieldsOK := hasFields && qv.OK(qFields)

	kind := q.Kind
	known := true
	switch {
	case !qv.OK(qKind):
		known = false
	case qv.Has(qKind, q.Kind != ""):
		switch kind {
		case KindSingle, KindMulti, KindInput, KindBool, KindForm:
		default:
			c.add(i, -1, -1, "kind", "must be "+questionKinds+", got "+quote(string(kind)))
			known = false
		}
	case hasFields:
		c.add(i, -1, -1, "fields", `belongs to a simple-form question: set "kind": "simple-form"`)
		kind = KindForm
		q.Kind = kind
		// Check the form as the caller evidently meant it, so every
		// problem shows at once; the request is refused anyway.
		known = !hasOptions
	case hasOptions:
		kind = KindSingle
		q.Kind = kind
	default:
		kind = KindInput
		q.Kind = kind
	}

	var om []objMeta
	if qm != nil {
		om = qm.options
	}
	optsValid := false
	switch {
	case !known:
		if optionsOK {
			optsValid = c.options(i, -1, q, &q.Options, om, qv.Typed)
		}
	case kind == KindSingle || kind == KindMulti:
		if !qv.OK(qOptions) {
			break
		}
		if !hasOptions {
			c.add(i, -1, -1, "options", "is required for a "+string(kind)+" question: give 1 to "+strconv.Itoa(MaxOptions)+` options, such as [{"label":"Yes"},{"label":"No"}]`)
		} else if optionsOK {
			optsValid = c.options(i, -1, q, &q.Options, om, qv.Typed)
		}
	case kind == KindInput:
		if optionsOK && c.options(i, -1, q, &q.Options, om, qv.Typed) {
			c.warnings = append(c.warnings, pathOf(i, -1, -1, "")+" (id "+quote(q.ID)+`): options are ignored on an input question and were dropped; use kind "single" or "multi" to offer choices`)
		}
		q.Options = nil
	case kind == KindBool && hasOptions:
		c.add(i, -1, -1, "options", "is not allowed on a bool question: it always offers True and False")
	case kind == KindForm && hasOptions:
		c.add(i, -1, -1, "options", "is not allowed on a simple-form question itself: give each single or multi field its own options")
	}

	if hasDefault && qv.OK(qDefault) && known {
		c.questionDefault(i, q, kind, free, optsValid)
	}

	var fm []fieldMeta
	if qm != nil {
		fm = qm.fields
	}
	switch {
	case known && kind == KindForm:
		if !qv.OK(qFields) {
			break
		}
		if !hasFields {
			c.add(i, -1, -1, "fields", "is required for a simple-form question: give 1 to "+strconv.Itoa(MaxFormFields)+` fields, such as [{"name":"confirmed","label":"Confirm","kind":"bool"}]`)
		} else if fieldsOK {
			c.fields(i, q, fm, qv.Typed)
		}
	case known && hasFields:
		c.add(i, -1, -1, "fields", "is only allowed on a simple-form question, not on "+article(kind)+` question; for a form set "kind": "simple-form"`)
	case fieldsOK:
		c.fields(i, q, fm, qv.Typed)
	}
}

func (c *checker) questionDefault(i int, q *Question, kind Kind, free, optsValid bool) {
	v := *q.Default
	switch kind {
	case KindForm:
		c.add(i, -1, -1, "default", "is not allowed on a simple-form question: set default on each field instead")
	case KindBool:
		if v.kind != ValueBool {
			c.add(i, -1, -1, "default", "must be a boolean (true or false) for a bool question, got "+v.typeName())
		}
	default:
		if v.kind != ValueString {
			msg := "must be a string for " + article(kind) + " question, got " + v.typeName()
			switch {
			case v.kind == ValueBool:
				msg += `; for a yes/no question set "kind": "bool"`
			case v.kind == ValueStrings && kind == KindMulti:
				msg += "; a multi question takes one label as its default"
			}
			c.add(i, -1, -1, "default", msg)
			return
		}
		if !c.text(i, -1, -1, "default", v.s, MaxTextDefaultLen, c.meta == nil) {
			return
		}
		if kind != KindInput && !free && optsValid && !hasLabel(q.Options, v.s) {
			c.add(i, -1, -1, "default", quote(v.s)+" is not an option label; with allowFreeText false the default must be one of "+labelList(q.Options))
		}
	}
}

// options checks an option list, removes later duplicates of a label,
// and reports whether the list is valid.
func (c *checker) options(q, f int, qq *Question, opts *[]Option, om []objMeta, typed bool) bool {
	list := *opts
	before := len(c.probs)
	prop := "options"
	switch n := len(list); {
	case n == 0:
		c.add(q, f, -1, prop, "must hold at least 1 option (at most "+strconv.Itoa(MaxOptions)+`), such as [{"label":"Yes"}]`)
	case n > MaxOptions:
		c.add(q, f, -1, prop, "has "+strconv.Itoa(n)+" options; the limit is "+strconv.Itoa(MaxOptions)+": keep the likeliest choices, or use an input question")
	}
	allLabels := true
	for k := range list {
		ov := view{Typed: typed}
		if !typed {
			ov.M = om[k]
		}
		if ov.M.Bad&whole != 0 {
			allLabels = false
			continue
		}
		o := &list[k]
		if ov.OK(oLabel) {
			if !c.required(q, f, k, "label", o.Label, MaxOptionLabelLen, ov, "it is what the answer reports") {
				allLabels = false
			}
		} else {
			allLabels = false
		}
		if ov.OK(oDescription) {
			c.text(q, f, k, "description", o.Description, MaxDescriptionLen, typed)
		}
		if ov.OK(oPreview) {
			c.text(q, f, k, "preview", o.Preview, MaxPreviewLen, typed)
		}
	}
	if !allLabels {
		return false
	}
	*opts = c.dedupe(q, f, qq, list)
	return len(c.probs) == before
}

// dedupe drops options whose label repeats an earlier one, with a
// warning for each label dropped.
func (c *checker) dedupe(q, f int, qq *Question, list []Option) []Option {
	dup := false
	for k := range list {
		for j := range k {
			if list[j].Label == list[k].Label {
				dup = true
				break
			}
		}
		if dup {
			break
		}
	}
	if !dup {
		return list
	}
	out := make([]Option, 0, len(list))
	seen := strictjson.MakeNames(len(list))
	warned := strictjson.MakeNames(len(list))
	for _, o := range list {
		if _, d := seen.Add(o.Label, 0); !d {
			out = append(out, o)
			continue
		}
		if _, again := warned.Add(o.Label, 0); again {
			continue
		}
		where := pathOf(q, f, -1, "") + " (id " + quote(qq.ID)
		if f >= 0 {
			where += ", field " + quote(qq.Fields[f].Name)
		}
		c.warnings = append(c.warnings, where+"): duplicate option label "+quote(o.Label)+" was removed; the first option with that label was kept")
	}
	return out
}

var fieldKinds = "bool, single, multi or input"

func (c *checker) fields(i int, q *Question, fm []fieldMeta, typed bool) {
	switch n := len(q.Fields); {
	case n == 0:
		c.add(i, -1, -1, "fields", "must hold at least 1 field (at most "+strconv.Itoa(MaxFormFields)+")")
	case n > MaxFormFields:
		c.add(i, -1, -1, "fields", "has "+strconv.Itoa(n)+" fields; the limit is "+strconv.Itoa(MaxFormFields)+": split the form across two questions")
	}
	names := strictjson.MakeNames(len(q.Fields))
	for j := range q.Fields {
		f := &q.Fields[j]
		fv := view{Typed: typed}
		var om []objMeta
		if !typed {
			fv.M = fm[j].obj
			om = fm[j].options
		}
		if fv.M.Bad&whole != 0 {
			continue
		}
		if fv.OK(fName) && c.fieldName(i, j, f.Name) {
			if k, dup := names.Add(f.Name, j); dup {
				c.add(i, j, -1, "name", quote(f.Name)+" is already the name of fields["+strconv.Itoa(k)+"]; names must be unique within a form")
			}
		}
		if fv.OK(fLabel) {
			c.required(i, j, -1, "label", f.Label, MaxFieldLabelLen, fv, "it is shown beside the field")
		}
		known := fv.OK(fKind)
		if known {
			switch f.Kind {
			case KindBool, KindSingle, KindMulti, KindInput:
			case KindForm:
				c.add(i, j, -1, "kind", "forms are flat: a field cannot be a simple-form; use "+fieldKinds)
				known = false
			case "":
				if fv.Has(fKind, false) {
					c.add(i, j, -1, "kind", `must be `+fieldKinds+`, got ""`)
				} else {
					c.add(i, j, -1, "kind", "is required: one of "+fieldKinds)
				}
				known = false
			default:
				c.add(i, j, -1, "kind", "must be "+fieldKinds+", got "+quote(string(f.Kind)))
				known = false
			}
		}
		hasOptions := fv.Has(fOptions, f.Options != nil)
		optionsOK := hasOptions && fv.OK(fOptions)
		optsValid := false
		switch {
		case !known:
			if optionsOK {
				optsValid = c.fieldOptions(i, j, q, f, om, typed)
			}
		case f.Kind == KindSingle || f.Kind == KindMulti:
			if !fv.OK(fOptions) {
				break
			}
			if !hasOptions {
				c.add(i, j, -1, "options", "is required for a "+string(f.Kind)+" field: give 1 to "+strconv.Itoa(MaxOptions)+" options")
			} else if optionsOK {
				optsValid = c.fieldOptions(i, j, q, f, om, typed)
			}
		case hasOptions:
			c.add(i, j, -1, "options", "is not allowed on "+article(f.Kind)+" field")
		}
		if known && f.Default != nil && fv.OK(fDefault) {
			c.fieldDefault(i, j, f, optsValid)
		}
	}
}

func (c *checker) fieldOptions(i, j int, q *Question, f *Field, om []objMeta, typed bool) bool {
	return c.options(i, j, q, &f.Options, om, typed)
}

var reservedNames = []string{"__proto__", "constructor", "prototype"}

func (c *checker) fieldName(i, j int, name string) bool {
	switch {
	case name == "":
		c.add(i, j, -1, "name", `is required: the field's key in the answer, such as "target_env"`)
		return false
	case len(name) > MaxFieldNameLen:
		c.add(i, j, -1, "name", "is "+strconv.Itoa(utf8.RuneCountInString(name))+" characters long; the limit is "+strconv.Itoa(MaxFieldNameLen))
		return false
	case !validName(name):
		c.add(i, j, -1, "name", quote(name)+" is not a valid field name: use 1 to "+strconv.Itoa(MaxFieldNameLen)+` ASCII letters, digits, "_" or "-", starting with a letter or "_", such as "target_env"`)
		return false
	case slices.Contains(reservedNames, name):
		c.add(i, j, -1, "name", quote(name)+" is reserved; choose another name")
		return false
	}
	return true
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for k := 0; k < len(s); k++ {
		b := s[k]
		switch {
		case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b == '_':
		case (b >= '0' && b <= '9' || b == '-') && k > 0:
		default:
			return false
		}
	}
	return true
}

func (c *checker) fieldDefault(i, j int, f *Field, optsValid bool) {
	v := *f.Default
	want := ""
	switch f.Kind {
	case KindBool:
		if v.kind != ValueBool {
			want = "a boolean (true or false)"
		}
	case KindSingle, KindInput:
		if v.kind != ValueString {
			want = "a string"
			if f.Kind == KindSingle {
				want = "a string (one option label)"
			}
		}
	case KindMulti:
		if v.kind != ValueStrings {
			want = `an array of option labels, such as ["unit"]`
		}
	}
	if want != "" {
		c.add(i, j, -1, "default", "must be "+want+" for "+article(f.Kind)+" field, got "+v.typeName())
		return
	}
	switch f.Kind {
	case KindInput:
		c.text(i, j, -1, "default", v.s, MaxTextDefaultLen, c.meta == nil)
	case KindSingle:
		if optsValid && !hasLabel(f.Options, v.s) {
			c.add(i, j, -1, "default", quote(v.s)+" is not an option label; use one of "+labelList(f.Options))
		}
	case KindMulti:
		for k, s := range v.list {
			if c.meta == nil && !utf8.ValidString(s) {
				c.add(i, j, -1, "default["+strconv.Itoa(k)+"]", "is not valid UTF-8")
				continue
			}
			if slices.Contains(v.list[:k], s) {
				c.add(i, j, -1, "default["+strconv.Itoa(k)+"]", quote(s)+" is listed more than once; list each label once")
				continue
			}
			if optsValid && !hasLabel(f.Options, s) {
				c.add(i, j, -1, "default["+strconv.Itoa(k)+"]", quote(s)+" is not an option label; use labels from "+labelList(f.Options))
			}
		}
	}
}

// required checks a string that must be sent and must not be blank, and
// then its length.
func (c *checker) required(q, f, o int, prop, s string, limit int, v view, why string) bool {
	return c.probs.Required(q, f, o, prop, s, limit, why, v.Typed)
}

// text checks an optional string against its limit and, for a typed
// request, that it is UTF-8.
func (c *checker) text(q, f, o int, prop, s string, limit int, typed bool) bool {
	return c.probs.Text(q, f, o, prop, s, limit, typed)
}

func hasLabel(opts []Option, label string) bool {
	for k := range opts {
		if opts[k].Label == label {
			return true
		}
	}
	return false
}

func labelList(opts []Option) string {
	var b strings.Builder
	for k := range opts {
		if k > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quote(opts[k].Label))
	}
	return b.String()
}

func article(k Kind) string {
	switch k {
	case KindInput:
		return "an input"
	}
	return "a " + string(k)
}

func (v Value) typeName() string {
	switch v.kind {
	case ValueBool:
		return "a boolean"
	case ValueString:
		return "a string"
	case ValueStrings:
		return "an array"
	}
	return "nothing"
}

// quote quotes s for a message.
func quote(s string) string { return strictjson.Quote(s) }

// clone returns a deep copy of r.
func clone(r *Request) *Request {
	out := *r
	if r.AllowFreeText != nil {
		b := *r.AllowFreeText
		out.AllowFreeText = &b
	}
	if r.TimeoutPerQuestionMs != nil {
		t := *r.TimeoutPerQuestionMs
		out.TimeoutPerQuestionMs = &t
	}
	if r.Questions != nil {
		out.Questions = make([]Question, len(r.Questions))
		for i, q := range r.Questions {
			q.Options = slices.Clone(q.Options)
			q.Default = cloneValue(q.Default)
			if q.Fields != nil {
				fields := make([]Field, len(q.Fields))
				for j, f := range q.Fields {
					f.Options = slices.Clone(f.Options)
					f.Default = cloneValue(f.Default)
					fields[j] = f
				}
				q.Fields = fields
			}
			out.Questions[i] = q
		}
	}
	return &out
}

func cloneValue(v *Value) *Value {
	if v == nil {
		return nil
	}
	w := *v
	if v.list != nil {
		w.list = slices.Clone(v.list)
	}
	return &w
}
