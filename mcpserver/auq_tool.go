package mcpserver

import (
	"context"
	_ "embed"
	"fmt"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

//go:embed questions.output.schema.json
var questionsOutputSchema []byte

// QuestionsTool returns the AskUserQuestion tool as a server with
// Options.Tool set to auq.ToolName lists it.
func QuestionsTool() *mcp.Tool {
	return askTool(auq.ToolName, auq.Description(), auq.Schema(), questionsOutputSchema)
}

// capabilities are the renderers of a session's host for the tool the
// server serves: the custom one of Options, and the client's form, sent
// as an elicitation request, or to a client of protocol 2026-07-28 or
// later as InputRequests (see modernQuestions for AskUserQuestion's).
func (s *Server) capabilities(req *mcp.CallToolRequest, modern bool) ask.Capabilities {
	why := elicitationMissing(req.ClientCapabilities())
	caps := ask.Capabilities{CustomReason: s.opts.Custom.CustomReason, NativeReason: why}
	if s.opts.Tool == auq.ToolName {
		var native ask.Renderer[*auq.Request, auq.Result]
		if why == "" {
			native = &elicitQuestions{session: req.Session, modern: modern}
		}
		caps = bindServed(caps, ask.AskUserQuestion, s.opts.Custom, native, s.running)
	} else {
		var native ask.Renderer[*contract.Request, []contract.Answer]
		if why == "" {
			native = &elicitRenderer{session: req.Session, modern: modern}
		}
		caps = bindServed(caps, ask.AskUser, s.opts.Custom, native, s.running)
	}
	if !caps.CanRun(contract.RouteCustom) && caps.CustomReason == "" {
		caps.CustomReason = "no terminal popup is available to this server"
	}
	return caps
}

// bindServed returns caps with the custom renderer bound in custom for
// contract c, and native when not nil, tracked by running.
func bindServed[Req, Ans, Res any](caps ask.Capabilities, c ask.Contract[Req, Ans, Res], custom ask.Capabilities, native ask.Renderer[Req, Ans], running *pending) ask.Capabilities {
	if custom := ask.Bound(custom, contract.RouteCustom, c); custom != nil {
		caps = ask.Bind(caps, contract.RouteCustom, c, ask.Renderer[Req, Ans](tracked[Req, Ans]{custom, running}))
	}
	if native != nil {
		caps = ask.Bind(caps, contract.RouteNative, c, ask.Renderer[Req, Ans](tracked[Req, Ans]{native, running}))
	}
	return caps
}

// handleQuestions serves one tools/call of AskUserQuestion.
func (s *Server) handleQuestions(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	ctx, done := s.callContext(ctx)
	defer done()
	h := s.host(req)
	q, err := auq.Parse(arguments(req))
	if err != nil {
		return questionsResult(nil, auq.InvalidRequestOutcome(err), ""), nil
	}
	p := newProgress(req, s.interval)
	defer p.stop()
	route, _ := h.asker.Host().Route()
	if route == contract.RouteNative && h.modern {
		return s.modernQuestions(ctx, h, req, q, p), nil
	}
	endTurn, ok := s.takeTurn(ctx, route, p)
	if !ok {
		return questionsResult(q, auq.Outcome{Status: auq.StatusAborted, Result: auq.Result{Cancelled: true, Metadata: q.ResultMetadata()}}, ""), nil
	}
	defer endTurn()
	id := h.hub.callID()
	out := ask.Ask(ctx, h.asker, ask.AskUserQuestion, q, &ask.Call{ID: id, Data: &callData{progress: p}, Progress: p.milestone})
	note := h.hub.note(id, out.Status == auq.StatusSubmitted)
	return withNote(questionsResult(q, out, p.elicitAction()), note), nil
}

// modernQuestions serves a call of AskUserQuestion from a client that
// takes InputRequests, as modernRound does for ask_user: the first call
// returns the form, which is the dialog_opened milestone; a retry carries
// the answer, which judgeQuestions reads, and gets either the form that
// asks again for what is missing or, through the core, the result, or
// the answer given on the hub while the form was out.
func (s *Server) modernQuestions(ctx context.Context, h *sessionHost, req *mcp.CallToolRequest, q *auq.Request, p *progress) *mcp.CallToolResult {
	if !isRetry(req) {
		_, perQuestion := config.ForRequest(h.asker.Host().Preferences(), nil)
		total, err := ask.TotalTimeout(perQuestion, len(q.Questions))
		if err != nil {
			return questionsResult(q, questionsFailed(contract.ErrInternal, err.Error()), "")
		}
		o := ask.Opening{Tool: ask.ToolAskUserQuestion, Questions: len(q.Questions)}
		res, err := s.openForm(h, q, o, total, questionsForm(q, qround{n: 1}, total))
		if err != nil {
			return questionsResult(q, questionsFailed(contract.ErrInternal, err.Error()), "")
		}
		p.milestone(auq.MilestoneDialogOpened)
		return res
	}
	rt, err := s.readRetry(h, req, q)
	if err != nil {
		return questionsResult(q, questionsFailed(contract.ErrNativeUIFailed, unusableAnswer+err.Error()), "")
	}
	call := rt.st.Call
	var v qverdict
	if rt.st.expired(rt.now) {
		out, won := offerWon(h.hub, call, "timed out", ask.AskUserQuestion)
		if !won {
			return questionsResult(q, auq.Outcome{Status: auq.StatusTimeout, Route: string(contract.RouteNative),
				Result: auq.Result{Cancelled: true, Metadata: q.ResultMetadata()}}, "")
		}
		v = qverdict{outcome: out}
	} else if v = judgeQuestions(q, rt.st.qround(), rt.answer, rt.took()); v.next == nil {
		if out, won := offerWon(h.hub, call, formNote(v.outcome.Dismissed, v.err), ask.AskUserQuestion); won {
			v = qverdict{outcome: out}
		}
	}
	if v.next == nil {
		out := ask.Ask(ctx, h.asker, ask.AskUserQuestion, q, &ask.Call{ID: call, Data: &callData{progress: p, questions: &v}, Progress: p.milestone})
		note := h.hub.note(call, out.Status == auq.StatusSubmitted)
		return withNote(questionsResult(q, out, p.elicitAction()), note)
	}
	next := *v.next
	again, err := s.again(rt, round{n: next.n, kept: next.kept}, next.asks, func(left time.Duration) (*mcp.ElicitParams, error) {
		return questionsForm(q, next, left), nil
	})
	if err != nil {
		return questionsResult(q, questionsFailed(contract.ErrNativeUIFailed, cannotReask+err.Error()), "")
	}
	return again
}

// questionsFailed is the AskUserQuestion error outcome on the native
// route with code and msg.
func questionsFailed(code contract.ErrorCode, msg string) auq.Outcome {
	return auq.Outcome{Status: auq.StatusError, Route: string(contract.RouteNative), Error: &auq.Error{Code: string(code), Message: msg}}
}

// questionsResult is the tool result for out, the outcome of q: the
// model's text (auq.ResultText, which holds the whole
// result) as content, and the AskUserQuestion result with that text as its
// guidance member as structured content, as toolResult does for ask_user. An error
// is isError, and its structured content is a result without answers
// (cancelled) that carries the error.
func questionsResult(q *auq.Request, out auq.Outcome, action string) *mcp.CallToolResult {
	text := auq.ResultText(q, out)
	if out.Status == auq.StatusDismissed {
		text += dismissalText(action)
	}
	sc := questionsStructured{Result: out.Result, Guidance: text}
	if out.Status == auq.StatusError {
		sc.Result = auq.Result{Cancelled: true}
		if q != nil {
			sc.Metadata = q.ResultMetadata()
		}
		sc.Error = out.Error
		if sc.Error == nil {
			sc.Error = &auq.Error{Code: string(contract.ErrInternal), Message: "no error was given"}
		}
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: sc,
		IsError:           out.Status == auq.StatusError,
	}
}

// questionsStructured is the structured content of an AskUserQuestion
// result: the result, the error of a call that failed, and as guidance
// the text the text content carries.
type questionsStructured struct {
	auq.Result
	Error    *auq.Error `json:"error,omitempty"`
	Guidance string     `json:"guidance"`
}

// elicitQuestions is the native route of AskUserQuestion: the request as
// one flat elicitation form, sent while the call waits, and another for
// what an accepted one left out (see judgeQuestions).
//
// On a modern session the server has already read the client's answer to
// the last form, and its verdict travels in the call's data.
type elicitQuestions struct {
	session *mcp.ServerSession
	modern  bool
}

// Render implements ask.Renderer[*auq.Request, auq.Result]. Sending the first form
// is the dialog_opened milestone.
func (r *elicitQuestions) Render(ctx context.Context, s *ask.Session[*auq.Request]) (ask.Outcome[auq.Result], error) {
	d, _ := s.Call.Data.(*callData)
	if d == nil {
		d = &callData{}
	}
	if d.questions != nil {
		return settleQuestions(s, d, *d.questions)
	}
	if r.modern {
		return ask.Outcome[auq.Result]{}, errNoResponse
	}
	rd := qround{n: 1}
	for {
		left, _ := s.Countdown.Remaining()
		form := questionsForm(s.Request, rd, left)
		if rd.n == 1 {
			s.Progress(auq.MilestoneDialogOpened)
		}
		sent := time.Now()
		res, err := elicit(ctx, r.session, form)
		if err != nil {
			return ask.Outcome[auq.Result]{}, fmt.Errorf("the elicitation request failed: %w", err)
		}
		v := judgeQuestions(s.Request, rd, res, time.Since(sent))
		if v.next == nil {
			return settleQuestions(s, d, v)
		}
		d.record(v.action)
		rd = *v.next
	}
}

// settleQuestions ends the call of s with v, the verdict on the last
// form: it records the client's action and reports the milestone.
func settleQuestions(s *ask.Session[*auq.Request], d *callData, v qverdict) (ask.Outcome[auq.Result], error) {
	d.record(v.action)
	switch {
	case v.err != nil:
	case v.outcome.Dismissed:
		s.Progress(auq.MilestoneDismissed)
	default:
		s.Progress(auq.MilestoneSubmitted)
	}
	return v.outcome, v.err
}
