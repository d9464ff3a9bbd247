package popup

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/prefs"
)

// PaneTerminal is implemented by a Launcher whose popups open over a
// pane with a terminal of its own, such as a tmux pane. The Renderer
// sends a questionnaire's notifications there, not to the popup: tmux
// 3.3 passes neither a popup's bell nor its passthrough to the user's
// terminal, and a popup has no title of its own.
type PaneTerminal interface {
	// PaneTerminal opens the pane's terminal for writing.
	PaneTerminal() (*os.File, error)
}

// PaneTerminal implements PaneTerminal: the pane's pty (#{pane_tty}).
// What is written there reaches tmux as if the pane's program had
// written it, and tmux rings the window's bell, passes the desktop
// notification on to the user's terminal and shows the pane's title.
func (t *Tmux) PaneTerminal() (*os.File, error) {
	if t.Pane == "" {
		return nil, errors.New("popup: no tmux pane to notify on")
	}
	out, err := t.run("display-message", "-p", "-t", t.Pane, "#{pane_tty}")
	if err != nil {
		return nil, err
	}
	path := strings.TrimSpace(out)
	if !strings.HasPrefix(path, "/dev/") {
		return nil, fmt.Errorf("popup: tmux names no terminal for pane %s", t.Pane)
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
}

// notifyOpen attaches the notifications of a questionnaire of subject
// whose deadline cd reports, as the user's preferences np ask, to
// the pane's terminal when the launcher has one, and returns what ends
// them. A terminal that cannot be opened is reported to Warn, and the
// call goes on without them. The popup of either contract calls it once
// per questionnaire.
func (r *Renderer) notifyOpen(np prefs.NotifyPrefs, subject notify.Subject, cd notify.Deadline) (stop func()) {
	pt, ok := r.launcher.(PaneTerminal)
	if !ok {
		return func() {}
	}
	return notify.Attach(notify.Output{
		Environ: r.environ(),
		Open:    func() (io.WriteCloser, error) { return pt.PaneTerminal() },
		Report: func(err error) {
			if r.opts.Warn != nil {
				r.opts.Warn(fmt.Errorf("the pane cannot be told that a question is waiting: %w", err))
			}
		},
	}, np, subject, cd)
}

func (r *Renderer) environ() []string {
	if r.opts.Environ != nil {
		return r.opts.Environ
	}
	return os.Environ()
}
