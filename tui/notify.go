package tui

import (
	"io"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/prefs"
)

// alerts route the notifications of one questionnaire, which tell the
// user that it waits: straight to the terminal while no program draws on
// it, and through the running program otherwise, so that they never
// split one of its frames. A nil *alerts routes nothing.
type alerts struct {
	out io.Writer // where to write while p is nil; nil drops

	mu sync.Mutex
	p  *tea.Program // the program drawing, or nil
}

// notifying returns o set to carry the notifications of a questionnaire
// (the user's preferences np, its subject, its deadline cd) to out and through the
// programs run with it, and what ends them, to call once the
// questionnaire is over. The renderer of either contract calls it once
// per questionnaire, before its first run.
func notifying(o Options, out io.Writer, np prefs.NotifyPrefs, subject notify.Subject, cd notify.Deadline) (Options, func()) {
	o.alerts = &alerts{out: out}
	return o, notify.Attach(notify.Output{Environ: o.Environ, Write: o.alerts.write}, np, subject, cd)
}

// attach routes the notifications through p while it runs; nil, once
// it has ended, routes them to the terminal again.
func (a *alerts) attach(p *tea.Program) {
	if a == nil {
		return
	}
	a.mu.Lock()
	a.p = p
	a.mu.Unlock()
}

func (a *alerts) write(seq string) {
	a.mu.Lock()
	p := a.p
	a.mu.Unlock()
	switch {
	case p != nil:
		// Send blocks until the program takes it, or returns once it
		// has ended.
		go p.Send(tea.RawMsg{Msg: seq})
	case a.out != nil:
		_, _ = io.WriteString(a.out, seq)
	}
}
