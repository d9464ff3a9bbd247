package ask

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/prefs"
)

// auqRequest is a valid AskUserQuestion request of one single-select
// question, with metadata.
func auqRequest() *auq.Request {
	src, flow := "review", "f-1"
	return &auq.Request{
		Questions: []auq.Question{{
			ID: "db", Question: "Which database?", Header: "Database",
			Options: []auq.Option{
				{ID: "pg", Label: "Postgres", Description: "Relational"},
				{ID: "lite", Label: "SQLite", Description: "Embedded"},
			},
		}},
		Metadata: &auq.Metadata{Source: &src, FlowID: &flow, Tags: []string{"t"}},
	}
}

func auqSubmitted() auq.Result {
	return auq.Result{Answers: map[string]auq.Answer{
		"db": {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: "pg", Label: "Postgres"}},
	}}
}

func questionsWith(out Outcome[auq.Result], err error) Renderer[*auq.Request, auq.Result] {
	return RendererFunc[*auq.Request, auq.Result](func(context.Context, *Session[*auq.Request]) (Outcome[auq.Result], error) { return out, err })
}

func TestAskQuestions(t *testing.T) {
	meta := auqRequest().ResultMetadata()
	cancelled := auq.Result{Cancelled: true, Metadata: meta}
	submitted := auqSubmitted()
	submitted.Metadata = meta
	tests := []struct {
		name  string
		caps  Capabilities
		req   *auq.Request
		ctx   func() context.Context
		want  auq.Outcome
		event *Event // the outcome event, nil when none is emitted
	}{
		{
			name:  "submitted, with the request's metadata",
			caps:  Bind(Capabilities{}, contract.RouteCustom, AskUserQuestion, questionsWith(Outcome[auq.Result]{Answer: auqSubmitted()}, nil)),
			want:  auq.Outcome{Status: auq.StatusSubmitted, Route: "custom", Result: submitted},
			event: &Event{Name: EventAnswered, Route: contract.RouteCustom, Status: contract.StatusAnswered},
		},
		{
			name:  "dismissed",
			caps:  Bind(Capabilities{}, contract.RouteNative, AskUserQuestion, questionsWith(Outcome[auq.Result]{Dismissed: true}, nil)),
			want:  auq.Outcome{Status: auq.StatusDismissed, Route: "native", Result: cancelled},
			event: &Event{Name: EventAborted, Route: contract.RouteNative, Status: contract.StatusAborted, CancelledReason: contract.CancelUser},
		},
		{
			name: "a renderer's error is a UI failure",
			caps: Bind(Capabilities{}, contract.RouteCustom, AskUserQuestion, questionsWith(Outcome[auq.Result]{}, errors.New("tty gone"))),
			want: auq.Outcome{Status: auq.StatusError, Route: "custom", Error: &auq.Error{
				Code: string(contract.ErrCustomUIFailed), Message: "the custom dialog failed: tty gone"}},
			event: &Event{Name: EventError, Route: contract.RouteCustom, Status: contract.StatusError, ErrorCode: contract.ErrCustomUIFailed},
		},
		{
			name: "an answer that breaks the contract is not passed on",
			caps: Bind(Capabilities{}, contract.RouteCustom, AskUserQuestion, questionsWith(Outcome[auq.Result]{Answer: auq.Result{Answers: map[string]auq.Answer{
				"nope": {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: "pg", Label: "Postgres"}},
			}}}, nil)),
			want:  auq.Outcome{Status: auq.StatusError, Route: "custom", Error: &auq.Error{Code: string(contract.ErrInternal)}},
			event: &Event{Name: EventError, Route: contract.RouteCustom, Status: contract.StatusError, ErrorCode: contract.ErrInternal},
		},
		{
			name: "a panic is a UI failure",
			caps: Bind(Capabilities{}, contract.RouteCustom, AskUserQuestion, RendererFunc[*auq.Request, auq.Result](func(context.Context, *Session[*auq.Request]) (Outcome[auq.Result], error) {
				panic("boom")
			})),
			want: auq.Outcome{Status: auq.StatusError, Route: "custom", Error: &auq.Error{
				Code: string(contract.ErrCustomUIFailed), Message: "the custom dialog panicked: boom"}},
			event: &Event{Name: EventError, Route: contract.RouteCustom, Status: contract.StatusError, ErrorCode: contract.ErrCustomUIFailed},
		},
		{
			name: "an invalid request is refused first",
			caps: Bind(Capabilities{}, contract.RouteCustom, AskUserQuestion, questionsWith(Outcome[auq.Result]{}, nil)),
			req:  &auq.Request{Questions: []auq.Question{{ID: "q", Question: "No mark", Header: "H"}}},
			want: auq.Outcome{Status: auq.StatusError, Error: &auq.Error{Code: string(contract.ErrInvalidRequest)}},
		},
		{
			name: "a route with only an ask_user renderer",
			caps: Bind(Capabilities{}, contract.RouteCustom, AskUser, answerWith(Outcome[[]contract.Answer]{}, nil)),
			want: auq.Outcome{Status: auq.StatusError, Error: &auq.Error{Code: string(contract.ErrUnsupportedMode),
				Message: "the custom dialog of this host cannot show AskUserQuestion"}},
		},
		{
			name: "a host with no route",
			caps: Capabilities{CustomReason: "no terminal", NativeReason: "no dialogs"},
			want: auq.Outcome{Status: auq.StatusError, Error: &auq.Error{Code: string(contract.ErrUnsupportedMode)}},
		},
		{
			name: "a context already done",
			caps: Bind(Capabilities{}, contract.RouteCustom, AskUserQuestion, questionsWith(Outcome[auq.Result]{Answer: auqSubmitted()}, nil)),
			ctx: func() context.Context {
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				return ctx
			},
			want: auq.Outcome{Status: auq.StatusAborted, Result: cancelled},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			a := NewAsker(NewHost(tt.caps, nil), &Options{Events: rec})
			req := tt.req
			if req == nil {
				req = auqRequest()
			}
			ctx := context.Background()
			if tt.ctx != nil {
				ctx = tt.ctx()
			}
			got := Ask(ctx, a, AskUserQuestion, req, &Call{ID: "c1"})
			// Messages the test leaves out are only checked to be there.
			if got.Error != nil && tt.want.Error != nil && tt.want.Error.Message == "" {
				if got.Error.Message == "" {
					t.Error("the error has no message")
				}
				got.Error.Message = ""
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("outcome (-want +got):\n%s", diff)
			}
			want := []Event{}
			if tt.event != nil {
				want = sequence("c1", *tt.event)
			}
			if diff := cmp.Diff(want, rec.got()); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAskQuestionsJSON(t *testing.T) {
	a := NewAsker(NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUserQuestion, questionsWith(Outcome[auq.Result]{Dismissed: true}, nil)), nil), nil)
	out := AskJSON(context.Background(), a, AskUserQuestion, []byte(`{"questions":[],"extra":1}`), nil)
	if out.Status != auq.StatusError || out.Error.Code != string(contract.ErrInvalidRequest) {
		t.Fatalf("a bad request: %+v", out)
	}
	for _, want := range []string{"questions", "extra"} {
		if !strings.Contains(out.Error.Message, want) {
			t.Errorf("the message does not name %q:\n%s", want, out.Error.Message)
		}
	}
	out = AskJSON(context.Background(), a, AskUserQuestion, []byte(`{"questions":[{"id":"q","question":"Go?","header":"Go",
		"options":[{"id":"y","label":"Yes","description":"Go"},{"id":"n","label":"No","description":"Stay"}]}]}`), nil)
	if out.Status != auq.StatusDismissed || !out.Result.Cancelled {
		t.Fatalf("a good request: %+v", out)
	}
}

// The deadline is the user's timeout per question times the number of
// questions, and a timeout is a cancelled result.
func TestAskQuestionsTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var left time.Duration
		r := RendererFunc[*auq.Request, auq.Result](func(ctx context.Context, s *Session[*auq.Request]) (Outcome[auq.Result], error) {
			left, _ = s.Countdown.Remaining()
			<-ctx.Done()
			return Outcome[auq.Result]{}, context.Cause(ctx)
		})
		h := NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUserQuestion, r), &HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: ptr[int64](3000)}})
		req := auqRequest()
		req.Questions = append(req.Questions, req.Questions[0])
		req.Questions[1].ID = "db2"
		start := time.Now()
		out := Ask(context.Background(), NewAsker(h, nil), AskUserQuestion, req, nil)
		if out.Status != auq.StatusTimeout || !out.Result.Cancelled {
			t.Fatalf("outcome: %+v", out)
		}
		if left != 6*time.Second || time.Since(start) != 6*time.Second {
			t.Errorf("deadline: %v left at the start, ended after %v; want 6s", left, time.Since(start))
		}
	})
}

func TestAskQuestionsAbort(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := RendererFunc[*auq.Request, auq.Result](func(rctx context.Context, s *Session[*auq.Request]) (Outcome[auq.Result], error) {
		cancel()
		<-rctx.Done()
		if !errors.Is(context.Cause(rctx), ErrAborted) {
			t.Errorf("cause: %v", context.Cause(rctx))
		}
		return Outcome[auq.Result]{}, nil
	})
	out := Ask(ctx, NewAsker(NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUserQuestion, r), nil), nil), AskUserQuestion, auqRequest(), nil)
	if out.Status != auq.StatusAborted || !out.Result.Cancelled || out.Route != "custom" {
		t.Fatalf("outcome: %+v", out)
	}
}

// Milestones reach Call.Progress in order, and none after the outcome.
func TestAskQuestionsProgress(t *testing.T) {
	var mu sync.Mutex
	var got []auq.Milestone
	late := make(chan *Session[*auq.Request], 1)
	r := RendererFunc[*auq.Request, auq.Result](func(_ context.Context, s *Session[*auq.Request]) (Outcome[auq.Result], error) {
		s.Progress(auq.MilestoneDialogOpened)
		s.Progress(auq.MilestoneQuestionAnswered)
		s.Progress(auq.MilestoneSubmitted)
		late <- s
		return Outcome[auq.Result]{Answer: auqSubmitted()}, nil
	})
	call := &Call{Progress: func(m auq.Milestone) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, m)
		if m == auq.MilestoneQuestionAnswered {
			panic("a panicking progress function changes nothing")
		}
	}}
	out := Ask(context.Background(), NewAsker(NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUserQuestion, r), nil), nil), AskUserQuestion, auqRequest(), call)
	if out.Status != auq.StatusSubmitted {
		t.Fatalf("outcome: %+v", out)
	}
	(<-late).Progress(auq.MilestoneDismissed)
	mu.Lock()
	defer mu.Unlock()
	want := []auq.Milestone{auq.MilestoneDialogOpened, auq.MilestoneQuestionAnswered, auq.MilestoneSubmitted}
	if !slices.Equal(got, want) {
		t.Errorf("milestones: %v, want %v", got, want)
	}
}

// An ask_user call on a host that binds only AskUserQuestion renderers is
// refused, not run.
func TestAskOnQuestionsHost(t *testing.T) {
	a := NewAsker(NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUserQuestion, questionsWith(Outcome[auq.Result]{}, nil)), nil), nil)
	res := Ask(context.Background(), a, AskUser, request(1), nil)
	if res.Status != contract.StatusError || res.Error.Code != contract.ErrUnsupportedMode {
		t.Fatalf("result: %+v", res)
	}
}
