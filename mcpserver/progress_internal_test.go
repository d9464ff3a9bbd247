package mcpserver

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recorder records the progress values of the notifications sent.
type recorder struct {
	mu   sync.Mutex
	sent []float64
}

func (r *recorder) NotifyProgress(_ context.Context, p *mcp.ProgressNotificationParams) error {
	runtime.Gosched() // let another send overtake this one if it can
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, p.Progress)
	return nil
}

func TestProgressSends(t *testing.T) {
	rec := &recorder{}
	p := &progress{session: rec, token: "t", interval: time.Hour, start: time.Now(), stopped: make(chan struct{}), done: make(chan struct{})}
	close(p.done) // no ticker: the sends below are the only ones
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() { p.started(nil) })
	}
	wg.Wait()
	p.stop()
	p.started(nil)
	p.waitingForTurn()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.sent) != 50 {
		t.Errorf("%d notifications; want 50, and none after stop", len(rec.sent))
	}
	for i := 1; i < len(rec.sent); i++ {
		if rec.sent[i] <= rec.sent[i-1] {
			t.Fatalf("progress does not increase at notification %d: %v", i, rec.sent)
		}
	}
}
