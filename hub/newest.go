package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/askuser/askuser/internal/hubstore"
	"github.com/nats-io/nats.go"
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
	// earlyFirst is how many messages the first request reads; the
	// next reads the rest of earlyScan.
	earlyFirst = 128
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
// The messages come in batches of direct gets, a request each, so that
// the newest questions of ten thousand come in one or two round trips,
// where a watch delivers the whole bucket, oldest first, before it can
// say which are the newest.
func (c *Client) newest(ctx context.Context, n, scan int) ([]*Question, error) {
	st, err := c.js.Stream(ctx, "KV_"+hubstore.QuestionsBucket)
	if err != nil {
		return nil, err
	}
	state := st.CachedInfo().State
	prefix := "$KV." + hubstore.QuestionsBucket + "."
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
	k := uint64(earlyFirst)
	for seq >= state.FirstSeq && seq > 0 && scan > 0 {
		k = min(k, seq-state.FirstSeq+1, uint64(scan))
		msgs, err := c.batch(ctx, st.CachedInfo().Config.Name, seq-k+1, int(k))
		// A direct get is answered by any replica of a cluster's
		// stream, and one behind its leader, whose last sequence the
		// stream's info told, has not the newest messages yet: the
		// first batch is asked for again, briefly, until it reaches
		// the last. Then a question stored before the watch began is
		// among its first events, wherever it is read.
		for try := 1; err == nil && seq == state.LastSeq && !reaches(msgs, seq) && try <= behindTries; try++ {
			select {
			case <-ctx.Done():
				return nil, context.Cause(ctx)
			case <-time.After(time.Duration(try) * noticeWait):
			}
			msgs, err = c.batch(ctx, st.CachedInfo().Config.Name, seq-k+1, int(k))
		}
		if err != nil {
			return nil, err
		}
		for _, m := range slices.Backward(msgs) {
			if m.seq > seq {
				continue // read already: the batch stepped over removed messages
			}
			oldest = m.time
			id, ok := strings.CutPrefix(m.subject, prefix)
			if !ok || later[id] {
				continue
			}
			later[id] = true
			if m.msg.Header.Get("KV-Operation") != "" || m.msg.Header.Get("Nats-Marker-Reason") != "" {
				continue // a removal
			}
			var q Question
			if c.read(nil, m.msg.Data, &q) == nil && q.ID == id {
				found = append(found, &q)
			}
		}
		seq -= k
		scan -= int(k)
		k = uint64(scan)
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

// behindTries bounds how many times newest asks again for its first
// batch while the replica that answers is behind.
const behindTries = 4

// reaches reports whether msgs, a batch, holds the message seq or one
// after it.
func reaches(msgs []storedMsg, seq uint64) bool {
	return len(msgs) > 0 && msgs[len(msgs)-1].seq >= seq
}

// storedMsg is one message of a batch: its subject, sequence and the
// time it was stored, from the reply's headers.
type storedMsg struct {
	msg     *nats.Msg
	subject string
	seq     uint64
	time    time.Time
}

// batch reads up to n messages of stream from sequence from on with one
// direct-get request, whose replies stream back until the end-of-batch
// status. A removed message is stepped over, so the batch may reach past
// from+n-1.
func (c *Client) batch(ctx context.Context, stream string, from uint64, n int) ([]storedMsg, error) {
	replies := make(chan *nats.Msg, n+1)
	inbox := c.nc.NewInbox()
	sub, err := c.nc.ChanSubscribe(inbox, replies)
	if err != nil {
		return nil, err
	}
	defer sub.Unsubscribe()
	req, err := json.Marshal(struct {
		Seq   uint64 `json:"seq"`
		Batch int    `json:"batch"`
	}{from, n})
	if err != nil {
		return nil, err
	}
	if err := c.nc.PublishRequest(c.apiPrefix()+"DIRECT.GET."+stream, inbox, req); err != nil {
		return nil, err
	}
	out := make([]storedMsg, 0, n)
	for {
		var m *nats.Msg
		select {
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		case m = <-replies:
		}
		switch status := m.Header.Get("Status"); status {
		case "":
		case "204", "404": // the end of the batch; none from there on
			return out, nil
		default:
			return nil, fmt.Errorf("read the hub's newest questions: status %s %s", status, m.Header.Get("Description"))
		}
		seq, err := strconv.ParseUint(m.Header.Get(jetstream.SequenceHeader), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("read the hub's newest questions: sequence: %w", err)
		}
		t, err := time.Parse(time.RFC3339Nano, m.Header.Get(jetstream.TimeStampHeaer))
		if err != nil {
			return nil, fmt.Errorf("read the hub's newest questions: time: %w", err)
		}
		out = append(out, storedMsg{msg: m, subject: m.Header.Get(jetstream.SubjectHeader), seq: seq, time: t})
	}
}

// apiPrefix is the subject prefix of the JetStream API requests of c.
func (c *Client) apiPrefix() string {
	o := c.js.Options()
	if o.Domain != "" {
		return "$JS." + o.Domain + ".API."
	}
	if o.APIPrefix != "" {
		return o.APIPrefix
	}
	return jetstream.DefaultAPIPrefix
}
