package ask

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/config"
)

// Options configures an Asker. A nil *Options means the defaults.
type Options struct {
	// Events receives the runtime events of every call; nil emits none.
	Events EventSink
	// OnOpen is called as each call's wait opens, on every route, before
	// the renderer starts, from the calling goroutine; nil for none. It
	// must return promptly (start slow work, such as a process, on its
	// own goroutine). A panic in it is recovered and ignored.
	OnOpen func(Opening)
}

// Call describes one call: its id for correlation, and the host's own
// data for its renderers. A nil *Call has neither.
type Call struct {
	// ID is the correlation id put on every event of the call, such as the
	// model's tool call id; "" for none.
	ID string
	// Data is the host's own value for this call, which the core hands to
	// the renderer unchanged as Session.Call.Data: what the host's
	// renderers need to draw this call, such as the connection it came
	// on. The core never reads it. nil for none.
	Data any
	// Progress receives the milestones a renderer reports through
	// Session.Progress, in order, from the renderer's goroutine, and none
	// once the call has settled; nil for none.
	Progress func(auq.Milestone)
}

// Asker asks questionnaires on one Host. It is the API for code that asks
// the user directly; the ask_user tool uses it too. An Asker is safe for
// concurrent use, provided its EventSink is.
type Asker struct {
	host   *Host
	events EventSink
	onOpen func(Opening)
}

// NewAsker returns an Asker bound to h. With a nil h every call fails with
// not_initialized.
func NewAsker(h *Host, opts *Options) *Asker {
	a := &Asker{host: h}
	if opts != nil {
		a.events, a.onOpen = opts.Events, opts.OnOpen
	}
	return a
}

// Host returns the host the Asker is bound to, or nil.
func (a *Asker) Host() *Host { return a.host }

// IsAvailable reports whether the host has a route it can prompt on. It
// is the host's structural and configured state, not a promise that a
// render will succeed.
func (a *Asker) IsAvailable() bool {
	_, ok := a.host.Route()
	return ok
}

// NotAvailableReason tells a person why the Asker cannot prompt, or
// returns "" when it can.
func (a *Asker) NotAvailableReason() string {
	if a.host == nil {
		return errNoHost.Error()
	}
	if a.IsAvailable() {
		return ""
	}
	return a.host.Support().Reason
}

// AskJSON is Ask for a request in its JSON form, decoded strictly by the
// contract's Parse.
func AskJSON[Req, Ans, Res any](ctx context.Context, a *Asker, c Contract[Req, Ans, Res], data []byte, call *Call) (res Res) {
	var req Req
	defer recoverInternal(c, &req, &res)
	req, warnings, err := c.Parse(data)
	if err != nil {
		return invalid(c, err)
	}
	return run(ctx, a, c, req, warnings, call)
}

// Ask checks req with the contract, shows it on the host's route with the
// renderer bound there for the contract, and waits until the user
// answers or dismisses it, the shared deadline passes, or ctx is done.
//
// The outcome is always the contract's result, never a panic: a request
// the contract refuses is invalid_request; a host that cannot prompt
// gives its code (invalid_config, unsupported_mode, or not_initialized
// without a host); a ctx already done is aborted (no route) before the
// route is consulted; a route without a renderer for the contract, or a
// renderer that refuses the request through Checker, is
// unsupported_mode. They are checked in this order, nothing is shown,
// and none of them emits an event: no wait was entered. Otherwise the
// call enters the wait, which emits the events documented on Event.
//
// The deadline is the effective timeout per question times the number of
// questions (TotalTimeout); a zero timeout means none. ctx being done, for
// whatever reason, is a caller abort. The core settles at the first of
// the renderer's return, the deadline and the abort, decided by the clock
// and not by which goroutine runs first: a return or an abort that comes
// once the deadline has passed is a timeout, even before the core's timer
// has fired. It then cancels the renderer's context with ErrFinished,
// ErrDismissed, ErrTimeout or ErrAborted as its cause; it does not wait
// for a renderer that ignores this, and discards what it returns later.
// An answer the contract's Verify refuses is never passed on.
func Ask[Req, Ans, Res any](ctx context.Context, a *Asker, c Contract[Req, Ans, Res], req Req, call *Call) (res Res) {
	defer recoverInternal(c, &req, &res)
	norm, warnings, err := c.Check(req)
	if err != nil {
		return invalid(c, err)
	}
	req = norm
	return run(ctx, a, c, req, warnings, call)
}

// invalid is the result of a request the contract refused.
func invalid[Req, Ans, Res any](c Contract[Req, Ans, Res], err error) Res {
	var req Req
	return c.Result(req, End[Ans]{How: EndFailed, Code: contract.ErrInvalidRequest, Message: err.Error(), Err: err})
}

// run asks a checked request.
func run[Req, Ans, Res any](ctx context.Context, a *Asker, c Contract[Req, Ans, Res], req Req, warnings []string, call *Call) Res {
	end := func(e End[Ans]) Res {
		e.Warnings = warnings
		return c.Result(req, e)
	}
	fail := func(route contract.Route, code contract.ErrorCode, msg string) Res {
		return end(End[Ans]{How: EndFailed, Route: route, Code: code, Message: msg})
	}
	h := a.host
	switch {
	case h == nil:
		return fail("", contract.ErrNotInitialized, errNoHost.Error())
	case h.route == "":
		code, msg := h.refusal.Code, h.refusal.Message
		if code == "" { // the zero Host
			code, msg = contract.ErrUnsupportedMode, h.Support().Reason
		}
		return fail(h.refused, code, msg)
	case ctx == nil:
		return fail("", contract.ErrInternal, "ask: nil context")
	case ctx.Err() != nil:
		return end(End[Ans]{How: EndAborted})
	}
	route := h.route
	r := Bound(h.caps, route, c)
	if r == nil {
		return fail("", contract.ErrUnsupportedMode, fmt.Sprintf("%s of this host cannot show %s", routeName(route), c.Tool()))
	}
	if ch, ok := r.(Checker[Req]); ok {
		if code, msg := check(ch, req, route); code != "" {
			return fail("", code, msg)
		}
	}
	brief := c.Brief(req)
	display, perQuestion := config.For(h.prefs, brief.Display, brief.TimeoutPerQuestionMs)
	total, err := TotalTimeout(perQuestion, brief.Questions)
	if err != nil {
		return fail("", contract.ErrInternal, err.Error())
	}
	s := &Session[Req]{Request: req, Display: display, ToggleKey: h.prefs.ToggleKey, Notify: h.prefs.Notify}
	if call != nil {
		s.Call = *call
		if call.Progress != nil {
			s.progress = &progress{to: call.Progress}
		}
	}
	open := Opening{Tool: c.Tool(), Route: route, Header: brief.Header, Questions: brief.Questions}
	e := waitOn(a, ctx, s, r, total, open, func(st settlement[Ans]) End[Ans] {
		return settled(c, st, route, req)
	})
	return end(e)
}

// check asks a Checker whether the route can show req. A refusal, or a
// panic in Check, ends the call before the wait with an error code.
func check[Req any](c Checker[Req], req Req, route contract.Route) (code contract.ErrorCode, msg string) {
	defer func() {
		if p := recover(); p != nil {
			code, msg = uiFailed(route), fmt.Sprintf("%s panicked while checking the request: %v", routeName(route), p)
		}
	}()
	if err := c.Check(req); err != nil {
		return contract.ErrUnsupportedMode, fmt.Sprintf("%s cannot show this request: %v", routeName(route), err)
	}
	return "", ""
}

// waitOn runs one interactive wait: the blocked pair, the race between
// the renderer, the deadline and the caller's abort, and the outcome
// event of the end that settle makes of the first settlement.
func waitOn[Req, Ans any](a *Asker, ctx context.Context, s *Session[Req], r Renderer[Req, Ans], total time.Duration, open Opening, settle func(settlement[Ans]) End[Ans]) (end End[Ans]) {
	callID := s.Call.ID
	a.emit(Event{Name: EventWaiting, CallID: callID, Active: true})
	defer func() {
		s.progress.stop()
		if p := recover(); p != nil {
			end = End[Ans]{How: EndFailed, Route: open.Route, Code: contract.ErrInternal, Message: fmt.Sprintf("ask: internal failure: %v", p)}
		}
		end.Opened = true
		a.emit(end.event(callID))
		a.emit(Event{Name: EventWaiting, CallID: callID, Active: false})
	}()

	rctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	w := newWaiter[Ans](total, cancel)
	cd := &Countdown{impl: countdown[Ans]{w}}
	open.CallID = callID
	open.Deadline, _ = cd.Deadline()
	a.opened(open)
	stop := context.AfterFunc(ctx, func() {
		w.settle(settlement[Ans]{kind: byAbort, err: fmt.Errorf("%w: %w", ErrAborted, context.Cause(ctx))})
	})
	defer stop()
	if !w.isSettled() {
		s.Countdown = cd
		go render(rctx, s, r, w)
	}
	<-w.done
	return settle(w.result)
}

// render runs a renderer and settles the wait with what it returns,
// turning a panic into an error.
func render[Req, Ans any](ctx context.Context, s *Session[Req], r Renderer[Req, Ans], w *waiter[Ans]) {
	var st settlement[Ans]
	func() {
		defer func() {
			if p := recover(); p != nil {
				st = settlement[Ans]{err: panicError{p}, panicked: true}
			}
		}()
		st.outcome, st.err = r.Render(ctx, s)
	}()
	st.kind = byRenderer
	// A host dialog that gives up at the deadline, with an error or as a
	// dismissal, and an answer that comes a moment too late can arrive
	// before the core's timer fires: settle decides by the deadline.
	w.settle(st)
}

// settled turns the first settlement of a wait into how the call ended.
func settled[Req, Ans, Res any](c Contract[Req, Ans, Res], st settlement[Ans], route contract.Route, req Req) End[Ans] {
	fail := func(code contract.ErrorCode, msg string) End[Ans] {
		return End[Ans]{How: EndFailed, Route: route, Code: code, Message: msg}
	}
	switch st.kind {
	case byTimeout:
		return End[Ans]{How: EndTimeout, Route: route}
	case byAbort:
		return End[Ans]{How: EndAborted, Route: route}
	}
	if st.panicked {
		return fail(uiFailed(route), fmt.Sprintf("%s panicked: %v", routeName(route), st.err.(panicError).value))
	}
	var unanswered *UnansweredError
	if errors.As(st.err, &unanswered) {
		return fail(contract.ErrEmptyAnswer, unanswered.Reason)
	}
	if st.err != nil {
		return fail(uiFailed(route), fmt.Sprintf("%s failed: %v", routeName(route), st.err))
	}
	if st.outcome.Dismissed {
		return End[Ans]{How: EndDismissed, Route: route}
	}
	ans, code, err := c.Verify(req, st.outcome.Answer)
	if err != nil {
		return fail(code, fmt.Sprintf("%s returned answers that break the contract: %v", routeName(route), err))
	}
	return End[Ans]{How: EndAnswered, Route: route, Answer: ans}
}

func uiFailed(route contract.Route) contract.ErrorCode {
	if route == contract.RouteNative {
		return contract.ErrNativeUIFailed
	}
	return contract.ErrCustomUIFailed
}

func routeName(route contract.Route) string {
	if route == contract.RouteNative {
		return "the native dialog"
	}
	return "the custom dialog"
}

// emit hands e to the sink; a panicking sink cannot break the call.
func (a *Asker) emit(e Event) {
	if a.events == nil {
		return
	}
	defer func() { _ = recover() }()
	a.events.Event(e)
}

// recoverInternal turns a panic outside the wait into an internal error.
func recoverInternal[Req, Ans, Res any](c Contract[Req, Ans, Res], req *Req, res *Res) {
	if p := recover(); p != nil {
		*res = c.Result(*req, End[Ans]{How: EndFailed, Code: contract.ErrInternal, Message: fmt.Sprintf("ask: internal failure: %v", p)})
	}
}
