package ask_test

import (
	"context"
	"testing"

	. "github.com/askuser/askuser/ask"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/testkit"
)

// FuzzAskJSON feeds arbitrary requests through the whole call: it must
// never panic, always return a coherent result, and either emit nothing
// or exactly one blocked pair around one outcome.
func FuzzAskJSON(f *testing.F) {
	f.Add([]byte(`{"questions":[{"title":"Deploy where?","options":[{"label":"staging"},{"label":"prod"}]}]}`), byte(0))
	f.Add([]byte(`{"questions":[{"title":"Go?","kind":"bool","default":false}],"timeoutPerQuestionMs":0}`), byte(1))
	f.Add([]byte(`{"questions":[]}`), byte(2))
	for i, n := range testkit.FuzzNumbers() {
		f.Add([]byte(`{"questions":[{"title":"a","kind":"bool"}],"timeoutPerQuestionMs":`+n+`}`), byte(i))
		f.Add([]byte(`{"questions":[{"title":"f","kind":"simple-form","fields":[{"name":"n","label":"N","kind":"input","default":`+n+`}]}]}`), byte(i))
	}
	r := RendererFunc[*contract.Request, []contract.Answer](func(_ context.Context, s *Session[*contract.Request]) (Outcome[[]contract.Answer], error) {
		switch s.Request.Header {
		case "dismiss":
			return Outcome[[]contract.Answer]{Dismissed: true}, nil
		case "panic":
			panic("boom")
		}
		var out []contract.Answer
		for i := range s.Request.Questions {
			out = append(out, contract.NewAnswer(s.Request, i))
		}
		return Outcome[[]contract.Answer]{Answer: out}, nil
	})
	f.Fuzz(func(t *testing.T, data []byte, route byte) {
		testkit.FuzzBound(t, data, func() {
			caps := Bind(Capabilities{}, contract.RouteCustom, AskUser, r)
			if route%2 == 1 {
				caps = Bind(Capabilities{}, contract.RouteNative, AskUser, r)
			}
			rec := &Recorder{}
			res := AskJSON(context.Background(), NewAsker(NewHost(caps, nil), &Options{Events: rec}), AskUser, data, &Call{ID: "f"})
			if res.Answers == nil {
				t.Fatalf("Answers is nil in %+v", res)
			}
			ev := rec.Got()
			switch {
			case res.Status == contract.StatusError && res.Error == nil:
				t.Fatalf("error result without an error: %+v", res)
			case res.Status == contract.StatusError && res.Error.Code == contract.ErrInvalidRequest:
				if len(ev) != 0 {
					t.Fatalf("invalid request emitted %+v", ev)
				}
			case len(ev) != 3 || ev[0].Name != EventWaiting || !ev[0].Active || ev[2].Name != EventWaiting || ev[2].Active:
				t.Fatalf("events %+v for %+v", ev, res)
			case ev[1] != OutcomeEvent("f", res):
				t.Fatalf("outcome event %+v for %+v", ev[1], res)
			}
		})
	})
}
