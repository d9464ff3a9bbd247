package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/safetext"
)

const pendingUsage = `usage: askuser pending [--json]

List the questions that wait on the user's hub, newest first, each with
its id, the agent that asked, its project and machine, its contract and
how long it has left. With --json, print them as a JSON array, each with
its questionnaire ("request"), for a program that answers them with
askuser answer.

Exit status: 0 listed (perhaps none), 3 no hub runs or it does not answer.

flags:
`

// pendingEntry is one question as askuser pending --json prints it.
type pendingEntry struct {
	ID        string          `json:"id"`
	Agent     string          `json:"agent"`
	Project   string          `json:"project,omitempty"`
	Machine   string          `json:"machine,omitempty"`
	Contract  string          `json:"contract"`
	Questions int             `json:"questions"`
	Created   time.Time       `json:"created"`
	Deadline  *time.Time      `json:"deadline,omitempty"`
	Request   json.RawMessage `json:"request"`
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
				Contract: q.Tag.Contract, Questions: q.Tag.Questions, Created: q.Created, Deadline: q.Tag.Deadline, Request: q.Request})
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
	now := time.Now()
	for _, q := range qs {
		left := "no deadline"
		if d := q.Tag.Deadline; d != nil {
			left = d.Sub(now).Round(time.Second).String() + " left"
		}
		where := oneLine(q.Tag.Project)
		if q.Tag.Machine != "" {
			where += " on " + oneLine(q.Tag.Machine)
		}
		fmt.Fprintf(env.Stdout, "%s  %s  %s, %s  %s  %s\n", oneLine(q.ID), oneLine(q.Tag.Agent), oneLine(q.Tag.Contract),
			plural(q.Tag.Questions, "question", "questions"), where, left)
		for _, t := range titles(q) {
			fmt.Fprintf(env.Stdout, "    %s\n", safetext.Line(t))
		}
	}
	return 0
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

const answerUsage = `usage: askuser answer [--by NAME] ID FILE|-

Answer the question ID waiting on the user's hub with the result JSON in
FILE (or on standard input): what askuser ask prints for the question's
contract when it is answered. For ask_user that is
{"status":"answered","answers":[...]}; for AskUserQuestion, its result
with "cancelled": false. The answer is checked by the rules the dialog's
answers obey; the asking agent is told it was answered by NAME.

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
	if fs.NArg() != 2 {
		return usageError(env, "answer", "give a question ID and an answer FILE, or - for standard input")
	}
	data, code, ok := readQuestionnaire(env, "answer", fs.Arg(1))
	if !ok {
		return code
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
	if _, err := c.Answer(ctx, id, data, name); err != nil {
		fmt.Fprintf(env.Stderr, "askuser answer: %s\n", safetext.Line(err.Error()))
		var re *hub.RefusedError
		switch {
		case errors.As(err, &re) && re.Reason == hub.RefusedInvalid:
			return ExitUsage
		case errors.As(err, &re):
			return 1
		}
		return ExitError
	}
	fmt.Fprintf(env.Stderr, "askuser answer: question %s answered\n", id)
	return 0
}
