package mcpserver

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/internal/auqtext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

//go:embed questions.output.schema.json
var questionsOutputSchema []byte

// QuestionsTool returns the AskUserQuestion tool as a server with
// Options.Tool set to auq.ToolName lists it.
func QuestionsTool() *mcp.Tool {
	return askTool(auq.ToolName, auqtext.Description(), auq.Schema(), questionsOutputSchema)
}

// questionsInstructions are the server's instructions for AskUserQuestion.
func questionsInstructions() string {
	var b strings.Builder
	b.WriteString("Guidelines for " + auq.ToolName + ":\n")
	for _, g := range auqtext.Guidelines() {
		b.WriteString("- " + g + "\n")
	}
	return b.String()
}

// questionCapabilities are the renderers of a session's host for
// AskUserQuestion: the custom one of Options, and the client's form,
// sent as an elicitation request. A client of protocol 2026-07-28 or
// later takes forms only as InputRequests, which this tool does not send.
func (s *Server) questionCapabilities(req *mcp.CallToolRequest, modern bool) ask.Capabilities {
	caps := ask.Capabilities{CustomReason: s.opts.CustomReason}
	if s.opts.CustomQuestions != nil {
		caps.CustomQuestions = trackedQuestions{s.opts.CustomQuestions, s.running}
	} else if caps.CustomReason == "" {
		caps.CustomReason = "no terminal popup is available to this server"
	}
	switch why := elicitationMissing(req.ClientCapabilities()); {
	case why != "":
		caps.NativeReason = why
	case modern:
		caps.NativeReason = "the MCP client speaks protocol " + modernProtocol + " or later, where " + auq.ToolName + " has no form yet"
	default:
		caps.NativeQuestions = trackedQuestions{&elicitQuestions{session: req.Session}, s.running}
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
	if !s.takeTurn(ctx, p) {
		return questionsResult(q, auq.Outcome{Status: auq.StatusAborted, Result: auq.Result{Cancelled: true, Metadata: q.ResultMetadata()}}, ""), nil
	}
	defer func() { s.turn <- struct{}{} }()
	out := h.asker.AskQuestions(ctx, q, &ask.Call{Data: &callData{progress: p}, Progress: p.milestone})
	return questionsResult(q, out, p.elicitAction()), nil
}

// questionsResult is the tool result for out, the outcome of q: the
// model's text (auqtext.ForModel, which holds the whole result) as
// content, and, but for an error, the AskUserQuestion result with that
// text as its guidance member as structured content, as toolResult does
// for ask_user. An error is isError, with the text alone.
func questionsResult(q *auq.Request, out auq.Outcome, action string) *mcp.CallToolResult {
	text := auqtext.ForModel(q, out)
	if out.Status == auq.StatusDismissed {
		text += dismissalText(action)
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
	if out.Status == auq.StatusError {
		res.IsError = true
		return res
	}
	res.StructuredContent = questionsStructured{Result: out.Result, Guidance: text}
	return res
}

// questionsStructured is the structured content of an AskUserQuestion
// result: the result, and as guidance the text the text content carries.
type questionsStructured struct {
	auq.Result
	Guidance string `json:"guidance"`
}

// elicitQuestions is the native route of AskUserQuestion: the request as
// one flat elicitation form, sent while the call waits, and another for
// what an accepted one left out (see judgeQuestions).
type elicitQuestions struct {
	session *mcp.ServerSession
}

// RenderQuestions implements ask.QuestionRenderer. Sending the first form
// is the dialog_opened milestone.
func (r *elicitQuestions) RenderQuestions(ctx context.Context, s *ask.QuestionSession) (ask.QuestionOutcome, error) {
	d, _ := s.Call.Data.(*callData)
	if d == nil {
		d = &callData{}
	}
	if r.session == nil {
		return ask.QuestionOutcome{}, errors.New("the call has no MCP session to send the form on")
	}
	rd := qround{n: 1}
	for {
		left, _ := s.Countdown.Remaining()
		form := questionsForm(s.Request, rd, left)
		if rd.n == 1 {
			s.Progress(auq.MilestoneDialogOpened)
		}
		sent := time.Now()
		res, err := r.session.Elicit(ctx, form)
		if err != nil {
			return ask.QuestionOutcome{}, fmt.Errorf("the elicitation request failed: %w", err)
		}
		v := judgeQuestions(s.Request, rd, res, time.Since(sent))
		d.record(v.action)
		switch {
		case v.next != nil:
			rd = *v.next
			continue
		case v.err != nil:
		case v.outcome.Dismissed:
			s.Progress(auq.MilestoneDismissed)
		default:
			s.Progress(auq.MilestoneSubmitted)
		}
		return v.outcome, v.err
	}
}

// trackedQuestions is tracked for a QuestionRenderer.
type trackedQuestions struct {
	r       ask.QuestionRenderer
	running *pending
}

// RenderQuestions implements ask.QuestionRenderer.
func (t trackedQuestions) RenderQuestions(ctx context.Context, s *ask.QuestionSession) (ask.QuestionOutcome, error) {
	defer t.running.begin(s.Call.Data, s.Countdown)()
	return t.r.RenderQuestions(ctx, s)
}
