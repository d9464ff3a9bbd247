package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/askuser/askuser/internal/hubstore"
	"github.com/nats-io/nats.go"
)

// StoreState is how a hub's store is: whether it takes writes, and the
// room left on its disk.
type StoreState struct {
	// Full is set while the store cannot write: its disk is full or a
	// write failed, and the hub refuses new questions.
	Full bool `json:"full"`
	// Free is how many bytes are free on the store's disk.
	Free int64 `json:"free"`
	// Dir is the store's directory.
	Dir string `json:"dir"`
	// Error is the write error that made the store full, if any.
	Error string `json:"error,omitempty"`
}

// StoreFullError is the error of a question the hub refused while its
// store could not write.
type StoreFullError struct {
	URL   string // the hub's
	State StoreState
}

func (e *StoreFullError) Error() string {
	return fmt.Sprintf("the hub at %s takes no new question: the disk of its store %s is full (%s free), so answers cannot be stored; free space there and the hub takes questions again",
		e.URL, e.State.Dir, formatBytes(e.State.Free))
}

// Store asks the hub how its store is. ok is false when no one answers
// on hubstore.StoreSubject: the hub does not say.
func (c *Client) Store(ctx context.Context) (state StoreState, ok bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	m, err := c.nc.RequestWithContext(ctx, hubstore.StoreSubject, nil)
	if errors.Is(err, nats.ErrNoResponders) {
		return StoreState{}, false, nil
	}
	if err != nil {
		return StoreState{}, false, fmt.Errorf("ask the hub at %s about its store: %w", c.info.URL, err)
	}
	if err := json.Unmarshal(m.Data, &state); err != nil {
		return StoreState{}, false, fmt.Errorf("the hub at %s said of its store %.100q: %w", c.info.URL, m.Data, err)
	}
	return state, true, nil
}

// refuseWhenFull returns a *StoreFullError when the hub says that its
// store cannot write. A hub that does not say is taken to write, and so
// is a remote hub, which is not asked: any member of its account could
// answer there, refusing every machine's questions or delaying each.
func (c *Client) refuseWhenFull(ctx context.Context) error {
	if c.seal != nil { // dialRemote's
		return nil
	}
	st, ok, err := c.Store(ctx)
	if err != nil || !ok || !st.Full {
		// The question's own publish says what is wrong with the hub.
		return nil
	}
	return &StoreFullError{URL: c.info.URL, State: st}
}

// String says how the store is, on one line, for a log or a status.
func (s StoreState) String() string {
	if !s.Full {
		return fmt.Sprintf("%s free on the disk of %s", formatBytes(s.Free), s.Dir)
	}
	why := ""
	if s.Error != "" {
		why = " (" + s.Error + ")"
	}
	return fmt.Sprintf("FULL: %s free on the disk of %s%s; answers cannot be stored, so new questions are refused until space is freed", formatBytes(s.Free), s.Dir, why)
}

// formatBytes writes n bytes in the largest unit of 1024 that keeps a
// whole part, as "3.5 MiB".
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	d, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		d *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(d), "KMGTPE"[exp])
}
