package hub

import (
	"context"
	"encoding/json"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// WatchKind says what a WatchEvent reports.
type WatchKind int

// The kinds of WatchEvent.
const (
	// WatchWaiting: Question waits, newly or changed (its asker stopped
	// the countdown).
	WatchWaiting WatchKind = iota + 1
	// WatchClosed: the question ID no longer waits. Answer says where it
	// was answered or closed; it is nil when the question left the store
	// without one, as when its asker went away and its deadline passed.
	// It comes once more for a question answered here whose answer lost
	// on a relay's remote hub, with the note of the one that won there
	// (Answer.Superseded).
	WatchClosed
	// WatchSynced: every question waiting when the watch (re)started has
	// been reported; the events after it are live.
	WatchSynced
	// WatchLost: the connection to the hub is lost. The client reconnects
	// by itself; WatchSynced follows once it has.
	WatchLost
	// WatchNewest: the newest questions that wait have been reported, as
	// the first events of the watch: a list can show its first screen.
	// It comes once, first of all when no question waits.
	WatchNewest
)

// WatchEvent is one change of what waits on the hub.
type WatchEvent struct {
	Kind     WatchKind
	Question *Question // WatchWaiting
	ID       string    // WatchWaiting, WatchClosed
	Answer   *Answer   // WatchClosed, when known
}

// watchRetry is how long Watch waits before it starts again a watch the
// hub refused.
const watchRetry = 250 * time.Millisecond

// Watch reports, on the channel it returns, every question that waits
// and every change after: questions that arrive, are answered or closed,
// or leave the store. It reads the hub's buckets as they change, without
// polling. When the connection is lost it reports WatchLost, and when the
// client has reconnected it reads the buckets again, reports what changed
// meanwhile and then WatchSynced. The channel is closed once ctx is done;
// its reader must keep reading until then.
//
// A watch delivers the stored questions oldest first, and ten thousand
// take a while; so Watch first reports the newest hundred or so, read
// back from the end of the store, then WatchNewest, and a list can show
// its first screen before WatchSynced. They are reported again as the store is read; one
// that is gone by then is reported closed before WatchSynced.
func (c *Client) Watch(ctx context.Context) (<-chan WatchEvent, error) {
	status := c.nc.StatusChanged(nats.CONNECTED, nats.DISCONNECTED, nats.RECONNECTING)
	w := &watch{c: c, out: make(chan WatchEvent, 64), waiting: map[string]bool{}, answers: map[string]*Answer{}}
	// The newest are read before the watchers start: on the same
	// connection their replies would queue behind the whole store.
	ectx, cancel := context.WithTimeout(ctx, requestTimeout)
	newest, _ := c.newest(ectx, earlyCount, earlyScan)
	cancel()
	qw, aw, err := w.start(ctx)
	if err != nil {
		c.nc.RemoveStatusListener(status)
		return nil, err
	}
	go func() {
		defer close(w.out)
		defer c.nc.RemoveStatusListener(status)
		if w.early(ctx, newest) {
			w.run(ctx, qw, aw, status)
		}
	}()
	return w.out, nil
}

// watch is the state of one Watch: what it reported as waiting, and the
// answers the answers bucket holds.
type watch struct {
	c       *Client
	out     chan WatchEvent
	waiting map[string]bool
	answers map[string]*Answer
}

// start opens both watchers and reads what the buckets hold; the events
// it produced are sent by run.
func (w *watch) start(ctx context.Context) (qw, aw jetstream.KeyWatcher, err error) {
	if aw, err = w.c.answers.WatchAll(ctx); err != nil {
		return nil, nil, err
	}
	if qw, err = w.c.questions.WatchAll(ctx); err != nil {
		aw.Stop()
		return nil, nil, err
	}
	return qw, aw, nil
}

func (w *watch) send(ctx context.Context, e WatchEvent) bool {
	select {
	case w.out <- e:
		return true
	case <-ctx.Done():
		return false
	}
}

// early reports the newest questions of the store, qs, as waiting, and
// returns false when ctx is done. A hub that could not say which are the
// newest cost nothing but the wait: the watch reports them all anyway.
func (w *watch) early(ctx context.Context, qs []*Question) bool {
	for _, q := range qs {
		w.waiting[q.ID] = true
		if !w.send(ctx, WatchEvent{Kind: WatchWaiting, ID: q.ID, Question: q}) {
			return false
		}
	}
	return w.send(ctx, WatchEvent{Kind: WatchNewest})
}

// run passes the watchers' entries on until ctx is done, and starts them
// again after a reconnection.
func (w *watch) run(ctx context.Context, qw, aw jetstream.KeyWatcher, status chan nats.Status) {
	for {
		ok := w.follow(ctx, qw, aw, status)
		qw.Stop()
		aw.Stop()
		if !ok {
			return
		}
		for {
			var err error
			if qw, aw, err = w.start(ctx); err == nil {
				break
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(watchRetry):
			}
		}
	}
}

// follow reads both watchers, first to their ends of what is stored,
// then live. It returns true when the connection came back and the
// watch must start again, false when ctx is done.
func (w *watch) follow(ctx context.Context, qw, aw jetstream.KeyWatcher, status chan nats.Status) bool {
	qs, as := qw.Updates(), aw.Updates()
	qSynced, aSynced := false, false
	seen := map[string]bool{} // the questions the store holds, until synced
	lost := false
	for {
		select {
		case <-ctx.Done():
			return false
		case st := <-status:
			switch st {
			case nats.CONNECTED:
				if lost {
					return true
				}
			default:
				if !lost {
					lost = true
					if !w.send(ctx, WatchEvent{Kind: WatchLost}) {
						return false
					}
				}
			}
		case e, ok := <-as:
			if !ok {
				as = nil
				continue
			}
			if e == nil {
				aSynced = true
			} else if !w.answer(ctx, e) {
				return false
			}
		case e, ok := <-qs:
			if !ok {
				qs = nil
				continue
			}
			if e == nil {
				qSynced = true
			} else {
				if !qSynced && e.Operation() == jetstream.KeyValuePut {
					seen[e.Key()] = true
				}
				if !w.question(ctx, e) {
					return false
				}
			}
		}
		if qSynced && aSynced && seen != nil {
			// What was reported as waiting before a reconnection and
			// is gone now was closed meanwhile.
			for id := range w.waiting {
				if !seen[id] && !w.close(ctx, id) {
					return false
				}
			}
			seen = nil
			if !w.send(ctx, WatchEvent{Kind: WatchSynced}) {
				return false
			}
		}
	}
}

// answer takes an entry of the answers bucket.
func (w *watch) answer(ctx context.Context, e jetstream.KeyValueEntry) bool {
	id := e.Key()
	if e.Operation() != jetstream.KeyValuePut {
		delete(w.answers, id)
		return true
	}
	var a Answer
	if json.Unmarshal(e.Value(), &a) != nil {
		return true
	}
	prev := w.answers[id]
	w.answers[id] = &a
	if w.waiting[id] {
		return w.close(ctx, id)
	}
	if prev != nil && prev.Superseded == "" && a.Superseded != "" {
		// The answer given here lost on a relay's remote hub: the
		// question closed, told once more with the answer that won.
		return w.send(ctx, WatchEvent{Kind: WatchClosed, ID: id, Answer: &a})
	}
	return true
}

// question takes an entry of the questions bucket.
func (w *watch) question(ctx context.Context, e jetstream.KeyValueEntry) bool {
	id := e.Key()
	if e.Operation() != jetstream.KeyValuePut {
		if !w.waiting[id] {
			return true
		}
		if w.answers[id] == nil {
			// The answer is stored before its question is removed, but
			// the two buckets' updates may arrive in either order.
			gctx, cancel := context.WithTimeout(ctx, requestTimeout)
			if ae, err := w.c.answers.Get(gctx, id); err == nil {
				var a Answer
				if json.Unmarshal(ae.Value(), &a) == nil {
					w.answers[id] = &a
				}
			}
			cancel()
		}
		return w.close(ctx, id)
	}
	var q Question
	if w.c.read(nil, e.Value(), &q) != nil || q.ID != id || w.answers[id] != nil {
		return true
	}
	w.waiting[id] = true
	return w.send(ctx, WatchEvent{Kind: WatchWaiting, ID: id, Question: &q})
}

// close reports that the question id no longer waits.
func (w *watch) close(ctx context.Context, id string) bool {
	delete(w.waiting, id)
	return w.send(ctx, WatchEvent{Kind: WatchClosed, ID: id, Answer: w.answers[id]})
}
