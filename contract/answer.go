package contract

import (
	"strconv"
	"strings"
)

// NewAnswer returns the answer to question index of req, a normalized
// request, with Index, ID, Title and Kind filled in and no selections. A
// renderer fills in the rest. It panics if index is out of range.
func NewAnswer(req *Request, index int) Answer {
	q := &req.Questions[index]
	return Answer{Index: index, ID: q.ID, Title: q.Title, Kind: q.Kind, Selections: []string{}}
}

// AnswerError is the error CheckAnswers returns: which answer breaks the
// answer conventions and how.
type AnswerError struct {
	// Index is the position of the answer in the list, or -1 when the list
	// as a whole is wrong.
	Index int
	// Reason says what is wrong.
	Reason string
}

// Error reports the answer and the reason, as "answer 1: ...".
func (e *AnswerError) Error() string {
	if e.Index < 0 {
		return "answers: " + e.Reason
	}
	return "answer " + strconv.Itoa(e.Index) + ": " + e.Reason
}

// CheckAnswers reports whether answers is a well-formed answer to req, a
// normalized request, and returns an *AnswerError saying which answer is
// wrong and how when it is not. It is the core's safety net: a renderer
// with a bug must not hand the model an invented or malformed answer.
//
// There must be one answer per question, in question order, each with the
// question's index, id, title and kind and a non-nil Selections, and:
//
//   - single: at most one selection, an option label, or else free text;
//   - multi: distinct option labels in option order, or else free text;
//   - input: no selections and non-empty free text;
//   - bool: no selections or free text, and a boolean Value;
//   - simple-form: no selections or free text, and a form Value whose
//     entries name fields in field order, each at most once, with a value
//     of the field's kind (a boolean, a label, a non-empty list of
//     distinct labels in option order, or non-empty text), and every
//     required field present.
//
// Free text is trimmed, and is not allowed on single and multi questions
// when req disallows free text. UsedDefault is set only when the answer
// is what the question's default gives, or, for a form, when a field it
// includes holds its default's value.
func CheckAnswers(req *Request, answers []Answer) error {
	if len(answers) != len(req.Questions) {
		return &AnswerError{Index: -1, Reason: "got " + strconv.Itoa(len(answers)) + " answers for " + strconv.Itoa(len(req.Questions)) + " questions"}
	}
	free := req.FreeTextAllowed()
	for i := range answers {
		if reason := checkAnswer(&req.Questions[i], i, &answers[i], free); reason != "" {
			return &AnswerError{Index: i, Reason: reason}
		}
	}
	return nil
}

func checkAnswer(q *Question, i int, a *Answer, free bool) string {
	switch {
	case q.Kind == "" || q.ID == "":
		return "the request is not normalized"
	case a.Index != i:
		return "index is " + strconv.Itoa(a.Index) + ", want " + strconv.Itoa(i)
	case a.ID != q.ID:
		return "id is " + quote(a.ID) + ", want " + quote(q.ID)
	case a.Title != q.Title:
		return "title is " + quote(a.Title) + ", want " + quote(q.Title)
	case a.Kind != q.Kind:
		return "kind is " + quote(string(a.Kind)) + ", want " + quote(string(q.Kind))
	case a.Selections == nil:
		return "selections is nil; use an empty list"
	case a.FreeText != strings.TrimSpace(a.FreeText):
		return "free text is not trimmed"
	}
	switch q.Kind {
	case KindSingle, KindMulti:
		if a.Value != nil {
			return "a " + string(q.Kind) + " answer has no value"
		}
		if a.FreeText != "" && !free {
			return "free text is not allowed by this request"
		}
		if q.Kind == KindSingle && len(a.Selections) > 1 {
			return "a single answer has at most one selection"
		}
		if reason := checkLabels(q.Options, a.Selections); reason != "" {
			return reason
		}
		if len(a.Selections) == 0 && a.FreeText == "" {
			return "no selection and no free text"
		}
		if reason := usedDefault(q, a); reason != "" {
			return reason
		}
	case KindInput:
		switch {
		case a.Value != nil:
			return "an input answer has no value"
		case len(a.Selections) != 0:
			return "an input answer has no selections"
		case a.FreeText == "":
			return "an input answer needs text"
		}
		return usedDefault(q, a)
	case KindBool:
		switch {
		case len(a.Selections) != 0 || a.FreeText != "":
			return "a bool answer has no selections or free text"
		case a.Value == nil || a.Value.IsForm || a.Value.Form != nil:
			return "a bool answer needs a boolean value"
		}
		return usedDefault(q, a)
	case KindForm:
		switch {
		case len(a.Selections) != 0 || a.FreeText != "":
			return "a simple-form answer has no selections or free text"
		case a.Value == nil || !a.Value.IsForm:
			return "a simple-form answer needs a form value"
		}
		return checkForm(q, a)
	default:
		return "unknown kind " + quote(string(q.Kind))
	}
	return ""
}

// checkLabels checks that labels are distinct option labels in option
// order.
func checkLabels(opts []Option, labels []string) string {
	next := 0
	for _, l := range labels {
		k := -1
		for j := range opts {
			if opts[j].Label == l {
				k = j
				break
			}
		}
		switch {
		case k < 0:
			return quote(l) + " is not an option label"
		case k < next:
			return quote(l) + " is out of option order or repeated"
		}
		next = k + 1
	}
	return ""
}

func checkForm(q *Question, a *Answer) string {
	next := 0
	defaulted := false
	for _, e := range a.Value.Form {
		j := -1
		for k := range q.Fields {
			if q.Fields[k].Name == e.Name {
				j = k
				break
			}
		}
		switch {
		case j < 0:
			return "field " + quote(e.Name) + " is not in the form"
		case j < next:
			return "field " + quote(e.Name) + " is out of field order or repeated"
		}
		f := &q.Fields[j]
		for k := next; k < j; k++ {
			if q.Fields[k].Required {
				return "required field " + quote(q.Fields[k].Name) + " is missing"
			}
		}
		next = j + 1
		if d, ok := f.EffectiveDefault(); ok && d.Equal(e.Value) {
			defaulted = true
		}
		if reason := checkFieldValue(f, e.Value); reason != "" {
			return "field " + quote(f.Name) + ": " + reason
		}
	}
	for k := next; k < len(q.Fields); k++ {
		if q.Fields[k].Required {
			return "required field " + quote(q.Fields[k].Name) + " is missing"
		}
	}
	if a.UsedDefault && !defaulted {
		return "usedDefault is set but no field included has its default's value"
	}
	return ""
}

// usedDefault says what is wrong with a's usedDefault, an answer to q,
// which is not a simple-form: it is set only when the answer is what the
// question's default gives, by the rules of ChoiceDefault and
// TextDefault, so that an answer cannot claim a default it changed.
func usedDefault(q *Question, a *Answer) string {
	if !a.UsedDefault {
		return ""
	}
	if q.Default == nil {
		return "usedDefault is set but the question has no default"
	}
	same := false
	switch q.Kind {
	case KindSingle, KindMulti:
		if i, text, ok := q.ChoiceDefault(); ok && i >= 0 {
			same = len(a.Selections) == 1 && a.Selections[0] == q.Options[i].Label && a.FreeText == ""
		} else if ok {
			same = len(a.Selections) == 0 && a.FreeText == text
		}
	case KindInput:
		d, ok := q.TextDefault()
		same = ok && a.FreeText == strings.TrimSpace(d)
	case KindBool:
		d, ok := q.Default.Bool()
		same = ok && a.Value.Bool == d
	}
	if !same {
		return "usedDefault is set but the answer is not the question's default"
	}
	return ""
}

func checkFieldValue(f *Field, v Value) string {
	switch f.Kind {
	case KindBool:
		if v.kind != ValueBool {
			return "a bool field needs a boolean, got " + v.typeName()
		}
	case KindSingle:
		if v.kind != ValueString {
			return "a single field needs a label, got " + v.typeName()
		}
		return checkLabels(f.Options, []string{v.s})
	case KindMulti:
		switch {
		case v.kind != ValueStrings:
			return "a multi field needs a list of labels, got " + v.typeName()
		case len(v.list) == 0:
			return "an empty multi field is left out, not sent empty"
		}
		return checkLabels(f.Options, v.list)
	case KindInput:
		switch {
		case v.kind != ValueString:
			return "an input field needs text, got " + v.typeName()
		case v.s == "":
			return "an empty input field is left out, not sent empty"
		case v.s != strings.TrimSpace(v.s):
			return "text is not trimmed"
		}
	default:
		return "unknown field kind " + quote(string(f.Kind))
	}
	return ""
}

// Unanswered reports whether a leaves q unanswered, the rule by which a
// call ends with ErrEmptyAnswer rather than ErrInternal, and which
// required fields of a simple-form it leaves without a value.
//
// A single, multi or input answer is empty when it has no selection, no
// free text and no value. A bool answer is empty when it has no value;
// false is an answer. A simple-form answer is empty when it has no value
// or when a required field has no entry or an empty one: text "", a list
// of no labels, or no value; fields then names those fields in q's order
// (every required field when the value is missing). Unanswered judges
// emptiness alone: an answer it passes may still break the contract,
// which CheckAnswers tells.
func (q *Question) Unanswered(a *Answer) (empty bool, fields []string) {
	switch q.Kind {
	case KindBool:
		return a.Value == nil, nil
	case KindForm:
		for i := range q.Fields {
			f := &q.Fields[i]
			if !f.Required {
				continue
			}
			if a.Value == nil {
				fields = append(fields, f.Name)
				continue
			}
			if v, ok := a.Value.Field(f.Name); !ok || v.blank() {
				fields = append(fields, f.Name)
			}
		}
		return a.Value == nil || len(fields) > 0, fields
	}
	return len(a.Selections) == 0 && a.FreeText == "" && a.Value == nil, nil
}

// blank reports whether v gives a field no value: none, text "" or a
// list of no labels. A boolean is never blank.
func (v Value) blank() bool {
	switch v.kind {
	case ValueString:
		return v.s == ""
	case ValueStrings:
		return len(v.list) == 0
	case ValueNone:
		return true
	}
	return false
}
