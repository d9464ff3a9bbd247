package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/askuser/askuser/internal/hubstore"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// leaderKV is a bucket of a remote hub whose Get reads through the
// stream's leader: the JetStream API's STREAM.MSG.GET, which the leader
// alone answers, where the bucket's own Get is a direct get that any
// replica answers. A replica learns of a write after the leader
// acknowledged it, so a direct get right after a write, by the writer
// or by anyone it told, may find nothing: on a three-node cluster, a
// few reads in a hundred did. The leader has applied every write it
// acknowledged, so a get through it finds what was written before it,
// at the cost of every read going to one server. Everything else, the
// writes and the watches, is the bucket's own.
//
// The leader applies a write before it acknowledges it, but a follower
// may apply it first, and a watch served by that follower shows it
// before the leader has it: a question a watch showed was, a few times
// in a thousand, not on the leader yet. So a key of the questions
// bucket that the leader has never held, where a question that closed
// or expired leaves a removal, is looked for again, a few times over
// some 200 ms (retryMissing): only an id that is not a question's, or
// one gone for longer than the bucket keeps its markers, pays for it.
type leaderKV struct {
	jetstream.KeyValue
	nc           *nats.Conn
	subj         string // the API subject of the stream's gets
	prefix       string // the subject prefix of the bucket's keys
	retryMissing bool
}

// missingTries bounds the looks of leaderKV.Get for a key its leader
// never held, noticeWait, then twice that, and so on.
const missingTries = 4

// newLeaderKV wraps kv, a bucket of the JetStream whose API subjects
// start with api.
func newLeaderKV(kv jetstream.KeyValue, nc *nats.Conn, api string) leaderKV {
	return leaderKV{KeyValue: kv, nc: nc, subj: api + "STREAM.MSG.GET.KV_" + kv.Bucket(), prefix: "$KV." + kv.Bucket() + ".", retryMissing: kv.Bucket() == hubstore.QuestionsBucket}
}

// Get returns the entry of key as the stream's leader has it, or
// jetstream.ErrKeyNotFound when it has none or its last is a removal.
func (k leaderKV) Get(ctx context.Context, key string) (jetstream.KeyValueEntry, error) {
	if !validID(key) {
		return k.KeyValue.Get(ctx, key)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, requestTimeout)
		defer cancel()
	}
	e, err := k.get(ctx, key)
	for try := 1; errors.Is(err, errNeverHeld) && k.retryMissing && try <= missingTries; try++ {
		select {
		case <-ctx.Done():
			return nil, jetstream.ErrKeyNotFound
		case <-time.After(time.Duration(try) * noticeWait):
		}
		e, err = k.get(ctx, key)
	}
	if errors.Is(err, errNeverHeld) {
		return nil, jetstream.ErrKeyNotFound
	}
	return e, err
}

// errNeverHeld is what leaderKV.get returns for a key of which the
// stream holds no message, not even a removal. It wraps
// jetstream.ErrKeyNotFound.
var errNeverHeld = fmt.Errorf("the stream holds nothing of the key: %w", jetstream.ErrKeyNotFound)

// get is one get of Get.
func (k leaderKV) get(ctx context.Context, key string) (jetstream.KeyValueEntry, error) {
	req, err := json.Marshal(struct {
		LastFor string `json:"last_by_subj"`
	}{k.prefix + key})
	if err != nil {
		return nil, err
	}
	m, err := k.nc.RequestWithContext(ctx, k.subj, req)
	if err != nil {
		return nil, err
	}
	var resp struct {
		Error   *jetstream.APIError `json:"error"`
		Message *struct {
			Seq    uint64    `json:"seq"`
			Header []byte    `json:"hdrs"`
			Data   []byte    `json:"data"`
			Time   time.Time `json:"time"`
		} `json:"message"`
	}
	if err := json.Unmarshal(m.Data, &resp); err != nil {
		return nil, fmt.Errorf("read %s%s: %w", k.prefix, key, err)
	}
	switch {
	case resp.Error != nil && resp.Error.ErrorCode == jetstream.JSErrCodeMessageNotFound:
		return nil, errNeverHeld
	case resp.Error != nil:
		return nil, resp.Error
	case resp.Message == nil:
		return nil, errors.New("read " + k.prefix + key + ": the reply holds no message")
	}
	if len(resp.Message.Header) > 0 {
		h, err := nats.DecodeHeadersMsg(resp.Message.Header)
		if err != nil {
			return nil, err
		}
		if h.Get(jetstream.MarkerReasonHeader) != "" || h.Get("KV-Operation") != "" {
			return nil, jetstream.ErrKeyNotFound
		}
	}
	return &leaderEntry{bucket: k.Bucket(), key: key, value: resp.Message.Data, rev: resp.Message.Seq, created: resp.Message.Time}, nil
}

// leaderEntry is an entry leaderKV.Get read: a put, the last of its key.
type leaderEntry struct {
	bucket, key string
	value       []byte
	rev         uint64
	created     time.Time
}

func (e *leaderEntry) Bucket() string                  { return e.bucket }
func (e *leaderEntry) Key() string                     { return e.key }
func (e *leaderEntry) Value() []byte                   { return e.value }
func (e *leaderEntry) Revision() uint64                { return e.rev }
func (e *leaderEntry) Created() time.Time              { return e.created }
func (e *leaderEntry) Delta() uint64                   { return 0 }
func (e *leaderEntry) Operation() jetstream.KeyValueOp { return jetstream.KeyValuePut }
