// Package ask is the core of askuser: it binds a questionnaire to a host,
// resolves the host's route once, owns the shared deadline, races the
// renderer against the deadline and the caller's abort, and reports each
// outcome as the contract's result and as content-free events.
//
// The core is generic over the tool contract (Contract): ask_user
// (AskUser) and AskUserQuestion (AskUserQuestion) run through one code
// path, and a host binds a Renderer per route and contract (Bind).
//
// The package is pure Go: it knows nothing of terminals, Pi or MCP. Hosts
// plug in through the Renderer interface.
package ask

import (
	"context"
	"time"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/prefs"
)

// Renderer shows one request of a contract on one route and collects the
// user's answer: Req is the contract's request and Ans what a renderer
// reports, as in Contract.
//
// Render returns when the user has answered or dismissed the
// questionnaire, or when ctx is done. The core does not wait for it: when
// the deadline passes or the caller aborts, the core settles at once,
// cancels ctx and discards whatever Render returns later. A returned error
// means the UI failed; the core reports it as custom_ui_failed or
// native_ui_failed, except an *UnansweredError, which is empty_answer. A
// panic in Render is recovered and reported the same way.
type Renderer[Req, Ans any] interface {
	Render(ctx context.Context, s *Session[Req]) (Outcome[Ans], error)
}

// UnansweredError is the error a Renderer returns when the user submitted
// the questionnaire without answering all of it and the renderer cannot
// ask for the rest. The core reports it as empty_answer, with Reason, which
// should name what is missing, as the message; the error carries no
// answers.
type UnansweredError struct {
	Reason string
}

// Error returns the reason.
func (e *UnansweredError) Error() string { return e.Reason }

// RendererFunc adapts a function to a Renderer.
type RendererFunc[Req, Ans any] func(ctx context.Context, s *Session[Req]) (Outcome[Ans], error)

// Render calls f(ctx, s).
func (f RendererFunc[Req, Ans]) Render(ctx context.Context, s *Session[Req]) (Outcome[Ans], error) {
	return f(ctx, s)
}

// Checker is implemented by a Renderer that can refuse a request before any
// UI is shown, for example native dialogs without a selector asked for an
// allowFreeText:false single question. A refusal is unsupported_mode and
// emits no events.
type Checker[Req any] interface {
	Check(req Req) error
}

// Session is what a Renderer gets for one call. It is read-only for the
// Renderer, except through Countdown and Progress.
type Session[Req any] struct {
	// Request is the checked, normalized request.
	Request Req
	// Display is the effective display mode of the custom route: the
	// user's, else the request's, else overlay.
	Display contract.DisplayMode
	// ToggleKey is the overlay show/hide chord in canonical form, as
	// prefs.Effective.ToggleKey holds it, or "" when the toggle is
	// disabled. It applies to the overlay only.
	ToggleKey string
	// Countdown is the shared deadline of this call.
	Countdown *Countdown
	// Call is the call as the caller described it, its Data included.
	Call Call
	// Notify is how the user wants to be told that a question is
	// waiting, for a renderer that draws on a terminal; the zero value
	// tells nothing.
	Notify prefs.NotifyPrefs
	// Kind is what the questionnaire is, KindQuestion or KindApproval:
	// set by a View (BindView), for the surfaces that mark it.
	Kind string
	// Summary is what the View says the request asks, for the same.
	Summary Summary

	progress *progress
}

// Progress passes m on to the caller's Call.Progress. It is safe for
// concurrent use; once the call has settled it does nothing, so no
// milestone follows the outcome.
func (s *Session[Req]) Progress(m auq.Milestone) {
	if s == nil || s.progress == nil {
		return
	}
	s.progress.send(m)
}

// Outcome is what a Renderer reports when the user has acted: Dismissed,
// or the submitted Answer.
type Outcome[Ans any] struct {
	// Dismissed is true when the user dismissed the questionnaire.
	Dismissed bool
	// Answer is what the user submitted, when not Dismissed: for
	// ask_user one answer per question, in question order.
	Answer Ans
}

// Countdown is the shared deadline of one call, owned by the core. Its
// methods are safe for concurrent use.
type Countdown struct {
	impl countdownImpl
}

type countdownImpl interface {
	deadline() (time.Time, bool)
	cancel() bool
	stopped() <-chan struct{}
}

// Deadline returns when the call times out, and false when it has no
// deadline: the timeout is 0, or the countdown was cancelled.
func (c *Countdown) Deadline() (time.Time, bool) {
	if c == nil || c.impl == nil {
		return time.Time{}, false
	}
	return c.impl.deadline()
}

// Remaining returns the time left until the deadline, never negative, and
// false when there is no deadline.
func (c *Countdown) Remaining() (time.Duration, bool) {
	d, ok := c.Deadline()
	if !ok {
		return 0, false
	}
	return max(time.Until(d), 0), true
}

// Cancel stops the countdown for this call only: the call then waits until
// it is answered, dismissed or aborted. It is one-way. It reports false
// when there was no deadline to cancel or the deadline had already passed.
func (c *Countdown) Cancel() bool {
	if c == nil || c.impl == nil {
		return false
	}
	return c.impl.cancel()
}

// Stopped returns a channel that is closed once the countdown is
// cancelled (Cancel, or Alt+Q in the dialog). It is nil, and so never
// ready, when there is no deadline to cancel.
func (c *Countdown) Stopped() <-chan struct{} {
	if c == nil || c.impl == nil {
		return nil
	}
	return c.impl.stopped()
}
