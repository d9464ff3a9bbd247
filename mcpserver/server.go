// Package mcpserver serves ask_user, or AskUserQuestion instead (see
// Options.Tool), over the Model Context Protocol, so that any MCP client
// can ask its human structured questions.
//
// AskUserQuestion is served the same way on elicitation (as an elicitation
// request or, from protocol 2026-07-28, as InputRequests) and on the custom
// route, with one flat form of three properties a question, asked again
// for what an accepted form left unusable; its milestones go out as
// progress notifications named after them. The text below is ask_user's.
//
// The one tool, ask_user, takes the questionnaire of package contract and
// returns the contract's text for the model, and as structured content the
// result JSON with that same text as its guidance member. Each client
// session gets one ask.Host, resolved on its first call from the client's
// capabilities and the server's environment:
//
//   - native: the client declares elicitation, and the whole questionnaire
//     is one flat form. Clients of protocol 2026-07-28 and later get it as
//     InputRequests in the tool result and send the answer back in a retry
//     of the same call; older clients get an elicitation request while
//     the call waits. A form submitted with questions left unanswered, or
//     with values askuser cannot use, is followed by one holding only
//     those, and a form dismissed sooner than anyone could read it is
//     reported as a form the client could not show;
//   - custom: a Renderer given in Options, such as a terminal popup.
//
// With Options.Approve the server lists a second tool, approve, which
// answers Claude Code's permission prompts (claude -p
// --permission-prompt-tool): each is asked as an approval (package
// approval) in the popup and on the hub, and answered with Claude Code's
// permission result, a denial for anything but the person's allow.
//
// While a call waits, the server sends progress notifications to clients
// that asked for them. Calls that wait for the user run one at a time; on
// the custom route the renderer orders them, and a hidden dialog lets a
// newer call's show.
package mcpserver

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/internal/notify"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolName is the name of the tool.
const ToolName = "ask_user"

// DefaultProgressInterval is how often a waiting call reports progress.
const DefaultProgressInterval = 5 * time.Second

// modernProtocol is the first protocol version in which a server asks for
// input by returning InputRequests instead of sending a request.
const modernProtocol = "2026-07-28"

//go:embed output.schema.json
var outputSchema []byte

// Options configures New. A nil *Options, like the zero value, gives a
// server whose only route is elicitation, with no config file.
type Options struct {
	// Host holds the programmatic preferences and the config file. The
	// file is read once, when New is called.
	Host ask.HostOptions
	// Tool is the tool the server serves, ToolName (the default, for "")
	// or auq.ToolName; it lists that one alone.
	Tool string
	// Custom is the custom route: the renderer bound on it (ask.Bind,
	// contract.RouteCustom) for the contract of Tool, and for
	// AskUserQuestion with Approve, or none, and then its CustomReason
	// says why, for a person. Other routes are ignored: the native route
	// is the client's form.
	Custom ask.Capabilities
	// ProgressInterval is the time between progress notifications; 0
	// means DefaultProgressInterval.
	ProgressInterval time.Duration
	// Version is the server version reported to clients.
	Version string
	// NotifyReport is told when the user's notify command fails; nil
	// drops the report.
	NotifyReport func(error)
	// Hub joins the sessions to the user's hub; nil for none.
	Hub *HubOptions
	// Approve lists the approve tool (ApproveTool) beside Tool: Claude
	// Code's permission-prompt tool, for the client's permission
	// prompts rather than the model. It asks each approval through the
	// AskUserQuestion renderer that Custom binds on the custom route,
	// racing the hub, or through the hub alone; never in the client's
	// form.
	Approve bool
}

// Server is the ask_user MCP server. It is safe for concurrent use by
// several sessions; calls that wait for the user run one at a time across
// all of them, in the order the custom route's renderer gives them there.
type Server struct {
	mcp      *mcp.Server
	opts     Options
	interval time.Duration
	states   *states

	turn chan struct{} // holds one token; the call holding it may show UI

	// running counts the renders in progress, which the core may leave
	// behind on a timeout or an abort while they tear down.
	running *pending

	// commands are the notify commands of every session, stopped when
	// ServeStdio returns or its context is done.
	commands *notify.Commands

	gone     chan struct{} // closed when the stdio client has gone
	goneOnce sync.Once

	hubTold sync.Once // the hub's unreachability was told

	mu    sync.Mutex
	hosts map[*mcp.ServerSession]*sessionHost
}

// sessionHost is the host of one client session.
type sessionHost struct {
	id     string // binds the session's request states to it
	asker  *ask.Asker
	modern bool // the session answers with InputRequests
	// onOpen runs the notify command; a modern native session calls it
	// on the first round, which its waits come after.
	onOpen func(ask.Opening)
	hub    *sessionHub // nil when the session is not joined to the hub

	approveOnce sync.Once
	approver    *ask.Asker // asks the session's approvals; see Server.approver
}

// New returns a server configured by opts. It reads the config file named
// in opts once, now; an invalid file does not stop the server, but every
// call reports it as invalid_config.
func New(opts *Options) (*Server, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	o.Host = preload(o.Host)
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("mcpserver: making the request states' key: %w", err)
	}
	st, err := newStates(key)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: %w", err)
	}
	s := &Server{
		opts:     o,
		interval: o.ProgressInterval,
		states:   st,
		turn:     make(chan struct{}, 1),
		running:  newPending(),
		commands: notify.NewCommands(notify.HostMCP, o.NotifyReport),
		hosts:    map[*mcp.ServerSession]*sessionHost{},
	}
	s.gone = make(chan struct{})
	if s.interval <= 0 {
		s.interval = DefaultProgressInterval
	}
	s.turn <- struct{}{}
	version := o.Version
	if version == "" {
		version = "devel"
	}
	var tool *mcp.Tool
	var handle mcp.ToolHandler
	var guidelines []string
	switch o.Tool {
	case "", ToolName:
		tool, handle, guidelines = Tool(), s.handle, contract.Guidelines()
	case auq.ToolName:
		tool, handle, guidelines = QuestionsTool(), s.handleQuestions, auq.Guidelines()
	default:
		return nil, fmt.Errorf("mcpserver: unknown tool %q: want %s or %s", o.Tool, ToolName, auq.ToolName)
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "askuser", Title: "askuser", Version: version},
		&mcp.ServerOptions{Instructions: instructions(tool.Name, guidelines)})
	s.mcp.AddTool(tool, handle)
	if o.Approve {
		s.mcp.AddTool(ApproveTool(), s.handleApprove)
	}
	s.mcp.AddSendingMiddleware(keepContent)
	return s, nil
}

// instructions are the server's instructions to the model for the tool
// named tool, with its guidelines: when to ask and when not to.
func instructions(tool string, guidelines []string) string {
	var b strings.Builder
	b.WriteString("Guidelines for " + tool + ":\n")
	for _, g := range guidelines {
		b.WriteString("- " + g + "\n")
	}
	return b.String()
}

// Tool returns the ask_user tool as the server lists it.
func Tool() *mcp.Tool {
	return askTool(ToolName, contract.Description(), contract.Schema(), outputSchema)
}

// askTool is a tool that asks the user: it reads and changes nothing,
// and reaches nothing outside the user.
func askTool(name, description string, input, output []byte) *mcp.Tool {
	f := false
	return &mcp.Tool{
		Name:         name,
		Title:        "Ask the user",
		Description:  description,
		InputSchema:  json.RawMessage(input),
		OutputSchema: json.RawMessage(output),
		Annotations: &mcp.ToolAnnotations{
			Title:           "Ask the user",
			ReadOnlyHint:    true,
			DestructiveHint: &f,
			IdempotentHint:  false,
			OpenWorldHint:   &f,
		},
	}
}

// MCP returns the underlying go-sdk server, to run on a transport.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one client on t until the client disconnects or ctx is done.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	return s.mcp.Run(ctx, t)
}

// host returns the host of the session of req, resolving it on the
// session's first call: from then on its route is fixed.
func (s *Server) host(req *mcp.CallToolRequest) *sessionHost {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h, ok := s.hosts[req.Session]; ok {
		return h
	}
	modern := req.ProtocolVersion() >= modernProtocol
	caps, sh := s.joinHub(req, s.capabilities(req, modern), modern)
	h := s.newSessionHost(ask.NewHost(caps, &s.opts.Host), modern)
	h.hub = sh
	if req.Session != nil {
		s.hosts[req.Session] = h
		go func() {
			_ = req.Session.Wait()
			sh.close()
			s.mu.Lock()
			delete(s.hosts, req.Session)
			s.mu.Unlock()
			s.states.forget(h.id)
		}()
	}
	return h
}

// elicitationMissing says why the client cannot take a form elicitation,
// or returns "".
func elicitationMissing(c *mcp.ClientCapabilities) string {
	switch {
	case c == nil || c.Elicitation == nil:
		return "the MCP client does not declare the elicitation capability"
	case c.Elicitation.Form == nil && c.Elicitation.URL != nil:
		return "the MCP client takes only URL elicitation, not forms"
	}
	return ""
}

// clientGone tells every running call that the stdio client has gone.
// It may be called more than once.
func (s *Server) clientGone() { s.goneOnce.Do(func() { close(s.gone) }) }

// handle serves one tools/call of ask_user.
func (s *Server) handle(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	ctx, done := s.callContext(ctx)
	defer done()
	h := s.host(req)
	q, warnings, err := contract.Parse(arguments(req))
	if err != nil {
		return toolResult(nil, contract.InvalidRequestResult(err), ""), nil
	}
	route, _ := h.asker.Host().Route()
	if route == contract.RouteNative && h.modern {
		if !isRetry(req) {
			return s.firstRound(h, q)
		}
		p := quietProgress()
		res, again, call := s.modernRound(ctx, h, req, q, p)
		if again != nil {
			return again, nil
		}
		note := h.hub.note(call, res.Status == contract.StatusAnswered)
		return withNote(toolResult(q, withWarnings(res, warnings), p.elicitAction()), note), nil
	}
	p := newProgress(req, s.interval)
	defer p.stop()
	endTurn, ok := s.takeTurn(ctx, route, p)
	if !ok {
		res := contract.Result{Status: contract.StatusAborted, Answers: []contract.Answer{}, CancelledReason: contract.CancelAbort}
		return toolResult(q, withWarnings(res, warnings), ""), nil
	}
	defer endTurn()
	id := h.hub.callID()
	res := ask.Ask(ctx, h.asker, ask.AskUser, q, &ask.Call{ID: id, Data: &callData{progress: p}})
	note := h.hub.note(id, res.Status == contract.StatusAnswered)
	return withNote(toolResult(q, withWarnings(res, warnings), p.elicitAction()), note), nil
}

// arguments are the call's arguments as JSON, null when it sent none.
func arguments(req *mcp.CallToolRequest) []byte {
	if args := req.Params.Arguments; len(args) > 0 {
		return args
	}
	return []byte("null")
}

// callContext is the context of one call: ctx, cancelled with
// errClientGone when the stdio client goes. done releases it.
func (s *Server) callContext(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	ended := make(chan struct{})
	go func() {
		select {
		case <-s.gone:
			cancel(errClientGone)
		case <-ended:
		}
	}()
	return ctx, func() {
		close(ended)
		cancel(nil)
	}
}

// takeTurn waits until no other call is showing UI on route, reporting
// the wait as progress, and returns the function that ends the turn. It
// returns false when ctx is done first. The custom route takes no turn:
// its renderer orders the calls itself, and must be free to show a newer
// call while an older one's dialog is hidden, as when the client forgot
// that call without cancelling it.
func (s *Server) takeTurn(ctx context.Context, route contract.Route, p *progress) (func(), bool) {
	if route == contract.RouteCustom {
		return func() {}, true
	}
	end := func() { s.turn <- struct{}{} }
	select {
	case <-s.turn:
		return end, true
	default:
	}
	p.waitingForTurn()
	select {
	case <-s.turn:
		return end, true
	case <-ctx.Done():
		return nil, false
	}
}

// modernRound serves a call from a client that takes InputRequests. The
// first round returns the form and a sealed state holding the deadline;
// the client's retry carries the answer, which judge reads. When it asks
// for another round, modernRound returns that round's form as the tool
// result to send; otherwise the core checks the verdict, or the answer
// given on the hub while the form was out, which wins. It returns the
// call's id too, for the hub's note.
func (s *Server) modernRound(ctx context.Context, h *sessionHost, req *mcp.CallToolRequest, q *contract.Request, prog *progress) (contract.Result, *mcp.CallToolResult, string) {
	rt, err := s.readRetry(h, req, q)
	if err != nil {
		return nativeFailed(unusableAnswer + err.Error()), nil, ""
	}
	call := rt.st.Call
	var v verdict
	if rt.st.expired(rt.now) {
		out, won := offerWon(h.hub, call, "timed out", ask.AskUser)
		if !won {
			return contract.Result{Status: contract.StatusTimeout, Route: contract.RouteNative, Answers: []contract.Answer{}}, nil, call
		}
		v = verdict{outcome: out}
	} else if v = judge(q, rt.st.round(), rt.answer, rt.took()); v.next == nil {
		if out, won := offerWon(h.hub, call, formNote(v.outcome.Dismissed, v.err), ask.AskUser); won {
			v = verdict{outcome: out}
		}
	}
	if v.next == nil {
		return ask.Ask(ctx, h.asker, ask.AskUser, q, &ask.Call{ID: call, Data: &callData{progress: prog, verdict: &v}}), nil, call
	}
	next := *v.next
	again, err := s.again(rt, next, nil, func(left time.Duration) (*mcp.ElicitParams, error) { return next.form(q, left) })
	if err != nil {
		return nativeFailed(cannotReask + err.Error()), nil, call
	}
	return contract.Result{}, again, call
}

// nativeFailed is the native_ui_failed result of ask_user with msg.
func nativeFailed(msg string) contract.Result {
	res := contract.ErrorResult(contract.ErrNativeUIFailed, msg)
	res.Route = contract.RouteNative
	return res
}

// firstRound returns the whole questionnaire as one form in InputRequests,
// with a sealed state holding the deadline, which starts now.
func (s *Server) firstRound(h *sessionHost, q *contract.Request) (*mcp.CallToolResult, error) {
	_, perQuestion := config.ForRequest(h.asker.Host().Preferences(), q)
	total, err := ask.TotalTimeout(perQuestion, len(q.Questions))
	if err != nil {
		return toolResult(q, contract.ErrorResult(contract.ErrInternal, err.Error()), ""), nil
	}
	o := ask.Opening{Tool: ask.ToolAskUser, Header: q.Header, Questions: len(q.Questions)}
	res, err := s.openForm(h, q, o, total, elicitParams(q, total))
	if err != nil {
		return toolResult(q, contract.ErrorResult(contract.ErrInternal, err.Error()), ""), nil
	}
	return res, nil
}

func withWarnings(res contract.Result, warnings []string) contract.Result {
	if len(warnings) > 0 {
		res.Warnings = warnings
	}
	return res
}

// toolResult is the tool result for res, the outcome of q: the model's text
// as content, the result JSON with that text as structured content, and
// isError for an error outcome. action is the client's answer to an elicitation form, if
// one was shown: a dismissal says whether the user declined or cancelled.
func toolResult(q *contract.Request, res contract.Result, action string) *mcp.CallToolResult {
	text := contract.ResultText(q, res)
	if res.Status == contract.StatusAborted && res.CancelledReason == contract.CancelUser {
		text += dismissalText(action)
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: structured{Result: res, Guidance: text},
		IsError:           res.Status == contract.StatusError,
	}
}

// dismissalText says how the user dismissed a form, from the client's
// action: declined or cancelled; "" for no form.
func dismissalText(action string) string {
	switch action {
	case "decline":
		return "The user declined: they chose not to answer the form.\n"
	case "cancel":
		return "The user cancelled: they closed the form without answering or declining.\n"
	}
	return ""
}

// structured is the structured content of a tool result: the result of
// the ask_user contract, and as guidance the same text the text content
// carries. Some clients (Claude Code, Codex) hand the model only the
// structured content of a result that has one, others (Gemini CLI,
// OpenCode) only its text; with the text in both, the model reads the
// same words whichever its client forwards.
type structured struct {
	contract.Result
	Guidance string `json:"guidance"`
}

// errClientGone aborts the calls of a client whose input has ended.
var errClientGone = errors.New("the client closed its connection")

// errNoResponse is the native renderer's error when a modern session
// reaches it without the client's answer.
var errNoResponse = errors.New("the client's answer to the form is missing")
