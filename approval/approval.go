// Package approval defines askuser's third contract: an agent asking the
// person's leave to act, such as to run a command, edit a file or fetch
// from a domain, and the person's decision: allow once, allow always as
// one of the agent's own standing choices, or deny with a reason.
//
// An approval is not a question the model wrote: the agent's own
// permission prompt is turned into a Request (the hook and the approve
// tool of package cli do it), and the Decision goes back to the agent,
// never to the model as an answer. What the agent wants to do is still
// untrusted text: every surface shows it as text, escaped.
//
// An approval is shown as an AskUserQuestion questionnaire of one
// question (Show), so that the terminal's dialog, the popup, the inbox,
// the hub's page and askuser answer show it, and check what the person
// gave, without code of their own; Read turns the answer back into a
// Decision. Anything that is not a clear allow is not one: see Read.
//
// The package is pure: it does no I/O.
package approval

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ToolName is the contract's name, as the hub and messages name it.
const ToolName = "approval"

// Action is what an agent asks leave to do.
type Action string

// The actions an approval can ask for.
const (
	// ActionRun: run a command (Command).
	ActionRun Action = "run"
	// ActionEdit: change a file (Path, with Diff).
	ActionEdit Action = "edit"
	// ActionWrite: write a file whole (Path, with Diff).
	ActionWrite Action = "write"
	// ActionFetch: reach a network domain (Domain), or a URL (Detail).
	ActionFetch Action = "fetch"
	// ActionUse: use another tool (Tool), with its input in Detail.
	ActionUse Action = "use"
)

// Limits of a request, in characters (Unicode code points). The texts
// are what an agent is about to act on, so they are long enough for a
// real command or diff; a request over them is refused, never cut.
const (
	MaxAgentLen   = 64
	MaxToolLen    = 200
	MaxCommandLen = 64 << 10
	MaxPathLen    = 4096
	MaxDiffLen    = 256 << 10
	MaxDomainLen  = 253
	MaxDetailLen  = 64 << 10
	MaxAlways     = 2
	MaxAlwaysLen  = 200
	MaxReasonLen  = 2000
)

// Request is one permission prompt of an agent.
type Request struct {
	// Agent names the agent that asks, as the person knows it:
	// "claude-code", "codex".
	Agent string `json:"agent"`
	// Tool is the agent's tool that would act: "Bash", "Edit",
	// "WebFetch", "mcp__github__create_issue".
	Tool string `json:"tool"`
	// Action is what the tool would do.
	Action Action `json:"action"`
	// Command is the command to run, for ActionRun.
	Command string `json:"command,omitempty"`
	// Path is the file to change, for ActionEdit and ActionWrite.
	Path string `json:"path,omitempty"`
	// Diff shows the change to Path: a unified diff, or a summary.
	Diff string `json:"diff,omitempty"`
	// Domain is the network domain to reach, for ActionFetch.
	Domain string `json:"domain,omitempty"`
	// Detail is what else the agent says: its reason, a URL, or the
	// tool's input as JSON for ActionUse.
	Detail string `json:"detail,omitempty"`
	// Always are the agent's own standing choices beyond this once, in
	// its words ("always allow npm publish in this project"), in order;
	// a Decision names one by its place (Decision.Always).
	Always []string `json:"always,omitempty"`
}

// Decision is what the person decided.
type Decision struct {
	// Allow is true when the person allowed the action.
	Allow bool `json:"allow"`
	// Always, when Allow, is 1 + the index in Request.Always of the
	// standing choice the person took; 0 allows this once.
	Always int `json:"always,omitempty"`
	// Reason is the person's reason for a denial, for the agent; ""
	// for none.
	Reason string `json:"reason,omitempty"`
}

// Problem is one thing wrong with a request: the member, and what.
type Problem struct {
	Path    string
	Message string
}

// RequestError lists every problem of a request.
type RequestError struct {
	Problems []Problem
}

// Error joins the problems as "path: message; path: message".
func (e *RequestError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		if p.Path != "" {
			b.WriteString(p.Path + ": ")
		}
		b.WriteString(p.Message)
	}
	return b.String()
}

// Validate checks a request against the contract's rules and returns nil
// or a *RequestError listing every problem: an agent and a tool named, a
// known action with the member it needs (a command to run, a path to
// change, a domain or a URL to reach), every text valid UTF-8 within its
// limit, and at most MaxAlways standing choices, none blank.
func Validate(r *Request) error {
	if r == nil {
		return &RequestError{Problems: []Problem{{Message: "the request is missing"}}}
	}
	var ps []Problem
	add := func(path, msg string) { ps = append(ps, Problem{path, msg}) }
	text := func(path, s string, limit int, required bool) {
		switch {
		case !utf8.ValidString(s):
			add(path, "is not valid UTF-8")
		case required && strings.TrimSpace(s) == "":
			add(path, "is required")
		case utf8.RuneCountInString(s) > limit:
			add(path, "has "+strconv.Itoa(utf8.RuneCountInString(s))+" characters; the limit is "+strconv.Itoa(limit))
		}
	}
	text("agent", r.Agent, MaxAgentLen, true)
	text("tool", r.Tool, MaxToolLen, true)
	text("command", r.Command, MaxCommandLen, r.Action == ActionRun)
	text("path", r.Path, MaxPathLen, r.Action == ActionEdit || r.Action == ActionWrite)
	text("diff", r.Diff, MaxDiffLen, false)
	text("domain", r.Domain, MaxDomainLen, false)
	text("detail", r.Detail, MaxDetailLen, r.Action == ActionUse)
	switch r.Action {
	case ActionRun, ActionEdit, ActionWrite, ActionUse:
	case ActionFetch:
		if strings.TrimSpace(r.Domain) == "" && strings.TrimSpace(r.Detail) == "" {
			add("domain", "is required for a fetch, or a URL in detail")
		}
	case "":
		add("action", `is required: one of "run", "edit", "write", "fetch", "use"`)
	default:
		add("action", fmt.Sprintf(`is %q; it must be one of "run", "edit", "write", "fetch", "use"`, r.Action))
	}
	if n := len(r.Always); n > MaxAlways {
		add("always", "has "+strconv.Itoa(n)+" choices; the limit is "+strconv.Itoa(MaxAlways))
	}
	for i, a := range r.Always {
		text("always["+strconv.Itoa(i)+"]", a, MaxAlwaysLen, true)
	}
	if ps != nil {
		return &RequestError{Problems: ps}
	}
	return nil
}

// CheckDecision reports whether d is a decision the person can have made
// on r: a standing choice that r offers, only with Allow, and a reason of
// at most MaxReasonLen characters, only with a denial.
func CheckDecision(r *Request, d Decision) error {
	switch {
	case d.Always < 0 || d.Always > len(r.Always):
		return fmt.Errorf("always is %d; the request offers %d standing choices", d.Always, len(r.Always))
	case d.Always > 0 && !d.Allow:
		return errors.New("a standing choice is only taken with allow")
	case d.Reason != "" && d.Allow:
		return errors.New("a reason goes only with a denial")
	case !utf8.ValidString(d.Reason):
		return errors.New("the reason is not valid UTF-8")
	case utf8.RuneCountInString(d.Reason) > MaxReasonLen:
		return fmt.Errorf("the reason has %d characters; the limit is %d", utf8.RuneCountInString(d.Reason), MaxReasonLen)
	}
	return nil
}
