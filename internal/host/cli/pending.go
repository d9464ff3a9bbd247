package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/internal/safetext"
)

const pendingUsage = `usage: askuser pending [--json]

List the questions that wait on the user's hub, newest first, each with
its id, the agent that asked, its project and machine, its contract and
how long it has left. An approval (an agent asking leave to act) is
marked as one, with what the agent wants to do: the command, the file
and its change, or the domain, as text. With --json, print them as a JSON array, each with
its questionnaire ("request") and a short answer to fill in ("answer":
each question by its id, with its default, or null where it waits for
a value), for a person or a program that answers them with askuser
answer.

Exit status: 0 listed (perhaps none), 3 no hub runs or it does not answer.

flags:
`

// pendingEntry is one question as askuser pending --json prints it.
type pendingEntry struct {
	ID       string `json:"id"`
	Agent    string `json:"agent"`
	Project  string `json:"project,omitempty"`
	Machine  string `json:"machine,omitempty"`
	Contract string `json:"contract"`
	// Kind is "approval" for an approval; "" for a question.
	Kind      string          `json:"kind,omitempty"`
	Questions int             `json:"questions"`
	Created   time.Time       `json:"created"`
	Deadline  *time.Time      `json:"deadline,omitempty"`
	Request   json.RawMessage `json:"request"`
	// Answer is a short answer to fill in for askuser answer.
	Answer object `json:"answer,omitempty"`
}

func runPending(ctx context.Context, env *Env, args []string) int {
	var asJSON bool
	fs := newFlagSet("pending", env, pendingUsage, func(fs *flag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "print JSON")
	})
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(env, "pending", "takes no arguments")
	}
	c, code, ok := dialHub(ctx, env, "pending")
	if !ok {
		return code
	}
	defer c.Close()
	qs, err := c.Pending(ctx)
	if err != nil {
		fmt.Fprintf(env.Stderr, "askuser pending: %v\n", err)
		return ExitError
	}
	if asJSON {
		out := make([]pendingEntry, 0, len(qs))
		for _, q := range qs {
			out = append(out, pendingEntry{ID: q.ID, Agent: q.Tag.Agent, Project: q.Tag.Project, Machine: q.Tag.Machine,
				Contract: q.Tag.Contract, Kind: q.Tag.Kind, Questions: q.Tag.Questions, Created: q.Created, Deadline: q.Tag.Deadline, Request: q.Request, Answer: answerTemplate(q)})
		}
		if err := writeJSONIndented(env.Stdout, out); err != nil {
			fmt.Fprintf(env.Stderr, "askuser pending: writing the list: %v\n", err)
			return ExitError
		}
		return 0
	}
	if len(qs) == 0 {
		fmt.Fprintln(env.Stdout, "no questions wait")
		return 0
	}
	home := ""
	if env.Getenv != nil {
		home = env.Getenv("HOME")
	}
	writePending(env.Stdout, qs, time.Now(), home)
	return 0
}

// writePending lists qs at now as askuser pending does, each claim of
// an asker on a line of its own, escaped. An approval is marked as one:
// who wants to do what (project directories under home shortened to ~),
// and what it is about, as text, at most maxWantedLines lines.
func writePending(w io.Writer, qs []hub.Question, now time.Time, home string) {
	for _, q := range qs {
		left := "no deadline"
		if d := q.Tag.Deadline; d != nil {
			left = d.Sub(now).Round(time.Second).String() + " left"
		}
		where := oneLine(q.Tag.Project)
		if q.Tag.Machine != "" {
			where += " on " + oneLine(q.Tag.Machine)
		}
		what := oneLine(q.Tag.Contract) + ", " + plural(q.Tag.Questions, "question", "questions")
		k, viewed := ask.LookupKind(q.Tag.Kind)
		if viewed {
			what = q.Tag.Kind
		}
		fmt.Fprintf(w, "%s  %s  %s  %s  %s\n", oneLine(q.ID), oneLine(q.Tag.Agent), what, where, left)
		if viewed {
			fmt.Fprintf(w, "    %s\n", notify.ApprovalLine(q.Tag.Agent, q.Tag.Project, q.Tag.Wants, home))
			for _, l := range wantedLines(q) {
				fmt.Fprintln(w, strings.TrimRight("      "+l, " "))
			}
			fmt.Fprintf(w, "    answer: askuser answer %s %s\n", oneLine(q.ID), k.Hint)
			continue
		}
		for _, t := range titles(q) {
			fmt.Fprintf(w, "    %s\n", safetext.Line(t))
		}
	}
}

// The most of an approval's details that askuser pending shows: lines,
// and characters in a line. askuser pending --json has them whole.
const (
	maxWantedLines = 24
	maxWantedWidth = 200
)

// wantedLines returns what the approval q is about, its first option's
// preview (approval.Details made it), as safe lines, within
// maxWantedLines lines of maxWantedWidth characters; a last line says
// what is left out.
func wantedLines(q hub.Question) []string {
	var req struct {
		Questions []struct {
			Options []struct {
				Preview string `json:"preview"`
			} `json:"options"`
		} `json:"questions"`
	}
	if json.Unmarshal(q.Request, &req) != nil || len(req.Questions) == 0 || len(req.Questions[0].Options) == 0 {
		return nil
	}
	lines := safetext.Lines(req.Questions[0].Options[0].Preview)
	more := len(lines) - maxWantedLines
	lines = lines[:min(len(lines), maxWantedLines)]
	cut := false
	for i, l := range lines {
		if r := []rune(l); len(r) > maxWantedWidth {
			lines[i], cut = string(r[:maxWantedWidth-1])+"…", true
		}
	}
	switch {
	case more > 0:
		lines = append(lines, fmt.Sprintf("… %d more lines; askuser pending --json shows them all", more))
	case cut:
		lines = append(lines, "… lines cut; askuser pending --json shows them whole")
	}
	return lines
}

// titles returns the question texts of q, for the listing.
func titles(q hub.Question) []string {
	var req struct {
		Questions []struct {
			Title    string `json:"title"`
			Question string `json:"question"`
		} `json:"questions"`
	}
	if json.Unmarshal(q.Request, &req) != nil {
		return nil
	}
	var out []string
	for _, x := range req.Questions {
		t := x.Title
		if t == "" {
			t = x.Question
		}
		out = append(out, strings.TrimSpace(t))
	}
	return out
}

// dialHub connects to the user's hub for a command, or says why not.
func dialHub(ctx context.Context, env *Env, name string) (*hub.Client, int, bool) {
	c, err := hub.Dial(ctx, &hub.DialOptions{Getenv: env.Getenv, Name: "askuser " + name})
	if errors.Is(err, hub.ErrNoHub) {
		fmt.Fprintf(env.Stderr, "askuser %s: no hub runs for this user; start one with askuser hub\n", name)
		return nil, ExitError, false
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "askuser %s: %s\n", name, safetext.Line(err.Error()))
		return nil, ExitError, false
	}
	return c, 0, true
}

const answerUsage = `usage: askuser answer [--by NAME] ID KEY=VALUE...
       askuser answer [--by NAME] ID FILE|-

Answer the question ID waiting on the user's hub. The answer is checked
by the rules the dialog's answers obey; the asking agent is told it was
answered by NAME.

A short answer names each question and what you choose:

  askuser answer ID env=staging checks=unit,e2e go=no deploy.name=Orion

KEY is a question's id, its number (1 for the first) or, for
AskUserQuestion, its header; then, for a part of it, a dot and a form
field's name, "other" (your own words), "note" (a note on the question)
or "note.OPTION" (a note on an option; AskUserQuestion). A form field
may be named alone when no question has its name and one form has it.
VALUE is an option's label (or, for AskUserQuestion, its id), several
separated by commas for a multi-select question ("\," for a comma in a
label); yes, no, true or false for a yes-or-no question; text for the
rest. An ask_user question left out takes its default; an
AskUserQuestion question left out stays unanswered, if it is optional.

FILE (or standard input) holds the same as a JSON object keyed the same
way, such as {"env": "staging", "checks": ["unit", "e2e"], "go": false,
"deploy": {"name": "Orion"}}, as askuser pending --json gives it to fill
in (null: not answered yet); or the whole result JSON askuser ask prints
for the question's contract, which has "status" for ask_user, as
{"status":"answered","answers":[...]}, and "cancelled" for
AskUserQuestion, as {"cancelled":false,"answers":{...}} (unless a
question has that id).

An approval (an agent asking leave to act) is answered as
approval=allow, approval=always1, or approval=deny approval.note=WHY.
Only a person allows one: askuser answer run with its standard input on
a terminal may allow it; in a pipe, as a program or the agent that asked
runs it, it may only deny (status 2 otherwise).

Exit status: 0 accepted; 1 refused because the question is no longer
open (answered or closed already, past its deadline, or unknown); 2 usage
error, or an answer refused as invalid (the question stays open); 3 any
other error.

flags:
`

func runAnswer(ctx context.Context, env *Env, args []string) int {
	var by string
	fs := newFlagSet("answer", env, answerUsage, func(fs *flag.FlagSet) {
		fs.StringVar(&by, "by", "", "who answers, as the asking agent is told (default \"askuser answer\")")
	})
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() < 2 {
		return usageError(env, "answer", "give a question ID and its answer: KEY=VALUE arguments, a FILE, or - for standard input")
	}
	var data []byte
	var short []shortEntry
	rest := fs.Args()[1:]
	fromFile := len(rest) == 1 && !strings.Contains(rest[0], "=")
	if fromFile {
		var code int
		var ok bool
		if data, code, ok = readQuestionnaire(env, "answer", rest[0]); !ok {
			return code
		}
	} else {
		var err error
		if short, err = parseShortArgs(rest); err != nil {
			return answerRefused(env, err)
		}
	}
	name := "askuser answer"
	if by != "" {
		name = by + " (askuser answer)"
	}
	if host, err := os.Hostname(); err == nil && host != "" {
		name += " on " + host
	}
	c, code, ok := dialHub(ctx, env, "answer")
	if !ok {
		return code
	}
	defer c.Close()
	id := fs.Arg(0)
	// A question closed already is refused by Answer, saying how.
	q, prior, err := c.Question(ctx, id)
	if err != nil && short != nil {
		return answerRefused(env, err) // a short answer needs its question
	}
	if q != nil && prior == nil {
		if err := hub.CheckKind(q.Tag); err != nil {
			fmt.Fprintf(env.Stderr, "askuser answer: question %s cannot be answered here: %s\n", oneLine(id), safetext.Line(err.Error()))
			return ExitUsage
		}
	}
	if err == nil && prior == nil && (short != nil || !isFullResult(q, data)) {
		if short == nil {
			if short, err = parseShortJSON(data); err != nil {
				return answerRefused(env, err)
			}
		}
		if data, err = shortAnswer(q, short); err != nil {
			return answerRefused(env, err)
		}
	}
	if onlyAPersonAllows(q, data) && !stdinIsTerminal(env) {
		fmt.Fprintf(env.Stderr, "askuser answer: approval %s can be allowed only by a person: run askuser answer at a terminal, or answer it in askuser inbox or on the hub's page; a program may deny it (approval=deny)\n", oneLine(id))
		return ExitUsage
	}
	if _, err := c.Answer(ctx, id, data, name); err != nil {
		return answerRefused(env, err)
	}
	what := "question"
	if q != nil {
		if _, ok := ask.LookupKind(q.Tag.Kind); ok {
			what = q.Tag.Kind
		}
	}
	fmt.Fprintf(env.Stderr, "askuser answer: %s %s answered\n", what, oneLine(id))
	return 0
}

// answerRefused says why an answer was not taken, and returns the exit
// status for it.
func answerRefused(env *Env, err error) int {
	var re *hub.RefusedError
	var se *shortAnswerError
	if errors.As(err, &se) {
		fmt.Fprintln(env.Stderr, "askuser answer: the short answer is refused; the question stays open:")
		for _, p := range se.problems {
			fmt.Fprintf(env.Stderr, "  %s\n", safetext.Line(p))
		}
		return ExitUsage
	}
	fmt.Fprintf(env.Stderr, "askuser answer: %s\n", safetext.Line(err.Error()))
	switch {
	case errors.As(err, &re) && re.Reason == hub.RefusedInvalid:
		return ExitUsage
	case errors.As(err, &re):
		return 1
	case errors.Is(err, errNotShort):
		return ExitUsage
	}
	return ExitError
}

// onlyAPersonAllows reports whether data, an answer to the question q
// as askuser answer read it, is one that only a person may give, such as
// an approval's allow: by q's kind, or, when q could not be read (the hub
// reads it again when it takes the answer, and may then find one), by
// any kind's.
func onlyAPersonAllows(q *hub.Question, data []byte) bool {
	if q != nil {
		k, ok := ask.LookupKind(q.Tag.Kind)
		return ok && k.OnlyAPerson(data)
	}
	for _, k := range ask.Kinds() {
		if k.OnlyAPerson(data) {
			return true
		}
	}
	return false
}

// stdinIsTerminal reports whether askuser's standard input is a
// terminal: a person may be typing, where a pipe is a program's.
func stdinIsTerminal(env *Env) bool {
	f, ok := env.Stdin.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}
