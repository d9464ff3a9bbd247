package mcpserver

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/internal/safetext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The AskUserQuestion form is flat too, three properties a question,
// named by position:
//
//	q<N>        the answer: an option label or Other (single-select),
//	            or a list of them (multi-select)
//	q<N>_other  the text of the Other answer
//	q<N>_note   a note on the question

func otherProp(i int) string { return questionProp(i) + "_other" }

// qgaps are the questions of a form that need asking again, by index,
// each with the reason.
type qgaps map[int]string

// describe names the gaps in question order: question 2 ("Database": no
// answer).
func (g qgaps) describe(req *auq.Request) string {
	var parts []string
	for _, i := range slices.Sorted(maps.Keys(g)) {
		parts = append(parts, "question "+strconv.Itoa(i+1)+" ("+strconv.Quote(req.Questions[i].Header)+": "+g[i]+")")
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// qround is one form of an AskUserQuestion call: its number, from 1, the
// content of the accepted forms before it, merged, and what it asks
// again (nil for the whole request).
type qround struct {
	n    int
	kept map[string]any
	asks qgaps
}

// questionsForm is the form of r for req, with left to answer. A
// property is required when its question is: a client that enforces
// required then cannot let the user skip it.
func questionsForm(req *auq.Request, r qround, left time.Duration) *mcp.ElicitParams {
	s := &formSchema{props: map[string]*property{}}
	for i := range req.Questions {
		q := &req.Questions[i]
		if _, again := r.asks[i]; r.asks != nil && !again {
			continue
		}
		title := q.Header + ": " + q.Question
		p := &property{Title: title, Description: questionsDescription(q)}
		choices := make([]titledConst, 0, len(q.Options)+1)
		for _, o := range q.Options {
			t := o.Label + " — " + o.Description
			if o.Recommended {
				t += " (recommended)"
			}
			choices = append(choices, titledConst{Const: o.Label, Title: t})
		}
		choices = append(choices, titledConst{Const: auq.OtherLabel, Title: auq.OtherLabel + " — type your own answer below"})
		if q.MultiSelect {
			p.Type, p.Items = "array", &itemsSchema{AnyOf: choices}
		} else {
			p.Type, p.OneOf = "string", choices
		}
		s.add(questionProp(i), p, q.IsRequired())
		s.add(otherProp(i), &property{Type: "string", Title: q.Header + ": your own answer",
			Description: "The text of your Other answer; choose " + auq.OtherLabel + " above to use it."}, false)
		s.add(noteProp(i), &property{Type: "string", Title: q.Header + ": note",
			Description: "Optional. A note to go with your answer."}, false)
	}
	msg := "Please answer these " + strconv.Itoa(len(req.Questions)) + " questions."
	if len(req.Questions) == 1 {
		msg = req.Questions[0].Question
	}
	if r.asks != nil {
		msg = "Some answers still need you: " + r.asks.describe(req) + ". The answers you gave are kept."
	}
	if left > 0 {
		msg += "\n\n(" + timeLeft(left) + " to answer)"
	}
	return &mcp.ElicitParams{Mode: "form", Message: safetext.Text(msg), RequestedSchema: s}
}

// questionsDescription is what a form says under a question: whether it
// is optional or takes several answers, and the previews of its options,
// which a form cannot show beside the choices.
func questionsDescription(q *auq.Question) string {
	var parts []string
	switch {
	case q.MultiSelect && !q.IsRequired():
		parts = append(parts, "Choose any number of options, or none. Optional.")
	case q.MultiSelect:
		parts = append(parts, "Choose any number of options.")
	case !q.IsRequired():
		parts = append(parts, "Optional.")
	}
	for _, o := range q.Options {
		if o.Preview != "" {
			parts = append(parts, o.Label+":\n"+o.Preview)
		}
	}
	return strings.Join(parts, "\n\n")
}

// qverdict is what the client's answer to one form means for the call,
// as verdict is for ask_user.
type qverdict struct {
	outcome ask.Outcome[auq.Result]
	err     error
	next    *qround
	action  string
}

// judgeQuestions reads res, the client's answer, took after it was sent,
// to the form of round r of req, by the rules of judge: a dismissal
// sooner than minReadTime is a form nobody saw; an accepted form that
// leaves a required question unanswered, or an answer that cannot be
// used (Other without its text, an Other text beside another option, a
// value of the wrong type, a label no option has), gets another round for
// those questions, naming what was wrong, unless it came back too soon or
// it was the last round.
func judgeQuestions(req *auq.Request, r qround, res *mcp.ElicitResult, took time.Duration) qverdict {
	v := qverdict{action: res.Action}
	if accepted, dismissed, err := readAction(res.Action, r.n, took); !accepted {
		v.outcome.Dismissed, v.err = dismissed, err
		return v
	}
	if v.err = unknownProperties(questionsForm(req, r, 0), res.Content); v.err != nil {
		return v
	}
	merged := map[string]any{}
	maps.Copy(merged, r.kept)
	if r.asks != nil {
		// What is asked again replaces what was kept of it.
		for i := range r.asks {
			delete(merged, questionProp(i))
			delete(merged, otherProp(i))
		}
	}
	maps.Copy(merged, res.Content)
	result, g, bad := questionsAnswers(req, merged)
	for _, name := range bad {
		delete(merged, name)
	}
	switch {
	case len(g) == 0:
		v.outcome.Answer = result
	case took < minReadTime:
		v.err = fmt.Errorf("the client returned the form %d ms after it was sent, too soon for anyone to have filled it in, without a usable answer to %s", took.Milliseconds(), g.describe(req))
	case r.n >= maxRounds:
		v.err = fmt.Errorf("the form was sent %d times and still came back without a usable answer to %s", r.n, g.describe(req))
	default:
		v.next = &qround{n: r.n + 1, kept: merged, asks: g}
	}
	return v
}

// questionsAnswers maps the content of the accepted forms to a result:
// option labels to their ids and labels, the Other text, the notes, and
// the preview of the chosen option. A question that needs asking again
// is in the gaps, with the reason: no answer, an answer that cannot be
// read as one, or a value the form cannot hold (of the wrong type, a
// label no option has, a text too long), whose property is in bad.
func questionsAnswers(req *auq.Request, content map[string]any) (res auq.Result, g qgaps, bad []string) {
	g = qgaps{}
	for i := range req.Questions {
		q := &req.Questions[i]
		other, p := textValue(content, otherProp(i), "your own answer", auq.MaxOtherTextLen)
		if p != "" {
			g[i], bad = p, append(bad, otherProp(i))
			continue
		}
		note, p := textValue(content, noteProp(i), "the note", auq.MaxNoteLen)
		if p != "" {
			g[i], bad = p, append(bad, noteProp(i))
			continue
		}
		labels, given, p := labelsValue(content, questionProp(i), q.MultiSelect)
		if p == "" {
			for _, l := range labels {
				if l != auq.OtherLabel && optionByLabel(q, l) == nil {
					p = strconv.Quote(l) + " is not one of the choices"
					break
				}
			}
		}
		if p != "" {
			g[i], bad = p, append(bad, questionProp(i))
			continue
		}
		if other != "" && !slices.Contains(labels, auq.OtherLabel) {
			if given && !q.MultiSelect {
				g[i] = "an option is chosen and an answer of your own typed; choose " + auq.OtherLabel + " to use your own, or clear it"
				continue
			}
			// The text can mean nothing but the Other answer.
			labels, given = append(labels, auq.OtherLabel), true
		}
		if slices.Contains(labels, auq.OtherLabel) && other == "" {
			g[i] = auq.OtherLabel + " is chosen without your own answer"
			continue
		}
		// The choices in the order of the options, Other last, as the
		// dialog gives them.
		var choices []auq.Choice
		preview := ""
		for _, o := range q.Options {
			if slices.Contains(labels, o.Label) {
				choices = append(choices, auq.Choice{OptionID: o.ID, Label: o.Label})
				preview = o.Preview
			}
		}
		if slices.Contains(labels, auq.OtherLabel) {
			choices = append(choices, auq.Choice{Label: auq.OtherLabel, Other: true, Text: other})
		}
		if !given && q.IsRequired() {
			g[i] = "no answer"
			continue
		}
		if given {
			if res.Answers == nil {
				res.Answers = map[string]auq.Answer{}
			}
			a := auq.Answer{Kind: auq.KindMulti, Selections: choices, Empty: len(choices) == 0}
			if !q.MultiSelect {
				a = auq.Answer{Kind: auq.KindSingle, Choice: choices[0]}
			}
			res.Answers[q.ID] = a
		}
		ann := auq.Annotations{QuestionNotes: note}
		if given && !q.MultiSelect {
			ann.SelectedPreview = preview
		}
		if ann.QuestionNotes != "" || ann.SelectedPreview != "" {
			if res.Annotations == nil {
				res.Annotations = map[string]auq.Annotations{}
			}
			res.Annotations[q.ID] = ann
		}
	}
	return res, g, bad
}

// optionByLabel is q's option labelled l.
func optionByLabel(q *auq.Question, l string) *auq.Option {
	for k := range q.Options {
		if q.Options[k].Label == l {
			return &q.Options[k]
		}
	}
	return nil
}

// textValue is the trimmed text of content[name], "" when it is absent
// or blank, or says what is wrong with it: what names it for the person.
func textValue(content map[string]any, name, what string, limit int) (text, problem string) {
	v, ok := content[name]
	if !ok || v == nil {
		return "", ""
	}
	s, ok := v.(string)
	if !ok {
		return "", what + ": " + wrongValue(v, "text")
	}
	s = strings.TrimSpace(s)
	if n := utf8.RuneCountInString(s); n > limit {
		return "", fmt.Sprintf("%s is %d characters long; the limit is %d", what, n, limit)
	}
	return s, ""
}

// labelsValue reads the answer content[name]: one label, or a list of
// distinct labels for a multi-select question. given is false when it is
// absent (or, single-select, empty). problem says what is wrong with it.
func labelsValue(content map[string]any, name string, multi bool) (labels []string, given bool, problem string) {
	v, ok := content[name]
	if !ok || v == nil {
		return nil, false, ""
	}
	if !multi {
		s, ok := v.(string)
		if !ok {
			return nil, false, wrongValue(v, "one of the choices")
		}
		if s == "" {
			return nil, false, ""
		}
		return []string{s}, true, ""
	}
	list, ok := v.([]any)
	if !ok {
		return nil, false, wrongValue(v, "a list of choices")
	}
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, false, "the list holds " + jsonType(e) + ", not a choice"
		}
		if slices.Contains(labels, s) {
			return nil, false, strconv.Quote(s) + " is chosen twice"
		}
		labels = append(labels, s)
	}
	return labels, true, ""
}
