package ask

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
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
	// Progress receives the milestones of an AskUserQuestion call, in
	// order, from the renderer's goroutine, and none once the call has
	// settled; nil for none. Ask does not use it.
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

// AskJSON is Ask for a request in its JSON form, decoded strictly by
// contract.Parse.
func (a *Asker) AskJSON(ctx context.Context, data []byte, call *Call) (res contract.Result) {
	defer recoverInternal(&res)
	req, warnings, err := contract.Parse(data)
	if err != nil {
		return invalidRequest(err)
	}
	return a.ask(ctx, req, warnings, call)
}

// Ask validates req, shows it on the host's route and waits until the user
// answers or dismisses it, the shared deadline passes, or ctx is done.
//
// The outcome is always a Result, never a panic: a bad request is
// invalid_request; a host that cannot prompt gives its code
// (invalid_config, unsupported_mode, or not_initialized without a host);
// a ctx already done gives aborted (cancelledReason abort, no route)
// before the route is consulted; a renderer that refuses the request
// through Checker gives unsupported_mode. They are checked in this order,
// nothing is shown, and none of them emits an event: no wait was entered. Otherwise the call enters the
// wait, which emits the events documented on Event.
//
// The deadline is the effective timeout per question times the number of
// questions, clamped to contract.MaxSafeTimeoutMs; a zero timeout means
// none. ctx being done, for whatever reason, is a caller abort. The core
// settles at the first of the renderer's return, the deadline and the
// abort, decided by the clock and not by which goroutine runs first: a
// return or an abort that comes once the deadline has passed is a
// timeout, even before the core's timer has fired. It then cancels the renderer's context with ErrFinished,
// ErrDismissed, ErrTimeout or ErrAborted as its cause; it does not wait
// for a renderer that ignores this, and discards what it returns later.
// Answers that break the contract are never passed on: they are
// empty_answer or internal.
func (a *Asker) Ask(ctx context.Context, req *contract.Request, call *Call) (res contract.Result) {
	defer recoverInternal(&res)
	if req == nil {
		return invalidRequest(errors.New("the request is missing"))
	}
	norm, warnings, err := contract.Normalize(req)
	if err != nil {
		return invalidRequest(err)
	}
	return a.ask(ctx, norm, warnings, call)
}

func (a *Asker) ask(ctx context.Context, req *contract.Request, warnings []string, call *Call) contract.Result {
	res := a.run(ctx, req, call)
	if len(warnings) > 0 {
		res.Warnings = warnings
	}
	return res
}

func (a *Asker) run(ctx context.Context, req *contract.Request, call *Call) contract.Result {
	h := a.host
	if h == nil {
		return contract.ErrorResult(contract.ErrNotInitialized, errNoHost.Error())
	}
	if h.route == "" {
		return h.refusalResult()
	}
	if ctx == nil {
		return contract.ErrorResult(contract.ErrInternal, "ask: nil context")
	}
	if ctx.Err() != nil {
		return aborted("", contract.CancelAbort)
	}
	r := h.renderer(h.route)
	if r == nil {
		return contract.ErrorResult(contract.ErrUnsupportedMode, fmt.Sprintf("%s of this host cannot show ask_user", routeName(h.route)))
	}
	if c, ok := r.(Checker); ok {
		if res, refused := check(c, req, h.route); refused {
			return res
		}
	}
	display, perQuestion := h.prefs.ForRequest(req)
	total, err := TotalTimeout(perQuestion, len(req.Questions))
	if err != nil {
		return contract.ErrorResult(contract.ErrInternal, err.Error())
	}
	s := &Session{Request: req, Display: display, ToggleKey: h.prefs.ToggleKey, Notify: h.prefs.Notify}
	if call != nil {
		s.Call = *call
	}
	open := Opening{Tool: ToolAskUser, Route: h.route, Header: req.Header, Questions: len(req.Questions)}
	return a.wait(ctx, r, h.route, s, total, open)
}

// check asks a Checker whether the route can show req. A refusal, or a
// panic in Check, ends the call before the wait.
func check(c Checker, req *contract.Request, route contract.Route) (res contract.Result, refused bool) {
	defer func() {
		if p := recover(); p != nil {
			res, refused = contract.ErrorResult(uiFailed(route), fmt.Sprintf("%s panicked while checking the request: %v", routeName(route), p)), true
		}
	}()
	if err := c.Check(req); err != nil {
		return contract.ErrorResult(contract.ErrUnsupportedMode, fmt.Sprintf("%s cannot show this request: %v", routeName(route), err)), true
	}
	return contract.Result{}, false
}

// wait runs one ask_user wait on r.
func (a *Asker) wait(ctx context.Context, r Renderer, route contract.Route, s *Session, total time.Duration, open Opening) contract.Result {
	callID := s.Call.ID
	return waitOn(a, ctx, callID, total, waitSpec[contract.Result]{
		opening: open,
		render: func(rctx context.Context, cd *Countdown) (st settlement) {
			s.Countdown = cd
			st.outcome, st.err = r.Render(rctx, s)
			return st
		},
		settled: func(st settlement) contract.Result { return settled(st, route, s.Request) },
		internal: func(msg string) contract.Result {
			res := contract.ErrorResult(contract.ErrInternal, msg)
			res.Route = route
			return res
		},
		event: func(res contract.Result) Event { return outcomeEvent(callID, res) },
	})
}

// waitSpec is what one kind of call puts into a wait: how to run its
// renderer, how to turn the first settlement into its result, its result
// for an internal failure, and the outcome event of a result.
type waitSpec[R any] struct {
	opening  Opening
	render   func(ctx context.Context, cd *Countdown) settlement
	settled  func(st settlement) R
	internal func(msg string) R
	event    func(res R) Event
}

// waitOn runs one interactive wait: the blocked pair, the race between
// the renderer, the deadline and the caller's abort, and the outcome
// event.
func waitOn[R any](a *Asker, ctx context.Context, callID string, total time.Duration, spec waitSpec[R]) (res R) {
	a.emit(Event{Name: EventBlocked, CallID: callID, Active: true})
	sent := false
	defer func() {
		if p := recover(); p != nil {
			res = spec.internal(fmt.Sprintf("ask: internal failure: %v", p))
		}
		if !sent {
			a.emit(spec.event(res))
		}
		a.emit(Event{Name: EventBlocked, CallID: callID, Active: false})
	}()

	rctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	w := newWaiter(total, cancel)
	cd := &Countdown{impl: countdown{w}}
	open := spec.opening
	open.CallID = callID
	open.Deadline, _ = cd.Deadline()
	a.opened(open)
	stop := context.AfterFunc(ctx, func() {
		w.settle(settlement{kind: byAbort, err: fmt.Errorf("%w: %w", ErrAborted, context.Cause(ctx))})
	})
	defer stop()
	if !w.isSettled() {
		go render(rctx, cd, spec.render, w)
	}
	<-w.done

	res = spec.settled(w.result)
	a.emit(spec.event(res))
	sent = true
	return res
}

// render runs a renderer and settles the wait with what it returns,
// turning a panic into an error.
func render(ctx context.Context, cd *Countdown, run func(context.Context, *Countdown) settlement, w *waiter) {
	var st settlement
	func() {
		defer func() {
			if p := recover(); p != nil {
				st = settlement{err: panicError{p}, panicked: true}
			}
		}()
		st = run(ctx, cd)
	}()
	st.kind = byRenderer
	// A host dialog that gives up at the deadline, with an error or as a
	// dismissal, and an answer that comes a moment too late can arrive
	// before the core's timer fires: settle decides by the deadline.
	w.settle(st)
}

// settled turns the first settlement of a wait into the call's result.
func settled(st settlement, route contract.Route, req *contract.Request) contract.Result {
	switch st.kind {
	case byTimeout:
		return contract.Result{Status: contract.StatusTimeout, Route: route, Answers: []contract.Answer{}}
	case byAbort:
		return aborted(route, contract.CancelAbort)
	}
	if st.panicked {
		return failed(route, fmt.Sprintf("%s panicked: %v", routeName(route), st.err.(panicError).value))
	}
	var unanswered *UnansweredError
	if errors.As(st.err, &unanswered) {
		res := contract.ErrorResult(contract.ErrEmptyAnswer, unanswered.Reason)
		res.Route = route
		return res
	}
	if st.err != nil {
		return failed(route, fmt.Sprintf("%s failed: %v", routeName(route), st.err))
	}
	if st.outcome.Dismissed {
		return aborted(route, contract.CancelUser)
	}
	if code, err := checkAnswers(req, st.outcome.Answers); err != nil {
		res := contract.ErrorResult(code, fmt.Sprintf("%s returned answers that break the contract: %v", routeName(route), err))
		res.Route = route
		return res
	}
	return contract.Result{Status: contract.StatusAnswered, Route: route, Answers: st.outcome.Answers}
}

func aborted(route contract.Route, why contract.CancelReason) contract.Result {
	return contract.Result{Status: contract.StatusAborted, Route: route, Answers: []contract.Answer{}, CancelledReason: why}
}

func failed(route contract.Route, msg string) contract.Result {
	res := contract.ErrorResult(uiFailed(route), msg)
	res.Route = route
	return res
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

func invalidRequest(err error) contract.Result {
	return contract.InvalidRequestResult(err)
}

// emit hands e to the sink; a panicking sink cannot break the call.
func (a *Asker) emit(e Event) {
	if a.events == nil {
		return
	}
	defer func() { _ = recover() }()
	a.events.Event(e)
}

// recoverInternal turns a panic before the wait into an internal error.
func recoverInternal(res *contract.Result) {
	if p := recover(); p != nil {
		*res = contract.ErrorResult(contract.ErrInternal, fmt.Sprintf("ask: internal failure: %v", p))
	}
}
