package ask

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
)

// QuestionRenderer shows one AskUserQuestion request on one route and
// collects the answers. It follows the rules of Renderer: it returns when
// the user has submitted or dismissed the questions, or when ctx is done;
// the core does not wait for it, and an error means the UI failed.
type QuestionRenderer interface {
	RenderQuestions(ctx context.Context, s *QuestionSession) (QuestionOutcome, error)
}

// QuestionRendererFunc adapts a function to a QuestionRenderer.
type QuestionRendererFunc func(ctx context.Context, s *QuestionSession) (QuestionOutcome, error)

// RenderQuestions calls f(ctx, s).
func (f QuestionRendererFunc) RenderQuestions(ctx context.Context, s *QuestionSession) (QuestionOutcome, error) {
	return f(ctx, s)
}

// QuestionSession is what a QuestionRenderer gets for one call. It is
// read-only for the renderer, except through Countdown and Progress.
type QuestionSession struct {
	// Request is the validated request.
	Request *auq.Request
	// Display is the effective display mode of the custom route: the
	// user's, or overlay when they set none.
	Display contract.DisplayMode
	// Countdown is the shared deadline of this call.
	Countdown *Countdown
	// Call is the call as the caller described it, its Data included.
	Call Call
	// Notify is how the user wants to be told that a question is
	// waiting, as on Session.
	Notify NotifyPrefs

	progress *progress
}

// Progress passes m on to the caller's Call.Progress. It is safe for
// concurrent use; once the call has settled it does nothing, so no
// milestone follows the outcome.
func (s *QuestionSession) Progress(m auq.Milestone) {
	if s == nil || s.progress == nil {
		return
	}
	s.progress.send(m)
}

// QuestionOutcome is what a QuestionRenderer reports when the user has
// acted: Dismissed, or the submitted Result, whose Cancelled is false.
type QuestionOutcome struct {
	Dismissed bool
	Result    auq.Result
}

// AskQuestionsJSON is AskQuestions for a request in its JSON form,
// decoded strictly by auq.Parse.
func (a *Asker) AskQuestionsJSON(ctx context.Context, data []byte, call *Call) (out auq.Outcome) {
	defer recoverQuestions(&out)
	req, err := auq.Parse(data)
	if err != nil {
		return auq.InvalidRequestOutcome(err)
	}
	return a.askQuestions(ctx, req, call)
}

// AskQuestions asks an AskUserQuestion request on the host's route, with
// the host's QuestionRenderer for it (Capabilities.CustomQuestions or
// NativeQuestions), and waits until the user submits or dismisses it, the
// deadline passes, or ctx is done. It is Ask's counterpart for the second
// contract, with the same order of refusals, the same deadline (the
// user's timeout per question times the number of questions; the request
// has no timeout of its own) and the same events.
//
// The outcome is always an auq.Outcome, never a panic: a request that
// auq.Validate refuses is invalid_request; a host that cannot prompt
// gives its code; a ctx already done is StatusAborted before the route is
// consulted; a route without a QuestionRenderer is unsupported_mode.
// Nothing is shown and no event is emitted in these cases. A dismissal,
// a timeout and an abort are Cancelled results, told apart by Status. A
// submitted result that auq.CheckResult refuses is never passed on: it is
// an internal error. The result's metadata is the request's.
//
// The events are those of Ask: a submission is ask:answered, a dismissal
// ask:aborted with cancelledReason user, an abort ask:aborted with
// cancelledReason abort.
func (a *Asker) AskQuestions(ctx context.Context, req *auq.Request, call *Call) (out auq.Outcome) {
	defer recoverQuestions(&out)
	if req == nil {
		return auq.InvalidRequestOutcome(errors.New("the request is missing"))
	}
	if err := auq.Validate(req); err != nil {
		return auq.InvalidRequestOutcome(err)
	}
	return a.askQuestions(ctx, req, call)
}

func (a *Asker) askQuestions(ctx context.Context, req *auq.Request, call *Call) auq.Outcome {
	h := a.host
	if h == nil {
		return questionError("", contract.ErrNotInitialized, errNoHost.Error())
	}
	if h.route == "" {
		return questionError("", h.refusal.Code, h.refusal.Message)
	}
	if ctx == nil {
		return questionError("", contract.ErrInternal, "ask: nil context")
	}
	if ctx.Err() != nil {
		return questionsEnded(auq.StatusAborted, "", req)
	}
	r := h.questionRenderer(h.route)
	if r == nil {
		return questionError("", contract.ErrUnsupportedMode,
			fmt.Sprintf("%s of this host cannot show AskUserQuestion", routeName(h.route)))
	}
	display, perQuestion := h.prefs.ForRequest(nil)
	total, err := TotalTimeout(perQuestion, len(req.Questions))
	if err != nil {
		return questionError("", contract.ErrInternal, err.Error())
	}
	route := h.route
	s := &QuestionSession{Request: req, Display: display, Notify: h.prefs.Notify}
	if call != nil {
		s.Call = *call
		if call.Progress != nil {
			s.progress = &progress{to: call.Progress}
		}
	}
	callID := s.Call.ID
	return waitOn(a, ctx, callID, total, waitSpec[auq.Outcome]{
		opening: Opening{Tool: ToolAskUserQuestion, Route: route, Questions: len(req.Questions)},
		render: func(rctx context.Context, cd *Countdown) (st settlement) {
			s.Countdown = cd
			st.questions, st.err = r.RenderQuestions(rctx, s)
			return st
		},
		settled: func(st settlement) auq.Outcome {
			s.progress.stop()
			return questionsSettled(st, route, req)
		},
		internal: func(msg string) auq.Outcome {
			s.progress.stop()
			return questionError(route, contract.ErrInternal, msg)
		},
		event: func(out auq.Outcome) Event { return questionEvent(callID, out) },
	})
}

// questionsSettled turns the first settlement of a wait into the outcome.
func questionsSettled(st settlement, route contract.Route, req *auq.Request) auq.Outcome {
	switch st.kind {
	case byTimeout:
		return questionsEnded(auq.StatusTimeout, route, req)
	case byAbort:
		return questionsEnded(auq.StatusAborted, route, req)
	}
	if st.panicked {
		return questionError(route, uiFailed(route), fmt.Sprintf("%s panicked: %v", routeName(route), st.err.(panicError).value))
	}
	if st.err != nil {
		return questionError(route, uiFailed(route), fmt.Sprintf("%s failed: %v", routeName(route), st.err))
	}
	if st.questions.Dismissed {
		return questionsEnded(auq.StatusDismissed, route, req)
	}
	res := st.questions.Result
	res.Cancelled = false
	res.Metadata = req.ResultMetadata()
	if err := auq.CheckResult(req, res); err != nil {
		return questionError(route, contract.ErrInternal,
			fmt.Sprintf("%s returned answers that break the contract: %v", routeName(route), err))
	}
	return auq.Outcome{Status: auq.StatusSubmitted, Route: string(route), Result: res}
}

// questionsEnded is the outcome of a call that ended without answers.
func questionsEnded(status auq.Status, route contract.Route, req *auq.Request) auq.Outcome {
	return auq.Outcome{Status: status, Route: string(route), Result: auq.Result{Cancelled: true, Metadata: req.ResultMetadata()}}
}

func questionError(route contract.Route, code contract.ErrorCode, msg string) auq.Outcome {
	return auq.Outcome{Status: auq.StatusError, Route: string(route), Error: &auq.Error{Code: string(code), Message: msg}}
}

// questionEvent is the outcome event of a settled AskUserQuestion call.
func questionEvent(callID string, out auq.Outcome) Event {
	e := Event{CallID: callID, Route: contract.Route(out.Route)}
	switch out.Status {
	case auq.StatusSubmitted:
		e.Name, e.Status = EventAnswered, contract.StatusAnswered
	case auq.StatusDismissed:
		e.Name, e.Status, e.CancelledReason = EventAborted, contract.StatusAborted, contract.CancelUser
	case auq.StatusAborted:
		e.Name, e.Status, e.CancelledReason = EventAborted, contract.StatusAborted, contract.CancelAbort
	case auq.StatusTimeout:
		e.Name, e.Status = EventTimeout, contract.StatusTimeout
	default:
		e.Name, e.Status, e.ErrorCode = EventError, contract.StatusError, contract.ErrInternal
		if out.Error != nil {
			e.ErrorCode = contract.ErrorCode(out.Error.Code)
		}
	}
	return e
}

// recoverQuestions turns a panic before the wait into an internal error.
func recoverQuestions(out *auq.Outcome) {
	if p := recover(); p != nil {
		*out = questionError("", contract.ErrInternal, fmt.Sprintf("ask: internal failure: %v", p))
	}
}

// progress forwards milestones until the call settles. A panic in the
// caller's function is recovered and ignored.
type progress struct {
	mu      sync.Mutex
	to      func(auq.Milestone)
	stopped bool
}

func (p *progress) send(m auq.Milestone) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	defer func() { _ = recover() }()
	p.to(m)
}

func (p *progress) stop() {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.stopped = true
	p.mu.Unlock()
}
