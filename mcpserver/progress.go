package mcpserver

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// progress reports, at a steady interval, that a call is waiting: for its
// turn, or for the user, with the time left. It sends nothing when the
// client gave no progress token. It also carries what the renderer tells
// the handler about the call.
//
// The numbers mean what they say, for a client that draws them as a bar:
// progress is the seconds since the call began, and total, while a
// deadline runs, the seconds from then to the deadline; with no deadline
// (or while waiting for another call) there is no total.
type progress struct {
	session  notifier // nil when the call has no session
	token    any
	interval time.Duration
	stopped  chan struct{}
	done     chan struct{}

	// sendMu is held across each notification, so that they go out in
	// the order of their counts, and none after stop.
	sendMu sync.Mutex

	mu        sync.Mutex
	start     time.Time // when the call began
	last      float64   // the progress last sent, which the next exceeds
	turn      bool      // waiting for another call to finish
	countdown *ask.Countdown
	action    string // the client's elicitation action
	stopOnce  sync.Once
}

// notifier sends progress notifications; *mcp.ServerSession is one.
type notifier interface {
	NotifyProgress(ctx context.Context, params *mcp.ProgressNotificationParams) error
}

func newProgress(req *mcp.CallToolRequest, interval time.Duration) *progress {
	p := &progress{token: req.Params.GetProgressToken(), interval: interval, start: time.Now(),
		stopped: make(chan struct{}), done: make(chan struct{})}
	if req.Session != nil {
		p.session = req.Session
	}
	if p.token == nil || p.session == nil {
		close(p.done)
		return p
	}
	go p.run()
	return p
}

func (p *progress) run() {
	defer close(p.done)
	t := time.NewTicker(p.interval)
	defer t.Stop()
	for {
		select {
		case <-p.stopped:
			return
		case <-t.C:
			p.send()
		}
	}
}

// quietProgress is a progress that sends nothing, for a call that does
// not wait.
func quietProgress() *progress {
	p := &progress{stopped: make(chan struct{}), done: make(chan struct{})}
	close(p.done)
	return p
}

// send sends one notification now, unless the progress has stopped.
func (p *progress) send() { p.sendSaying("") }

// milestone says at once that the call reached m, an AskUserQuestion
// milestone: the notification's message is the milestone's name, which
// holds nothing of the questions or the answers.
func (p *progress) milestone(m auq.Milestone) { p.sendSaying(string(m)) }

// sendSaying sends one notification with msg, or when msg is "" with
// what the call waits for, unless the progress has stopped.
func (p *progress) sendSaying(msg string) {
	if p.token == nil || p.session == nil {
		return
	}
	p.sendMu.Lock()
	defer p.sendMu.Unlock()
	select {
	case <-p.stopped:
		return
	default:
	}
	p.mu.Lock()
	n, total := p.numbersLocked(time.Now())
	if msg == "" {
		msg = p.messageLocked()
	}
	p.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), p.interval)
	defer cancel()
	_ = p.session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: p.token, Progress: n, Total: total, Message: msg})
}

// numbersLocked returns the progress and the total to send at now, in
// seconds to the millisecond: progress always above the last one sent, as
// the protocol asks, and total 0 (left out) when no deadline runs.
func (p *progress) numbersLocked(now time.Time) (progress, total float64) {
	ms := func(d time.Duration) float64 { return math.Round(d.Seconds()*1000) / 1000 }
	progress = ms(now.Sub(p.start))
	if progress <= p.last {
		progress = p.last + 0.001
	}
	p.last = progress
	if left, ok := p.countdown.Remaining(); ok && !p.turn {
		total = max(progress+ms(left), progress)
	}
	return progress, total
}

func (p *progress) messageLocked() string {
	if p.turn {
		return "waiting for another question to the user to finish before this one is shown"
	}
	if left, ok := p.countdown.Remaining(); ok {
		return fmt.Sprintf("waiting for the user, %d s left", int64(math.Ceil(left.Seconds())))
	}
	return "waiting for the user"
}

// waitingForTurn marks the call as queued behind another and says so at
// once.
func (p *progress) waitingForTurn() {
	p.mu.Lock()
	p.turn = true
	p.mu.Unlock()
	p.send()
}

// started records the countdown of the wait that has begun, and says at
// once that the call waits for the user.
func (p *progress) started(c *ask.Countdown) {
	p.mu.Lock()
	p.turn = false
	p.countdown = c
	p.mu.Unlock()
	p.send()
}

func (p *progress) setAction(a string) {
	p.mu.Lock()
	p.action = a
	p.mu.Unlock()
}

func (p *progress) elicitAction() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.action
}

// stop ends the notifications and waits until none is being sent; no
// notification is sent after it returns, so none follows the tool result.
func (p *progress) stop() {
	p.stopOnce.Do(func() { close(p.stopped) })
	p.sendMu.Lock()
	//lint:ignore SA2001 taking the lock waits for a send in flight
	p.sendMu.Unlock()
	<-p.done
}

// tracked wraps a route's renderer so that the call's progress learns the
// countdown of each wait, and the server knows which renders still run.
type tracked[Req, Ans any] struct {
	r       ask.Renderer[Req, Ans]
	running *pending
}

// Render implements ask.Renderer.
func (t tracked[Req, Ans]) Render(ctx context.Context, s *ask.Session[Req]) (ask.Outcome[Ans], error) {
	defer t.running.begin(s.Call.Data, s.Countdown)()
	return t.r.Render(ctx, s)
}

// begin counts a render that starts, with data, the call's data, and cd,
// its countdown, which the call's progress learns; the function it
// returns counts the render's end.
func (p *pending) begin(data any, cd *ask.Countdown) func() {
	p.add(1)
	if d, ok := data.(*callData); ok && d != nil && d.progress != nil {
		d.progress.started(cd)
	}
	return func() { p.add(-1) }
}
