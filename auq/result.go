package auq

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/internal/strictjson"
)

// ResultMetadata returns the metadata the result of r carries back: its
// source and flowId, copied, or nil when r has neither. Tags are input
// only and never come back.
func (r *Request) ResultMetadata() *ResultMetadata {
	if r.Metadata == nil || r.Metadata.Source == nil && r.Metadata.FlowID == nil {
		return nil
	}
	var m ResultMetadata
	if s := r.Metadata.Source; s != nil {
		v := *s
		m.Source = &v
	}
	if s := r.Metadata.FlowID; s != nil {
		v := *s
		m.FlowID = &v
	}
	return &m
}

// QuestionByID returns the question with the given id, or nil.
func (r *Request) QuestionByID(id string) *Question {
	for i := range r.Questions {
		if r.Questions[i].ID == id {
			return &r.Questions[i]
		}
	}
	return nil
}

// OptionByID returns the option with the given id, or nil.
func (q *Question) OptionByID(id string) *Option {
	for i := range q.Options {
		if q.Options[i].ID == id {
			return &q.Options[i]
		}
	}
	return nil
}

// ResultError is the error CheckResult returns: every way in which a
// result does not fit its request, each with the JSON path of the member
// in the result, such as answers.db.optionId.
type ResultError struct {
	Problems []Problem
}

// Error joins the problems as "path: message; path: message".
func (e *ResultError) Error() string {
	var b strings.Builder
	b.WriteString("the result does not fit the request: ")
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// CheckResult reports whether res is a result the user can have given
// for req, a request Parse or Validate accepted. Hosts check what a
// renderer returns with it, so that an answer that is invented or broken
// never reaches the model. It returns nil or a *ResultError listing every
// problem:
//
//   - A cancelled result has no answers and no annotations.
//   - Answers are keyed by the ids of req's questions, and every required
//     question has one. An answer's kind is multi for a multiSelect
//     question and single otherwise.
//   - A choice is an option, by its id and exactly its label, with no
//     text; or the Other answer: Other set, no option id, the label
//     OtherLabel and a non-blank text of at most MaxOtherTextLen
//     characters.
//   - A multi answer lists each option at most once and Other at most
//     once, and Empty is true exactly when it lists nothing.
//   - Annotations are keyed by question ids, and an entry holds at least
//     one note or a preview. Notes are non-blank, at most MaxNoteLen
//     characters; option notes are keyed by an option id of the question,
//     or OtherNoteKey.
//   - SelectedPreview is set exactly when a single-select question was
//     answered with an option that has a preview, and equals it.
//   - Metadata is req.ResultMetadata(), unchanged.
//
// Every string must be valid UTF-8.
func CheckResult(req *Request, res Result) error {
	if req == nil {
		return &ResultError{Problems: []Problem{{Message: "there is no request to check the result against"}}}
	}
	var c resultChecker
	c.metadata(req, res.Metadata)
	if res.Cancelled {
		if len(res.Answers) > 0 {
			c.add("answers", "a cancelled result has no answers")
		}
		if len(res.Annotations) > 0 {
			c.add("annotations", "a cancelled result has no annotations")
		}
		return c.err()
	}
	for i := range req.Questions {
		q := &req.Questions[i]
		path := strictjson.MemberPath("answers", q.ID)
		a, ok := res.Answers[q.ID]
		switch {
		case ok:
			c.answer(path, q, a)
		case q.IsRequired():
			c.add(path, "is missing: questions["+strconv.Itoa(i)+"] is required")
		}
	}
	for _, id := range sortedKeys(res.Answers) {
		if req.QuestionByID(id) == nil {
			c.add(strictjson.MemberPath("answers", id), "no question has the id "+quote(id))
		}
	}
	for i := range req.Questions {
		q := &req.Questions[i]
		ann, ok := res.Annotations[q.ID]
		a, answered := res.Answers[q.ID]
		c.annotations(strictjson.MemberPath("annotations", q.ID), q, ann, ok, a, answered)
	}
	for _, id := range sortedKeys(res.Annotations) {
		if req.QuestionByID(id) == nil {
			c.add(strictjson.MemberPath("annotations", id), "no question has the id "+quote(id))
		}
	}
	return c.err()
}

type resultChecker struct {
	probs []Problem
}

func (c *resultChecker) add(path, msg string) {
	c.probs = append(c.probs, Problem{Path: path, Message: msg})
}

func (c *resultChecker) err() error {
	if len(c.probs) == 0 {
		return nil
	}
	return &ResultError{Problems: c.probs}
}

func (c *resultChecker) metadata(req *Request, got *ResultMetadata) {
	want := req.ResultMetadata()
	same := func(a, b *string) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }
	switch {
	case want == nil && got == nil:
	case want == nil:
		c.add("metadata", "the request sent no source or flowId, so the result carries no metadata")
	case got == nil:
		c.add("metadata", "is missing: the request's source and flowId come back unchanged")
	default:
		if !same(want.Source, got.Source) {
			c.add("metadata.source", "differs from the request's source; it comes back unchanged")
		}
		if !same(want.FlowID, got.FlowID) {
			c.add("metadata.flowId", "differs from the request's flowId; it comes back unchanged")
		}
	}
}

func (c *resultChecker) answer(path string, q *Question, a Answer) {
	want := KindSingle
	if q.MultiSelect {
		want = KindMulti
	}
	if a.Kind != want {
		c.add(path+".kind", "must be "+quote(string(want))+" for this question, got "+quote(string(a.Kind)))
		return
	}
	if a.Kind == KindSingle {
		if len(a.Selections) > 0 || a.Empty {
			c.add(path, "a single answer has no selections and no empty")
		}
		c.choice(path, q, a.Choice)
		return
	}
	if a.Choice != (Choice{}) {
		c.add(path, "a multi answer holds its choices in selections only")
	}
	other := -1
	seen := make([]int, 0, len(a.Selections))
	for k, ch := range a.Selections {
		p := path + ".selections[" + strconv.Itoa(k) + "]"
		if !c.choice(p, q, ch) {
			continue
		}
		if ch.Other {
			if other >= 0 {
				c.add(p, "repeats the Other answer of selections["+strconv.Itoa(other)+"]")
			}
			other = k
			continue
		}
		for _, j := range seen {
			if a.Selections[j].OptionID == ch.OptionID {
				c.add(p+".optionId", quote(ch.OptionID)+" is already selections["+strconv.Itoa(j)+"]")
			}
		}
		seen = append(seen, k)
	}
	if a.Empty != (len(a.Selections) == 0) {
		if a.Empty {
			c.add(path+".empty", "is true, but the answer has selections")
		} else {
			c.add(path+".empty", "is false, but the answer has no selections")
		}
	}
}

// choice checks one chosen answer and reports whether it is valid.
func (c *resultChecker) choice(path string, q *Question, ch Choice) bool {
	before := len(c.probs)
	if ch.Other {
		if ch.OptionID != "" {
			c.add(path+".optionId", "the Other answer has no option id")
		}
		if ch.Label != OtherLabel {
			c.add(path+".label", "must be "+quote(OtherLabel)+" for the Other answer, got "+quote(ch.Label))
		}
		c.userText(path+".text", ch.Text, MaxOtherTextLen, "the Other answer needs the user's text")
		return len(c.probs) == before
	}
	if ch.Text != "" {
		c.add(path+".text", "only the Other answer has text")
	}
	if ch.OptionID == "" {
		c.add(path+".optionId", "is missing: a choice is an option id, or the Other answer")
		return false
	}
	o := q.OptionByID(ch.OptionID)
	if o == nil {
		c.add(path+".optionId", "the question has no option "+quote(ch.OptionID))
		return false
	}
	if ch.Label != o.Label {
		c.add(path+".label", "must be the label of option "+quote(o.ID)+", "+quote(o.Label)+", got "+quote(ch.Label))
	}
	return len(c.probs) == before
}

// userText checks text the user typed: a note or the Other answer.
func (c *resultChecker) userText(path, s string, limit int, why string) {
	switch {
	case strings.TrimSpace(s) == "":
		c.add(path, "is blank: "+why)
	case !utf8.ValidString(s):
		c.add(path, "is not valid UTF-8")
	case len(s) > limit && utf8.RuneCountInString(s) > limit:
		c.add(path, "is "+strconv.Itoa(utf8.RuneCountInString(s))+" characters long; the limit is "+strconv.Itoa(limit))
	}
}

func (c *resultChecker) annotations(path string, q *Question, ann Annotations, ok bool, a Answer, answered bool) {
	// The preview of the chosen option, which must come back with it.
	preview := ""
	if answered && a.Kind == KindSingle && !q.MultiSelect && !a.Choice.Other {
		if o := q.OptionByID(a.Choice.OptionID); o != nil {
			preview = o.Preview
		}
	}
	if !ok {
		if preview != "" {
			c.add(path+".selectedPreview", "is missing: the chosen option has a preview, which comes back with the answer")
		}
		return
	}
	if ann.QuestionNotes == "" && len(ann.OptionNotes) == 0 && ann.SelectedPreview == "" {
		c.add(path, "holds no note and no preview; leave the question out of annotations")
		return
	}
	if ann.QuestionNotes != "" {
		c.userText(path+".questionNotes", ann.QuestionNotes, MaxNoteLen, "leave an empty note out")
	}
	for _, key := range sortedKeys(ann.OptionNotes) {
		p := strictjson.MemberPath(path+".optionNotes", key)
		if key != OtherNoteKey && q.OptionByID(key) == nil {
			c.add(p, "the question has no option "+quote(key)+"; notes are keyed by option id, or "+quote(OtherNoteKey)+" for the Other answer")
			continue
		}
		c.userText(p, ann.OptionNotes[key], MaxNoteLen, "leave an empty note out")
	}
	switch {
	case ann.SelectedPreview == preview:
	case q.MultiSelect:
		c.add(path+".selectedPreview", "a multi-select question has no previews")
	case preview == "":
		c.add(path+".selectedPreview", "the question has no chosen option with a preview")
	case ann.SelectedPreview == "":
		c.add(path+".selectedPreview", "is missing: the chosen option has a preview, which comes back with the answer")
	default:
		c.add(path+".selectedPreview", "differs from the preview of the chosen option")
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
