package notify

import (
	"os"

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
