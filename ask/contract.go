package ask

import (
	"github.com/askuser/askuser/contract"
)

// Contract is one tool's contract, which the core asks through: Req is
// its request, Ans what a Renderer reports for it, and Res the result a
// call returns. AskUser and AskUserQuestion are the two contracts of
// askuser; another contract implements this interface in a package of its
// own, and its hosts bind renderers for it with Bind. A contract whose
// questions the user's hub holds registers there once (Lookup); a View's
// kind likewise (LookupKind).
//
// The core calls the methods of a Contract from the caller's goroutine
// and from the renderer's; they must not block, and a panic in them is an
// internal error.
type Contract[Req, Ans, Res any] interface {
	// Tool is the tool's name, as Opening.Tool and messages name it.
	Tool() string
	// Parse decodes a request from its JSON form strictly and checks it,
	// as Check does.
	Parse(data []byte) (Req, []string, error)
	// Check checks a request and returns it normalized, as renderers are
	// shown it, with warnings for the caller (nil for none). An error
	// makes the call invalid_request.
	Check(req Req) (Req, []string, error)
	// Brief tells the core what it needs of a checked request.
	Brief(req Req) Brief
	// Verify checks what a renderer submitted against the request and
	// returns it as the caller is to receive it. A refusal is never
	// passed on: the call fails with code, empty_answer or internal.
	Verify(req Req, ans Ans) (Ans, contract.ErrorCode, error)
	// DecodeAnswer reads the answer that a submitted result of the
	// contract holds, in the result's JSON form, as the user's hub
	// stores an answer given there.
	DecodeAnswer(result []byte) (Ans, error)
	// Result is the result of a call on req (its zero value when the
	// request could not be read) that ended as end tells.
	Result(req Req, end End[Ans]) Res
}

// Brief is what the core needs to know of a request to open its wait.
type Brief struct {
	// Header is the questionnaire's heading, for Opening; "" for none.
	Header string
	// Questions is how many questions the request asks.
	Questions int
	// Display is the display mode the request asks for; "" for none.
	// The user's preference wins.
	Display contract.DisplayMode
	// TimeoutPerQuestionMs is the timeout the request asks for; nil for
	// none. The user's preference wins.
	TimeoutPerQuestionMs *int64
}

// Ending tells how a call ended.
type Ending int

// The endings of a call.
const (
	// EndAnswered: the user submitted an answer, End.Answer, that the
	// contract verified.
	EndAnswered Ending = iota + 1
	// EndDismissed: the user dismissed the questionnaire.
	EndDismissed
	// EndTimeout: the shared deadline passed.
	EndTimeout
	// EndAborted: the caller's context was done.
	EndAborted
	// EndFailed: the call failed with End.Code and End.Message.
	EndFailed
)

// End is how a call ended, for Contract.Result to turn into the call's
// result. The core emits the call's outcome event from it.
type End[Ans any] struct {
	// How is how the call ended.
	How Ending
	// Route is the route the call ran on, or was refused on; "" when it
	// ended before a route was consulted.
	Route contract.Route
	// Opened reports whether the call entered its wait, and so emitted
	// events; a call refused before it showed nothing.
	Opened bool
	// Answer is the verified answer when How is EndAnswered.
	Answer Ans
	// Code and Message are the error of an EndFailed call.
	Code    contract.ErrorCode
	Message string
	// Err is the request's error when Code is invalid_request, for the
	// contract to explain.
	Err error
	// Warnings are the warnings Check returned.
	Warnings []string
}

// event is the outcome event of a call that ended as e.
func (e End[Ans]) event(callID string) Event {
	ev := Event{CallID: callID, Route: e.Route}
	switch e.How {
	case EndAnswered:
		ev.Name, ev.Status = EventAnswered, contract.StatusAnswered
	case EndDismissed:
		ev.Name, ev.Status, ev.CancelledReason = EventAborted, contract.StatusAborted, contract.CancelUser
	case EndAborted:
		ev.Name, ev.Status, ev.CancelledReason = EventAborted, contract.StatusAborted, contract.CancelAbort
	case EndTimeout:
		ev.Name, ev.Status = EventTimeout, contract.StatusTimeout
	default:
		ev.Name, ev.Status, ev.ErrorCode = EventError, contract.StatusError, e.Code
		if ev.ErrorCode == "" {
			ev.ErrorCode = contract.ErrInternal
		}
	}
	return ev
}
