package popup

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/askuser/askuser/internal/safetext"
)

// Launcher starts a command in a popup window on the user's terminal.
// Tmux is the one launcher so far; zellij, kitty or wezterm can follow.
type Launcher interface {
	// Launch starts argv in a new popup and returns at once. It starts
	// nothing when ctx is done.
	Launch(ctx context.Context, argv []string) (Window, error)
}

// Window is a popup started by a Launcher.
type Window interface {
	// Done is closed when the popup has closed.
	Done() <-chan struct{}
	// Err says, once Done is closed, why the popup could not be shown,
	// or returns nil when it closed normally.
	Err() error
	// Close closes the popup if it is still open, ends its command, and
	// returns when it is gone. It is safe to call more than once.
	Close() error
}

// Tmux opens popups with tmux display-popup on the pane the process runs
// in. Its zero value is not usable: Pane must be set.
type Tmux struct {
	// Path is the tmux binary; "" means "tmux" on the PATH.
	Path string
	// Pane is the target pane, normally $TMUX_PANE.
	Pane string
	// Env is the environment of the tmux commands, which must name the
	// tmux server in TMUX; nil means the process's own.
	Env []string
	// Width and Height are the popup's size, as display-popup takes
	// them; "" means 90% and 80%.
	Width, Height string
}

// closeGrace is how long a popup whose helper was told to stop may take
// to close by itself before it is closed by force.
const closeGrace = 2 * time.Second

// Launch implements Launcher: tmux display-popup -E runs argv and closes
// the popup when argv exits. display-popup returns when the popup closes.
// Launch starts nothing and returns context.Cause(ctx) when ctx is done.
func (t *Tmux) Launch(ctx context.Context, argv []string) (Window, error) {
	if t.Pane == "" {
		return nil, errors.New("popup: no tmux pane to show the popup on")
	}
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	w, h := t.Width, t.Height
	if w == "" {
		w = "90%"
	}
	if h == "" {
		h = "80%"
	}
	args := append([]string{"display-popup", "-E", "-t", t.Pane, "-w", w, "-h", h, "--"}, argv...)
	cmd := exec.Command(t.path(), args...)
	cmd.Env = t.Env
	win := &tmuxWindow{t: t, cmd: cmd, done: make(chan struct{})}
	cmd.Stderr = &win.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("popup: starting tmux: %w", err)
	}
	go func() {
		if err := cmd.Wait(); err != nil {
			if said := bytes.TrimSpace(win.stderr.Bytes()); len(said) > 0 {
				win.err = fmt.Errorf("tmux display-popup: %v: %s", err, safetext.Line(string(said)))
			} else {
				win.err = fmt.Errorf("tmux display-popup ended (%v) and tmux gave no reason; the client showing the popup may have detached or closed it", err)
			}
		}
		close(win.done)
	}()
	return win, nil
}

// Attached reports whether a tmux client is attached to the session of
// t's pane: a popup opens on a client, and with none it shows nowhere.
func (t *Tmux) Attached() (bool, error) {
	cmd := exec.Command(t.path(), "display-message", "-p", "-t", t.Pane, "#{session_attached}")
	cmd.Env = t.Env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if said := bytes.TrimSpace(stderr.Bytes()); len(said) > 0 {
			return false, fmt.Errorf("%v: %s", err, safetext.Line(string(said)))
		}
		return false, err
	}
	n, err := strconv.Atoi(string(bytes.TrimSpace(out)))
	if err != nil {
		return false, fmt.Errorf("tmux reported %q clients", bytes.TrimSpace(out))
	}
	return n > 0, nil
}

func (t *Tmux) path() string {
	if t.Path == "" {
		return "tmux"
	}
	return t.Path
}

type tmuxWindow struct {
	t      *Tmux
	cmd    *exec.Cmd
	done   chan struct{}
	stderr bytes.Buffer
	err    error // set before done is closed

	once     sync.Once
	closeErr error
}

func (w *tmuxWindow) Done() <-chan struct{} { return w.done }

func (w *tmuxWindow) Err() error {
	select {
	case <-w.done:
		return w.err
	default:
		return nil
	}
}

// Close waits a moment for the popup to close by itself, then closes it
// with display-popup -C, which ends its command, and finally kills the
// display-popup client.
func (w *tmuxWindow) Close() error {
	w.once.Do(func() {
		select {
		case <-w.done:
			return
		case <-time.After(closeGrace):
		}
		c := exec.Command(w.t.path(), "display-popup", "-C", "-t", w.t.Pane)
		c.Env = w.t.Env
		if out, err := c.CombinedOutput(); err != nil {
			w.closeErr = fmt.Errorf("popup: closing the tmux popup: %v: %s", err, out)
		}
		select {
		case <-w.done:
		case <-time.After(closeGrace):
			w.cmd.Process.Kill()
			<-w.done
		}
	})
	return w.closeErr
}
