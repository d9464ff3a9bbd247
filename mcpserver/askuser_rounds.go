package mcpserver

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// minReadTime is the least time in which a person can see a form, read
// it and answer it. A client that cannot show a form, such as Claude
// Code's -p or codex exec, answers it with cancel or decline 1 to 55 ms
// after it was sent; the quickest anyone reacts to a thing on a screen is
// about 200 ms, and reading even one question takes longer. So an answer
// that comes sooner than this came from no person: a dismissal is the
// client failing to show the form, and an incomplete form is not the
// user's to fix in another form.
const minReadTime = 300 * time.Millisecond

// maxRounds bounds the forms of one call: the first, and the ones that
// ask again for what an accepted form left out. A client that keeps
// sending the form back incomplete ends the call with empty_answer.
const maxRounds = 3

// gaps is what of a questionnaire is still unanswered, by question index:
// nil for a whole question, or for a simple-form question the names of
// its required fields that have no value.
type gaps map[int][]string

// gapsIn returns the gaps of answers, the answers to req: the questions
// that the contract would refuse as empty_answer (contract's Unanswered).
func gapsIn(req *contract.Request, answers []contract.Answer) gaps {
	g := gaps{}
	for i := range req.Questions {
		if empty, fields := req.Questions[i].Unanswered(&answers[i]); empty {
			g[i] = fields
		}
	}
	return g
}

// describe names the gaps for the model and the user, in question order,
// with the problems of bad among them: question 2 ("Database") and
// question 3 ("Release": field "version"; field "arches": "x86" is not
// one of the options).
func (g gaps) describe(req *contract.Request, bad problems) string {
	rules := propRules(req)
	var parts []string
	for _, i := range slices.Sorted(maps.Keys(g)) {
		var says []string
		for _, name := range slices.Sorted(maps.Keys(bad)) {
			if r := rules[name]; r.question == i && r.field == "" {
				if r.note {
					says = append(says, "the note: "+bad[name])
				} else {
					says = append(says, bad[name])
				}
			}
		}
		var missing []string
		for _, f := range g[i] {
			if p, ok := bad[fieldProp(i, f)]; ok {
				says = append(says, "field "+strconv.Quote(f)+": "+p)
			} else {
				missing = append(missing, f)
			}
		}
		if len(missing) > 0 {
			word := "field "
			if len(missing) > 1 {
				word = "fields "
			}
			says = append([]string{word + strings.Join(quoteAll(missing), ", ")}, says...)
		}
		s := "question " + strconv.Itoa(i+1) + " (" + strconv.Quote(req.Questions[i].Title)
		if len(says) > 0 {
			s += ": " + strings.Join(says, "; ")
		}
		parts = append(parts, s+")")
	}
	switch len(parts) {
	case 0:
		return "nothing"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// add puts what bad names in g: the question of each property, or its
// field.
func (g gaps) add(req *contract.Request, bad problems) {
	rules := propRules(req)
	for name := range bad {
		r, ok := rules[name]
		if !ok {
			continue
		}
		names, asked := g[r.question]
		switch {
		case r.field == "":
			g[r.question] = nil
		case !asked || names != nil:
			if !slices.Contains(names, r.field) {
				g[r.question] = append(names, r.field)
			}
		}
	}
	for i, names := range g {
		if names != nil {
			// Fields in the order of the question, as gapsIn gives them.
			q := &req.Questions[i]
			slices.SortFunc(names, func(a, b string) int { return fieldIndex(q, a) - fieldIndex(q, b) })
		}
	}
}

func fieldIndex(q *contract.Question, name string) int {
	return slices.IndexFunc(q.Fields, func(f contract.Field) bool { return f.Name == name })
}

// round is one form of a call: its number, from 1, the content of the
// forms before it that were accepted, merged, and the problems of what
// they sent that could not be used, which the form asks for again.
type round struct {
	n    int
	kept map[string]any
	bad  problems
}

// asks returns what the form of r asks for, nil for the whole
// questionnaire.
func (r round) asks(req *contract.Request) (gaps, error) {
	if r.n <= 1 {
		return nil, nil
	}
	answers, err := formAnswers(req, r.kept)
	if err != nil {
		return nil, fmt.Errorf("the answers kept from the forms before: %w", err)
	}
	g := gapsIn(req, answers)
	g.add(req, r.bad)
	return g, nil
}

// form returns the form of r for req, with left to answer.
func (r round) form(req *contract.Request, left time.Duration) (*mcp.ElicitParams, error) {
	g, err := r.asks(req)
	if err != nil {
		return nil, err
	}
	return formParams(req, g, r.bad, left), nil
}

// verdict is what the client's answer to one form means for the call:
// an outcome, an error (an *ask.UnansweredError for empty_answer), or
// another round to ask for what is still missing.
type verdict struct {
	outcome ask.Outcome[[]contract.Answer]
	err     error
	next    *round
	action  string // the client's action
}

// unknownProperties reports the properties of content that form does
// not have, or returns nil.
func unknownProperties(form *mcp.ElicitParams, content map[string]any) error {
	props := form.RequestedSchema.(*formSchema).props
	var unknown []string
	for k := range content {
		if props[k] == nil {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	return fmt.Errorf("the form came back with properties it does not have: %s", strings.Join(quoteAll(unknown), ", "))
}

// readAction reads the client's action on the form of round n, answered
// took after it was sent: accepted, or a dismissal, or an error for a
// dismissal of the first form sooner than minReadTime, which is no
// person's, and for an action the protocol does not have.
func readAction(action string, n int, took time.Duration) (accepted, dismissed bool, err error) {
	switch action {
	case "decline", "cancel":
		if n <= 1 && took < minReadTime {
			return false, false, formNotShown{fmt.Errorf("the client answered the form with %q %d ms after it was sent, too soon for anyone to have read it; most likely it could not show the form", action, took.Milliseconds())}
		}
		return false, true, nil
	case "accept":
		return true, false, nil
	}
	return false, false, fmt.Errorf("the client answered the form with the unknown action %q", action)
}

// judge reads res, the client's answer, took after it was sent, to the
// form of round r of req.
//
// A cancel or decline of the first form that comes sooner than
// minReadTime is no dismissal but a form that nobody saw: an error, for
// the model to ask in text. An accepted form that leaves questions
// unanswered, or sends values that cannot be used (a string for a
// boolean, a label that is no option), gets another round asking only for
// those, naming what was wrong and keeping the rest, unless it came back
// too soon for a person to have filled it in or it was the last round:
// then it is empty_answer, naming what is missing. A property the form
// does not have is no person's doing, and an error.
func judge(req *contract.Request, r round, res *mcp.ElicitResult, took time.Duration) verdict {
	v := verdict{action: res.Action}
	if accepted, dismissed, err := readAction(res.Action, r.n, took); !accepted {
		v.outcome.Dismissed, v.err = dismissed, err
		return v
	}
	if r.n > 1 {
		form, err := r.form(req, 0)
		if err != nil {
			v.err = err
			return v
		}
		if v.err = unknownProperties(form, res.Content); v.err != nil {
			return v
		}
	}
	usable, bad := screen(req, res.Content)
	merged := map[string]any{}
	maps.Copy(merged, r.kept)
	maps.Copy(merged, usable)
	answers, err := formAnswers(req, merged)
	if err != nil {
		v.err = err
		return v
	}
	g := gapsIn(req, answers)
	g.add(req, bad)
	missing := "an answer"
	if len(bad) > 0 {
		missing = "a usable answer"
	}
	switch {
	case len(g) == 0:
		v.outcome.Answer = answers
	case took < minReadTime:
		v.err = &ask.UnansweredError{Reason: fmt.Sprintf("the client returned the form %d ms after it was sent, too soon for anyone to have filled it in, without %s to %s", took.Milliseconds(), missing, g.describe(req, bad))}
	case r.n >= maxRounds:
		v.err = &ask.UnansweredError{Reason: fmt.Sprintf("the form was sent %d times and still came back without %s to %s", r.n, missing, g.describe(req, bad))}
	default:
		if len(bad) == 0 {
			bad = nil
		}
		v.next = &round{n: r.n + 1, kept: merged, bad: bad}
	}
	return v
}
