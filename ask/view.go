package ask

import (
	"context"
	"fmt"

	"github.com/askuser/askuser/contract"
)

// The kinds of questionnaire, as Session.Kind names them.
const (
	// KindQuestion is a question an agent asks: the default.
	KindQuestion = ""
	// KindApproval is an agent asking leave to act, such as to run a
	// command: every surface marks it as one.
	KindApproval = "approval"
)

// View shows the requests of one contract as the requests of another,
// whose renderers a host binds already: an approval is shown as an
// AskUserQuestion questionnaire, so that every dialog, the hub and its
// page show it without code of their own. Req and Ans are the viewed
// contract's, VReq and VAns the shown one's.
//
// The methods must not block; a panic in them is an internal error.
type View[Req, Ans, VReq, VAns any] interface {
	// Kind is the kind of questionnaire the view shows, KindQuestion or
	// KindApproval, for the surfaces that mark it.
	Kind() string
	// Show returns the request the shown contract's renderers draw for
	// req, a request the viewed contract checked.
	Show(req Req) (VReq, error)
	// Read turns what the shown contract's renderer submitted for the
	// request Show made back into the answer of req. An error refuses it:
	// the call fails, and nothing is invented in its place.
	Read(req Req, shown VReq, ans VAns) (Ans, error)
	// Summary says in a few words what req asks, for the surfaces that
	// mark its kind; the zero Summary for none.
	Summary(req Req) Summary
}

// QuestionView gives a View whose requests are questions an agent asks
// its Kind, KindQuestion, and its Summary, none: embed it.
type QuestionView[Req any] struct{}

// Kind returns KindQuestion.
func (QuestionView[Req]) Kind() string { return KindQuestion }

// Summary returns the zero Summary.
func (QuestionView[Req]) Summary(Req) Summary { return Summary{} }

// Summary says in a few words what a request shown through a View asks,
// for a heading, a list's row or a push, so that no surface reads it
// back from the shown questionnaire's text. Its texts are the asker's:
// escape them for a terminal.
type Summary struct {
	// Agent is who asks, in the request's own words: "codex"; "" for
	// none.
	Agent string
	// Wants is what it wants to do: "run a command"; "" for none.
	Wants string
}

// BindView binds, on each route where contract shown has a renderer in
// caps, a renderer of contract c that draws c's requests through v with
// that renderer. Bind shown's renderers (and join them to the hub)
// first: what c gets is whatever they do. A route where c has a renderer
// of its own already keeps it.
//
// What the shown renderer submits is checked by the shown contract's
// Verify before v reads it, as a call of the shown contract would be.
func BindView[Req, Ans, Res, VReq, VAns, VRes any](caps Capabilities, c Contract[Req, Ans, Res], shown Contract[VReq, VAns, VRes], v View[Req, Ans, VReq, VAns]) Capabilities {
	for _, route := range []contract.Route{contract.RouteCustom, contract.RouteNative} {
		r := Bound(caps, route, shown)
		if r == nil || Bound(caps, route, c) != nil {
			continue
		}
		caps = Bind(caps, route, c, viewed(shown, v, r))
	}
	return caps
}

// viewed is the renderer of the viewed contract that BindView binds: it
// hands r a session of the shown request that shares s's countdown,
// call and progress.
func viewed[Req, Ans, VReq, VAns, VRes any](shown Contract[VReq, VAns, VRes], v View[Req, Ans, VReq, VAns], r Renderer[VReq, VAns]) Renderer[Req, Ans] {
	return RendererFunc[Req, Ans](func(ctx context.Context, s *Session[Req]) (Outcome[Ans], error) {
		req, err := v.Show(s.Request)
		if err != nil {
			return Outcome[Ans]{}, fmt.Errorf("the request cannot be shown as %s: %w", shown.Tool(), err)
		}
		req, _, err = shown.Check(req)
		if err != nil {
			return Outcome[Ans]{}, fmt.Errorf("the request, shown as %s, breaks its rules: %w", shown.Tool(), err)
		}
		vs := &Session[VReq]{
			Request: req, Display: s.Display, ToggleKey: s.ToggleKey, Countdown: s.Countdown,
			Call: s.Call, Notify: s.Notify, Kind: v.Kind(), Summary: v.Summary(s.Request), progress: s.progress,
		}
		out, err := r.Render(ctx, vs)
		if err != nil || out.Dismissed {
			return Outcome[Ans]{Dismissed: out.Dismissed}, err
		}
		got, _, err := shown.Verify(req, out.Answer)
		if err != nil {
			return Outcome[Ans]{}, fmt.Errorf("the answer given as %s does not fit its request: %w", shown.Tool(), err)
		}
		ans, err := v.Read(s.Request, req, got)
		if err != nil {
			return Outcome[Ans]{}, fmt.Errorf("the answer given as %s cannot be read back: %w", shown.Tool(), err)
		}
		return Outcome[Ans]{Answer: ans}, nil
	})
}
