package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/safetext"
	"github.com/askuser/askuser/internal/strictjson"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hubConnectWait bounds the first connection of a session that has no
// route but the hub: a hub that does not answer by then is not offered.
const hubConnectWait = 3 * time.Second

// hubCloseWait bounds how long a session that ended waits for its
// questions to be closed on the hub.
const hubCloseWait = 2 * time.Second

// HubOptions joins every session of a server to the user's hub: each
// questionnaire is published there, tagged with the MCP client's name,
// while the session's own route (the client's form, the popup) shows it,
// and the first valid answer wins. A session that has no route of its
// own waits for the hub alone. Clients of protocol 2026-07-28 and later
// whose route is their own form hold no call in flight while the form is
// out, so nothing can end it: their questionnaires are offered on the
// hub as the form goes out, and an answer given there wins when the
// client calls again with the form's.
type HubOptions struct {
	// Dial reaches the hub. An error wrapping hub.ErrNoHub means that no
	// hub runs: the session is then not joined, and nothing is said.
	Dial func(ctx context.Context) (*hub.Client, error)
	// Running reports whether a hub runs for the user, without dialing
	// it; a session whose first call finds none is not joined. nil means
	// one runs.
	Running func() bool
	// Project tags the questions; "" means the working directory.
	Project string
	// Unreachable is told, once per server, why the hub could not be
	// reached, and whether the hub is the only route of the session
	// that found out (alone): a question asked there waits for the hub
	// to come back within its deadline, and a new one cannot be asked
	// until it is back. Otherwise the session's own route goes on
	// without it. nil for nothing.
	Unreachable func(err error, alone bool)
}

// sessionHub is the hub's side of one session.
type sessionHub struct {
	link     *hub.Link
	local    string // the session's own surface, for the model
	client   string // "The MCP client NAME", for the model
	headless bool   // the hub is the session's only route

	// offering: the session's forms go out as InputRequests, which hold
	// no call in flight that the hub's answer could end; each
	// questionnaire is offered on the hub instead, and an answer given
	// there is taken when the client calls again.
	offering bool

	mu      sync.Mutex
	answers map[string]hub.Answer   // by call id, the answers the hub won
	unshown map[string]bool         // by call id, the calls whose form the client could not show
	offers  map[string]*hub.Offered // by call id, the questions offered while their forms are out
}

// joinHub joins caps, the capabilities of a session's host, to the hub
// when the server has one and the session can use it. It returns the
// capabilities to build the host with and the session's hub side, nil
// when it is not joined. A session whose forms go out as InputRequests
// keeps its capabilities: its questionnaires are offered on the hub as
// their forms go out (sessionHub.offer).
func (s *Server) joinHub(req *mcp.CallToolRequest, caps ask.Capabilities, modern bool) (ask.Capabilities, *sessionHub) {
	o := s.opts.Hub
	if o == nil || o.Dial == nil || (o.Running != nil && !o.Running()) {
		return caps, nil
	}
	route, _ := ask.NewHost(caps, &s.opts.Host).Route()
	sh := &sessionHub{answers: map[string]hub.Answer{}, unshown: map[string]bool{}, offers: map[string]*hub.Offered{},
		offering: route == contract.RouteNative && modern}
	client := clientName(req)
	agent := client
	if agent == "" {
		agent = "an MCP client"
	}
	sh.client = strings.TrimSpace("The MCP client " + client)
	switch route {
	case contract.RouteNative:
		sh.local = "the form of " + agent
	case contract.RouteCustom:
		sh.local = "the askuser popup"
	default:
		sh.headless = true
		sh.local = sh.client
	}
	sh.link = hub.NewLink(&hub.LinkOptions{
		Dial:        o.Dial,
		Agent:       agent,
		Project:     o.Project,
		Local:       "askuser mcp for " + agent,
		Unreachable: func(err error) { s.hubUnreachable(err, sh.headless) },
		Answered:    sh.won,
	})
	if sh.offering {
		return caps, sh
	}
	// A client that declares forms but cannot show one, as a client
	// run without a terminal may, leaves the hub to answer.
	caps = ask.WrapBound(caps, contract.RouteNative, ask.AskUser, fallback[*contract.Request, []contract.Answer](sh))
	caps = ask.WrapBound(caps, contract.RouteNative, ask.AskUserQuestion, fallback[*auq.Request, auq.Result](sh))
	if sh.headless && !s.connectAlone(sh) {
		return caps, nil
	}
	// Join binds the hub alone to a contract with no renderer: only the
	// served contract's renderers are taken, so that the other gives the
	// host no route.
	joined := sh.link.Join(caps)
	if s.opts.Tool == auq.ToolName {
		return joinServed(caps, joined, ask.AskUserQuestion, sh.headless, s.running), sh
	}
	return joinServed(caps, joined, ask.AskUser, sh.headless, s.running), sh
}

// connectAlone connects sh's link for a session whose only route is the
// hub, and reports whether it is reached: a hub that does not answer
// within hubConnectWait is not offered.
func (s *Server) connectAlone(sh *sessionHub) bool {
	ctx, cancel := context.WithTimeout(context.Background(), hubConnectWait)
	err := sh.link.Connect(ctx)
	cancel()
	if err != nil && !errors.Is(err, hub.ErrNoHub) {
		s.hubUnreachable(err, true)
	}
	return err == nil
}

// joinServed returns caps with the renderers of contract c, the one the
// server serves, taken from joined. When the hub is the session's only
// route (headless), its wait reports progress as the other routes' do.
func joinServed[Req, Ans, Res any](caps, joined ask.Capabilities, c ask.Contract[Req, Ans, Res], headless bool, running *pending) ask.Capabilities {
	for _, route := range []contract.Route{contract.RouteCustom, contract.RouteNative} {
		caps = ask.Bind(caps, route, c, ask.Bound(joined, route, c))
	}
	if headless {
		caps.CustomReason = ""
		caps = ask.WrapBound(caps, contract.RouteCustom, c, func(r ask.Renderer[Req, Ans]) ask.Renderer[Req, Ans] {
			return tracked[Req, Ans]{r, running}
		})
	}
	return caps
}

// hubUnreachable tells the server's Unreachable, once, why the hub could
// not be reached. That no hub runs is no news.
func (s *Server) hubUnreachable(err error, alone bool) {
	if errors.Is(err, hub.ErrNoHub) || s.opts.Hub.Unreachable == nil {
		return
	}
	s.hubTold.Do(func() { s.opts.Hub.Unreachable(err, alone) })
}

// clientName names the session's client as its initialize request did:
// its name and version, or "" when it gave none.
func clientName(req *mcp.CallToolRequest) string {
	var name string
	if req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
			name = strings.TrimSpace(p.ClientInfo.Name + " " + p.ClientInfo.Version)
		}
	}
	return safetext.Line(name)
}

// won records that the hub's answer a won the call callID.
func (sh *sessionHub) won(callID string, a hub.Answer) {
	sh.mu.Lock()
	sh.answers[callID] = a
	sh.mu.Unlock()
}

// callID returns a new id for a call of a joined session, under which
// the hub's answer is recorded, or "" for a session that is not joined.
func (sh *sessionHub) callID() string {
	if sh == nil {
		return ""
	}
	return rand.Text()
}

// note returns what the model is told about the hub after the call id
// settled with status: where the answer came from when the hub won, and,
// for a session whose only route is the hub, that the questions waited
// there. "" for nothing.
func (sh *sessionHub) note(id string, answered bool) string {
	if sh == nil || id == "" {
		return ""
	}
	sh.mu.Lock()
	a, won := sh.answers[id]
	delete(sh.answers, id)
	unshown := sh.unshown[id]
	delete(sh.unshown, id)
	sh.mu.Unlock()
	return strictjson.HubCall{Local: sh.local, Alone: sh.client, Only: sh.headless || unshown,
		Won: won, Where: safetext.Line(a.Where()), Answered: answered}.Note()
}

// formNotShown is the error of a form that the client dismissed sooner
// than anyone could read it: most likely it could not show it.
type formNotShown struct{ error }

func (e formNotShown) Unwrap() error { return e.error }

// waitInstead reports whether the call whose form failed with err waits
// for the hub instead: when the client could not show the form and the
// hub is reached. It records the call as one whose form was not shown.
func (sh *sessionHub) waitInstead(ctx context.Context, id string, err error) bool {
	var fns formNotShown
	if !errors.As(err, &fns) || sh.link.Connect(ctx) != nil {
		return false
	}
	sh.mu.Lock()
	sh.unshown[id] = true
	sh.mu.Unlock()
	return true
}

// hubFallback is the client's form of a joined session: a form the
// client could not show leaves the call to the hub, until it answers or
// the call settles.
type hubFallback[Req, Ans any] struct {
	r  ask.Renderer[Req, Ans]
	sh *sessionHub
}

// fallback returns the function that wraps a renderer in a hubFallback
// of sh.
func fallback[Req, Ans any](sh *sessionHub) func(ask.Renderer[Req, Ans]) ask.Renderer[Req, Ans] {
	return func(r ask.Renderer[Req, Ans]) ask.Renderer[Req, Ans] { return hubFallback[Req, Ans]{r, sh} }
}

// Render implements ask.Renderer.
func (f hubFallback[Req, Ans]) Render(ctx context.Context, s *ask.Session[Req]) (ask.Outcome[Ans], error) {
	o, err := f.r.Render(ctx, s)
	if err != nil && f.sh.waitInstead(ctx, s.Call.ID, err) {
		<-ctx.Done()
	}
	return o, err
}

// maxOffers bounds the questions a session offers at one time: a form
// past it goes out without the hub.
const maxOffers = 256

// offer offers the questionnaire q of call, a request of the contract
// name, with questions questions, on the hub as its form goes out as
// InputRequests, to wait total (0 for no deadline).
// It does nothing for a session that does not offer.
func (sh *sessionHub) offer(call, name string, q any, questions int, total time.Duration) {
	if sh == nil || !sh.offering {
		return
	}
	req, err := json.Marshal(q)
	if err != nil {
		return
	}
	var deadline *time.Time
	if total > 0 {
		d := time.Now().Add(total)
		deadline = &d
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if len(sh.offers) < maxOffers && sh.offers[call] == nil {
		sh.offers[call] = sh.link.Offer(name, req, questions, deadline)
	}
}

// settleOffer settles the offer of call, the client having answered its
// form with note ("answered", "dismissed", "timed out"), and returns
// the answer given on the hub when one came first. The model is then
// told where it came from (note).
func (sh *sessionHub) settleOffer(call, note string) (hub.Answer, bool) {
	if sh == nil {
		return hub.Answer{}, false
	}
	sh.mu.Lock()
	o := sh.offers[call]
	delete(sh.offers, call)
	sh.mu.Unlock()
	if o == nil {
		return hub.Answer{}, false
	}
	a, won := o.Settle(note)
	if won {
		sh.won(call, a)
	}
	return a, won
}

// offerWon settles the offer of call of sh with note and, when an
// answer given on the hub came first, returns it as the renderer of
// contract c would. That answer is then the call's, and not the client's
// action: the hub's note says where it was answered or dismissed.
func offerWon[Req, Ans, Res any](sh *sessionHub, call, note string, c ask.Contract[Req, Ans, Res]) (ask.Outcome[Ans], bool) {
	a, won := sh.settleOffer(call, note)
	if !won {
		return ask.Outcome[Ans]{}, false
	}
	out, err := hub.Outcome(c, a)
	return out, err == nil
}

// formNote is the note a question offered on the hub closes with when
// the client's form settled it: dismissed, or answered, or failed (err).
func formNote(dismissed bool, err error) string {
	switch {
	case err != nil:
		return "the form failed"
	case dismissed:
		return "dismissed"
	}
	return "answered"
}

// close closes the session's link once the session has ended, and its
// questions still offered: their forms can no longer be answered.
func (sh *sessionHub) close() {
	if sh == nil {
		return
	}
	sh.mu.Lock()
	offers := slices.Collect(maps.Values(sh.offers))
	clear(sh.offers)
	sh.mu.Unlock()
	for _, o := range offers {
		o.Settle("ended: the MCP client went away")
	}
	ctx, cancel := context.WithTimeout(context.Background(), hubCloseWait)
	defer cancel()
	sh.link.Close(ctx)
}

// withNote adds note to the text of r and to its structured content's
// guidance, which carries the same text.
func withNote(r *mcp.CallToolResult, note string) *mcp.CallToolResult {
	if note == "" {
		return r
	}
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			tc.Text += note
			break
		}
	}
	switch sc := r.StructuredContent.(type) {
	case structured:
		sc.Guidance += note
		r.StructuredContent = sc
	case questionsStructured:
		sc.Guidance += note
		r.StructuredContent = sc
	}
	return r
}
