package mcpserver

import (
	"context"
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/claudecode"
	"github.com/askuser/askuser/contract"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ApproveToolName is the name of the tool that answers the client's
// permission prompts (Options.Approve).
const ApproveToolName = "approve"

var (
	//go:embed approve.md
	approveDescription string
	//go:embed approve.schema.json
	approveSchema []byte
)

// ApproveTool returns the approve tool as a server with Options.Approve
// lists it: Claude Code's permission-prompt tool, which takes the tool
// call that awaits permission and returns Claude Code's permission
// result as its text.
func ApproveTool() *mcp.Tool {
	f := false
	return &mcp.Tool{
		Name:        ApproveToolName,
		Title:       "Approve a tool call",
		Description: strings.TrimSpace(approveDescription),
		InputSchema: json.RawMessage(approveSchema),
		Annotations: &mcp.ToolAnnotations{
			Title:           "Approve a tool call",
			ReadOnlyHint:    true,
			DestructiveHint: &f,
			OpenWorldHint:   &f,
		},
	}
}

// handleApprove serves one tools/call of approve: it asks the approval
// of the call it is given and returns Claude Code's answer. Whatever is
// not the person's allow, including input it cannot read, is a denial
// that says why: the tool's result is never an error, which Claude Code
// would take for no answer.
func (s *Server) handleApprove(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	ctx, done := s.callContext(ctx)
	defer done()
	text := func(b []byte) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
	}
	in, err := claudecode.DecodePromptToolInput(arguments(req))
	if err != nil {
		return text(claudecode.DenyResult("askuser could not read the permission prompt, so the call is denied: " + err.Error())), nil
	}
	prompt, err := in.Prompt()
	if err != nil {
		return text(claudecode.DenyResult("askuser cannot ask about this call, so it is denied: " + err.Error())), nil
	}
	h := s.host(req)
	p := newProgress(req, s.interval)
	defer p.stop()
	id := h.hub.callID()
	out := ask.Ask(ctx, s.approver(h), ask.Approval, prompt.Request, &ask.Call{ID: id, Data: &callData{progress: p}})
	_ = h.hub.note(id, out.Allowed()) // forgets the hub's answer: the model is told nothing of it
	return text(prompt.ToolResult(out)), nil
}

// approver returns the Asker of h's approvals, made on the first one.
func (s *Server) approver(h *sessionHost) *ask.Asker {
	h.approveOnce.Do(func() {
		o := s.opts.Host
		o.Options.Mode = "" // approvals have one route, whichever the questions take
		h.approver = ask.NewAsker(ask.NewHost(s.approvalCapabilities(h.hub), &o), &ask.Options{OnOpen: h.onOpen})
	})
	return h.approver
}

// approvalCapabilities are the renderers that ask a session's approvals,
// each as an AskUserQuestion questionnaire: the popup's renderer of
// Options.Custom, racing the session's hub when it has one, or the hub
// alone. The client's form is never one: Claude Code in -p answers
// every form with a cancel.
func (s *Server) approvalCapabilities(sh *sessionHub) ask.Capabilities {
	caps := ask.Capabilities{CustomReason: s.opts.Custom.CustomReason, NativeReason: "approvals are not asked in the MCP client's form"}
	caps = bindServed(caps, ask.AskUserQuestion, s.opts.Custom, nil, s.running)
	alone := !caps.CanRun(contract.RouteCustom)
	if sh != nil && (!alone || s.connectAlone(sh)) {
		caps = joinServed(caps, sh.link.Join(caps), ask.AskUserQuestion, alone, s.running)
	}
	if !caps.CanRun(contract.RouteCustom) {
		why := caps.CustomReason
		if why == "" {
			why = "no terminal popup is available to this server"
		}
		caps.CustomReason = why + ", and no hub was reached"
	}
	return ask.BindApproval(caps)
}
