package hubserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// maxStoreBytes bounds the hub's JetStream file store (its
// max_file_store), which is otherwise three quarters of the disk. It
// holds the hub's buckets of hubstore.BucketBytes each and the marks of
// pushes.
const maxStoreBytes = 1 << 30

// Below storeReserve bytes free on the store's disk the hub refuses new
// questions, so that the answers to those that wait still have room; it
// takes them again, and restarts a JetStream whose writes failed, once
// storeResume bytes are free.
const (
	storeReserve = 1 << 20
	storeResume  = 2 << 20
)

// storeEvery is how often the hub looks at the room on the store's disk.
const storeEvery = time.Second

// storeWatch says whether the hub's store takes writes, and brings
// JetStream back when a write failed and room returned.
type storeWatch struct {
	s       *server.Server
	dir     string
	log     io.Writer
	restart func() error // enables JetStream again after a failed write
	failed  chan string  // write errors the server logged

	mu    sync.Mutex
	state hub.StoreState
	err   string // the write error that made the store full, until JetStream restarts
}

// serverLog is the embedded server's logger: the server's errors that
// say a write to the store failed go to failed; the rest is dropped, as
// the hub's own log says what matters.
type serverLog struct{ failed chan<- string }

func (l serverLog) Errorf(format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	if strings.Contains(strings.ToLower(msg), "write error") || strings.Contains(msg, "out of") && strings.Contains(msg, "resources") {
		select {
		case l.failed <- msg:
		default:
		}
	}
}
func (serverLog) Noticef(string, ...any) {}
func (serverLog) Warnf(string, ...any)   {}
func (serverLog) Fatalf(string, ...any)  {}
func (serverLog) Debugf(string, ...any)  {}
func (serverLog) Tracef(string, ...any)  {}

// newStoreWatch makes the watch of the store in dir, and sets itself as
// s's logger: call it before s starts.
func newStoreWatch(s *server.Server, dir string, log io.Writer) *storeWatch {
	w := &storeWatch{s: s, dir: dir, log: log, failed: make(chan string, 1)}
	s.SetLogger(serverLog{failed: w.failed}, false, false)
	w.state = hub.StoreState{Dir: dir}
	return w
}

// run answers on hubstore.StoreSubject and looks at the store until ctx is
// done, on wg.
func (w *storeWatch) run(ctx context.Context, wg *sync.WaitGroup, token string) error {
	nc, err := nats.Connect("", nats.InProcessServer(w.s), nats.Token(token), nats.Name("askuser hub store"))
	if err != nil {
		return fmt.Errorf("connect to the hub's own server: %w", err)
	}
	w.look("")
	if _, err := nc.Subscribe(hubstore.StoreSubject, func(m *nats.Msg) {
		w.mu.Lock()
		b, _ := json.Marshal(w.state)
		w.mu.Unlock()
		_ = m.Respond(b)
	}); err != nil {
		nc.Close()
		return err
	}
	wg.Go(func() {
		defer nc.Close()
		t := time.NewTicker(storeEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case msg := <-w.failed:
				w.look(msg)
			case <-t.C:
				w.look("")
			}
		}
	})
	return nil
}

// look takes in the room on the disk and failed, a write error the
// server logged ("" for none), and says in the log when the store turns
// full or takes writes again.
func (w *storeWatch) look(failed string) {
	free, err := freeBytes(w.dir)
	if err != nil {
		// With no measure, only a failed write says the store is full.
		free = storeResume
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if failed != "" && w.err == "" {
		w.err = failed
		fmt.Fprintf(w.log, "askuser hub: a write to the store failed: %s\n", failed)
	}
	full := w.err != "" || free < storeReserve
	if w.state.Full && full && free >= storeResume {
		full = false
		if w.err != "" {
			// JetStream keeps a failed write's error until it starts
			// again from the store.
			if err := w.restart(); err != nil {
				fmt.Fprintf(w.log, "askuser hub: the store's disk has room again, but JetStream did not start again: %v\n", err)
				full = true
			} else {
				w.err = ""
				// What the server logged while JetStream stopped is no
				// news of the store.
				select {
				case <-w.failed:
				default:
				}
			}
		}
	}
	was := w.state.Full
	w.state = hub.StoreState{Full: full, Free: free, Dir: w.dir, Error: w.err}
	switch {
	case full && !was:
		fmt.Fprintf(w.log, "askuser hub: store %s\n", w.state)
	case !full && was:
		fmt.Fprintf(w.log, "askuser hub: store: room again, %s; questions are taken\n", w.state)
	}
}

// restartJetStream stops the JetStream of s, started with opts, and
// starts it again from its store, with the buckets; enable, when set, is
// called before the buckets are opened.
func restartJetStream(ctx context.Context, s *server.Server, opts *server.Options, token string, enable func() error) error {
	if err := s.ShutdownJetStream(); err != nil {
		return err
	}
	err := s.EnableJetStream(&server.JetStreamConfig{
		StoreDir:  opts.StoreDir,
		MaxMemory: opts.JetStreamMaxMemory,
		MaxStore:  opts.JetStreamMaxStore,
		Domain:    opts.JetStreamDomain,
		Strict:    !opts.NoJetStreamStrict,
	})
	if err != nil {
		return err
	}
	if enable != nil {
		if err := enable(); err != nil {
			return err
		}
	}
	return makeBuckets(ctx, s, token)
}

// boundBuckets sets MaxBytes on the buckets of a store made before
// they had it.
func boundBuckets(ctx context.Context, js jetstream.JetStream) error {
	for _, name := range []string{hubstore.QuestionsBucket, hubstore.AnswersBucket} {
		st, err := js.Stream(ctx, "KV_"+name)
		if err != nil {
			return err
		}
		cfg := st.CachedInfo().Config
		if cfg.MaxBytes == hubstore.BucketBytes {
			continue
		}
		cfg.MaxBytes = hubstore.BucketBytes
		if _, err := js.UpdateStream(ctx, cfg); err != nil {
			return fmt.Errorf("bound the bucket %s to %d bytes: %w", name, hubstore.BucketBytes, err)
		}
	}
	return nil
}
