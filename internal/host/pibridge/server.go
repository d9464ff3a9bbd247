package pibridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/internal/dialog"
	"github.com/askuser/askuser/internal/host/pimirror"
	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/internal/strictjson"
	"github.com/askuser/askuser/prefs"
)

// ErrVersion is returned by Serve when the shim speaks another protocol
// version.
var ErrVersion = errors.New("pibridge: unsupported protocol version")

// Serve speaks the bridge protocol on r and w until r ends or ctx is done,
// then aborts the calls still running and returns. It returns nil at the
// end of r, ErrVersion (wrapped) after a hello of another version,
// ErrRelease (wrapped) after a hello of another askuser release, and the
// error that stopped reading or writing otherwise.
//
// Serve runs each call in its own goroutine and writes from several
// goroutines, one line at a time.
func Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	ctx, cancel := context.WithCancelCause(ctx)
	s := newServer(w)
	defer s.stop(cancel)
	// Reading blocks, and a signal must still end the bridge: the loop
	// runs on its own, and Serve returns at whichever ends first. A read
	// left blocked ends with the process.
	done := make(chan error, 1)
	go func() { done <- s.loop(ctx, strictjson.NewLineReader(r, MaxLine)) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return nil
	}
}

// newServer is a bridge that writes to w.
func newServer(w io.Writer) *server {
	s := &server{out: newWriter(w), calls: map[string]*call{}}
	s.commands = notify.NewCommands(notify.HostPi, func(err error) {
		s.send(textMsg{Type: typeNotice, Message: err.Error()})
	})
	return s
}

// stop aborts the running calls, stops the user's notify commands and
// what they started, and waits for the calls' results. The read loop may
// still be blocked in a read; once stopped is set it handles no more
// lines, so no call starts while or after stop waits, and no result is
// written after Serve returns.
func (s *server) stop(cancel context.CancelCauseFunc) {
	cancel(errors.New("the bridge stopped"))
	s.lineMu.Lock()
	s.stopped = true
	s.lineMu.Unlock()
	s.commands.Stop()
	s.wg.Wait()
	s.out.close()
}

func (s *server) loop(ctx context.Context, lr *strictjson.LineReader) error {
	for {
		line, err := lr.Next()
		if err == io.EOF {
			return nil
		}
		if err == io.ErrUnexpectedEOF {
			err = nil // a last line without LF still counts
		}
		s.lineMu.Lock()
		stopped := s.stopped || ctx.Err() != nil
		if !stopped {
			err = s.handle(ctx, line, err)
		}
		s.lineMu.Unlock()
		if stopped {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// handle answers one line, or the error that reading it gave. It runs
// under lineMu.
func (s *server) handle(ctx context.Context, line []byte, err error) error {
	if tl := new(strictjson.LineTooLongError); errors.As(err, &tl) {
		s.protocolError(err.Error())
		return nil
	}
	if err != nil {
		return fmt.Errorf("pibridge: read: %w", err)
	}
	m, err := decode(line)
	if err != nil {
		s.protocolError(err.Error())
		return nil
	}
	if err := s.dispatch(ctx, m); err != nil {
		return err
	}
	if err := s.out.failed(); err != nil {
		return fmt.Errorf("pibridge: write: %w", err)
	}
	return nil
}

// server is the state of one bridge.
type server struct {
	out *writer
	wg  sync.WaitGroup // running calls; Add only under lineMu, before stopped

	lineMu  sync.Mutex // held while a line is handled
	stopped bool       // Serve is returning: handle no more lines

	// Set by hello, then read-only.
	hello   bool
	host    *ask.Host
	hostErr *contract.Error // options the host could not take
	theme   dialog.Theme
	roles   map[string]pimirror.SGR // the colours theme was made from, for the shim's copy of a dialog
	mirror  bool                    // the shim draws frames in process: opens carry the dialog's Spec
	tool    string                  // the tool the shim registered: prefs.ToolAskUser or prefs.ToolAskUserQuestion
	hub     *piHub                  // the session's side of the user's hub; nil when off

	commands *notify.Commands // the user's notify commands, stopped by stop

	mu    sync.Mutex
	calls map[string]*call
}

func (s *server) send(msg any) { _ = s.out.send(msg) }

func (s *server) protocolError(msg string) {
	s.send(textMsg{Type: typeError, Message: msg})
}

func (s *server) dispatch(ctx context.Context, m inMsg) error {
	switch m.Type {
	case typeHello:
		return s.onHello(m)
	case typeAsk:
		s.onAsk(ctx, m)
	case typeExplain:
		s.onExplain(m)
	case typeAbort, typeKey, typeResize, typeUIError, typeReply, typeTry:
		var err error
		switch m.Type {
		case typeResize:
			err = checkSize(m)
		case typeTry:
			err = checkTries(m)
		}
		if err != nil {
			s.protocolError(err.Error())
			return nil
		}
		c := s.call(m.Call)
		if c == nil {
			// A late message for a call that just ended is normal.
			return nil
		}
		c.deliver(m)
	default:
		s.protocolError(fmt.Sprintf("unknown message type %q", m.Type))
	}
	return nil
}

// checkSize refuses a resize to a size no terminal has, before anything
// is drawn at it.
func checkSize(m inMsg) error {
	if m.Width < 1 || m.Width > dialog.MaxWidth {
		return fmt.Errorf("resize: width %d is out of range; a terminal has 1 to %d columns", m.Width, dialog.MaxWidth)
	}
	if m.Rows < 1 || m.Rows > dialog.MaxRows {
		return fmt.Errorf("resize: rows %d is out of range; a terminal has 1 to %d rows", m.Rows, dialog.MaxRows)
	}
	return nil
}

func (s *server) call(id string) *call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[id]
}

func (s *server) onHello(m inMsg) error {
	if s.hello {
		s.protocolError("hello was already received; a bridge serves one session")
		return nil
	}
	if m.Version != Version {
		msg := fmt.Sprintf("the Pi package speaks bridge protocol %d, this askuser speaks %d; install matching versions", m.Version, Version)
		s.send(textMsg{Type: typeFatal, Message: msg})
		return fmt.Errorf("%w: %d", ErrVersion, m.Version)
	}
	if msg, err := checkRelease(m.Release); err != nil {
		s.send(textMsg{Type: typeFatal, Message: msg})
		return err
	}
	tool, err := helloTool(m.Tool)
	if err != nil {
		s.protocolError(err.Error())
		return nil
	}
	s.hello = true
	s.tool = tool
	s.theme = pimirror.Theme(m.Theme)
	s.roles = m.Theme
	s.mirror = m.Mirror
	host, hostErr := newHost(m, &customUI{srv: s}, s)
	if hostErr == nil {
		hostErr = checkTool(host, tool)
	}
	s.host, s.hostErr = host, hostErr
	sup := s.support()
	s.send(readyMsg{Type: typeReady, Version: Version, Support: sup, Available: sup.Status == ask.SupportAvailable, Reason: reasonOf(sup)})
	return nil
}

func reasonOf(sup ask.Support) string {
	if sup.Status == ask.SupportAvailable {
		return ""
	}
	return sup.Reason
}

func (s *server) support() ask.Support {
	if s.hostErr != nil {
		return ask.Support{Status: ask.SupportInvalidConfig, Reason: s.hostErr.Message}
	}
	return s.host.Support()
}

// newHost binds the routes the hello says Pi has and resolves the host.
// It returns an error instead when the options or the config path cannot
// be read at all.
func newHost(m inMsg, custom ask.Renderer[*contract.Request, []contract.Answer], srv *server) (*ask.Host, *contract.Error) {
	var caps ask.Capabilities
	switch {
	case m.Mode != "tui":
		caps.CustomReason = fmt.Sprintf("Pi runs in %s mode, which has no terminal to draw the dialog on", modeName(m.Mode))
	case !m.UI.Custom:
		caps.CustomReason = "this Pi has no ctx.ui.custom"
	case m.Tool == prefs.ToolAskUserQuestion:
		caps = ask.Bind(caps, contract.RouteCustom, ask.AskUserQuestion, ask.Renderer[*auq.Request, auq.Result](&questionCustomUI{srv: srv}))
	default:
		caps = ask.Bind(caps, contract.RouteCustom, ask.AskUser, custom)
	}
	switch {
	case !m.HasUI:
		caps.NativeReason = fmt.Sprintf("Pi in %s mode has no dialog-capable UI", modeName(m.Mode))
	case !m.UI.Input:
		caps.NativeReason = "this Pi has no ctx.ui.input"
	case m.Tool == prefs.ToolAskUserQuestion && !m.UI.Select:
		caps.NativeReason = "this Pi has no ctx.ui.select, which AskUserQuestion's options need"
	case m.Tool == prefs.ToolAskUserQuestion:
		caps = ask.Bind(caps, contract.RouteNative, ask.AskUserQuestion, ask.Renderer[*auq.Request, auq.Result](newQuestionNative(srv)))
	default:
		caps = ask.Bind(caps, contract.RouteNative, ask.AskUser, ask.Renderer[*contract.Request, []contract.Answer](newNativeRoute(srv, m.UI.Select)))
	}
	opts := &ask.HostOptions{ToolKey: true}
	if len(m.Options) > 0 && !bytes.Equal(m.Options, []byte("null")) {
		p, err := config.ParseOptions(m.Options)
		if err != nil {
			return nil, invalidConfig(err)
		}
		opts.Options = p
	}
	path, err := configPath(m.ConfigFile, m.AgentDir)
	if err != nil {
		return nil, invalidConfig(err)
	}
	opts.ConfigFile = path
	opts.Wrap = func(eff prefs.Effective, caps ask.Capabilities) ask.Capabilities {
		srv.hub = newPiHub(eff, os.Getenv, func(msg string) {
			srv.send(textMsg{Type: typeNotice, Message: msg})
		})
		return srv.hub.join(caps)
	}
	return ask.NewHost(caps, opts), nil
}

func invalidConfig(err error) *contract.Error {
	return &contract.Error{Code: contract.ErrInvalidConfig,
		Message: fmt.Sprintf("%v; correct it, then start a new session so that it is read again", err)}
}

func modeName(mode string) string {
	if mode == "" {
		return "an unknown"
	}
	return mode
}

// configPath returns the config file a hello names: the default file in
// agentDir when configFile is absent or null, another path for a string,
// and none for false.
func configPath(raw json.RawMessage, agentDir string) (string, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || bytes.Equal(raw, []byte("null")):
		if agentDir == "" {
			return "", errors.New(`options: configFile: Pi reported no agent directory, so ask-user.json cannot be found; pass configFile explicitly or false`)
		}
		return config.PiPath(agentDir), nil
	case bytes.Equal(raw, []byte("false")):
		return "", nil
	case raw[0] == '"':
		var p string
		if err := json.Unmarshal(raw, &p); err != nil {
			return "", fmt.Errorf("options: configFile: %w", err)
		}
		if p == "" {
			return "", errors.New(`options: configFile: an empty path; pass a path, or false to read no file`)
		}
		return p, nil
	}
	return "", fmt.Errorf("options: configFile: want a path or false, not %.40s", raw)
}

func (s *server) onAsk(ctx context.Context, m inMsg) {
	if m.Call == "" {
		s.protocolError(`ask needs a "call" id`)
		return
	}
	if !s.hello {
		// Answered here, in line order, so that the call never reads
		// host state a hello on the next line is writing.
		res := contract.ErrorResult(contract.ErrNotInitialized, "the Pi session has not started yet; call ask_user after session_start")
		s.send(resultMsg{Type: typeResult, Call: m.Call, Result: res, Text: explain(m.Params, res)})
		return
	}
	if s.tool == prefs.ToolAskUserQuestion {
		s.startCall(ctx, m, func(msg string) any {
			return questionResult(m.Call, m.Params, questionError(contract.ErrInternal, msg))
		}, func(ctx context.Context, c *call, params []byte) any {
			out := s.runQuestions(ctx, c, params, m.CallID)
			r := questionResult(c.id, params, out)
			r.Text += s.hub.note(m.CallID, out.Status == auq.StatusSubmitted)
			return r
		})
		return
	}
	s.startCall(ctx, m, func(msg string) any {
		res := contract.ErrorResult(contract.ErrInternal, msg)
		return resultMsg{Type: typeResult, Call: m.Call, Result: res, Text: explain(m.Params, res)}
	}, func(ctx context.Context, c *call, params []byte) any {
		res := s.run(ctx, c, params, m.CallID)
		text := explain(params, res) + s.hub.note(m.CallID, res.Status == contract.StatusAnswered)
		return resultMsg{Type: typeResult, Call: c.id, Result: res, Text: text}
	})
}

// startCall runs the call m asks for in its own goroutine, and sends the
// result message run returns for it. A call beyond MaxCalls is answered at
// once with the message full makes.
func (s *server) startCall(ctx context.Context, m inMsg, full func(msg string) any, run func(ctx context.Context, c *call, params []byte) any) {
	s.mu.Lock()
	if _, dup := s.calls[m.Call]; dup {
		s.mu.Unlock()
		s.protocolError(fmt.Sprintf("call %q is already running", m.Call))
		return
	}
	if len(s.calls) >= MaxCalls {
		s.mu.Unlock()
		s.send(full(fmt.Sprintf("%d %s calls are running already in this Pi session, the most it serves at once; this one was not shown to the user", MaxCalls, s.tool)))
		return
	}
	ctx, cancel := context.WithCancelCause(ctx)
	if m.Aborted {
		cancel(errCallerAbort)
	}
	c := newCall(s, m.Call, cancel)
	s.calls[m.Call] = c
	s.mu.Unlock()
	params := bytes.Clone(m.Params)
	s.wg.Go(func() {
		defer cancel(nil)
		msg := run(ctx, c, params)
		s.mu.Lock()
		delete(s.calls, c.id)
		s.mu.Unlock()
		s.send(msg)
	})
}

// run asks one questionnaire on the session's host. It runs only after
// the hello, whose state is read-only from then on.
func (s *server) run(ctx context.Context, c *call, params []byte, callID string) contract.Result {
	if s.hostErr != nil {
		return contract.ErrorResult(s.hostErr.Code, s.hostErr.Message)
	}
	a := ask.NewAsker(s.host, &ask.Options{Events: ask.EventSinkFunc(func(e ask.Event) {
		s.send(eventMsg{Type: typeEvent, Call: c.id, Channel: e.Name, Payload: e})
	}), OnOpen: s.onOpen()})
	return ask.AskJSON(ctx, a, ask.AskUser, params, &ask.Call{ID: callID, Data: c})
}

func (s *server) onExplain(m inMsg) {
	if s.tool == prefs.ToolAskUserQuestion {
		s.onExplainQuestions(m)
		return
	}
	var res contract.Result
	if err := json.Unmarshal(m.Result, &res); err != nil {
		s.protocolError(fmt.Sprintf("explain: bad result: %v", err))
		return
	}
	if res.Answers == nil {
		res.Answers = []contract.Answer{}
	}
	code := contract.ErrInternal
	if res.Error != nil {
		code = res.Error.Code
	}
	s.send(explainedMsg{Type: typeExplained, Call: m.Call, Text: explain(m.Params, res), Events: closingEvents(m, res.Route, code)})
}

// closingEvents are the events that close the wait a dead child opened
// and could not close, with the outcome it would have sent unless it
// sent one already: an attempt has exactly one outcome event. They are
// none when the dead child had not opened a wait.
func closingEvents(m inMsg, route contract.Route, code contract.ErrorCode) []busMessage {
	if !m.Blocked {
		return nil
	}
	var events []busMessage
	if !m.Outcome {
		events = append(events, busMessage{ask.EventError, ask.Event{Name: ask.EventError, CallID: m.CallID, Route: route, Status: contract.StatusError, ErrorCode: code}})
	}
	return append(events, busMessage{ask.EventWaiting, ask.Event{Name: ask.EventWaiting, CallID: m.CallID}})
}

// explain words res for the model. The request, when it parses, lets the
// text repeat the questions for a plain-text fallback.
func explain(params []byte, res contract.Result) string {
	var req *contract.Request
	if len(params) > 0 {
		if r, _, err := contract.Parse(params); err == nil {
			req = r
		}
	}
	return contract.ResultText(req, res)
}

// call is one running questionnaire.
type call struct {
	srv    *server
	id     string
	cancel context.CancelCauseFunc

	mu      sync.Mutex
	handler func(inMsg) // the custom route's component, while one is open
	nextReq int
	replies map[int]chan inMsg // pending native dialogs
}

// setHandler routes the call's keys, resizes and UI errors to h, or
// drops them when h is nil.
func (c *call) setHandler(h func(inMsg)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.handler = h
}

func newCall(s *server, id string, cancel context.CancelCauseFunc) *call {
	return &call{srv: s, id: id, cancel: cancel, replies: map[int]chan inMsg{}}
}

// errCallerAbort is the cause of a call aborted by the shim.
var errCallerAbort = errors.New("aborted by the caller")

func (c *call) deliver(m inMsg) {
	switch m.Type {
	case typeAbort:
		c.cancel(errCallerAbort)
	case typeReply:
		c.mu.Lock()
		ch := c.replies[m.Req]
		delete(c.replies, m.Req)
		c.mu.Unlock()
		if ch != nil {
			ch <- m // buffered
		}
	default:
		c.mu.Lock()
		h := c.handler
		c.mu.Unlock()
		if h != nil {
			h(m)
		}
		// Without a component, a key is late (the call is ending) or
		// for a native dialog, which takes none.
	}
}

// callFrom returns the bridge call that s belongs to, which run put in
// the call's Data.
func callFrom(s *ask.Session[*contract.Request]) (*call, error) {
	c, ok := s.Call.Data.(*call)
	if !ok {
		return nil, errOutsideCall
	}
	return c, nil
}

// errOutsideCall is a renderer's error when its session is not a bridge
// call's.
var errOutsideCall = errors.New("pibridge: the renderer ran outside a bridge call")
