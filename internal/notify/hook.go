package notify

import (
	"context"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
)

// The host names the notify command is told.
const (
	HostTerminal = "terminal"
	HostPi       = "pi"
	HostMCP      = "mcp"
)

// EventOf is the Event of the opening o on host.
func EventOf(o ask.Opening, host string) Event {
	return Event{Header: o.Header, Questions: o.Questions, Deadline: o.Deadline, Host: host, Route: string(o.Route), Tool: o.Tool}
}

// Commands runs the notify command for each questionnaire that opens on
// a host, and keeps them so that the host can wait for them, for their
// failures to be reported, and stop them when it exits: a notify command
// never outlives its host. It is safe for concurrent use. Make one with
// NewCommands; the zero value is not usable.
type Commands struct {
	host   string
	report func(error)
	limit  time.Duration

	mu      sync.Mutex
	runs    []*Run
	stopped bool
}

// NewCommands returns the Commands of host (HostTerminal, HostPi or
// HostMCP), reporting each failure to report, as Command does.
func NewCommands(host string, report func(error)) *Commands {
	return &Commands{host: host, report: report, limit: CommandTimeout}
}

// OnOpen returns an ask.Options.OnOpen that runs argv, in the process's
// environment, for each questionnaire that opens, or nil when argv is
// empty. After Stop it runs nothing.
func (c *Commands) OnOpen(argv []string) func(ask.Opening) {
	if len(argv) == 0 {
		return nil
	}
	argv = append([]string{}, argv...)
	return func(o ask.Opening) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.stopped {
			return
		}
		// Keep the commands that run, or whose group may still hold
		// what they started.
		c.runs = slices.DeleteFunc(c.runs, func(r *Run) bool { return isClosed(r.done) && isClosed(r.claimed) })
		c.runs = append(c.runs, start(argv, os.Environ(), EventOf(o, c.host), c.report, c.limit))
	}
}

// Wait waits until every command started so far has ended, d has passed
// or ctx is done, and reports whether they all ended. It stops nothing.
func (c *Commands) Wait(ctx context.Context, d time.Duration) bool {
	c.mu.Lock()
	runs := slices.Clone(c.runs)
	c.mu.Unlock()
	limit := time.NewTimer(d)
	defer limit.Stop()
	for _, r := range runs {
		select {
		case <-r.Done():
		case <-limit.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// Stop stops every command still running, and what it started, as
// Run.Stop does, all at once, and returns when they have ended or at most
// 2×StopGrace later. No command starts after it.
func (c *Commands) Stop() {
	c.mu.Lock()
	c.stopped = true
	runs := slices.Clone(c.runs)
	c.runs = nil
	c.mu.Unlock()
	var wg sync.WaitGroup
	for _, r := range runs {
		wg.Go(r.Stop)
	}
	wg.Wait()
}

// Close waits, as Wait does, for the commands started so far, at most d
// or until ctx is done, then stops what still runs, as Stop does. A host
// that reports the commands' failures after its result calls it before
// it exits.
func (c *Commands) Close(ctx context.Context, d time.Duration) {
	c.Wait(ctx, d)
	c.Stop()
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
