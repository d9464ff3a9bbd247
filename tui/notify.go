package tui

import (
	"io"
	"os"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/askuser/askuser/config"
	"github.com/askuser/askuser/internal/notify"
)

// alerts are the notifications of one questionnaire, which tell the user
// that it waits. They are written straight to the terminal while no
// program draws on it, and through the running program otherwise, so
// that they never split one of its frames. A nil *alerts sends nothing.
type alerts struct {
	n    *notify.Notifier
	cd   notify.Deadline
	home io.Writer // where to write between programs; nil drops

	mu   sync.Mutex
	out  io.Writer    // where to write now, while p is nil
	p    *tea.Program // the program drawing, or nil
	sess *notify.Session
}

// newAlerts returns the notifications of a questionnaire with header
// whose deadline cd reports, for a terminal whose programs see environ
// (nil for the process's own). home is where they are written while no
// program runs; nil drops them.
func newAlerts(prefs config.NotifyPrefs, environ []string, header string, cd notify.Deadline, home io.Writer) *alerts {
	if environ == nil {
		environ = os.Environ()
	}
	n := notify.New(prefs, notify.Detect(environ), header)
	if n.Off() {
		return nil
	}
	return &alerts{n: n, cd: cd, home: home}
}

// notifying returns o set to carry the notifications of a questionnaire
// (the user's prefs, its header, its deadline cd) to out and through the
// programs run with it, and what ends them, to call once the
// questionnaire is over. The renderer of either contract calls it once
// per questionnaire, before its first run.
func notifying(o Options, out io.Writer, prefs config.NotifyPrefs, header string, cd notify.Deadline) (Options, func()) {
	o.alerts = newAlerts(prefs, o.Environ, header, cd, out)
	o.alerts.open(out)
	return o, o.alerts.close
}

// open sends the opening notifications to out, the first time only.
func (a *alerts) open(out io.Writer) {
	if a == nil {
		return
	}
	a.mu.Lock()
	first := a.sess == nil
	if first {
		a.out = out
	}
	a.mu.Unlock()
	if first {
		sess := notify.Start(a.n, a.cd, a.write)
		a.mu.Lock()
		a.sess, a.out = sess, a.home
		a.mu.Unlock()
	}
}

// attach routes the notifications through p while it runs; nil, once
// it has ended, routes them to home again.
func (a *alerts) attach(p *tea.Program) {
	if a == nil {
		return
	}
	a.mu.Lock()
	a.p = p
	a.mu.Unlock()
}

// close cancels the reminder and restores the title.
func (a *alerts) close() {
	if a == nil {
		return
	}
	a.mu.Lock()
	sess := a.sess
	a.mu.Unlock()
	sess.Stop()
}

func (a *alerts) write(seq string) {
	a.mu.Lock()
	p, out := a.p, a.out
	a.mu.Unlock()
	switch {
	case p != nil:
		// Send blocks until the program takes it, or returns once it
		// has ended.
		go p.Send(tea.RawMsg{Msg: seq})
	case out != nil:
		_, _ = io.WriteString(out, seq)
	}
}
