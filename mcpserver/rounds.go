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
// that the contract would refuse as empty_answer.
func gapsIn(req *contract.Request, answers []contract.Answer) gaps {
	g := gaps{}
	for i := range req.Questions {
		q, a := &req.Questions[i], &answers[i]
		switch q.Kind {
		case contract.KindBool:
			if a.Value == nil {
				g[i] = nil
			}
		case contract.KindForm:
			var names []string
			for _, f := range q.Fields {
				if f.Required && (a.Value == nil || !hasEntry(a.Value, f.Name)) {
					names = append(names, f.Name)
				}
			}
			if len(names) > 0 {
				g[i] = names
			}
		default:
			if len(a.Selections) == 0 && a.FreeText == "" {
				g[i] = nil
			}
		}
	}
	return g
}

func hasEntry(v *contract.AnswerValue, name string) bool {
	return slices.ContainsFunc(v.Form, func(e contract.FormEntry) bool { return e.Name == name })
}

// describe names the gaps for the model and the user, in question order:
// question 2 ("Database") and question 3 ("Release": field "version").
func (g gaps) describe(req *contract.Request) string {
	var parts []string
	for _, i := range slices.Sorted(maps.Keys(g)) {
		s := "question " + strconv.Itoa(i+1) + " (" + strconv.Quote(req.Questions[i].Title)
		if names := g[i]; len(names) > 0 {
			word := "field "
			if len(names) > 1 {
				word = "fields "
			}
			s += ": " + word + strings.Join(quoteAll(names), ", ")
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

// round is one form of a call: its number, from 1, and the content of
// the forms before it that were accepted, merged.
type round struct {
	n    int
	kept map[string]any
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
	return gapsIn(req, answers), nil
}

// form returns the form of r for req, with left to answer.
func (r round) form(req *contract.Request, left time.Duration) (*mcp.ElicitParams, error) {
	g, err := r.asks(req)
	if err != nil {
		return nil, err
	}
	return formParams(req, g, left), nil
}

// verdict is what the client's answer to one form means for the call:
// an outcome, an error (an *ask.UnansweredError for empty_answer), or
// another round to ask for what is still missing.
type verdict struct {
	outcome ask.Outcome
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
			return false, false, fmt.Errorf("the client answered the form with %q %d ms after it was sent, too soon for anyone to have read it; most likely it could not show the form", action, took.Milliseconds())
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
// unanswered gets another round asking only for those, keeping the rest,
// unless it came back too soon for a person to have filled it in or it
// was the last round: then it is empty_answer, naming what is missing.
func judge(req *contract.Request, r round, res *mcp.ElicitResult, took time.Duration) verdict {
	v := verdict{action: res.Action}
	if accepted, dismissed, err := readAction(res.Action, r.n, took); !accepted {
		v.outcome.Dismissed, v.err = dismissed, err
		return v
	}
	merged := map[string]any{}
	maps.Copy(merged, r.kept)
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
	maps.Copy(merged, res.Content)
	answers, err := formAnswers(req, merged)
	if err != nil {
		v.err = err
		return v
	}
	g := gapsIn(req, answers)
	switch {
	case len(g) == 0:
		v.outcome.Answers = answers
	case took < minReadTime:
		v.err = &ask.UnansweredError{Reason: fmt.Sprintf("the client returned the form %d ms after it was sent, too soon for anyone to have filled it in, without an answer to %s", took.Milliseconds(), g.describe(req))}
	case r.n >= maxRounds:
		v.err = &ask.UnansweredError{Reason: fmt.Sprintf("the form was sent %d times and still came back without an answer to %s", r.n, g.describe(req))}
	default:
		v.next = &round{n: r.n + 1, kept: merged}
	}
	return v
}
