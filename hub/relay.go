package hub

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Relay carries questions between the hub of this machine, local, and a
// remote hub, remote (see DialRemote), until ctx is done. It is how a
// hub joins a NATS server or cluster that the person's other machines
// reach:
//
//   - Every question asked on this machine also waits on the remote hub,
//     sealed to remote's recipients, with the same id and tag. An answer
//     or dismissal given there, sealed back by a recipient, is given
//     here, on behalf of whoever gave it; once the question closes here,
//     it is closed there.
//   - Every question of the remote hub that remote's key opens, asked on
//     another machine, also waits here, so that this machine's inbox,
//     web page, pushes and programs show it. An answer given here is
//     given there, sealed back to its asker; once the question closes
//     there, it is closed here.
//
// The hub of this machine keeps the content in the clear, in its user's
// private store; only sealed content leaves it. Exactly one answer wins
// on each hub; an answer given here to a question another machine
// answered on the remote hub at the same moment loses there, and said so
// to log. log receives a line for each failure; nil discards them.
func Relay(ctx context.Context, local, remote *Client, log func(string)) error {
	if log == nil {
		log = func(string) {}
	}
	if remote.seal == nil {
		return errors.New("relay: the remote hub's client must come from DialRemote, which seals")
	}
	r := &relay{local: local, remote: remote, log: log, forwarded: map[string]context.CancelCauseFunc{}, mirrored: map[string]bool{}}
	levents, err := local.Watch(ctx)
	if err != nil {
		return fmt.Errorf("relay: watch the hub of this machine: %w", err)
	}
	revents, err := remote.Watch(ctx)
	if err != nil {
		return fmt.Errorf("relay: watch the remote hub at %s: %w", remote.info.URL, err)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		for e := range levents {
			r.localEvent(ctx, &wg, e)
		}
	})
	for e := range revents {
		r.remoteEvent(ctx, &wg, e)
	}
	wg.Wait()
	return ctx.Err()
}

// relay is the state of one Relay: the questions it forwarded from here
// and mirrored from there, by id.
type relay struct {
	local, remote *Client
	log           func(string)

	mu        sync.Mutex
	forwarded map[string]context.CancelCauseFunc // ends the forward, with the local answer as cause
	mirrored  map[string]bool
}

// closedHere is the cause with which a forward ends: the question closed
// on this machine's hub with this answer (nil when it left the store).
type closedHere struct{ a *Answer }

func (closedHere) Error() string { return "closed on this machine's hub" }

func (r *relay) localEvent(ctx context.Context, wg *sync.WaitGroup, e WatchEvent) {
	switch e.Kind {
	case WatchWaiting:
		r.mu.Lock()
		_, known := r.forwarded[e.ID]
		known = known || r.mirrored[e.ID]
		var fctx context.Context
		if !known {
			var cancel context.CancelCauseFunc
			fctx, cancel = context.WithCancelCause(ctx)
			r.forwarded[e.ID] = cancel
		}
		r.mu.Unlock()
		if !known {
			q := *e.Question
			wg.Go(func() { r.forward(ctx, fctx, q) })
		}
	case WatchClosed:
		r.mu.Lock()
		cancel, fwd := r.forwarded[e.ID]
		mirrored := r.mirrored[e.ID]
		r.mu.Unlock()
		switch {
		case fwd:
			cancel(closedHere{e.Answer})
		case mirrored && e.Answer != nil && settles(e.Answer.Status):
			a := *e.Answer
			wg.Go(func() { r.answerThere(ctx, a) })
		}
	}
}

// forward offers q, asked on this machine, on the remote hub, until an
// answer comes from there or fctx ends because q closed here.
func (r *relay) forward(ctx, fctx context.Context, q Question) {
	defer func() {
		r.mu.Lock()
		delete(r.forwarded, q.ID)
		r.mu.Unlock()
	}()
	q.sealed = nil
	if err := r.remote.seal.prepare(&q); err != nil {
		r.log(fmt.Sprintf("relay: question %s: %v", q.ID, err))
		return
	}
	for {
		pctx, cancel := context.WithTimeout(fctx, r.remote.timeout)
		err := r.remote.publish(pctx, q)
		cancel()
		if errors.Is(err, jetstream.ErrKeyExists) {
			return // a question of the remote hub, mirrored here
		}
		if err == nil {
			break
		}
		r.log(fmt.Sprintf("relay: question %s: %v", q.ID, err))
		select {
		case <-fctx.Done():
			return
		case <-time.After(republishWait):
		}
	}
	a, err := r.remote.await(fctx, &q, nil, nil, nil)
	if err == nil {
		// Given here on behalf of whoever answered there; the remote
		// entry stays as it is.
		if herr := give(ctx, r.local, a); herr != nil {
			r.log(fmt.Sprintf("relay: the answer to %s from the remote hub: %v", q.ID, herr))
		}
		return
	}
	var here closedHere
	if !errors.As(context.Cause(fctx), &here) {
		return
	}
	note := Answer{ID: q.ID, Status: StatusClosed, By: "the hub of " + q.Tag.Machine, Note: "ended", At: time.Now().UTC()}
	if here.a != nil {
		note.By, note.Note = here.a.By, here.a.Status
		if here.a.Status == StatusClosed {
			note.Note = here.a.Note
		}
	}
	cctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	_, _, _ = r.remote.claim(cctx, &q, note, q.Tag.Deadline)
	_ = r.remote.questions.Delete(cctx, q.ID)
}

func (r *relay) remoteEvent(ctx context.Context, wg *sync.WaitGroup, e WatchEvent) {
	switch e.Kind {
	case WatchWaiting:
		r.mu.Lock()
		_, fwd := r.forwarded[e.ID]
		known := fwd || r.mirrored[e.ID]
		if !known {
			r.mirrored[e.ID] = true
		}
		r.mu.Unlock()
		if known {
			return
		}
		q := *e.Question
		q.sealed = nil
		pctx, cancel := context.WithTimeout(ctx, r.local.timeout)
		err := r.local.publish(pctx, q)
		cancel()
		if err != nil {
			r.mu.Lock()
			delete(r.mirrored, e.ID)
			r.mu.Unlock()
			if !errors.Is(err, jetstream.ErrKeyExists) {
				r.log(fmt.Sprintf("relay: question %s from the remote hub: %v", e.ID, err))
			}
		}
	case WatchClosed:
		r.mu.Lock()
		mirrored := r.mirrored[e.ID]
		delete(r.mirrored, e.ID)
		r.mu.Unlock()
		if !mirrored {
			return
		}
		// Closed there: closed here too, saying where. A local answer
		// that won here first stands, and was sent there already.
		note := Answer{ID: e.ID, Status: StatusClosed, By: "the remote hub", Note: "ended", At: time.Now().UTC()}
		if a := e.Answer; a != nil {
			note.By, note.Note = a.By, a.Status
			if a.Status == StatusClosed {
				note.Note = a.Note
			}
		}
		cctx, cancel := context.WithTimeout(ctx, requestTimeout)
		defer cancel()
		_, _, _ = r.local.claim(cctx, nil, note, nil)
		_ = r.local.questions.Delete(cctx, e.ID)
	}
}

// answerThere gives a, given on this machine to a mirrored question, on
// the remote hub, sealed back to its asker.
func (r *relay) answerThere(ctx context.Context, a Answer) {
	if err := give(ctx, r.remote, a); err != nil {
		r.log(fmt.Sprintf("relay: the answer to %s given here did not reach the remote hub: %v", a.ID, err))
	}
}

// giveFor bounds how long give tries a hub that does not answer, as
// while a cluster elects a new leader after a node died.
const giveFor = 30 * time.Second

// give gives a, an answer or a dismissal given on one hub, on the hub of
// c, on behalf of whoever gave it. It tries again while the hub does not
// answer; a refusal is final.
func give(ctx context.Context, c *Client, a Answer) error {
	ctx, cancel := context.WithTimeout(ctx, giveFor)
	defer cancel()
	for {
		var err error
		switch a.Status {
		case StatusAnswered:
			_, err = c.Answer(ctx, a.ID, a.Result, a.By)
		case StatusDismissed:
			_, err = c.Dismiss(ctx, a.ID, a.By)
		}
		var refusal *RefusedError
		if err == nil || errors.As(err, &refusal) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(republishWait):
		}
	}
}
