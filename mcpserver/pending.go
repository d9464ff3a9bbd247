package mcpserver

import (
	"sync"
	"time"
)

// pending counts work in progress, such as renders still tearing down or
// requests not yet answered, so that a stopping server can wait for it.
// Unlike a sync.WaitGroup, it may be waited on while work starts.
type pending struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed while n is 0
}

func newPending() *pending {
	p := &pending{idle: make(chan struct{})}
	close(p.idle)
	return p
}

// add changes the count by d, +1 as work starts and -1 as it ends.
func (p *pending) add(d int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n == 0 {
		p.idle = make(chan struct{})
	}
	p.n += d
	if p.n == 0 {
		close(p.idle)
	}
}

// wait returns true when nothing is in progress, or false after d.
func (p *pending) wait(d time.Duration) bool {
	p.mu.Lock()
	idle := p.idle
	p.mu.Unlock()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-idle:
		return true
	case <-t.C:
		return false
	}
}
