package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// elicitRenderer is the native route: the questionnaire as one flat
// elicitation form. On a modern session the server has already read the
// client's answer to the form, and the verdict travels in the call's data;
// on an older one the renderer sends the form and waits for the answer,
// and sends another form for what an accepted one left out (see judge).
type elicitRenderer struct {
	session *mcp.ServerSession
	modern  bool
}

// callData is what one tools/call hands the renderers of its session, as
// the ask.Call's Data.
type callData struct {
	progress *progress // the call's progress notifications; nil for none
	verdict  *verdict  // what the client's answer to a form sent as InputRequests means, if any
	// questions is verdict for AskUserQuestion.
	questions *qverdict
}

// dataOf returns the callData of s, or an empty one for a call that has
// none.
func dataOf(s *ask.Session[*contract.Request]) *callData {
	if d, ok := s.Call.Data.(*callData); ok && d != nil {
		return d
	}
	return &callData{}
}

// Render implements ask.Renderer[*contract.Request, []contract.Answer].
// The forms of one call share its deadline and its progress.
func (r *elicitRenderer) Render(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
	d := dataOf(s)
	if d.verdict != nil {
		d.record(d.verdict.action)
		return d.verdict.outcome, d.verdict.err
	}
	if r.modern {
		return ask.Outcome[[]contract.Answer]{}, errNoResponse
	}
	rd := round{n: 1}
	for {
		left, _ := s.Countdown.Remaining()
		form, err := rd.form(s.Request, left)
		if err != nil {
			return ask.Outcome[[]contract.Answer]{}, err
		}
		sent := time.Now()
		res, err := elicit(ctx, r.session, form)
		if err != nil {
			return ask.Outcome[[]contract.Answer]{}, fmt.Errorf("the elicitation request failed: %w", err)
		}
		v := judge(s.Request, rd, res, time.Since(sent))
		d.record(v.action)
		if v.next == nil {
			return v.outcome, v.err
		}
		rd = *v.next
	}
}

// record tells the call's progress the client's answer to a form.
func (d *callData) record(action string) {
	if d.progress != nil {
		d.progress.setAction(action)
	}
}

// elicit sends form to the client of session and returns its answer with
// the content as the client sent it. The SDK's Elicit checks an accepted
// form's content against the requested schema and fails the whole request
// on any mismatch, so that a client that does not enforce required, or
// sends "true" for a boolean, would lose every answer the person gave:
// askuser reads the content by its own rules instead (judge,
// judgeQuestions), keeps what it can use, and asks again for the rest.
// keepContent, a sending middleware of the server, takes the content out
// of the answer before Elicit sees it.
func elicit(ctx context.Context, session *mcp.ServerSession, form *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if session == nil {
		return nil, errors.New("the call has no MCP session to send the form on")
	}
	raw := &rawContent{}
	res, err := session.Elicit(context.WithValue(ctx, rawContentKey{}, raw), form)
	if err != nil {
		return nil, err
	}
	if raw.taken {
		res.Content = raw.content
	}
	return res, nil
}

// rawContentKey marks the context of an elicitation sent by elicit; its
// value is the *rawContent that receives the answer's content.
type rawContentKey struct{}

type rawContent struct {
	content map[string]any
	taken   bool
}

// methodElicit is the method of an elicitation request.
const methodElicit = "elicitation/create"

// keepContent is a sending middleware: for an elicitation that elicit
// sent, it moves the content of the client's answer into the context's
// rawContent, leaving the SDK nothing to check. Every other request
// passes through untouched.
func keepContent(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || method != methodElicit {
			return res, err
		}
		raw, ok := ctx.Value(rawContentKey{}).(*rawContent)
		if er, isElicit := res.(*mcp.ElicitResult); ok && isElicit && er != nil {
			raw.content, raw.taken, er.Content = er.Content, true, nil
		}
		return res, err
	}
}
