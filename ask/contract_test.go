package ask_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
)

// approval is a contract of the kind a third tool would bring: a request
// for permission, answered yes or no. It lives here, outside the core,
// as it would in a package of its own.
type approval struct{}

type approvalRequest struct {
	Action string `json:"action"`
}

type approvalResult struct {
	Status   string
	Route    contract.Route
	Approved bool
	Code     contract.ErrorCode
}

func (approval) Tool() string { return "approve" }

func (a approval) Parse(data []byte) (*approvalRequest, []string, error) {
	var req approvalRequest
	if err := json.Unmarshal(data, &req); err != nil {
		return nil, nil, err
	}
	return a.Check(&req)
}

func (approval) Check(req *approvalRequest) (*approvalRequest, []string, error) {
	if req == nil || req.Action == "" {
		return nil, nil, errors.New("the action is missing")
	}
	return req, nil, nil
}

func (approval) Brief(*approvalRequest) ask.Brief { return ask.Brief{Questions: 1} }

func (approval) Verify(_ *approvalRequest, yes bool) (bool, contract.ErrorCode, error) {
	return yes, "", nil
}

func (approval) DecodeAnswer(result []byte) (bool, error) {
	var r struct{ Approved bool }
	err := json.Unmarshal(result, &r)
	return r.Approved, err
}

func (approval) Result(_ *approvalRequest, end ask.End[bool]) approvalResult {
	status := map[ask.Ending]string{ask.EndAnswered: "answered", ask.EndDismissed: "dismissed",
		ask.EndTimeout: "timeout", ask.EndAborted: "aborted", ask.EndFailed: "error"}[end.How]
	return approvalResult{Status: status, Route: end.Route, Approved: end.Answer, Code: end.Code}
}

// TestThirdContract asks a contract the core does not know through the
// same path as ask_user and AskUserQuestion: bound with Bind, asked with
// Ask and AskJSON, its outcome events the core's.
func TestThirdContract(t *testing.T) {
	var c ask.Contract[*approvalRequest, bool, approvalResult] = approval{}
	answer := func(out ask.Outcome[bool], err error) ask.Renderer[*approvalRequest, bool] {
		return ask.RendererFunc[*approvalRequest, bool](func(_ context.Context, s *ask.Session[*approvalRequest]) (ask.Outcome[bool], error) {
			if s.Request.Action != "deploy" {
				return ask.Outcome[bool]{}, errors.New("the renderer was shown another request")
			}
			return out, err
		})
	}
	tests := []struct {
		name  string
		r     ask.Renderer[*approvalRequest, bool]
		json  string
		want  approvalResult
		event string
	}{
		{"approved", answer(ask.Outcome[bool]{Answer: true}, nil), `{"action":"deploy"}`,
			approvalResult{Status: "answered", Route: contract.RouteCustom, Approved: true}, ask.EventAnswered},
		{"dismissed", answer(ask.Outcome[bool]{Dismissed: true}, nil), `{"action":"deploy"}`,
			approvalResult{Status: "dismissed", Route: contract.RouteCustom}, ask.EventAborted},
		{"renderer failed", answer(ask.Outcome[bool]{}, errors.New("no screen")), `{"action":"deploy"}`,
			approvalResult{Status: "error", Route: contract.RouteCustom, Code: contract.ErrCustomUIFailed}, ask.EventError},
		{"invalid", answer(ask.Outcome[bool]{Answer: true}, nil), `{"action":""}`,
			approvalResult{Status: "error", Code: contract.ErrInvalidRequest}, ""},
		{"not bound", nil, `{"action":"deploy"}`,
			approvalResult{Status: "error", Code: contract.ErrUnsupportedMode}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Another contract's renderer, bound on the same route
			// after this one's, must leave this one in place; bound
			// alone, it makes the route run, so that the route, not
			// the host, refuses this contract.
			caps := ask.Bind(ask.Capabilities{}, contract.RouteCustom, c, tt.r)
			caps = ask.Bind(caps, contract.RouteCustom, ask.AskUser,
				ask.RendererFunc[*contract.Request, []contract.Answer](func(context.Context, *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
					return ask.Outcome[[]contract.Answer]{}, errors.New("not this contract")
				}))
			var events []ask.Event
			a := ask.NewAsker(ask.NewHost(caps, nil), &ask.Options{Events: ask.EventSinkFunc(func(e ask.Event) { events = append(events, e) })})
			if got := ask.AskJSON(context.Background(), a, c, []byte(tt.json), nil); got != tt.want {
				t.Errorf("AskJSON = %+v; want %+v", got, tt.want)
			}
			var names []string
			for _, e := range events {
				names = append(names, e.Name)
			}
			want := []string(nil)
			if tt.event != "" {
				want = []string{ask.EventWaiting, tt.event, ask.EventWaiting}
			}
			if !reflect.DeepEqual(names, want) {
				t.Errorf("events %v; want %v", names, want)
			}
		})
	}
}

// TestThirdContractAbort ends a wait on the third contract by the
// caller's context, as any contract's.
func TestThirdContractAbort(t *testing.T) {
	var c ask.Contract[*approvalRequest, bool, approvalResult] = approval{}
	started := make(chan struct{})
	r := ask.RendererFunc[*approvalRequest, bool](func(ctx context.Context, _ *ask.Session[*approvalRequest]) (ask.Outcome[bool], error) {
		close(started)
		<-ctx.Done()
		return ask.Outcome[bool]{}, context.Cause(ctx)
	})
	a := ask.NewAsker(ask.NewHost(ask.Bind(ask.Capabilities{}, contract.RouteNative, c, r), nil), nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	got := ask.Ask(ctx, a, c, &approvalRequest{Action: "deploy"}, nil)
	if want := (approvalResult{Status: "aborted", Route: contract.RouteNative}); got != want {
		t.Errorf("Ask = %+v; want %+v", got, want)
	}
}
