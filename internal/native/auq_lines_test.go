package native_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/native"
	"github.com/askuser/askuser/prefs"
)

// script is an Inputter that replies with its lines in turn and records
// every title; "ESC" dismisses the box.
type script struct {
	mu      sync.Mutex
	replies []string
	titles  []string
}

func (s *script) Input(ctx context.Context, title, placeholder string) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.titles = append(s.titles, title)
	if len(s.replies) == 0 {
		<-ctx.Done()
		return "", false, context.Cause(ctx)
	}
	r := s.replies[0]
	s.replies = s.replies[1:]
	if r == "ESC" {
		return "", false, nil
	}
	return r, true, nil
}

func request() *auq.Request {
	no := false
	return &auq.Request{Questions: []auq.Question{
		{ID: "db", Question: "Which database?", Header: "Database", Options: []auq.Option{
			{ID: "pg", Label: "Postgres", Description: "Relational", Preview: "SELECT 1;", Recommended: true},
			{ID: "lite", Label: "SQLite", Description: "Embedded"},
		}},
		{ID: "extras", Question: "Which extras?", Header: "Extras", MultiSelect: true, Required: &no, Options: []auq.Option{
			{ID: "cache", Label: "Cache", Description: "Redis"},
			{ID: "queue", Label: "Queue", Description: "NATS"},
		}},
	}}
}

// ask runs req through the engine on the native route with replies, and
// returns the outcome, the milestones and the titles shown.
func run(t *testing.T, req *auq.Request, replies ...string) (auq.Outcome, []auq.Milestone, []string) {
	t.Helper()
	in := &script{replies: replies}
	zero := int64(0)
	host := ask.NewHost(ask.Bind(ask.Capabilities{}, contract.RouteNative, ask.AskUserQuestion, native.NewQuestionLines(in)),
		&ask.HostOptions{Options: prefs.Prefs{Mode: contract.RouteNative, TimeoutPerQuestionMs: &zero}})
	var ms []auq.Milestone
	var mu sync.Mutex
	out := ask.Ask(context.Background(), ask.NewAsker(host, nil), ask.AskUserQuestion, req, &ask.Call{Progress: func(m auq.Milestone) {
		mu.Lock()
		ms = append(ms, m)
		mu.Unlock()
	}})
	mu.Lock()
	defer mu.Unlock()
	return out, ms, in.titles
}

func TestQuestionLines(t *testing.T) {
	one := func() *auq.Request {
		r := request()
		r.Questions = r.Questions[:1]
		return r
	}
	tests := []struct {
		name       string
		req        func() *auq.Request
		replies    []string
		want       auq.Result
		dismissed  bool
		milestones []auq.Milestone
		titles     []string // texts some title must hold
	}{
		{
			name: "one question submits on its answer", req: one, replies: []string{" 1 ", ""},
			want: auq.Result{
				Answers:     map[string]auq.Answer{"db": {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: "pg", Label: "Postgres"}}},
				Annotations: map[string]auq.Annotations{"db": {SelectedPreview: "SELECT 1;"}},
			},
			milestones: []auq.Milestone{auq.MilestoneQuestionAnswered, auq.MilestoneSubmitted},
			titles:     []string{"1. Postgres (recommended) — Relational\n     │ SELECT 1;", "3. Other — type your own answer"},
		},
		{
			name: "free text is the Other answer, with notes", req: one,
			replies: []string{"MariaDB", "3: my own", "first", "second", ""},
			want: auq.Result{
				Answers:     map[string]auq.Answer{"db": {Kind: auq.KindSingle, Choice: auq.Choice{Label: "Other", Other: true, Text: "MariaDB"}}},
				Annotations: map[string]auq.Annotations{"db": {QuestionNotes: "second", OptionNotes: map[string]string{"$other": "my own"}}},
			},
			milestones: []auq.Milestone{auq.MilestoneQuestionAnswered, auq.MilestoneSubmitted},
		},
		{
			name: "wrong replies are asked again", req: one,
			replies: []string{"0", "1,2", "2 2", "", "-", "3", "  ", "Maria", "9: x", "1:", ""},
			want: auq.Result{
				Answers: map[string]auq.Answer{"db": {Kind: auq.KindSingle, Choice: auq.Choice{Label: "Other", Other: true, Text: "Maria"}}},
			},
			milestones: []auq.Milestone{auq.MilestoneQuestionAnswered, auq.MilestoneSubmitted},
			titles: []string{
				"Not accepted: there is no option 0; type a number from 1 to 3",
				"Not accepted: choose one option: this question takes one answer",
				"Not accepted: option 2 is given twice",
				"Not accepted: this question needs an answer",
				"Not accepted: type some text\nYour answer for Other",
				"Not accepted: there is no option 9; the options are 1 to 3",
			},
		},
		{
			name: "an empty multi-select needs Enter twice", req: request,
			replies: []string{"2", "", "", "", "", ""},
			want: auq.Result{
				Answers: map[string]auq.Answer{
					"db":     {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: "lite", Label: "SQLite"}},
					"extras": {Kind: auq.KindMulti, Empty: true},
				},
			},
			milestones: []auq.Milestone{auq.MilestoneQuestionAnswered, auq.MilestoneQuestionAnswered, auq.MilestoneReviewReady, auq.MilestoneSubmitted},
			titles:     []string{"Not accepted: no option is chosen; press Enter again to answer with none", "2. Extras: none"},
		},
		{
			name: "multi with Other by number, changed in the review", req: request,
			replies: []string{"2", "", "2,3", "Kafka", "1: fast", "", "2", "1", "", ""},
			want: auq.Result{
				Answers: map[string]auq.Answer{
					"db":     {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: "lite", Label: "SQLite"}},
					"extras": {Kind: auq.KindMulti, Selections: []auq.Choice{{OptionID: "cache", Label: "Cache"}}},
				},
				Annotations: map[string]auq.Annotations{"extras": {OptionNotes: map[string]string{"cache": "fast"}}},
			},
			milestones: []auq.Milestone{auq.MilestoneQuestionAnswered, auq.MilestoneQuestionAnswered, auq.MilestoneReviewReady, auq.MilestoneQuestionAnswered, auq.MilestoneSubmitted},
			titles: []string{
				"Review your answers:\n  1. Database: SQLite\n  2. Extras: Queue, Other: \"Kafka\"; note on Cache: \"fast\"",
				"Now: Queue, Other: \"Kafka\"; note on Cache",
			},
		},
		{
			name: "a bad review reply is said", req: request,
			replies: []string{"1", "", "-", "", "5", "", ""},
			want: auq.Result{
				Answers:     map[string]auq.Answer{"db": {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: "pg", Label: "Postgres"}}},
				Annotations: map[string]auq.Annotations{"db": {SelectedPreview: "SELECT 1;"}},
			},
			milestones: []auq.Milestone{auq.MilestoneQuestionAnswered, auq.MilestoneQuestionAnswered, auq.MilestoneReviewReady, auq.MilestoneSubmitted},
			titles:     []string{`Not accepted: "5" is not a question number from 1 to 2`, "2. Extras: not answered"},
		},
		{
			name: "dismissing any box dismisses", req: request, replies: []string{"1", "ESC"}, dismissed: true,
			milestones: []auq.Milestone{auq.MilestoneDismissed},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, ms, titles := run(t, tt.req(), tt.replies...)
			if out.Error != nil {
				t.Fatalf("error %s: %s", out.Error.Code, out.Error.Message)
			}
			wantStatus := auq.StatusSubmitted
			if tt.dismissed {
				wantStatus = auq.StatusDismissed
				tt.want = auq.Result{Cancelled: true}
			}
			if out.Status != wantStatus {
				t.Errorf("status %s, want %s", out.Status, wantStatus)
			}
			if diff := cmp.Diff(tt.want, out.Result); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.milestones, ms); diff != "" {
				t.Errorf("milestones (-want +got):\n%s", diff)
			}
			all := strings.Join(titles, "\n---\n")
			for _, want := range tt.titles {
				if !strings.Contains(all, want) {
					t.Errorf("no title holds %q; the titles:\n%s", want, all)
				}
			}
		})
	}
}

// TestTooLong refuses text over the limits rather than cutting it.
func TestTooLong(t *testing.T) {
	long := strings.Repeat("x", auq.MaxOtherTextLen+1)
	r := request()
	r.Questions = r.Questions[:1]
	out, _, titles := run(t, r, long, "1", "1: "+strings.Repeat("y", auq.MaxNoteLen+1), "")
	if out.Status != auq.StatusSubmitted {
		t.Fatalf("status %s", out.Status)
	}
	all := strings.Join(titles, "\n")
	for _, want := range []string{"that is 2001 characters; the limit is 2000"} {
		if strings.Count(all, want) != 2 {
			t.Errorf("the titles do not say %q twice:\n%.400s", want, all)
		}
	}
}
