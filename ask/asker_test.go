package ask

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/prefs"
)

func TestAskRefusals(t *testing.T) {
	var called bool
	never := noRender{&called}
	refusing := checkingRenderer{askRenderer: never, check: func(*contract.Request) error {
		return errors.New("no selector for allowFreeText false")
	}}
	panicking := checkingRenderer{askRenderer: never, check: func(*contract.Request) error { panic("boom") }}
	done, cancel := context.WithCancel(context.Background())
	cancel()

	tests := []struct {
		name     string
		host     *Host
		ctx      context.Context
		req      *contract.Request
		wantCode contract.ErrorCode
		want     contract.Result // compared without the error message
		message  string          // a substring of the error message
	}{
		{"nil request", NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUser, never), nil), context.Background(), nil, contract.ErrInvalidRequest,
			contract.ErrorResult(contract.ErrInvalidRequest, ""), "missing"},
		{"invalid request", NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUser, never), nil), context.Background(), &contract.Request{}, contract.ErrInvalidRequest,
			contract.ErrorResult(contract.ErrInvalidRequest, ""), "questions"},
		{"invalid request before unavailable host", NewHost(Capabilities{}, nil), context.Background(), &contract.Request{}, contract.ErrInvalidRequest,
			contract.ErrorResult(contract.ErrInvalidRequest, ""), "questions"},
		{"invalid request before abort", NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUser, never), nil), done, &contract.Request{}, contract.ErrInvalidRequest,
			contract.ErrorResult(contract.ErrInvalidRequest, ""), "questions"},
		{"no host", nil, context.Background(), request(1), contract.ErrNotInitialized,
			contract.ErrorResult(contract.ErrNotInitialized, ""), "not initialized"},
		{"invalid config", NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUser, never), &HostOptions{Options: prefs.Prefs{Mode: "tui"}}), context.Background(), request(1),
			contract.ErrInvalidConfig, contract.ErrorResult(contract.ErrInvalidConfig, ""), "options: invalid config: mode"},
		{"configured mode unbound", NewHost(Bind(Capabilities{NativeReason: "rpc"}, contract.RouteCustom, AskUser, never), &HostOptions{Options: prefs.Prefs{Mode: native}}),
			context.Background(), request(1), contract.ErrUnsupportedMode,
			withRoute(contract.ErrorResult(contract.ErrUnsupportedMode, ""), native), "(rpc)"},
		{"zero host", &Host{}, context.Background(), request(1), contract.ErrUnsupportedMode,
			contract.ErrorResult(contract.ErrUnsupportedMode, ""), "no renderer"},
		{"no route", NewHost(Capabilities{CustomReason: "print mode", NativeReason: "print mode"}, nil), context.Background(), request(1),
			contract.ErrUnsupportedMode, contract.ErrorResult(contract.ErrUnsupportedMode, ""), "print mode"},
		{"unavailable before abort", NewHost(Capabilities{}, nil), done, request(1), contract.ErrUnsupportedMode,
			contract.ErrorResult(contract.ErrUnsupportedMode, ""), "no interactive UI"},
		{"checker refuses", NewHost(Bind(Capabilities{}, contract.RouteNative, AskUser, refusing), nil), context.Background(), request(1), contract.ErrUnsupportedMode,
			contract.ErrorResult(contract.ErrUnsupportedMode, ""), "no selector"},
		{"checker panics", NewHost(Bind(Capabilities{}, contract.RouteNative, AskUser, panicking), nil), context.Background(), request(1), contract.ErrNativeUIFailed,
			contract.ErrorResult(contract.ErrNativeUIFailed, ""), "panicked"},
		{"abort before the checker", NewHost(Bind(Capabilities{}, contract.RouteNative, AskUser, refusing), nil), done, request(1), "",
			contract.Result{Status: contract.StatusAborted, Answers: []contract.Answer{}, CancelledReason: contract.CancelAbort}, ""},
		{"already aborted", NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUser, never), nil), done, request(1), "",
			contract.Result{Status: contract.StatusAborted, Answers: []contract.Answer{}, CancelledReason: contract.CancelAbort}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			called = false
			rec := &recorder{}
			got := Ask(tt.ctx, NewAsker(tt.host, &Options{Events: rec}), AskUser, tt.req, &Call{ID: "c1"})
			msg := ""
			if got.Error != nil {
				msg = got.Error.Message
				got.Error.Message = ""
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Ask mismatch (-want +got):\n%s", diff)
			}
			if !strings.Contains(msg, tt.message) {
				t.Errorf("error message %q does not mention %q", msg, tt.message)
			}
			if called {
				t.Error("the renderer ran; want no UI for a refused call")
			}
			if ev := rec.got(); len(ev) != 0 {
				t.Errorf("events = %+v; want none for a refused call", ev)
			}
		})
	}
}

func withRoute(r contract.Result, route contract.Route) contract.Result {
	r.Route = route
	return r
}

func TestAskJSON(t *testing.T) {
	r := RendererFunc[*contract.Request, []contract.Answer](func(_ context.Context, s *Session[*contract.Request]) (Outcome[[]contract.Answer], error) {
		return Outcome[[]contract.Answer]{Answer: answers(len(s.Request.Questions))}, nil
	})
	a := NewAsker(NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUser, r), nil), nil)
	tests := []struct {
		name string
		data string
		want contract.Status
		code contract.ErrorCode
	}{
		{"valid", `{"questions":[{"id":"q1","title":"Question 1","options":[{"label":"a"}]}]}`, contract.StatusAnswered, ""},
		{"not json", `{"questions":`, contract.StatusError, contract.ErrInvalidRequest},
		{"unknown field", `{"questions":[{"title":"Question 1","options":[{"label":"a"}]}],"extra":1}`, contract.StatusError, contract.ErrInvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AskJSON(context.Background(), a, AskUser, []byte(tt.data), nil)
			var code contract.ErrorCode
			if got.Error != nil {
				code = got.Error.Code
			}
			if got.Status != tt.want || code != tt.code {
				t.Errorf("AskJSON = %s %q (%+v); want %s %q", got.Status, code, got.Error, tt.want, tt.code)
			}
		})
	}
}

func TestRendererOutcomes(t *testing.T) {
	empty := answers(1)
	empty[0] = contract.Answer{Index: 0, ID: "q1", Title: "Question 1", Kind: contract.KindSingle, Selections: []string{}}
	tests := []struct {
		name    string
		route   contract.Route
		render  Renderer[*contract.Request, []contract.Answer]
		want    contract.Result
		message string // a substring of the error message
		outcome Event
	}{
		{"answered", custom, answerWith(Outcome[[]contract.Answer]{Answer: answers(2)}, nil),
			contract.Result{Status: contract.StatusAnswered, Route: custom, Answers: answers(2)}, "",
			Event{Name: EventAnswered, Route: custom, Status: contract.StatusAnswered}},
		{"answered natively", native, answerWith(Outcome[[]contract.Answer]{Answer: answers(2)}, nil),
			contract.Result{Status: contract.StatusAnswered, Route: native, Answers: answers(2)}, "",
			Event{Name: EventAnswered, Route: native, Status: contract.StatusAnswered}},
		{"dismissed", custom, answerWith(Outcome[[]contract.Answer]{Dismissed: true, Answer: answers(2)}, nil),
			contract.Result{Status: contract.StatusAborted, Route: custom, Answers: []contract.Answer{}, CancelledReason: contract.CancelUser}, "",
			Event{Name: EventAborted, Route: custom, Status: contract.StatusAborted, CancelledReason: contract.CancelUser}},
		{"custom error", custom, answerWith(Outcome[[]contract.Answer]{Answer: answers(2)}, errors.New("tty lost")),
			withRoute(contract.ErrorResult(contract.ErrCustomUIFailed, ""), custom), "the custom dialog failed: tty lost",
			Event{Name: EventError, Route: custom, Status: contract.StatusError, ErrorCode: contract.ErrCustomUIFailed}},
		{"native error", native, answerWith(Outcome[[]contract.Answer]{}, errors.New("rpc closed")),
			withRoute(contract.ErrorResult(contract.ErrNativeUIFailed, ""), native), "the native dialog failed: rpc closed",
			Event{Name: EventError, Route: native, Status: contract.StatusError, ErrorCode: contract.ErrNativeUIFailed}},
		{"panic", custom, RendererFunc[*contract.Request, []contract.Answer](func(context.Context, *Session[*contract.Request]) (Outcome[[]contract.Answer], error) {
			panic("index out of range")
		}),
			withRoute(contract.ErrorResult(contract.ErrCustomUIFailed, ""), custom), "the custom dialog panicked: index out of range",
			Event{Name: EventError, Route: custom, Status: contract.StatusError, ErrorCode: contract.ErrCustomUIFailed}},
		{"native panic", native, RendererFunc[*contract.Request, []contract.Answer](func(context.Context, *Session[*contract.Request]) (Outcome[[]contract.Answer], error) {
			panic(errors.New("nil map"))
		}),
			withRoute(contract.ErrorResult(contract.ErrNativeUIFailed, ""), native), "the native dialog panicked: nil map",
			Event{Name: EventError, Route: native, Status: contract.StatusError, ErrorCode: contract.ErrNativeUIFailed}},
		{"no answers", custom, answerWith(Outcome[[]contract.Answer]{}, nil),
			withRoute(contract.ErrorResult(contract.ErrInternal, ""), custom), "break the contract",
			Event{Name: EventError, Route: custom, Status: contract.StatusError, ErrorCode: contract.ErrInternal}},
		{"too few answers", custom, answerWith(Outcome[[]contract.Answer]{Answer: answers(1)}, nil),
			withRoute(contract.ErrorResult(contract.ErrInternal, ""), custom), "break the contract",
			Event{Name: EventError, Route: custom, Status: contract.StatusError, ErrorCode: contract.ErrInternal}},
		{"unanswered", native, answerWith(Outcome[[]contract.Answer]{}, fmt.Errorf("asking again: %w", &UnansweredError{Reason: "no answer to question 2"})),
			withRoute(contract.ErrorResult(contract.ErrEmptyAnswer, ""), native), "no answer to question 2",
			Event{Name: EventError, Route: native, Status: contract.StatusError, ErrorCode: contract.ErrEmptyAnswer}},
		{"empty answer", custom, answerWith(Outcome[[]contract.Answer]{Answer: append(empty, answers(2)[1])}, nil),
			withRoute(contract.ErrorResult(contract.ErrEmptyAnswer, ""), custom), "break the contract",
			Event{Name: EventError, Route: custom, Status: contract.StatusError, ErrorCode: contract.ErrEmptyAnswer}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// With both routes bound, a custom failure must stay a custom
			// failure: the native renderer is never tried instead.
			fallback := RendererFunc[*contract.Request, []contract.Answer](func(context.Context, *Session[*contract.Request]) (Outcome[[]contract.Answer], error) {
				t.Error("the native renderer was called after the custom one")
				return Outcome[[]contract.Answer]{Answer: answers(2)}, nil
			})
			caps := Bind(Bind(Capabilities{}, contract.RouteCustom, AskUser, tt.render), contract.RouteNative, AskUser, fallback)
			if tt.route == native {
				caps = Bind(Capabilities{}, contract.RouteNative, AskUser, tt.render)
			}
			rec := &recorder{}
			got := Ask(context.Background(), NewAsker(NewHost(caps, nil), &Options{Events: rec}), AskUser, request(2), &Call{ID: "toolu_1"})
			msg := ""
			if got.Error != nil {
				msg = got.Error.Message
				got.Error.Message = ""
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Ask mismatch (-want +got):\n%s", diff)
			}
			if !strings.Contains(msg, tt.message) {
				t.Errorf("error message %q does not mention %q", msg, tt.message)
			}
			if diff := cmp.Diff(sequence("toolu_1", tt.outcome), rec.got()); diff != "" {
				t.Errorf("events mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSession(t *testing.T) {
	tests := []struct {
		name    string
		options prefs.Prefs
		req     func(*contract.Request)
		display contract.DisplayMode
		toggle  string
	}{
		{"defaults", prefs.Prefs{}, nil, contract.DisplayOverlay, "alt+o"},
		{"request display", prefs.Prefs{}, func(r *contract.Request) { r.DisplayMode = contract.DisplayInline }, contract.DisplayInline, "alt+o"},
		{"user display wins", prefs.Prefs{DisplayMode: contract.DisplayOverlay},
			func(r *contract.Request) { r.DisplayMode = contract.DisplayInline }, contract.DisplayOverlay, "alt+o"},
		{"toggle disabled", prefs.Prefs{ToggleKey: ptr("")}, nil, contract.DisplayOverlay, ""},
		{"toggle set", prefs.Prefs{ToggleKey: ptr("ctrl+o")}, nil, contract.DisplayOverlay, "ctrl+o"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *Session[*contract.Request]
			r := RendererFunc[*contract.Request, []contract.Answer](func(_ context.Context, s *Session[*contract.Request]) (Outcome[[]contract.Answer], error) {
				got = s
				return Outcome[[]contract.Answer]{Answer: answers(1)}, nil
			})
			req := request(1)
			if tt.req != nil {
				tt.req(req)
			}
			res := Ask(context.Background(), NewAsker(NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUser, r), &HostOptions{Options: tt.options}), nil), AskUser, req, nil)
			if res.Status != contract.StatusAnswered {
				t.Fatalf("Ask = %+v; want answered", res)
			}
			if got.Display != tt.display || got.ToggleKey != tt.toggle || got.Countdown == nil {
				t.Errorf("Session[*contract.Request] = display %q, toggle %q, countdown %v; want %q, %q, set", got.Display, got.ToggleKey, got.Countdown, tt.display, tt.toggle)
			}
			if got.Request == req || got.Request.Questions[0].ID != "q1" {
				t.Errorf("Session[*contract.Request].Request is not the normalized copy: %+v", got.Request)
			}
		})
	}
}

func TestWarningsKept(t *testing.T) {
	req := request(1)
	req.Questions[0].Options = []contract.Option{{Label: "a"}, {Label: "a"}, {Label: "b"}}
	r := answerWith(Outcome[[]contract.Answer]{Answer: answers(1)}, nil)
	res := Ask(context.Background(), NewAsker(NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUser, r), nil), nil), AskUser, req, nil)
	if res.Status != contract.StatusAnswered || len(res.Warnings) == 0 {
		t.Errorf("Ask = %+v; want answered with a warning about the duplicate label", res)
	}
}

func TestPanickingSink(t *testing.T) {
	r := answerWith(Outcome[[]contract.Answer]{Answer: answers(1)}, nil)
	sink := EventSinkFunc(func(Event) { panic("sink broke") })
	res := Ask(context.Background(), NewAsker(NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUser, r), nil), &Options{Events: sink}), AskUser, request(1), nil)
	if res.Status != contract.StatusAnswered {
		t.Errorf("Ask = %+v; want answered despite the sink", res)
	}
}

func TestConcurrentAsks(t *testing.T) {
	r := RendererFunc[*contract.Request, []contract.Answer](func(_ context.Context, s *Session[*contract.Request]) (Outcome[[]contract.Answer], error) {
		s.Countdown.Remaining()
		return Outcome[[]contract.Answer]{Answer: answers(len(s.Request.Questions))}, nil
	})
	rec := &recorder{}
	a := NewAsker(NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUser, r), nil), &Options{Events: rec})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if res := Ask(context.Background(), a, AskUser, request(3), nil); res.Status != contract.StatusAnswered {
				t.Errorf("Ask = %+v; want answered", res)
			}
		})
	}
	wg.Wait()
	if n := len(rec.got()); n != 8*3 {
		t.Errorf("got %d events; want %d", n, 8*3)
	}
}

func TestAvailability(t *testing.T) {
	r := answerWith(Outcome[[]contract.Answer]{}, nil)
	avail := NewHost(Bind(Capabilities{}, contract.RouteNative, AskUser, r), nil)
	tests := []struct {
		name   string
		host   *Host
		want   bool
		reason string // a substring of NotAvailableReason
	}{
		{"available", avail, true, ""},
		{"nil host", nil, false, "not initialized"},
		{"zero host", &Host{}, false, "no renderer"},
		{"no route", NewHost(Capabilities{CustomReason: "json mode", NativeReason: "json mode"}, nil), false, "json mode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := NewAsker(tt.host, nil)
			reason := a.NotAvailableReason()
			if a.IsAvailable() != tt.want || (reason == "") != tt.want || !strings.Contains(reason, tt.reason) {
				t.Errorf("IsAvailable() = %v, NotAvailableReason() = %q; want %v mentioning %q", a.IsAvailable(), reason, tt.want, tt.reason)
			}
			if a.Host() != tt.host {
				t.Errorf("Host() = %p; want %p", a.Host(), tt.host)
			}
		})
	}
}
