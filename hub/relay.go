package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/prefs"
	"github.com/nats-io/nats.go/jetstream"
)

// relayHubs carries questions between the hub of this machine, local,
// and a remote hub, remote (see dialRemote), until ctx is done; it is
// hubstore.Relay. It is how a hub joins a NATS server or cluster that
// the person's other machines reach:
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
//   - A countdown stopped on either hub, by a surface (StopCountdown) or
//     by the question's asker, is stopped on the other, on behalf of the
//     same name: the question loses its deadline there too, and its
//     asker keeps waiting. A stop carries no content.
//
// The hub of this machine keeps the content in the clear, in its user's
// private store; only sealed content leaves it. A question's asker takes
// exactly one answer: the one its own machine's hub holds, which is the
// one that won on the remote hub unless it was given there. Two answers
// given at the same moment on two machines each win on their own hub;
// the one the asker did not take is superseded where it stands, on the
// remote hub and on the hub of the machine that gave it, by the one it
// took, shown as an answer given elsewhere (Answer.Superseded names who
// gave the one that lost). log receives a line for each failure and each
// superseded answer; nil discards them.
func relayHubs(ctx context.Context, local, remote *Client, log func(string)) error {
	if log == nil {
		log = func(string) {}
	}
	if remote.seal == nil {
		return errors.New("relay: the remote hub's client must be a remote hub's, which seals")
	}
	r := &relay{local: local, remote: remote, log: log, forwarded: map[string]bool{}, mirrored: map[string]bool{}}
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
			r.start(ctx, &wg, e, r.forwarded, r.forward)
		}
	})
	for e := range revents {
		r.start(ctx, &wg, e, r.mirrored, r.mirror)
		if e.Kind == WatchClosed && e.Answer != nil && e.Answer.Superseded != "" {
			// An answer given here may be the one the asker's relay
			// superseded there.
			won := *e.Answer
			wg.Go(func() { r.supersede(ctx, r.local, &Question{ID: e.ID}, won, won.Superseded) })
		}
	}
	wg.Wait()
	return ctx.Err()
}

func init() {
	hubstore.DialRemote = func(ctx context.Context, r prefs.Remote, key string, opts *hubstore.DialOptions) (hubstore.Conn, error) {
		var o DialOptions
		if opts != nil {
			o = DialOptions{Name: opts.Name, Log: opts.Log}
		}
		c, err := dialRemote(ctx, r, key, &o)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	hubstore.Relay = func(ctx context.Context, local, remote hubstore.Conn, log func(string)) error {
		l, lok := local.(*Client)
		r, rok := remote.(*Client)
		if !lok || !rok {
			return fmt.Errorf("relay: the hubs' clients must come from package hub, not %T and %T", local, remote)
		}
		return relayHubs(ctx, l, r, log)
	}
}

// relay is the state of one relayHubs: the questions it forwards from here
// and mirrors from there, by id.
type relay struct {
	local, remote *Client
	log           func(string)

	mu        sync.Mutex
	forwarded map[string]bool
	mirrored  map[string]bool
	// shown counts the questions of mirrored that admit let through and
	// that are still shown here; the others are being checked.
	shown int
}

// claim marks id as relayed in set, unless either set has it.
func (r *relay) claim(set map[string]bool, id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.forwarded[id] || r.mirrored[id] {
		return false
	}
	set[id] = true
	return true
}

func (r *relay) done(set map[string]bool, id string) {
	r.mu.Lock()
	delete(set, id)
	r.mu.Unlock()
}

// start runs carry with the question e reports as waiting, once, while
// neither set has it, marked in set.
func (r *relay) start(ctx context.Context, wg *sync.WaitGroup, e WatchEvent, set map[string]bool, carry func(context.Context, Question)) {
	if e.Kind == WatchWaiting && r.claim(set, e.ID) {
		q := *e.Question
		wg.Go(func() {
			defer r.done(set, q.ID)
			carry(ctx, q)
		})
	}
}

// settled is how a question ended on one of the two hubs.
type settled struct {
	a     Answer
	err   error
	there bool // on the remote hub
}

// both waits for q's answer or closing note on both hubs, local's copy
// lq and remote's rq, and returns the first. Only the asker of rq, which
// holds its key, checks the answers there (await); a mirror takes what
// is stored (ended). Meanwhile a countdown stopped on one hub is stopped
// on the other, when told so and at each periodic look, for a notice
// lost while a hub was out of reach; once one was, both copies lose
// their deadline, so that an answer after it is not refused as late.
func (r *relay) both(ctx context.Context, lq, rq *Question, asker bool) settled {
	ctx, cancel := context.WithCancel(ctx)
	var stops atomic.Bool
	stop := func(from, to *Client) func(context.Context) {
		return func(ctx context.Context) {
			if lq.Tag.Deadline == nil || stops.Load() {
				return
			}
			if r.stop(ctx, from, to, lq.ID) {
				stops.Store(true)
			}
		}
	}
	out := make(chan settled, 2)
	go func() {
		stopped := stop(r.local, r.remote)
		a, err := r.local.await(ctx, lq, nil, stopped, stopped)
		out <- settled{a, err, false}
	}()
	go func() {
		var a Answer
		var err error
		if asker {
			stopped := stop(r.remote, r.local)
			a, err = r.remote.await(ctx, rq, nil, stopped, stopped)
		} else {
			a, err = ended(ctx, r.remote, rq.ID, stop(r.remote, r.local))
		}
		out <- settled{a, err, true}
	}()
	s := <-out
	cancel()
	<-out
	if stops.Load() {
		lq.Tag.Deadline, rq.Tag.Deadline = nil, nil
	}
	return s
}

// stop stops the countdown of the question id on the hub of to once it
// waits with none on the hub of from, on behalf of whoever stopped it
// there, and reports whether it did. A question late, answered or gone
// on to is left as it is.
func (r *relay) stop(ctx context.Context, from, to *Client, id string) bool {
	by, ok := from.stoppedBy(ctx, id)
	if !ok {
		return false
	}
	err := to.stopCountdown(ctx, id, by)
	var refusal *RefusedError
	if err != nil && !errors.As(err, &refusal) {
		r.log(fmt.Sprintf("relay: the stopped countdown of %s: %v", id, err))
	}
	return err == nil
}

// endedLook is how often ended looks, besides when it is told of an
// answer.
const endedLook = time.Second

// ended waits until the question id has an entry in c's answers bucket,
// as stored, or has left its questions bucket without one. stopped is
// called when told that its countdown was stopped, and every lookEvery.
func ended(ctx context.Context, c *Client, id string, stopped func(context.Context)) (Answer, error) {
	notes, stops, unsubscribe, err := c.listen(id)
	if err != nil {
		return Answer{}, err
	}
	defer unsubscribe()
	t := time.NewTicker(endedLook)
	defer t.Stop()
	look := time.NewTicker(lookEvery)
	defer look.Stop()
	answer := func(gctx context.Context) (Answer, bool) {
		var a Answer
		e, err := c.answers.Get(gctx, id)
		return a, err == nil && c.read(nil, e.Value(), &a) == nil
	}
	for {
		gctx, cancel := context.WithTimeout(ctx, requestTimeout)
		a, ok := answer(gctx)
		if !ok {
			// An answer is stored before its question leaves: one gone
			// with no answer before or after expired.
			if _, err := c.questions.Get(gctx, id); errors.Is(err, jetstream.ErrKeyNotFound) {
				if a, ok = answer(gctx); !ok {
					a, ok = Answer{ID: id, Status: StatusClosed, By: "the remote hub", Note: "ended"}, true
				}
			}
		}
		cancel()
		if ok {
			return a, nil
		}
		select {
		case <-ctx.Done():
			return Answer{}, ctx.Err()
		case <-notes:
		case <-stops:
			stopped(ctx)
		case <-look.C:
			stopped(ctx)
		case <-t.C:
		}
	}
}

// forward offers q, asked on this machine, on the remote hub, until it
// is answered or closed on either.
func (r *relay) forward(ctx context.Context, q Question) {
	rq := q
	rq.sealed = nil
	if err := r.remote.seal.prepare(&rq); err != nil {
		r.log(fmt.Sprintf("relay: question %s: %v", q.ID, err))
		return
	}
	for {
		pctx, cancel := context.WithTimeout(ctx, r.remote.timeout)
		err := r.remote.publish(pctx, rq)
		cancel()
		if errors.Is(err, jetstream.ErrKeyExists) {
			// Stored by an attempt whose acknowledgement was lost, or
			// before this hub restarted, or a question of the remote hub
			// mirrored here: this machine's key opens only the answers
			// of the former two, once the stored question is taken.
			r.adopt(ctx, &rq)
			break
		}
		if err == nil {
			break
		}
		r.log(fmt.Sprintf("relay: question %s: %v", q.ID, err))
		select {
		case <-ctx.Done():
			return
		case <-time.After(republishWait):
		}
	}
	s := r.both(ctx, &q, &rq, true)
	switch {
	case s.err != nil:
	case s.there:
		// Given here on behalf of whoever answered there. One that
		// lost here to an answer given here at the same moment, which
		// the asker took, is superseded there.
		r.carry(ctx, r.local, &q, r.remote, &rq, s.a, "the answer to %s from the remote hub")
	default:
		r.close(ctx, r.remote, &rq, s.a)
	}
}

// adopt takes the question of this machine stored on the remote hub
// under rq's id, published before, so that its answers are taken; it
// logs why not.
func (r *relay) adopt(ctx context.Context, rq *Question) {
	gctx, cancel := context.WithTimeout(ctx, requestTimeout)
	e, err := r.remote.questions.Get(gctx, rq.ID)
	cancel()
	if err == nil {
		err = r.remote.seal.adopt(rq, e.Value())
	}
	if err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
		r.log(fmt.Sprintf("relay: question %s: %v", rq.ID, err))
	}
}

// mirror shows q, a question of the remote hub opened with this
// machine's key, on this machine's hub, until it is answered or closed on
// either.
func (r *relay) mirror(ctx context.Context, rq Question) {
	q := rq
	q.sealed = nil
	if err := r.admit(&q); err != nil {
		r.log(fmt.Sprintf("relay: question %s from the remote hub is not shown: %v", q.ID, err))
		return
	}
	defer r.unshow()
	pctx, cancel := context.WithTimeout(ctx, r.local.timeout)
	err := r.local.publish(pctx, q)
	cancel()
	if errors.Is(err, jetstream.ErrKeyExists) {
		return // a question of this machine, forwarded there
	}
	if err != nil {
		r.log(fmt.Sprintf("relay: question %s from the remote hub: %v", q.ID, err))
		return
	}
	s := r.both(ctx, &q, &rq, false)
	switch {
	case s.err != nil:
	case !s.there:
		if !settles(s.a.Status) {
			return
		}
		// Given there, sealed back to its asker. One that lost there
		// to another machine's, given at the same moment, is
		// superseded here by the one its asker takes.
		r.carry(ctx, r.remote, &rq, r.local, &q, s.a, "the answer to %s given here did not reach the remote hub")
	default:
		r.close(ctx, r.local, &q, s.a)
	}
}

// The bounds of the questions of other machines a hub shows: how many
// wait at once, and how long each waits here at most, whatever its
// asker's deadline, or without one.
var (
	maxMirrored     = 1000
	maxMirroredWait = 7 * 24 * time.Hour
)

// admit checks q, a question of the remote hub about to be shown here,
// as askuser validate checks a request of its contract, within
// maxMirrored, and caps its deadline at maxMirroredWait from now. A
// question it lets through counts as shown until unshow: the questions
// still being checked, which may yet be refused, do not count.
func (r *relay) admit(q *Question) error {
	if err := checkRequest(q); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.shown >= maxMirrored {
		return fmt.Errorf("%d questions of other machines wait here already, the most this hub shows", maxMirrored)
	}
	r.shown++
	if most := time.Now().Add(maxMirroredWait); q.Tag.Deadline == nil || q.Tag.Deadline.After(most) {
		q.Tag.Deadline = &most
	}
	return nil
}

// unshow ends what admit counted, once its question is shown no more.
func (r *relay) unshow() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.shown--
}

// checkRequest checks q's request by the rules of its contract, as
// askuser validate does, its tag's count of questions, and its kind.
func checkRequest(q *Question) error {
	if err := CheckKind(q.Tag); err != nil {
		return err
	}
	c, ok := ask.Lookup(q.Tag.Contract)
	if !ok {
		return fmt.Errorf("its contract %q is not one askuser knows", q.Tag.Contract)
	}
	n, err := c.Questions(q.Request)
	if err != nil {
		return fmt.Errorf("its request breaks the rules of %s: %w", q.Tag.Contract, err)
	}
	if n != q.Tag.Questions {
		return fmt.Errorf("its tag counts %d questions, its request has %d", q.Tag.Questions, n)
	}
	return nil
}

// carry gives a, settled on one hub, to that question's copy to on the
// hub of c. When an answer given on c's side at the same moment won
// there, the asker takes that one, and it supersedes a on the hub of
// back, in its copy backQ. Any other failure is logged under what, a
// format that takes the question's id.
func (r *relay) carry(ctx context.Context, c *Client, to *Question, back *Client, backQ *Question, a Answer, what string) {
	err := give(ctx, c, to, a)
	if won, lost := lostTo(err); lost {
		r.supersede(ctx, back, backQ, won, "")
	} else if err != nil {
		r.log(fmt.Sprintf("relay: "+what+": %v", to.ID, err))
	}
}

// supersede replaces the answer to q on the hub of c, given by loser
// ("" for whoever gave it), with won, the one that the question's asker
// took (see Client.supersede), and says so to log.
func (r *relay) supersede(ctx context.Context, c *Client, q *Question, won Answer, loser string) {
	where := "here"
	if c == r.remote {
		where = "on the remote hub"
	}
	won.Superseded = ""
	done, err := c.supersede(ctx, q, won, loser)
	switch {
	case err != nil:
		r.log(fmt.Sprintf("relay: the answer to %s given %s came second, after the one %s, and still shows: %v", q.ID, where, won.Where(), err))
	case done:
		r.log(fmt.Sprintf("relay: the answer to %s given %s came second, after the one %s, which shows in its place", q.ID, where, won.Where()))
	}
}

// close closes q on the hub of c with a note saying how it ended on the
// other hub, a, and removes it. An answer given on the hub of c at the
// same moment as a, which the question's asker did not take, is
// superseded.
func (r *relay) close(ctx context.Context, c *Client, q *Question, a Answer) {
	cctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	won, prior, err := c.claim(cctx, q, closedElsewhere(q.ID, a), q.Tag.Deadline)
	_ = c.questions.Delete(cctx, q.ID)
	if err == nil && !won && settles(prior.Status) {
		r.supersede(ctx, c, q, a, "")
	}
}

// giveFor bounds how long give tries a hub that does not answer, as
// while a cluster elects a new leader after a node died.
const giveFor = 30 * time.Second

// give gives a, an answer or a dismissal given on one hub, to q on the
// hub of c, on behalf of whoever gave it, checked by the same rules. It
// tries again while the hub does not answer; a refusal is final.
func give(ctx context.Context, c *Client, q *Question, a Answer) error {
	if err := checkBy(a.By); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, giveFor)
	defer cancel()
	var result func(*Question) (json.RawMessage, error)
	if a.Status == StatusAnswered {
		result = func(q *Question) (json.RawMessage, error) { return CheckAnswer(q, a.Result) }
	}
	for {
		_, err := c.settleKnown(ctx, q, a.By, a.Status, result)
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
