package pibridge

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/program"
	"github.com/askuser/askuser/internal/safetext"
	"github.com/askuser/askuser/internal/strictjson"
	"github.com/askuser/askuser/prefs"
)

// hubCloseWait bounds how long a call that settled waits for its
// question to be closed on the hub before its result is sent.
const hubCloseWait = 2 * time.Second

// The Pi session's surfaces, as the hub's other surfaces and the model
// are told of them.
const (
	piLocal = "Pi's terminal"
	piAlone = "Pi without a terminal"
)

// piHub joins a Pi session to the user's hub: while a hub runs, each
// questionnaire is published there, tagged as Pi's, at the same moment
// as Pi shows it, and the first valid answer wins. Whether a hub runs is
// looked at for each call, so that a hub started after Pi is joined at
// the next call. A Pi with no dialog of its own (print mode, or RPC
// without a UI) waits for the hub alone when one runs at the hello.
//
// When the config names a remote hub and no hub runs, the session starts
// one that relays there (see program.EnsureHub) at its first call.
type piHub struct {
	getenv   func(string) string
	remote   *prefs.Remote    // the config's remote hub; nil for none
	tell     func(msg string) // shows the person a notice in Pi
	told     sync.Once        // that the hub cannot be reached, said once a session
	warned   sync.Once        // that the hub relays elsewhere, said once a session
	headless bool             // the session has no route but the hub

	mu      sync.Mutex
	answers map[string]hub.Answer // by call id, the answers the hub won
}

// newPiHub returns the hub side of a session whose preferences are
// eff, or nil when the person turned the hub off. tell shows the person
// a notice: that a hub runs but cannot be reached, once a session, and
// that a server on the hub's port was refused as not the hub.
func newPiHub(eff prefs.Effective, getenv func(string) string, tell func(string)) *piHub {
	if eff.Hub == prefs.HubOff {
		return nil
	}
	return &piHub{getenv: getenv, remote: eff.HubRemote, tell: tell, answers: map[string]hub.Answer{}}
}

// hubStartWait bounds the start of a hub for the config's remote.
const hubStartWait = 6 * time.Second

// running reports whether a hub runs now. With a remote hub in the
// config it starts one when none runs; what keeps it from starting, and
// a hub that relays with another remote, are told once a session.
func (h *piHub) running() bool {
	if h.remote == nil {
		return hub.Running(h.getenv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hubStartWait)
	defer cancel()
	_, err := program.EnsureHub(ctx, h.getenv, h.remote, func(s string) {
		h.warned.Do(func() { h.tell("askuser: " + safetext.Line(s)) })
	})
	if err != nil {
		h.unreachable(err)
		return false
	}
	return true
}

// unreachable tells the person, the first time in the session, that the
// hub could not be reached and the question is asked in Pi only. A hub
// that stopped in the meantime is no news.
func (h *piHub) unreachable(err error) {
	if errors.Is(err, hub.ErrNoHub) {
		return
	}
	h.told.Do(func() {
		h.tell("askuser: the hub cannot be reached, so questions are asked in Pi only: " + safetext.Line(err.Error()))
	})
}

// join returns caps with each renderer racing the hub. A session with no
// renderer at all gets the hub alone, when a hub runs now.
func (h *piHub) join(caps ask.Capabilities) ask.Capabilities {
	if h == nil {
		return caps
	}
	if !caps.CanRun(contract.RouteCustom) && !caps.CanRun(contract.RouteNative) {
		if !h.running() {
			return caps
		}
		h.headless = true
		caps = ask.Bind(caps, contract.RouteCustom, ask.AskUser, viaHub(h, ask.AskUser, nil))
		caps = ask.Bind(caps, contract.RouteCustom, ask.AskUserQuestion, viaHub(h, ask.AskUserQuestion, nil))
		caps.CustomReason = ""
		return caps
	}
	caps = joinContract(h, caps, ask.AskUser)
	return joinContract(h, caps, ask.AskUserQuestion)
}

// joinContract returns caps with each renderer of contract c racing the
// hub.
func joinContract[Req, Ans, Res any](h *piHub, caps ask.Capabilities, c ask.Contract[Req, Ans, Res]) ask.Capabilities {
	for _, route := range []contract.Route{contract.RouteCustom, contract.RouteNative} {
		caps = ask.WrapBound(caps, route, c, func(r ask.Renderer[Req, Ans]) ask.Renderer[Req, Ans] { return viaHub(h, c, r) })
	}
	return caps
}

// link returns a link for one call, or nil when no hub runs and the call
// has a route of its own.
func (h *piHub) link() *hub.Link {
	if !h.headless && !h.running() {
		return nil
	}
	return hub.NewLink(&hub.LinkOptions{
		Dial: func(ctx context.Context) (*hub.Client, error) {
			return hub.Dial(ctx, &hub.DialOptions{Getenv: h.getenv, Name: "askuser pi",
				Log: func(s string) { h.tell("askuser: " + safetext.Line(s)) }})
		},
		Agent:       "Pi",
		Local:       piLocal,
		Answered:    h.won,
		Unreachable: h.unreachable,
	})
}

// closeLink waits, a short while, for the call's question to be closed
// on the hub, so that no other surface goes on showing it.
func closeLink(ctx context.Context, l *hub.Link) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), hubCloseWait)
	defer cancel()
	l.Close(cctx)
}

// viaHub returns a renderer of contract c that races local, nil for
// none, against the hub when a hub runs, on a link of its own.
func viaHub[Req, Ans, Res any](h *piHub, c ask.Contract[Req, Ans, Res], local ask.Renderer[Req, Ans]) ask.Renderer[Req, Ans] {
	return ask.RendererFunc[Req, Ans](func(ctx context.Context, s *ask.Session[Req]) (ask.Outcome[Ans], error) {
		l := h.link()
		if l == nil {
			return local.Render(ctx, s)
		}
		defer closeLink(ctx, l)
		joined := l.Join(ask.Bind(ask.Capabilities{}, contract.RouteCustom, c, local))
		return ask.Bound(joined, contract.RouteCustom, c).Render(ctx, s)
	})
}

// won records that the hub's answer a won the call callID.
func (h *piHub) won(callID string, a hub.Answer) {
	h.mu.Lock()
	h.answers[callID] = a
	h.mu.Unlock()
}

// note returns what the model is told about the hub once the call
// callID has settled: where the answer came from when the hub won it,
// and, for a session whose only route is the hub, that the questions
// waited there unanswered. "" for nothing.
func (h *piHub) note(callID string, answered bool) string {
	if h == nil {
		return ""
	}
	h.mu.Lock()
	a, won := h.answers[callID]
	delete(h.answers, callID)
	h.mu.Unlock()
	return strictjson.HubCall{Local: piLocal, Alone: piAlone, Only: h.headless,
		Won: won, Where: safetext.Line(a.Where()), Answered: answered}.Note()
}
