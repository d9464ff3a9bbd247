package hub

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// How Watch finds the newest questions before it reads the store from
// its start: it reads back from the questions bucket's last message
// until it knows the earlyCount newest that wait, or has read earlyScan
// messages. earlyCount is more rows than a terminal or a phone shows at
// once.
const (
	earlyCount = 100
	earlyScan  = 512
	// earlyParallel is how many of those messages are asked for at once.
	earlyParallel = 64
)

// newest returns up to n of the newest questions of the questions
// bucket, newest first, reading at most scan of its messages back from
// its last. When it can, it returns only questions known to be newer
// than every question it did not read: those created after the oldest
// message it read was stored. Then a question rewritten lately (its
// countdown stopped) is left out unless it is new, and a list that shows
// what newest returns shows the true first rows of the whole store, as
// long as the askers' clocks agree with the hub's. When questions came
// too fast for that (hundreds published in the time one waits to be
// stored), it returns the n put last, which a list may have to reorder
// once it has read the whole store.
//
// Each message is asked for by its sequence number, earlyParallel at a
// time, so that the newest questions of ten thousand come in a few round
// trips, where a watch delivers the whole bucket, oldest first, before it
// can say which are the newest.
func (c *Client) newest(ctx context.Context, n, scan int) ([]*Question, error) {
	st, err := c.js.Stream(ctx, "KV_"+QuestionsBucket)
	if err != nil {
		return nil, err
	}
	state := st.CachedInfo().State
	prefix := "$KV." + QuestionsBucket + "."
	later := map[string]bool{} // keys of the messages read, newest first
	var found []*Question
	var oldest time.Time // when the oldest message read was stored
	sure := func() []*Question {
		var out []*Question
		for _, q := range found {
			if q.Created.After(oldest) {
				out = append(out, q)
			}
		}
		return out
	}
	seq := state.LastSeq
	for seq >= state.FirstSeq && seq > 0 && scan > 0 {
		k := min(uint64(earlyParallel), seq-state.FirstSeq+1, uint64(scan))
		msgs := make([]*jetstream.RawStreamMsg, k)
		errs := make([]error, k)
		var wg sync.WaitGroup
		for i := range k {
			wg.Go(func() { msgs[i], errs[i] = st.GetMsg(ctx, seq-i) })
		}
		wg.Wait()
		for i, m := range msgs {
			if err := errs[i]; err != nil {
				if errors.Is(err, jetstream.ErrMsgNotFound) {
					continue // removed from the stream
				}
				return nil, err
			}
			oldest = m.Time
			id, ok := strings.CutPrefix(m.Subject, prefix)
			if !ok || later[id] {
				continue
			}
			later[id] = true
			if m.Header.Get("KV-Operation") != "" || m.Header.Get("Nats-Marker-Reason") != "" {
				continue // a removal
			}
			var q Question
			if json.Unmarshal(m.Data, &q) == nil && q.ID == id {
				found = append(found, &q)
			}
		}
		seq -= k
		scan -= int(k)
		if len(sure()) >= n {
			break
		}
	}
	out := sure()
	if len(out) < n || seq < state.FirstSeq || seq == 0 {
		// Every message was read, or questions came faster than
		// their askers' clocks tell apart: those put last it is.
		out = found
	}
	slices.SortFunc(out, func(a, b *Question) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out[:min(n, len(out))], nil
}
