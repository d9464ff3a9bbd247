package approval

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/auq"
)

// Status says how an approval ended: AskUserQuestion's endings, which
// an approval is shown as, with StatusDecided for a submission.
type Status = auq.Status

// The endings of an approval. Only StatusDecided carries a Decision, and
// only a Decision with Allow set lets the agent act.
const (
	StatusDecided   Status = "decided"
	StatusDismissed        = auq.StatusDismissed
	StatusTimeout          = auq.StatusTimeout
	StatusAborted          = auq.StatusAborted
	StatusError            = auq.StatusError
)

// Outcome is how an approval ended: the person's Decision, or another
// ending. Error says what failed for StatusError.
type Outcome struct {
	Status   Status    `json:"status"`
	Decision *Decision `json:"decision,omitempty"`
	Error    *Error    `json:"error,omitempty"`
}

// Error is what went wrong: a code of ask_user's results and a message,
// as AskUserQuestion's outcomes say it.
type Error = auq.Error

// Allowed reports whether the outcome lets the agent act: decided, and
// allowed. Every other outcome is a denial, or the agent's own prompt.
func (o Outcome) Allowed() bool {
	return o.Status == StatusDecided && o.Decision != nil && o.Decision.Allow
}

// The ids of the questionnaire Show makes.
const (
	QuestionID = "approval"
	AllowID    = "allow"
	DenyID     = "deny"
	// AlwaysID is the prefix of a standing choice's option id: always1,
	// always2.
	AlwaysID = "always"
)

// Header is the header of the questionnaire Show makes.
const Header = "Approval"

// Wants says in words what the agent wants to do, for a heading or a
// push: "claude-code wants to run a command". Its text is the agent's:
// escape it for a terminal.
func (r *Request) Wants() string { return r.Agent + " wants to " + r.What() }

// What says in words what the agent wants to do, without naming it:
// "run a command", "use mcp__github__create_issue". Its text is the
// agent's: escape it for a terminal.
func (r *Request) What() string {
	switch r.Action {
	case ActionRun:
		return "run a command"
	case ActionEdit:
		return "edit a file"
	case ActionWrite:
		return "write a file"
	case ActionFetch:
		return "reach the network"
	}
	return "use " + r.Tool
}

// allowIt ends the question Show asks.
const allowIt = ". Allow it?"

// Show returns the AskUserQuestion questionnaire that asks r: one
// single-select question whose options are Deny, Allow once and each
// standing choice, each with what the agent wants to do as its preview,
// so that it stays in sight whichever option has focus. Deny comes first,
// where a dialog's focus starts: a popup that opens under the person's
// typing takes a stray Enter as a denial, never as an allow. The Other
// answer every question has is a denial with the person's words as its
// reason. No option is recommended: nothing leans towards an allow.
//
// What does not fit a preview is cut at a line, and the preview says how
// much more there is; the decision still applies to the whole request.
func Show(r *Request) (*auq.Request, error) {
	if err := Validate(r); err != nil {
		return nil, err
	}
	preview := Details(r, auq.MaxPreviewLen)
	opts := []auq.Option{
		{ID: DenyID, Label: "Deny", Description: "Refuse it; a note on this choice tells " + cut(r.Agent, 40) + " why", Preview: preview},
		{ID: AllowID, Label: "Allow once", Description: "Let " + cut(r.Agent, 40) + " do this, this one time", Preview: preview},
	}
	for i, a := range r.Always {
		label := "Always allow"
		if len(r.Always) > 1 {
			label += " (" + strconv.Itoa(i+1) + ")"
		}
		opts = append(opts, auq.Option{
			ID:          AlwaysID + strconv.Itoa(i+1),
			Label:       label,
			Description: cut(a, auq.MaxDescriptionLen),
			Preview:     preview,
		})
	}
	return &auq.Request{Questions: []auq.Question{{
		ID:       QuestionID,
		Question: cut(r.Wants(), auq.MaxQuestionLen-len(allowIt)) + allowIt,
		Header:   Header,
		Options:  opts,
	}}}, nil
}

// Read returns the decision that res, a submitted answer to shown (the
// questionnaire Show made of r), holds: Allow once or a standing choice
// allows; Deny, with the note on it or on the question as its reason,
// and the Other answer, with its text (and any note) as the reason,
// deny. A note on an allow is not passed on: an agent's allow carries no
// message. Anything else is an error, never a decision.
func Read(r *Request, shown *auq.Request, res auq.Result) (Decision, error) {
	if res.Cancelled {
		return Decision{}, errors.New("the questionnaire was not submitted")
	}
	a, ok := res.Answers[QuestionID]
	if !ok || a.Kind != auq.KindSingle {
		return Decision{}, fmt.Errorf("the answer to %q is missing", QuestionID)
	}
	notes := res.Annotations[QuestionID]
	c := a.Choice
	var d Decision
	switch {
	case c.Other:
		d.Reason = joinNotes(c.Text, notes.OptionNotes[auq.OtherNoteKey], notes.QuestionNotes)
	case c.OptionID == AllowID:
		d.Allow = true
	case c.OptionID == DenyID:
		d.Reason = joinNotes(notes.OptionNotes[DenyID], notes.QuestionNotes)
	case strings.HasPrefix(c.OptionID, AlwaysID):
		n, err := strconv.Atoi(strings.TrimPrefix(c.OptionID, AlwaysID))
		if err != nil || n < 1 || n > len(r.Always) {
			return Decision{}, fmt.Errorf("option %q is not one the approval offers", c.OptionID)
		}
		d.Allow, d.Always = true, n
	default:
		return Decision{}, fmt.Errorf("option %q is not one the approval offers", c.OptionID)
	}
	if shown.Questions[0].OptionByID(c.OptionID) == nil && !c.Other {
		return Decision{}, fmt.Errorf("option %q is not one the questionnaire shown offered", c.OptionID)
	}
	if utf8.RuneCountInString(d.Reason) > MaxReasonLen {
		d.Reason = string([]rune(d.Reason)[:MaxReasonLen])
	}
	return d, CheckDecision(r, d)
}

func joinNotes(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n")
}

// Details returns what the agent wants to do as plain text of at most
// limit characters: the command, the file and its diff, the domain, the
// tool and the agent's detail, each under its name. What does not fit is
// cut at a line, and a last line says how many characters are left out.
func Details(r *Request, limit int) string {
	var b strings.Builder
	section := func(name, s string) {
		if s == "" {
			return
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(name + ":\n" + s)
	}
	section("Command", r.Command)
	section("File", r.Path)
	section("Change", r.Diff)
	section("Domain", r.Domain)
	section("Tool", r.Tool)
	section("Detail", r.Detail)
	s := b.String()
	n := utf8.RuneCountInString(s)
	if n <= limit {
		return s
	}
	// Room for the closing line, whose count has at most 9 digits here.
	more := func(k int) string { return "\n… " + strconv.Itoa(k) + " more characters not shown" }
	keep := limit - utf8.RuneCountInString(more(n))
	rs := []rune(s)[:max(keep, 0)]
	if i := strings.LastIndexByte(string(rs), '\n'); i > len(string(rs))/2 {
		rs = []rune(string(rs)[:i])
	}
	return string(rs) + more(n-len(rs))
}

// cut returns s cut to at most n characters, the last one "…" when cut.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// Allows reports whether res, an answer to a questionnaire Show made,
// lets the agent act: it picks Allow once or a standing choice. A
// surface that a program can use without the person (askuser answer in
// a pipe) may deny an approval but not allow it.
func Allows(res auq.Result) bool {
	if res.Cancelled {
		return false
	}
	a, ok := res.Answers[QuestionID]
	if !ok || a.Kind != auq.KindSingle || a.Choice.Other {
		return false
	}
	return a.Choice.OptionID == AllowID || strings.HasPrefix(a.Choice.OptionID, AlwaysID)
}
