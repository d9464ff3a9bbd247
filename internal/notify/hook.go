package notify

import (
	"os"
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

// OnOpen returns an ask.Options.OnOpen that runs the notify command argv
// for each questionnaire that opens on host (HostTerminal, HostPi or
// HostMCP), in the process's environment, or nil when argv is empty.
// report is told of each failure, as by Command.
func OnOpen(argv []string, host string, report func(error)) func(ask.Opening) {
	if len(argv) == 0 {
		return nil
	}
	argv = append([]string{}, argv...)
	return func(o ask.Opening) {
		Command(argv, os.Environ(), EventOf(o, host), report)
	}
}

// EventOf is the Event of the opening o on host.
func EventOf(o ask.Opening, host string) Event {
	return Event{Header: o.Header, Questions: o.Questions, Deadline: o.Deadline, Host: host, Route: string(o.Route), Tool: o.Tool}
}

// Commands runs the notify command for each questionnaire that opens, as
// OnOpen does, and lets a host that exits when its call ends wait for the
// commands still running, so that their failures are reported.
type Commands struct {
	argv   []string
	host   string
	report func(error)

	mu      sync.Mutex
	running []<-chan struct{}
}

// NewCommands returns the Commands of argv on host, reporting failures
// to report.
func NewCommands(argv []string, host string, report func(error)) *Commands {
	return &Commands{argv: append([]string{}, argv...), host: host, report: report}
}

// OnOpen returns the ask.Options.OnOpen that runs the command, or nil
// when there is no command.
func (c *Commands) OnOpen() func(ask.Opening) {
	if len(c.argv) == 0 {
		return nil
	}
	return func(o ask.Opening) {
		done := Command(c.argv, os.Environ(), EventOf(o, c.host), c.report)
		c.mu.Lock()
		c.running = append(c.running, done)
		c.mu.Unlock()
	}
}

// Wait waits up to d for every command started so far to end, and
// reports whether they all did. A command still running after d is left
// to end on its own.
func (c *Commands) Wait(d time.Duration) bool {
	c.mu.Lock()
	running := append([]<-chan struct{}{}, c.running...)
	c.mu.Unlock()
	limit := time.NewTimer(d)
	defer limit.Stop()
	for _, done := range running {
		select {
		case <-done:
		case <-limit.C:
			return false
		}
	}
	return true
}
