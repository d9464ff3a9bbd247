package native

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
)

// dialogStep is one scripted dialog: the kind expected, and the answer. A
// select's answer is the prefix of the choice to pick; "" dismisses.
type dialogStep struct {
	kind   string // "select" or "input"
	answer string
}

// dialogScript answers the dialogs in order and records their titles.
type dialogScript struct {
	t      *testing.T
	steps  []dialogStep
	titles []string
	lists  [][]string
}

func (s *dialogScript) next(kind, title string) dialogStep {
	s.t.Helper()
	s.titles = append(s.titles, title)
	if len(s.steps) == 0 {
		s.t.Fatalf("an unexpected %s %q", kind, title)
	}
	st := s.steps[0]
	s.steps = s.steps[1:]
	if st.kind != kind {
		s.t.Fatalf("got a %s %q, want a %s", kind, title, st.kind)
	}
	return st
}

func (s *dialogScript) Select(_ context.Context, title string, choices []string) (string, bool, error) {
	s.lists = append(s.lists, choices)
	st := s.next("select", title)
	if st.answer == "" {
		return "", false, nil
	}
	for _, c := range choices {
		if strings.HasPrefix(c, st.answer) {
			return c, true, nil
		}
	}
	s.t.Fatalf("select %q has no choice %q: %q", title, st.answer, choices)
	return "", false, nil
}

func (s *dialogScript) Input(_ context.Context, title, _ string) (string, bool, error) {
	st := s.next("input", title)
	return st.answer, st.answer != "\x00", nil // "\x00" dismisses an input
}

func sel(a string) dialogStep { return dialogStep{"select", a} }
func in(a string) dialogStep  { return dialogStep{"input", a} }

const dismissInput = "\x00"

func parse(t *testing.T, js string) *auq.Request {
	t.Helper()
	r, err := auq.Parse([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

const one = `{"questions":[{"id":"db","question":"Which database?","header":"Database","options":[` +
	`{"id":"pg","label":"Postgres","description":"Relational","preview":"Needs a server."},{"id":"lite","label":"SQLite","description":"Embedded"}]}]}`

const optional = `{"questions":[` +
	`{"id":"db","question":"Which database?","header":"Database","options":[{"id":"pg","label":"Postgres","description":"Relational"},{"id":"lite","label":"SQLite","description":"Embedded"}]},` +
	`{"id":"ci","question":"Which CI?","header":"CI","required":false,"multiSelect":true,"options":[{"id":"gh","label":"GitHub","description":"Actions"},{"id":"gl","label":"GitLab","description":"Pipelines"}]}]}`

func TestQuestionDialogs(t *testing.T) {
	long := strings.Repeat("x", auq.MaxNoteLen+1)
	tests := []struct {
		name       string
		req        string
		steps      []dialogStep
		want       auq.Outcome
		milestones []auq.Milestone
		title      string // in some title
	}{
		{
			name:  "an option with a preview",
			req:   one,
			steps: []dialogStep{sel("Postgres")},
			want: auq.Outcome{Status: auq.StatusSubmitted, Route: "native", Result: auq.Result{
				Answers:     map[string]auq.Answer{"db": {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: "pg", Label: "Postgres"}}},
				Annotations: map[string]auq.Annotations{"db": {SelectedPreview: "Needs a server."}},
			}},
			milestones: []auq.Milestone{"dialog_opened", "question_answered", "submitted"},
			title:      "Database: Which database?\n\nPostgres (preview):\nNeeds a server.",
		},
		{
			name: "a blank Other and a dismissed note keep nothing; a note that is too long is refused",
			req:  one,
			steps: []dialogStep{
				sel("Other…"), in("   "),
				sel("Add a note…"), sel("This question"), in(dismissInput),
				sel("Add a note…"), sel(""), // the target list dismissed: back to the question
				sel("Add a note…"), sel("Option: SQLite"), in(long),
				sel("Add a note…"), sel("Option: Other"), in("maybe"),
				sel("SQLite"),
			},
			want: auq.Outcome{Status: auq.StatusSubmitted, Route: "native", Result: auq.Result{
				Answers:     map[string]auq.Answer{"db": {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: "lite", Label: "SQLite"}}},
				Annotations: map[string]auq.Annotations{"db": {OptionNotes: map[string]string{"$other": "maybe"}}},
			}},
			milestones: []auq.Milestone{"dialog_opened", "question_answered", "submitted"},
			title:      "the limit is 2000; your note was not saved",
		},
		{
			name: "an optional question skipped, then answered from the review, then skipped again",
			req:  optional,
			steps: []dialogStep{
				sel("Postgres"), sel("Skip"),
				sel("Change 2."), sel("[ ] GitHub"), sel("Done"),
				sel("Change 2."), sel("Skip"),
				sel("Submit"),
			},
			want: auq.Outcome{Status: auq.StatusSubmitted, Route: "native", Result: auq.Result{
				Answers: map[string]auq.Answer{"db": {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: "pg", Label: "Postgres"}}},
			}},
			milestones: []auq.Milestone{"dialog_opened", "question_answered", "review_ready", "question_answered", "submitted"},
			title:      "CI: (no answer)",
		},
		{
			name:       "a dismissed question list dismisses the call",
			req:        optional,
			steps:      []dialogStep{sel("Postgres"), sel("")},
			want:       auq.Outcome{Status: auq.StatusDismissed, Route: "native", Result: auq.Result{Cancelled: true}},
			milestones: []auq.Milestone{"dialog_opened", "question_answered", "dismissed"},
		},
		{
			name:       "a dismissed review dismisses the call",
			req:        optional,
			steps:      []dialogStep{sel("Postgres"), sel("Skip"), sel("")},
			want:       auq.Outcome{Status: auq.StatusDismissed, Route: "native", Result: auq.Result{Cancelled: true}},
			milestones: []auq.Milestone{"dialog_opened", "question_answered", "review_ready", "dismissed"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := &dialogScript{t: t, steps: tt.steps}
			req := parse(t, tt.req)
			out, got := run(req, NewQuestionDialogs(sc, sc))
			if diff := cmp.Diff(tt.want, out); diff != "" {
				t.Errorf("outcome (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.milestones, got); diff != "" {
				t.Errorf("milestones (-want +got):\n%s", diff)
			}
			if len(sc.steps) > 0 {
				t.Errorf("%d dialogs were not shown: %v", len(sc.steps), sc.steps)
			}
			if tt.title != "" && !strings.Contains(strings.Join(sc.titles, "\n"), tt.title) {
				t.Errorf("no title says %q:\n%s", tt.title, strings.Join(sc.titles, "\n"))
			}
		})
	}
}

type failing struct{}

func (failing) Select(context.Context, string, []string) (string, bool, error) {
	return "", false, errors.New("the list broke")
}
func (failing) Input(context.Context, string, string) (string, bool, error) { return "", false, nil }

func TestDialogErrorsAreErrors(t *testing.T) {
	out, _ := run(parse(t, one), NewQuestionDialogs(failing{}, failing{}))
	if out.Status != auq.StatusError || out.Error.Code != "native_ui_failed" || !strings.Contains(out.Error.Message, "the list broke") {
		t.Errorf("outcome %+v, want native_ui_failed with the list's error", out)
	}
}

// run asks req through the engine, on a host whose native route is r, and
// returns the outcome and the milestones. The engine checks every result
// against the contract before it passes it on.
func run(req *auq.Request, r *QuestionDialogs) (auq.Outcome, []auq.Milestone) {
	h := ask.NewHost(ask.Bind(ask.Capabilities{CustomReason: "none here"}, contract.RouteNative, ask.AskUserQuestion, r), nil)
	var got []auq.Milestone
	out := ask.Ask(context.Background(), ask.NewAsker(h, nil), ask.AskUserQuestion, req, &ask.Call{Progress: func(m auq.Milestone) { got = append(got, m) }})
	return out, got
}
