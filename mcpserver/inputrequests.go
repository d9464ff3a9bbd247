package mcpserver

import (
	"fmt"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The modern path, for clients of protocol 2026-07-28 and later: the first
// call of a questionnaire returns its form as InputRequests, with a sealed
// state; the client shows the form and calls again with the answer and
// the state. Both tools take it; this is the part they share.

// isRetry reports whether req is a retry that answers a form sent as
// InputRequests, rather than the first call of a questionnaire.
func isRetry(req *mcp.CallToolRequest) bool {
	return req.Params.InputResponses != nil || req.Params.RequestState != ""
}

// openForm returns form, the whole questionnaire q, as InputRequests,
// with a sealed state whose deadline, total (none for 0), starts now; the
// notify command runs for o as the form goes out.
func (s *Server) openForm(h *sessionHost, q any, o ask.Opening, total time.Duration, form *mcp.ElicitParams) (*mcp.CallToolResult, error) {
	state, call, err := s.states.issue(h.id, q, total, time.Now())
	if err != nil {
		return nil, err
	}
	o.Route = contract.RouteNative
	h.openedForm(o, total)
	h.hub.offer(call, o.Tool, q, o.Questions, total)
	return inputRequest(form, state), nil
}

// retry is a client's retry of a call whose form went out as
// InputRequests: the state it echoes, opened, its answer to the form,
// and when it came.
type retry struct {
	st     requestState
	answer *mcp.ElicitResult
	now    time.Time
}

// readRetry reads the retry req of a call of h for q, the questionnaire
// the state it echoes must have been issued for.
func (s *Server) readRetry(h *sessionHost, req *mcp.CallToolRequest, q any) (retry, error) {
	answer, err := formResponse(req.Params.InputResponses)
	if err != nil {
		return retry{}, err
	}
	now := time.Now()
	st, err := s.states.open(req.Params.RequestState, h.id, q, now)
	if err != nil {
		return retry{}, err
	}
	return retry{st: st, answer: answer, now: now}, nil
}

// took is how long after its form went out the answer came.
func (rt retry) took() time.Duration { return rt.st.sentAgo(rt.now) }

// again returns the form of round r, which follows the form rt answers,
// as InputRequests with its sealed state; asks is what an AskUserQuestion
// form asks again. form makes the form with the time left to answer it.
func (s *Server) again(rt retry, r round, asks qgaps, form func(left time.Duration) (*mcp.ElicitParams, error)) (*mcp.CallToolResult, error) {
	f, err := form(rt.st.left(rt.now))
	if err != nil {
		return nil, err
	}
	state, err := s.states.next(rt.st, r, asks, rt.now)
	if err != nil {
		return nil, err
	}
	return inputRequest(f, state), nil
}

// inputRequest is a tool result that asks the client for form, with the
// state it is to echo.
func inputRequest(form *mcp.ElicitParams, state string) *mcp.CallToolResult {
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{formKey: form}, RequestState: state}
}

// formKey is the key of the one input request of a call.
const formKey = "questionnaire"

// formResponse returns the one response to the form.
func formResponse(m mcp.InputResponseMap) (*mcp.ElicitResult, error) {
	if len(m) != 1 {
		return nil, fmt.Errorf("the retry carries %d input responses; want exactly one, %q", len(m), formKey)
	}
	r, ok := m[formKey]
	if !ok {
		return nil, fmt.Errorf("the retry carries no input response %q", formKey)
	}
	er, ok := r.(*mcp.ElicitResult)
	if !ok || er == nil {
		return nil, fmt.Errorf("the input response %q is not an elicitation result", formKey)
	}
	return er, nil
}

// Why a retry ends in native_ui_failed, as the start of the message.
const (
	unusableAnswer = "the answer to the form cannot be used: "
	cannotReask    = "the form cannot be sent again for the answers still missing: "
)
