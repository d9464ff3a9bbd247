package ask

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/prefs"
)

func TestOnOpen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var got []Opening
		var renderedAfter bool
		opts := &Options{OnOpen: func(o Opening) { got = append(got, o) }}
		r := RendererFunc[*contract.Request, []contract.Answer](func(context.Context, *Session[*contract.Request]) (Outcome[[]contract.Answer], error) {
			renderedAfter = len(got) == 1
			return Outcome[[]contract.Answer]{Answer: answers(2)}, nil
		})
		timeout := int64(30000)
		h := NewHost(Bind(Bind(Capabilities{}, contract.RouteNative, AskUser, r), contract.RouteCustom, AskUserQuestion, questionsWith(Outcome[auq.Result]{Answer: auqSubmitted()}, nil)),
			&HostOptions{Options: prefs.Prefs{Mode: contract.RouteNative, TimeoutPerQuestionMs: &timeout}})
		a := NewAsker(h, opts)
		req := request(2)
		req.Header = "Deploy"
		start := time.Now()
		if res := Ask(context.Background(), a, AskUser, req, &Call{ID: "c1"}); res.Status != contract.StatusAnswered {
			t.Fatalf("Ask = %+v", res)
		}
		if !renderedAfter {
			t.Error("the renderer ran before OnOpen")
		}
		want := []Opening{{CallID: "c1", Tool: prefs.ToolAskUser, Route: contract.RouteNative, Header: "Deploy", Questions: 2, Deadline: start.Add(time.Minute)}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("openings (-want +got):\n%s", diff)
		}

		// A refused call opens no wait; a panicking hook breaks nothing.
		got = nil
		if res := Ask(context.Background(), a, AskUser, &contract.Request{}, nil); res.Status != contract.StatusError {
			t.Fatalf("Ask of an empty request = %+v", res)
		}
		if len(got) != 0 {
			t.Errorf("OnOpen called for a refused call: %+v", got)
		}
		b := NewAsker(h, &Options{OnOpen: func(Opening) { panic("hook") }})
		if res := Ask(context.Background(), b, AskUser, request(2), nil); res.Status != contract.StatusAnswered {
			t.Errorf("Ask with a panicking hook = %+v", res)
		}
	})
}

func TestOnOpenQuestions(t *testing.T) {
	var got []Opening
	h := NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUserQuestion, questionsWith(Outcome[auq.Result]{Answer: auqSubmitted()}, nil)), nil)
	a := NewAsker(h, &Options{OnOpen: func(o Opening) { got = append(got, o) }})
	Ask(context.Background(), a, AskUserQuestion, auqRequest(), nil)
	if len(got) != 1 {
		t.Fatalf("openings = %+v", got)
	}
	o := got[0]
	if o.Tool != prefs.ToolAskUserQuestion || o.Route != contract.RouteCustom || o.Questions != 1 || o.Header != "" || o.Deadline.IsZero() {
		t.Errorf("opening = %+v", o)
	}
}
