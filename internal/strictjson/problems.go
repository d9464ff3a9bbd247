// What the two request contracts, ask_user (package contract) and
// AskUserQuestion (package auq), share in checking a request: a problem with
// the JSON path of the member it concerns, the list of problems found in
// one request, the rules on text that both contracts apply, and the sets
// in which they find repeated names (Names).
//
// Each contract keeps its own public types over these: contract.Problem
// (which auq.Problem names too) has Problem's layout, so Ordered, Join
// and Explain take it, and contract.RequestError and auq.RequestError
// are distinct types, so that errors.As tells the two contracts' errors
// apart.

package strictjson

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// MaxProblems bounds the problems Ordered lists. A request with more is
// summarized by a last problem, with an empty path, saying how many were
// left out.
const MaxProblems = 50

// Problem is one thing wrong with a request or a config file: where it
// is, as a JSON path such as questions[1].fields[2].default, and what to
// do. An empty Path means the request as a whole.
type Problem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// String formats p as "path: message", or as the message alone when the
// problem concerns the whole request.
func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

// Explain writes what a model reads when its request was refused with
// err: head, then a line "- path: message" for each of ps, the problems
// of err (nil when err has none, and err's text then stands as the one
// problem), then tail on a line of its own unless it is empty.
func Explain[P Shape](head string, ps []P, err error, tail string) string {
	if ps == nil && err != nil {
		ps = []P{P(Problem{Message: err.Error()})}
	}
	var b strings.Builder
	b.WriteString(head)
	for _, p := range ps {
		b.WriteString("\n- ")
		b.WriteString(Problem(p).String())
	}
	if tail != "" {
		b.WriteByte('\n')
		b.WriteString(tail)
	}
	return b.String()
}

// Shape is the layout of Problem, which each contract's own problem type
// (contract.Problem) has too, so that the functions here take either.
type Shape interface {
	~struct {
		Path    string `json:"path"`
		Message string `json:"message"`
	}
}

// Join joins problems as "path: message; path: message".
func Join[P Shape](ps []P) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(Problem(p).String())
	}
	return b.String()
}

// Placed is a Problem with its place in the questionnaire: the indexes of
// the question, form field and option it is in, each -1 when it is in
// none, so that problems can be ordered question by question.
type Placed struct {
	Problem
	Q, F, O int
}

// List is the problems found in one request, by the decoder and then by
// the rules, in the order found. The zero value is an empty list.
type List []Placed

// Add records msg for the member prop of question q, field f, option o;
// an index of -1 leaves that level out of the path.
func (l *List) Add(q, f, o int, prop, msg string) {
	*l = append(*l, Placed{Problem: Problem{Path: Path(q, f, o, prop), Message: msg}, Q: q, F: f, O: o})
}

// Required checks a text that must be sent and must not be blank, why
// saying what it is for, and then as Text does. It reports whether the
// text passed.
func (l *List) Required(q, f, o int, prop, s string, limit int, why string, typed bool) bool {
	if msg := requiredProblem(s, why); msg != "" {
		l.Add(q, f, o, prop, msg)
		return false
	}
	return l.Text(q, f, o, prop, s, limit, typed)
}

// Text checks a text against its limit in characters and, when typed (a
// request built in Go, which no decoder has read), that it is UTF-8. It
// reports whether the text passed.
func (l *List) Text(q, f, o int, prop, s string, limit int, typed bool) bool {
	if msg := textProblem(s, limit, typed); msg != "" {
		l.Add(q, f, o, prop, msg)
		return false
	}
	return true
}

// Ordered returns nil for an empty list, and otherwise its problems, as
// a contract's own problem type P, ordered question by question, then
// field by field and option by option, keeping the order found within
// one place; at most MaxProblems of them, and then one that says how
// many more there were. It sorts l in place.
func Ordered[P Shape](l List) []P {
	if len(l) == 0 {
		return nil
	}
	slices.SortStableFunc(l, func(a, b Placed) int {
		return cmp.Or(cmp.Compare(a.Q, b.Q), cmp.Compare(a.F, b.F), cmp.Compare(a.O, b.O))
	})
	n := min(len(l), MaxProblems)
	ps := make([]P, n, n+1)
	for i := range n {
		ps[i] = P(l[i].Problem)
	}
	if more := len(l) - n; more > 0 {
		ps = append(ps, P(Problem{Message: "and " + strconv.Itoa(more) + " more problems"}))
	}
	return ps
}

// Path renders the JSON path of a member, such as
// questions[1].fields[0].name: prop of option o of field f of question
// q, where -1 leaves an index out. A prop that starts with "[" indexes
// the value before it.
func Path(q, f, o int, prop string) string {
	var b strings.Builder
	b.Grow(32)
	if q >= 0 {
		b.WriteString("questions[")
		b.WriteString(strconv.Itoa(q))
		b.WriteByte(']')
	}
	if f >= 0 {
		b.WriteString(".fields[")
		b.WriteString(strconv.Itoa(f))
		b.WriteByte(']')
	}
	if o >= 0 {
		b.WriteString(".options[")
		b.WriteString(strconv.Itoa(o))
		b.WriteByte(']')
	}
	if prop != "" {
		if b.Len() > 0 && prop[0] != '[' {
			b.WriteByte('.')
		}
		b.WriteString(prop)
	}
	return b.String()
}
