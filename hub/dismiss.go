package hub

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/askuser/askuser/dialog"
)

// StatusDismissed is the status of an Answer by which a person, on a
// surface of the hub, dismissed the question: its asker ends the call
// as dismissed, as if the person had dismissed its own dialog.
const StatusDismissed = "dismissed"

// Dismiss dismisses the question id on behalf of by, which names the
// person and the surface for the asker and its model, as Answer's by
// does. It returns the stored answer when it won; refusals are those of
// Answer, but for RefusedInvalid.
func (c *Client) Dismiss(ctx context.Context, id, by string) (Answer, error) {
	if err := checkBy(by); err != nil {
		return Answer{}, err
	}
	q, prior, err := c.Question(ctx, id)
	if err != nil {
		return Answer{}, err
	}
	if prior != nil {
		return Answer{}, alreadyAnswered(id, *prior)
	}
	now := time.Now()
	if d := q.Tag.Deadline; d != nil && !now.Before(*d) {
		return Answer{}, refused(RefusedLate, "question %s is late: its deadline passed at %s", id, d.Format(time.RFC3339))
	}
	a := Answer{ID: id, Status: StatusDismissed, By: strings.TrimSpace(by), At: now}
	cctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	won, prior2, err := c.claim(cctx, a, q.Tag.Deadline)
	if err != nil {
		return Answer{}, err
	}
	if !won {
		return Answer{}, alreadyAnswered(id, prior2)
	}
	_ = c.nc.Publish(answeredSubject+"."+id, nil)
	_ = c.questions.Delete(cctx, id)
	return a, nil
}

// checkBy checks the name of who answers or dismisses.
func checkBy(by string) error {
	by = strings.TrimSpace(by)
	switch {
	case by == "":
		return errors.New("say who answers: the name must not be blank")
	case len(by) > MaxByLen:
		return fmt.Errorf("the name of who answers is %d bytes, over the limit of %d", len(by), MaxByLen)
	case strings.IndexFunc(by, dialog.Forbidden) >= 0:
		return errors.New("the name of who answers holds a control or formatting character")
	}
	return nil
}
