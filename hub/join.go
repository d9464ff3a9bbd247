package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/nats-io/nats.go/jetstream"
)

// claimTimeout bounds the asker's claim of a question it settled itself:
// a hub that went away must not hold up the local answer.
const claimTimeout = time.Second

// republishWait is how long a call with no local route waits before it
// tries again to publish its question to a hub that did not take it.
const republishWait = 250 * time.Millisecond

// LinkOptions configures NewLink. A nil *LinkOptions means the defaults.
type LinkOptions struct {
	// Dial is how the link reaches the hub; nil is Dial with no options.
	Dial func(ctx context.Context) (*Client, error)
	// Agent names the asking program in each question's tag.
	Agent string
	// Project and Machine tag each question; "" means the working
	// directory and the host name.
	Project, Machine string
	// Local names the host's own surface in the note a question gets
	// when it settles there, such as "the terminal of askuser ask".
	Local string
	// Unreachable is told, once per link, why the hub could not be
	// reached or written; the local route goes on without it. nil for
	// nothing.
	Unreachable func(err error)
	// Answered is told when an answer from the hub won a call, with the
	// call's id and the answer, before the call returns; nil for nothing.
	Answered func(callID string, a Answer)
	// Unanswered, when not "", is the note a question gets when its call
	// ends here unanswered, at its deadline or stopped by the asker, in
	// place of "timed out" and "stopped by the asking agent": such as a
	// hook's "handed back to claude-code's own prompt", when the asking
	// agent asks in its own prompt next.
	Unanswered string
}

// Link joins a host to the hub: every questionnaire asked through the
// renderers Join returns is published to the hub while the host's own
// renderer shows it, and the first valid answer wins. The connection is
// made at the first question; a dial that failed is tried again by a
// question asked redialAfter later, or by a question with no other
// route, which waits for the hub. A Link is safe for concurrent use.
type Link struct {
	opts LinkOptions

	dialMu   sync.Mutex // held while dialing: the link's calls share one dial
	client   *Client
	dialErr  error     // the last dial's, while client is nil
	dialedAt time.Time // when it failed
	told     sync.Once
	pending  sync.WaitGroup // questions still being closed on the hub
}

// NewLink returns a link that dials the hub when first needed.
func NewLink(opts *LinkOptions) *Link {
	l := &Link{}
	if opts != nil {
		l.opts = *opts
	}
	if l.opts.Dial == nil {
		l.opts.Dial = func(ctx context.Context) (*Client, error) { return Dial(ctx, nil) }
	}
	if l.opts.Project == "" {
		l.opts.Project, _ = os.Getwd()
	}
	if l.opts.Machine == "" {
		l.opts.Machine, _ = os.Hostname()
	}
	if l.opts.Local == "" {
		l.opts.Local = "the asking host"
	}
	if l.opts.Machine != "" {
		l.opts.Local += " on " + l.opts.Machine
	}
	return l
}

// Connect dials the hub now, if it has not been dialed, and returns the
// error of that one attempt.
func (l *Link) Connect(ctx context.Context) error {
	_, err := l.connect(ctx)
	return err
}

// redialAfter is how long a link that could not dial the hub answers
// with that failure before it dials again.
const redialAfter = 2 * time.Second

func (l *Link) connect(ctx context.Context) (*Client, error) {
	l.dialMu.Lock()
	defer l.dialMu.Unlock()
	if l.client != nil {
		return l.client, nil
	}
	if l.dialErr != nil && time.Since(l.dialedAt) < redialAfter {
		return nil, l.dialErr
	}
	l.client, l.dialErr = l.opts.Dial(ctx)
	if l.client != nil {
		l.dialErr = nil
	}
	l.dialedAt = time.Now()
	return l.client, l.dialErr
}

// unreachable tells the person, once, that the hub is out of reach.
func (l *Link) unreachable(err error) {
	l.told.Do(func() {
		if l.opts.Unreachable != nil {
			l.opts.Unreachable(err)
		}
	})
}

// Close waits, until ctx is done, for the questions of settled calls to
// be closed on the hub, then closes the connection.
func (l *Link) Close(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		l.pending.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
	l.dialMu.Lock()
	c := l.client
	l.dialMu.Unlock()
	if c != nil {
		c.Close()
	}
}

// Join returns caps with each renderer wrapped so that it races the hub.
// When caps has no renderer at all for a contract, as on a host with no
// terminal, Join binds a renderer of the custom route that waits for the
// hub alone; call Connect first, so that a host whose hub is out of
// reach is not offered a route.
func (l *Link) Join(caps ask.Capabilities) ask.Capabilities {
	caps = join(l, caps, ask.AskUser)
	return join(l, caps, ask.AskUserQuestion)
}

// join is Join for the renderers of contract c.
func join[Req, Ans, Res any](l *Link, caps ask.Capabilities, c ask.Contract[Req, Ans, Res]) ask.Capabilities {
	out := caps
	custom, native := ask.Bound(caps, contract.RouteCustom, c), ask.Bound(caps, contract.RouteNative, c)
	if custom != nil {
		out = ask.Bind(out, contract.RouteCustom, c, racing(l, c, custom))
	}
	if native != nil {
		out = ask.Bind(out, contract.RouteNative, c, racing(l, c, native))
	}
	if custom == nil && native == nil {
		out = ask.Bind(out, contract.RouteCustom, c, racing(l, c, nil))
		out.CustomReason = ""
	}
	return out
}

// racing returns a renderer of contract c that races local, when not
// nil, against the hub.
func racing[Req, Ans, Res any](l *Link, c ask.Contract[Req, Ans, Res], local ask.Renderer[Req, Ans]) ask.Renderer[Req, Ans] {
	return ask.RendererFunc[Req, Ans](func(ctx context.Context, s *ask.Session[Req]) (ask.Outcome[Ans], error) {
		req, err := json.Marshal(s.Request)
		if err != nil {
			return ask.Outcome[Ans]{}, err
		}
		var run func(context.Context) (ask.Outcome[Ans], error)
		if local != nil {
			run = func(ctx context.Context) (ask.Outcome[Ans], error) { return local.Render(ctx, s) }
		}
		return race(ctx, l, raceSpec[ask.Outcome[Ans]]{
			contract: c.Tool(), kind: s.Kind, wants: s.Summary.Wants, request: req, questions: c.Brief(s.Request).Questions,
			countdown: s.Countdown, callID: s.Call.ID, local: run,
			note:   func(o ask.Outcome[Ans]) string { return noteFor(o.Dismissed) },
			decode: func(a Answer) (ask.Outcome[Ans], error) { return Outcome(c, a) },
		})
	})
}

func noteFor(dismissed bool) string {
	if dismissed {
		return "dismissed"
	}
	return "answered"
}

// raceSpec is what one contract puts into a race.
type raceSpec[O any] struct {
	contract  string
	kind      string // the session's Kind
	wants     string // what its Summary says it wants
	request   json.RawMessage
	questions int
	countdown *ask.Countdown
	callID    string
	local     func(ctx context.Context) (O, error) // nil: the hub alone
	note      func(O) string
	decode    func(Answer) (O, error)
}

// ErrAnsweredElsewhere is the cause with which a host's own renderer is
// stopped when an answer from the hub won its call.
var ErrAnsweredElsewhere = errors.New("hub: the question was answered on another surface")

// race asks on the host's own renderer and on the hub at once and returns
// the first valid answer. The hub side never holds up the local one: it
// connects and publishes on its own goroutine, and a failure there is
// told once and leaves the local renderer alone.
func race[O any](ctx context.Context, l *Link, spec raceSpec[O]) (O, error) {
	var zero O
	var deadline *time.Time
	if d, ok := spec.countdown.Deadline(); ok {
		deadline = &d
	}
	h := l.side(spec.contract, spec.kind, spec.wants, spec.request, spec.questions, deadline)
	h.alone, h.countdown = spec.local == nil, spec.countdown
	hctx, hcancel := context.WithCancel(context.WithoutCancel(ctx))
	defer hcancel()
	l.pending.Add(1)
	go h.run(hctx)

	type localResult struct {
		o   O
		err error
	}
	locals := make(chan localResult, 1)
	lctx, lcancel := context.WithCancelCause(ctx)
	defer lcancel(nil)
	if spec.local != nil {
		go func() {
			o, err := spec.local(lctx)
			locals <- localResult{o, err}
		}()
	}
	for {
		select {
		case r := <-locals:
			if ctx.Err() != nil {
				// The renderer ended because the core settled the call.
				h.mark(l.closingNote(context.Cause(ctx)))
				return zero, context.Cause(ctx)
			}
			note := "the local dialog failed"
			if r.err == nil {
				note = spec.note(r.o)
			}
			if a, lost := h.settle(note); lost {
				if o, err := spec.decode(a); err == nil {
					l.answered(spec.callID, a)
					return o, nil
				}
			}
			return r.o, r.err
		case a := <-h.answers:
			o, err := spec.decode(a)
			if err != nil {
				return zero, fmt.Errorf("read the hub's answer: %w", err)
			}
			lcancel(ErrAnsweredElsewhere)
			l.answered(spec.callID, a)
			return o, nil
		case err := <-h.failed:
			if spec.local == nil {
				return zero, err
			}
		case <-ctx.Done():
			// The core settled the call (deadline, abort); the hub's
			// goroutine closes the question, and Link.Close waits for it.
			h.mark(l.closingNote(context.Cause(ctx)))
			return zero, context.Cause(ctx)
		}
	}
}

func (l *Link) answered(callID string, a Answer) {
	if l.opts.Answered != nil {
		l.opts.Answered(callID, a)
	}
}

func (l *Link) closingNote(cause error) string {
	switch {
	case l.opts.Unanswered != "":
		return l.opts.Unanswered
	case errors.Is(cause, ask.ErrTimeout):
		return "timed out"
	case errors.Is(cause, ask.ErrAborted):
		return "stopped by the asking agent"
	}
	return "ended"
}

// side returns the hub's side of a new question: the questionnaire
// request of contract, of kind kind wanting wants (Tag.Wants), with
// questions questions, waiting until deadline (nil for none), tagged with
// the link's agent.
func (l *Link) side(contract, kind, wants string, request json.RawMessage, questions int, deadline *time.Time) *hubSide {
	q := &Question{
		ID:      newID(),
		Status:  "waiting",
		Created: time.Now().UTC(),
		Request: request,
		Tag: Tag{
			Agent: l.opts.Agent, Project: l.opts.Project, Machine: l.opts.Machine,
			Contract: contract, Kind: kind, Wants: wants, Questions: questions,
		},
	}
	if deadline != nil {
		d := deadline.UTC()
		q.Tag.Deadline = &d
	}
	return &hubSide{l: l, q: q, answers: make(chan Answer, 1), failed: make(chan error, 1), published: make(chan struct{})}
}

// hubSide is the hub's half of one race, or of one offer.
type hubSide struct {
	l       *Link
	q       *Question
	answers chan Answer // the answer that won on the hub
	failed  chan error  // the hub could not be used
	alone   bool        // the call has no local route

	countdown *ask.Countdown // the call's; nil for none

	published     chan struct{} // closed once the publication succeeded or failed
	publishedOnce sync.Once

	mu      sync.Mutex
	client  *Client // set once the question is published
	settled string  // the local note, once the call settled here
	claimed bool    // the question was claimed with it
}

// run connects, publishes and waits for an answer from the hub, until ctx
// is cancelled. A call that settled locally while it connected gets its
// question closed as soon as it is published.
func (h *hubSide) run(ctx context.Context) {
	defer h.l.pending.Done()
	defer h.donePublishing()
	c, err := h.l.connect(ctx)
	for err != nil {
		// A dial that failed, as one may while many agents connect at
		// once, is tried again when the hub runs and is the only route.
		if !h.again(ctx, err, errors.Is(err, ErrNoHub)) {
			return
		}
		c, err = h.l.connect(ctx)
	}
	// The question is dated when it is published, not when it was asked:
	// a list that reads the store's newest first finds them where their
	// dates say, however long the dial took.
	h.mu.Lock()
	h.q.Created = time.Now().UTC()
	if c.seal != nil {
		if err := c.seal.prepare(h.q); err != nil {
			h.mu.Unlock()
			h.again(ctx, err, true)
			return
		}
	}
	q := *h.q
	h.mu.Unlock()
	for {
		pctx, cancel := context.WithTimeout(ctx, c.timeout)
		err = c.publish(pctx, q)
		cancel()
		// A question already there was stored by an attempt whose
		// acknowledgement was lost.
		if err == nil || errors.Is(err, jetstream.ErrKeyExists) {
			break
		}
		// A hub that restarts is waited for, when it is the only route.
		if !h.again(ctx, err, false) {
			return
		}
	}
	h.mu.Lock()
	h.client = c
	note := h.settled
	h.mu.Unlock()
	h.donePublishing()
	if note != "" {
		h.close(c, note)
		return
	}
	a, err := c.await(ctx, h.q, h.countdown.Stopped(), h.follow, h.stopped)
	if err == nil && (a.Status == StatusAnswered || a.Status == StatusDismissed) {
		h.answers <- a
		_ = c.questions.Delete(context.WithoutCancel(ctx), h.q.ID)
		return
	}
	// The call settled without the hub; close the question unless
	// settle did.
	h.mu.Lock()
	note, claimed := h.settled, h.claimed
	h.mu.Unlock()
	if note != "" && !claimed {
		h.close(c, note)
	}
}

// again tells the person once that the hub could not be used (err) and
// reports whether to try again: only when the hub is the call's only
// route and err is not final, after republishWait, within ctx. Otherwise
// the call is told the hub failed.
func (h *hubSide) again(ctx context.Context, err error, final bool) bool {
	h.l.unreachable(err)
	if !h.alone || final {
		h.failed <- err
		return false
	}
	select {
	case <-ctx.Done():
		return false
	case <-time.After(republishWait):
		return true
	}
}

func (h *hubSide) donePublishing() {
	h.publishedOnce.Do(func() { close(h.published) })
}

// follow follows the asker's countdown: once the person stopped it
// (Alt+Q), the question on the hub loses its deadline too, so that it
// neither expires nor refuses answers as late while its asker still
// waits. A store that failed is tried again at the next periodic look.
func (h *hubSide) follow(ctx context.Context) {
	if h.countdown == nil {
		return
	}
	h.mu.Lock()
	q := *h.q
	h.mu.Unlock()
	if q.Tag.Deadline == nil {
		return
	}
	if _, ok := h.countdown.Deadline(); ok {
		return
	}
	h.mu.Lock()
	c := h.client
	h.mu.Unlock()
	if c != nil && c.keepWaiting(ctx, q) == nil {
		h.mu.Lock()
		h.q.Tag.Deadline = nil
		h.mu.Unlock()
	}
}

// stopped follows a surface of the hub that stopped the question's
// countdown (StopCountdown): the asker's countdown stops too, so that
// the call waits until it is answered there or elsewhere.
func (h *hubSide) stopped(ctx context.Context) {
	if h.countdown == nil || h.deadline() == nil {
		return
	}
	h.mu.Lock()
	c := h.client
	h.mu.Unlock()
	if c == nil || !c.stopped(ctx, h.q.ID) {
		return
	}
	h.countdown.Cancel()
	h.mu.Lock()
	h.q.Tag.Deadline = nil
	h.mu.Unlock()
}

// deadline returns the question's deadline, nil once the countdown was
// stopped.
func (h *hubSide) deadline() *time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.q.Tag.Deadline
}

// mark records that the call settled here with note, for run to close
// the question with.
func (h *hubSide) mark(note string) {
	h.mu.Lock()
	if h.settled == "" {
		h.settled = note
	}
	h.mu.Unlock()
}

// settle records that the call settled here with note. It claims the
// question on the hub, so that no answer there can win after it, and
// reports the hub's answer when one won first. A hub out of reach
// loses nothing: the local settlement stands.
func (h *hubSide) settle(note string) (Answer, bool) {
	// A question being published can be answered on the hub as soon as
	// it is stored: wait for the publication, so that the claim below
	// decides between both answers. A hub too slow for that loses.
	t := time.NewTimer(claimTimeout)
	select {
	case <-h.published:
	case <-t.C:
	}
	t.Stop()
	h.mu.Lock()
	c := h.client
	if h.settled == "" {
		h.settled = note
	}
	h.claimed = c != nil
	h.mu.Unlock()
	if c == nil {
		return Answer{}, false // run closes it once published, if ever
	}
	ctx, cancel := context.WithTimeout(context.Background(), claimTimeout)
	defer cancel()
	won, prior, err := c.claim(ctx, h.q, h.closing(note), h.deadline())
	if err != nil || won {
		_ = c.questions.Delete(ctx, h.q.ID)
		return Answer{}, false
	}
	if prior.Status == StatusDismissed {
		return prior, true
	}
	if prior.Status == StatusAnswered {
		if _, err := checkAnswer(h.q, prior.Result); err == nil {
			return prior, true
		}
	}
	return Answer{}, false
}

// close claims the question with a closing note and removes it.
func (h *hubSide) close(c *Client, note string) {
	ctx, cancel := context.WithTimeout(context.Background(), claimTimeout)
	defer cancel()
	_, _, _ = c.claim(ctx, h.q, h.closing(note), h.deadline())
	_ = c.questions.Delete(ctx, h.q.ID)
}

func (h *hubSide) closing(note string) Answer {
	return Answer{ID: h.q.ID, Status: StatusClosed, By: h.l.opts.Local, Note: note, At: time.Now().UTC()}
}
