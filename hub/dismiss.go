package hub

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/askuser/askuser/internal/safetext"
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
	return c.settle(ctx, id, by, StatusDismissed, nil)
}

// checkBy checks the name of who answers or dismisses.
func checkBy(by string) error {
	by = strings.TrimSpace(by)
	switch {
	case by == "":
		return errors.New("say who answers: the name must not be blank")
	case len(by) > MaxByLen:
		return fmt.Errorf("the name of who answers is %d bytes, over the limit of %d", len(by), MaxByLen)
	case strings.IndexFunc(by, safetext.Dropped) >= 0:
		return errors.New("the name of who answers holds a control or formatting character")
	}
	return nil
}
