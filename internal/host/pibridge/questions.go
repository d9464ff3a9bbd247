package pibridge

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/dialog"
	"github.com/askuser/askuser/internal/host/pimirror"
	"github.com/askuser/askuser/internal/native"
	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/prefs"
)

// questionCustomUI is the custom route of AskUserQuestion inside Pi: the
// dialog.Questions component runs here, shown by the shim as a full-width
// overlay that HideKey hides and restores.
type questionCustomUI struct {
	srv *server
}

var _ ask.Renderer[*auq.Request, auq.Result] = (*questionCustomUI)(nil)

// hiddenStatus is the footer reminder the shim shows while the dialog is
// hidden.
var hiddenStatus = fmt.Sprintf("AskUserQuestion is waiting for your answers: press %s to show the questions again", dialog.HideKey)

// Render opens the component, feeds it keys until the user
// submits or dismisses, and closes it however the call ends.
func (u *questionCustomUI) Render(ctx context.Context, s *ask.Session[*auq.Request]) (ask.Outcome[auq.Result], error) {
	c, ok := s.Call.Data.(*call)
	if !ok {
		return ask.Outcome[auq.Result]{}, errOutsideCall
	}
	m := dialog.NewQuestions(s.Request, &dialog.Options{Theme: u.srv.theme, Countdown: s.Countdown})
	qs := &questionSession{component: newComponent[ask.Outcome[auq.Result]](u.srv, c.id, s.Countdown, m), s: s}
	c.setHandler(qs.handle)
	defer c.setHandler(nil)
	u.srv.send(openMsg{Type: typeOpen, Call: c.id, Display: string(contract.DisplayOverlay),
		ToggleKey: piKey(dialog.HideKey), HiddenStatus: hiddenStatus, HideWorking: true,
		Mirror: u.srv.mirrorSpec(pimirror.DialogQuestions, s.Request, s.Countdown, "", false, "")})
	defer notify.Attach(u.srv.notifyTo(c.id), s.Notify, notify.QuestionsSubject(s.Kind, s.Summary), s.Countdown)()
	defer u.srv.send(callMsg{Type: typeClose, Call: c.id})
	return qs.serve(ctx)
}

// questionSession is one AskUserQuestion component on screen.
type questionSession struct {
	component[ask.Outcome[auq.Result], *dialog.Questions]
	s      *ask.Session[*auq.Request]
	opened bool // dialog_opened was sent
}

// handle takes a key, a resize or a UI error from the shim.
func (qs *questionSession) handle(msg inMsg) { qs.component.handle(msg, qs.key, qs.drawn) }

// drawn sends the dialog_opened milestone with the first frame: the
// questions are on screen from then on.
func (qs *questionSession) drawn() {
	if !qs.opened {
		qs.opened = true
		qs.s.Progress(auq.MilestoneDialogOpened)
	}
}

// key applies k to the dialog, passes on its milestones, and reports
// whether it ended the dialog. EffectToggleHide does not come here: the
// shim takes the hide key before the component sees it, and hides the
// overlay.
func (qs *questionSession) key(k dialog.Key) (ask.Outcome[auq.Result], bool) {
	return ended(qs.s, qs.m.Update(k))
}

// questionResultMsg ends an AskUserQuestion call: Result is the tool's
// details, Text what the model reads, and Terminate asks Pi to end the
// agent's turn after the tool.
type questionResultMsg struct {
	Type      string          `json:"type"`
	Call      string          `json:"call"`
	Result    questionDetails `json:"result"`
	Text      string          `json:"text"`
	Terminate bool            `json:"terminate,omitempty"`
}

// questionDetails is the AskUserQuestion result as Pi's tool details hold
// it, with the error of a call that failed: the contract's result has no
// place for one, and the details should still say why.
type questionDetails struct {
	auq.Result
	Error *auq.Error `json:"error,omitempty"`
}

// progressMsg carries one milestone of a call, for Pi's onUpdate.
type progressMsg struct {
	Type      string        `json:"type"`
	Call      string        `json:"call"`
	Milestone auq.Milestone `json:"milestone"`
}

// questionResult is the result message of an AskUserQuestion call that
// ended with out. params, when they parse, let the text list the
// questions for a plain-text fallback.
func questionResult(call string, params []byte, out auq.Outcome) questionResultMsg {
	var req *auq.Request
	if len(params) > 0 {
		if r, err := auq.Parse(params); err == nil {
			req = r
		}
	}
	d := questionDetails{Result: out.Result, Error: out.Error}
	if out.Status == auq.StatusError {
		d.Result = auq.Result{Cancelled: true}
	}
	return questionResultMsg{Type: typeResult, Call: call, Result: d, Text: auq.ResultText(req, out),
		Terminate: out.Status == auq.StatusDismissed}
}

// questionError is the outcome of an AskUserQuestion call the bridge
// refused itself.
func questionError(code contract.ErrorCode, msg string) auq.Outcome {
	return auq.Outcome{Status: auq.StatusError, Error: &auq.Error{Code: string(code), Message: msg}}
}

// runQuestions asks one AskUserQuestion request on the session's host.
func (s *server) runQuestions(ctx context.Context, c *call, params []byte, callID string) auq.Outcome {
	if s.hostErr != nil {
		return questionError(s.hostErr.Code, s.hostErr.Message)
	}
	a := ask.NewAsker(s.host, &ask.Options{Events: ask.EventSinkFunc(func(e ask.Event) {
		s.send(eventMsg{Type: typeEvent, Call: c.id, Channel: e.Name, Payload: e})
	}), OnOpen: s.onOpen()})
	return ask.AskJSON(ctx, a, ask.AskUserQuestion, params, &ask.Call{ID: callID, Data: c, Progress: func(m auq.Milestone) {
		s.send(progressMsg{Type: typeProgress, Call: c.id, Milestone: m})
	}})
}

// helloTool reads the hello's tool: absent is ask_user.
func helloTool(tool string) (string, error) {
	switch tool {
	case "":
		return prefs.ToolAskUser, nil
	case prefs.ToolAskUser, prefs.ToolAskUserQuestion:
		return tool, nil
	}
	return "", fmt.Errorf("hello: tool %q is not one askuser serves; the Pi package registers %q or %q",
		tool, prefs.ToolAskUser, prefs.ToolAskUserQuestion)
}

// checkTool refuses a session whose user config chose another tool than
// the one the shim registered: the model would be offered a tool the user
// turned off.
func checkTool(h *ask.Host, registered string) *contract.Error {
	chosen := h.Preferences().Tool
	if chosen == "" || chosen == registered {
		return nil
	}
	return &contract.Error{Code: contract.ErrInvalidConfig, Message: fmt.Sprintf(
		"the askuser config sets tool to %q, but the Pi package registered %q in this session; "+
			"start a new session or run /reload, so that the package registers the tool the config names", chosen, registered)}
}

// questionNative is the native route of AskUserQuestion inside Pi: the
// flow of native.QuestionDialogs, with its lists and inputs sent to the call's
// shim as Pi's select and input dialogs.
type questionNative struct {
	srv *server
}

func newQuestionNative(srv *server) questionNative { return questionNative{srv: srv} }

// Render implements ask.Renderer[*auq.Request, auq.Result].
func (r questionNative) Render(ctx context.Context, s *ask.Session[*auq.Request]) (ask.Outcome[auq.Result], error) {
	c, ok := s.Call.Data.(*call)
	if !ok {
		return ask.Outcome[auq.Result]{}, errOutsideCall
	}
	ui := &nativeUI{srv: r.srv, call: c}
	return native.NewQuestionDialogs(ui, ui).Render(ctx, s)
}

// onExplainQuestions words the result of an AskUserQuestion call whose
// child died, as onExplain does for ask_user. The result is the error
// details the shim made; route is the route the call had reached.
func (s *server) onExplainQuestions(m inMsg) {
	var d struct {
		Error *auq.Error `json:"error"`
	}
	if err := json.Unmarshal(m.Result, &d); err != nil || d.Error == nil {
		s.protocolError(fmt.Sprintf("explain: bad result: want {\"cancelled\":true,\"error\":{...}}, got %.200s", m.Result))
		return
	}
	msg := questionResult(m.Call, m.Params, auq.Outcome{Status: auq.StatusError, Route: m.Route, Error: d.Error})
	s.send(explainedMsg{Type: typeExplained, Call: m.Call, Text: msg.Text,
		Events: closingEvents(m, contract.Route(m.Route), contract.ErrorCode(d.Error.Code))})
}
