package mcpserver

import (
	"crypto/rand"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
)

// newSessionHost binds a session's host to an Asker that runs the user's
// notify command as each questionnaire opens, on every route. A modern
// native session's questionnaire opens on its first round instead.
func (s *Server) newSessionHost(host *ask.Host, modern bool) *sessionHost {
	h := &sessionHost{id: rand.Text(), modern: modern}
	h.onOpen = s.commands.OnOpen(host.Preferences().Notify.Command)
	opts := &ask.Options{OnOpen: h.onOpen}
	if route, _ := host.Route(); modern && route == contract.RouteNative {
		opts.OnOpen = nil
	}
	h.asker = ask.NewAsker(host, opts)
	return h
}

// openedForm runs the notify command for o, a questionnaire sent as a
// form whose deadline is total from now (none for 0).
func (h *sessionHost) openedForm(o ask.Opening, total time.Duration) {
	if h.onOpen == nil {
		return
	}
	if total > 0 {
		o.Deadline = time.Now().Add(total)
	}
	h.onOpen(o)
}
