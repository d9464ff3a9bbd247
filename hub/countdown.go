package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// stoppedSubject.<id> is published after a surface stopped a question's
// countdown, so that its asker stops its own at once.
const stoppedSubject = "askuser.stopped"

// StopCountdown stops the countdown of the question id for every surface,
// on behalf of by, as Alt+Q does in the dialog where it was asked: the
// question loses its deadline on the hub, its asker stops its own
// countdown as soon as it hears of it, and the question then waits until
// it is answered, dismissed or its asker stops. A question that has no
// deadline is left as it is. Refusals are those of Answer, but for
// RefusedInvalid: an unknown id, a question past its deadline, one
// answered or closed already.
//
// The asker hears of it at once while it is connected, and when it is
// back otherwise; a deadline that passes before it hears of it still
// ends the call there. A question relayed with another machine is
// stopped there too, on behalf of by.
func (c *Client) StopCountdown(ctx context.Context, id, by string) error {
	if err := checkBy(by); err != nil {
		return err
	}
	return c.stopCountdown(ctx, id, strings.TrimSpace(by))
}

// stopCountdown is StopCountdown on behalf of by, "" for the question's
// asker. It keeps the stored question as it is but for its deadline and
// StoppedBy, so that a question of a remote hub stays sealed: a stop
// carries no content.
func (c *Client) stopCountdown(ctx context.Context, id, by string) error {
	// A question being stopped by two surfaces at once, or by its asker,
	// is read again when its revision moved.
	for range 3 {
		q, rev, err := c.waiting(ctx, id)
		if err != nil {
			return err
		}
		d := q.Tag.Deadline
		if d == nil {
			return nil
		}
		if !time.Now().Before(*d) {
			return refused(RefusedLate, "question %s is late: its deadline passed at %s", id, d.Format(time.RFC3339))
		}
		q.Tag.Deadline = nil
		q.StoppedBy = by
		data, err := json.Marshal(q)
		if err != nil {
			return err
		}
		uctx, cancel := context.WithTimeout(ctx, requestTimeout)
		_, err = c.questions.Update(uctx, id, data, rev)
		cancel()
		if err == nil {
			_ = c.nc.Publish(stoppedSubject+"."+id, nil)
			return nil
		}
		var apiErr *jetstream.APIError
		if !errors.As(err, &apiErr) || apiErr.ErrorCode != jetstream.JSErrCodeStreamWrongLastSequence {
			return fmt.Errorf("stop the countdown of question %s on the hub at %s: %w", id, c.info.URL, err)
		}
	}
	return fmt.Errorf("stop the countdown of question %s: it kept changing while it was stopped; try again", id)
}

// waiting reads the waiting question id as stored, its sealed content
// unopened, with its revision, or refuses as Answer does when it no
// longer waits.
func (c *Client) waiting(ctx context.Context, id string) (*sealedQuestion, uint64, error) {
	if !validID(id) {
		_, _, err := c.Question(ctx, id)
		return nil, 0, err
	}
	gctx, cancel := context.WithTimeout(ctx, requestTimeout)
	e, err := c.questions.Get(gctx, id)
	cancel()
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		_, prior, err := c.Question(ctx, id)
		switch {
		case err != nil:
			return nil, 0, err
		case prior != nil:
			return nil, 0, alreadyAnswered(id, *prior)
		}
		// Answered and removed between the two reads, the answer
		// expired since: it no longer waits either way.
		return nil, 0, refused(RefusedUnknown, "no question %s waits on the hub: the id is unknown, or the question expired and left the store", id)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read the hub's question %s: %w", id, err)
	}
	var q sealedQuestion
	if err := json.Unmarshal(e.Value(), &q); err != nil {
		return nil, 0, fmt.Errorf("read the hub's question %s: %w", id, err)
	}
	return &q, e.Revision(), nil
}

// stopped reports whether a surface stopped the countdown of the question
// id on the hub: its entry waits with no deadline.
func (c *Client) stopped(ctx context.Context, id string) bool {
	_, ok := c.stoppedBy(ctx, id)
	return ok
}

// stoppedBy reports whether the question id waits on the hub with no
// deadline, and who stopped its countdown ("" for its asker). It reads
// only the unsealed members, so it reads a question of a remote hub that
// this client cannot open.
func (c *Client) stoppedBy(ctx context.Context, id string) (string, bool) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	e, err := c.questions.Get(ctx, id)
	if err != nil {
		return "", false
	}
	var q Question
	if json.Unmarshal(e.Value(), &q) != nil || q.Tag.Deadline != nil {
		return "", false
	}
	return q.StoppedBy, true
}
