package auq

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/askuser/askuser/internal/strictjson"
)

// checker applies the rules of the contract to a request. meta is nil for
// a typed request; for a decoded one it tells which members were present
// and which failed to decode, so that no rule reports a problem the
// decoder already reported.
type checker struct {
	meta  *reqMeta
	probs strictjson.List
}

func (c *checker) add(q, o int, prop, msg string) { c.probs.Add(q, -1, o, prop, msg) }

// view is what the checker knows of one object's members.
type view = strictjson.View

// headerWhy says what a header is for, built once since every question's
// header is checked with it.
var headerWhy = "a short tag of at most " + strconv.Itoa(MaxHeaderLen) + ` characters shown above the question, such as "Database"`

const exampleQuestions = `[{"id":"db","question":"Which database should I use?","header":"Database","options":[{"id":"pg","label":"Postgres","description":"…"},{"id":"lite","label":"SQLite","description":"…"}]}]`

func (c *checker) request(r *Request) {
	rv := view{Typed: c.meta == nil}
	if c.meta != nil {
		rv.M = c.meta.obj
	}
	if r.Metadata != nil && rv.OK(rMetadata) {
		c.metadata(r.Metadata)
	}
	if !rv.OK(rQuestions) {
		return
	}
	n := len(r.Questions)
	switch {
	case n == 0 && !rv.Has(rQuestions, r.Questions != nil):
		c.add(-1, -1, "questions", "is required: send "+strconv.Itoa(MinQuestions)+" to "+strconv.Itoa(MaxQuestions)+" questions, such as "+exampleQuestions)
	case n < MinQuestions:
		c.add(-1, -1, "questions", "must hold at least "+strconv.Itoa(MinQuestions)+" question (at most "+strconv.Itoa(MaxQuestions)+")")
	case n > MaxQuestions:
		c.add(-1, -1, "questions", "has "+strconv.Itoa(n)+" questions; the limit is "+strconv.Itoa(MaxQuestions)+": ask the most important ones now and the rest in a later call")
	}
	ids := strictjson.MakeNames(n)
	for i := range r.Questions {
		qv := view{Typed: rv.Typed}
		var om []objMeta
		if !rv.Typed {
			qm := &c.meta.questions[i]
			qv.M = qm.obj
			om = qm.options
		}
		c.question(i, &r.Questions[i], qv, om, &ids)
	}
}

func (c *checker) metadata(m *Metadata) {
	var mv view
	if c.meta != nil {
		mv.M = c.meta.meta
	} else {
		mv.Typed = true
	}
	if m.Source != nil && mv.OK(mSource) {
		c.text(-1, -1, "metadata.source", *m.Source, MaxSourceLen, mv.Typed)
	}
	if m.FlowID != nil && mv.OK(mFlowID) {
		c.text(-1, -1, "metadata.flowId", *m.FlowID, MaxFlowIDLen, mv.Typed)
	}
	if !mv.OK(mTags) {
		return
	}
	if n := len(m.Tags); n > MaxTags {
		c.add(-1, -1, "metadata.tags", "has "+strconv.Itoa(n)+" tags; the limit is "+strconv.Itoa(MaxTags))
	}
	for k, t := range m.Tags {
		c.text(-1, -1, "metadata.tags["+strconv.Itoa(k)+"]", t, MaxTagLen, mv.Typed)
	}
}

func (c *checker) question(i int, q *Question, qv view, om []objMeta, ids *strictjson.Names) {
	if qv.M.Bad&whole != 0 {
		return
	}
	if qv.OK(qID) && c.id(i, -1, q.ID, qv, "the key of its answer in the result") {
		if j, dup := ids.Add(q.ID, i); dup {
			c.add(i, -1, "id", quote(q.ID)+" is already the id of questions["+strconv.Itoa(j)+"]; question ids must be unique")
		}
	}
	if qv.OK(qQuestion) && c.required(i, -1, "question", q.Question, MaxQuestionLen, "the full question the user reads, ending with \"?\"") {
		if !strings.HasSuffix(q.Question, "?") {
			msg := `must end with "?": phrase it as a question, such as "Which database should I use?"`
			if strings.HasSuffix(strings.TrimRightFunc(q.Question, unicode.IsSpace), "?") {
				msg = `must end with "?", with nothing after it: remove the trailing white space`
			}
			c.add(i, -1, "question", msg)
		}
	}
	if qv.OK(qHeader) {
		c.required(i, -1, "header", q.Header, MaxHeaderLen, headerWhy)
	}
	if !qv.OK(qOptions) {
		return
	}
	n := len(q.Options)
	switch {
	case n == 0 && !qv.Has(qOptions, q.Options != nil):
		c.add(i, -1, "options", "is required: give "+strconv.Itoa(MinOptions)+" to "+strconv.Itoa(MaxOptions)+` options, such as [{"id":"pg","label":"Postgres","description":"…"},{"id":"lite","label":"SQLite","description":"…"}]`)
	case n == 0:
		c.add(i, -1, "options", "is empty: give "+strconv.Itoa(MinOptions)+" to "+strconv.Itoa(MaxOptions)+" options, besides the Other answer the tool adds by itself")
	case n < MinOptions:
		c.add(i, -1, "options", "has 1 option; give at least "+strconv.Itoa(MinOptions)+" (at most "+strconv.Itoa(MaxOptions)+"), besides the Other answer the tool adds by itself")
	case n > MaxOptions:
		c.add(i, -1, "options", "has "+strconv.Itoa(n)+" options; the limit is "+strconv.Itoa(MaxOptions)+": keep the likeliest choices, since the user can always answer Other")
	}
	optIDs, labels := strictjson.MakeNames(n), strictjson.MakeFoldNames(n)
	recommended := -1
	for k := range q.Options {
		o := &q.Options[k]
		ov := view{Typed: qv.Typed}
		if !qv.Typed {
			ov.M = om[k]
		}
		if ov.M.Bad&whole != 0 {
			continue
		}
		if ov.OK(oID) && c.id(i, k, o.ID, ov, "the option's key in the answer") {
			if j, dup := optIDs.Add(o.ID, k); dup {
				c.add(i, k, "id", quote(o.ID)+" is already the id of options["+strconv.Itoa(j)+"]; option ids must be unique within a question")
			}
		}
		if ov.OK(oLabel) && c.required(i, k, "label", o.Label, MaxLabelLen, "the text the user picks") {
			c.label(i, k, o.Label, &labels)
		}
		if ov.OK(oDescription) {
			c.required(i, k, "description", o.Description, MaxDescriptionLen, "say what choosing this option means")
		}
		if ov.OK(oPreview) && ov.Has(oPreview, o.Preview != "") {
			switch {
			case q.MultiSelect && qv.OK(qMultiSelect):
				c.add(i, k, "preview", "is only allowed on a single-select question: remove it, or leave multiSelect out")
			case o.Preview == "":
				c.add(i, k, "preview", "must not be empty: leave preview out when the option has none")
			case strictjson.Blank(o.Preview):
				c.add(i, k, "preview", "must not be blank: leave preview out when the option has none")
			default:
				c.text(i, k, "preview", o.Preview, MaxPreviewLen, qv.Typed)
			}
		}
		if o.Recommended && ov.OK(oRecommended) {
			if recommended >= 0 {
				c.add(i, k, "recommended", "options["+strconv.Itoa(recommended)+"] is already recommended; at most one option per question may be")
			} else {
				recommended = k
			}
		}
	}
}

// id checks a question or option id. It reports whether the id is
// valid, so that its uniqueness may be checked.
func (c *checker) id(q, o int, id string, v view, why string) bool {
	if !c.required(q, o, "id", id, MaxIDLen, why) {
		return false
	}
	switch {
	case id == OtherID:
		c.add(q, o, "id", quote(id)+" is reserved for the Other answer the tool adds by itself; choose another id")
		return false
	case strings.HasPrefix(id, "$"):
		c.add(q, o, "id", quote(id)+` is reserved: ids beginning with "$" belong to the tool; choose another id`)
		return false
	}
	return true
}

// label checks the label of option k, which is valid text, against the
// Other answer and against the labels before it, which look alike to the
// user when they are equal but for case and surrounding white space.
func (c *checker) label(q, k int, label string, labels *strictjson.Names) {
	trimmed := strings.TrimSpace(label)
	if isOther(trimmed) {
		c.add(q, k, "label", quote(label)+" is not allowed: the tool adds an Other answer to every question by itself; remove this option")
		return
	}
	if j, dup := labels.Add(trimmed, k); dup {
		c.add(q, k, "label", quote(label)+" repeats the label of options["+strconv.Itoa(j)+"]; labels must be unique within a question, whatever their case")
	}
}

// isOther reports whether a trimmed label names an explicit Other option.
func isOther(label string) bool {
	if len(label) < 5 || len(label) > 10 {
		return false
	}
	for _, s := range []string{"other", "other...", "other…"} {
		if strings.EqualFold(label, s) {
			return true
		}
	}
	return false
}

// required checks a string that must be sent and must not be blank, and
// then its length.
func (c *checker) required(q, o int, prop, s string, limit int, why string) bool {
	return c.probs.Required(q, -1, o, prop, s, limit, why, c.meta == nil)
}

// text checks a string against its limit and, for a typed request, that
// it is UTF-8.
func (c *checker) text(q, o int, prop, s string, limit int, typed bool) bool {
	return c.probs.Text(q, -1, o, prop, s, limit, typed)
}

// quote quotes s for a message.
func quote(s string) string { return strictjson.Quote(s) }
