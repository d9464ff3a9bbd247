package popup

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/internal/safetext"
)

// Launcher starts a command in a popup window on the user's terminal.
// Tmux is the one launcher so far; zellij, kitty or wezterm can follow.
type Launcher interface {
	// Launch starts argv in a new popup and returns at once. fit gives
	// the popup's size, border included, from the largest the terminal
	// allows. It starts nothing when ctx is done.
	Launch(ctx context.Context, argv []string, fit func(maxW, maxH int) (w, h int)) (Window, error)
	// Hideable says why key cannot bring a hidden dialog back, or
	// returns nil when it can.
	Hideable(key string) error
	// Hide is called when the user has hidden the dialog and its popup
	// has closed: it makes key launch argv in a new popup, sized by fit,
	// and tells the user so. The returned undo gives key back what it
	// did before; it is called once, when a popup connects again or the
	// call ends.
	Hide(argv []string, fit func(maxW, maxH int) (w, h int), key string) (undo func() error, err error)
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
// in, on the tmux client that shows the pane's session (the one used
// last, if several do). A popup has no border of tmux's own (-B): the
// dialog draws its box itself. It needs tmux 3.2 or later. Its zero value
// is not usable: Pane must be set.
type Tmux struct {
	// Path is the tmux binary; "" means "tmux" on the PATH.
	Path string
	// Pane is the target pane, normally $TMUX_PANE.
	Pane string
	// Env is the environment of the tmux commands, which must name the
	// tmux server in TMUX; nil means the process's own.
	Env []string
}

// closeGrace is how long a popup whose helper was told to stop may take
// to close by itself before it is closed by force.
const closeGrace = 2 * time.Second

// Launch implements Launcher: tmux display-popup -E runs argv and closes
// the popup when argv exits. display-popup returns when the popup closes.
// Launch starts nothing and returns context.Cause(ctx) when ctx is done,
// and returns an error when the pane is gone or no client shows it.
func (t *Tmux) Launch(ctx context.Context, argv []string, fit func(maxW, maxH int) (w, h int)) (Window, error) {
	if t.Pane == "" {
		return nil, errors.New("popup: no tmux pane to show the popup on")
	}
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	cw, ch, err := t.client()
	if err != nil {
		return nil, err
	}
	w, h := fit(cw, ch)
	cmd := exec.Command(t.path(), t.popupArgs(argv, w, h)...)
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

// popupArgs are the arguments of display-popup running argv in a w×h
// popup. The command is one shell word list: tmux 3.2 runs only the
// first argument after the flags.
func (t *Tmux) popupArgs(argv []string, w, h int) []string {
	return []string{"display-popup", "-B", "-E", "-t", t.Pane, "-w", strconv.Itoa(w), "-h", strconv.Itoa(h), shellQuote(argv)}
}

// Check reports why a popup cannot open on t's pane, or returns nil: the
// pane must exist, a client must show its session, and tmux must have
// display-popup with -B (tmux 3.2 or later). It runs tmux once.
func (t *Tmux) Check() error {
	out, err := t.run("display-message", "-p", "-t", t.Pane, clientFormat, ";", "list-commands", "display-popup")
	if err != nil {
		if strings.Contains(err.Error(), "display-popup") {
			return t.tooOld()
		}
		return err
	}
	first, usage, _ := strings.Cut(out, "\n")
	if _, _, err := t.parseClient(first); err != nil {
		return err
	}
	// A tmux without display-popup lists nothing for it.
	if !strings.Contains(usage, "-B") {
		return t.tooOld()
	}
	return nil
}

func (t *Tmux) tooOld() error {
	v, err := t.run("-V")
	if err != nil {
		v = "this tmux"
	}
	return fmt.Errorf("%s has no display-popup -B, which came in tmux 3.2", strings.TrimSpace(v))
}

// clientFormat asks tmux about the pane and the client that shows it.
const clientFormat = "#{pane_id} #{session_attached} #{client_width} #{client_height}"

// client returns the size of the tmux client that shows t's pane, or why
// there is none.
func (t *Tmux) client() (w, h int, err error) {
	out, err := t.run("display-message", "-p", "-t", t.Pane, clientFormat)
	if err != nil {
		return 0, 0, err
	}
	return t.parseClient(out)
}

// parseClient reads tmux's answer to clientFormat.
func (t *Tmux) parseClient(out string) (w, h int, err error) {
	f := strings.Fields(out)
	if len(f) == 0 || f[0] != t.Pane {
		// tmux 3.3 prints an empty line, and succeeds, for a pane that
		// is gone.
		return 0, 0, fmt.Errorf("tmux pane %s, where askuser was started, no longer exists", safetext.Line(t.Pane))
	}
	if len(f) < 2 || f[1] == "0" {
		return 0, 0, fmt.Errorf("no tmux client is attached to the session of pane %s, so a popup would show nowhere", t.Pane)
	}
	if len(f) != 4 {
		return 0, 0, fmt.Errorf("tmux gave no size for the client showing pane %s: %q", t.Pane, safetext.Line(out))
	}
	w, errW := strconv.Atoi(f[2])
	h, errH := strconv.Atoi(f[3])
	if errW != nil || errH != nil || w <= 0 || h <= 0 {
		return 0, 0, fmt.Errorf("tmux gave a bad size for the client showing pane %s: %q", t.Pane, safetext.Line(out))
	}
	return w, h, nil
}

// run runs tmux with args and returns what it printed. Its error always
// says what tmux was asked and why it failed.
func (t *Tmux) run(args ...string) (string, error) {
	cmd := exec.Command(t.path(), args...)
	cmd.Env = t.Env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if said := bytes.TrimSpace(stderr.Bytes()); len(said) > 0 {
			return string(out), fmt.Errorf("tmux %s: %s", args[0], safetext.Line(string(said)))
		}
		return string(out), fmt.Errorf("tmux %s failed (%v) and gave no reason", args[0], err)
	}
	return string(out), nil
}

// Hideable implements Launcher: tmux must have a name for key.
func (t *Tmux) Hideable(key string) error {
	_, err := TmuxKey(key)
	return err
}

// hiddenFor is how long tmux shows the message saying how to bring a
// hidden dialog back, in milliseconds.
const hiddenFor = 6000

// Hide implements Launcher: it binds key in tmux's root table, for every
// client of the server, to display-popup running argv, and shows a
// message on the client of t's pane saying which key brings the dialog
// back. undo binds the key again as tmux listed it before (list-keys), or
// unbinds it when it had no binding; when someone has bound the key anew
// in the meantime, undo leaves that binding alone.
func (t *Tmux) Hide(argv []string, fit func(maxW, maxH int) (w, h int), key string) (func() error, error) {
	tk, err := TmuxKey(key)
	if err != nil {
		return nil, err
	}
	cw, ch, err := t.client()
	if err != nil {
		return nil, err
	}
	w, h := fit(cw, ch)
	prev, err := t.run("list-keys", "-T", "root", tk)
	if err != nil {
		if !strings.Contains(err.Error(), "unknown key") {
			return nil, fmt.Errorf("reading the binding of %s: %w", tk, err)
		}
		prev = ""
	}
	bind := append([]string{"bind-key", "-T", "root", tk}, t.popupArgs(argv, w, h)...)
	if _, err := t.run(bind...); err != nil {
		return nil, fmt.Errorf("binding %s to bring the dialog back: %w", tk, err)
	}
	undo := func() error {
		now, err := t.run("list-keys", "-T", "root", tk)
		if err != nil && !strings.Contains(err.Error(), "unknown key") {
			return fmt.Errorf("reading the binding of %s to undo it: %w", tk, err)
		}
		if !strings.Contains(now, "--socket") || !strings.Contains(now, argv[len(argv)-1]) {
			return nil // bound anew by someone else
		}
		if strings.TrimSpace(prev) == "" {
			if _, err := t.run("unbind-key", "-T", "root", tk); err != nil {
				return fmt.Errorf("removing the binding of %s: %w", tk, err)
			}
			return nil
		}
		return t.source(prev)
	}
	msg := "askuser: the questions are hidden; " + key + " shows them again"
	if _, err := t.run("display-message", "-t", t.Pane, "-d", strconv.Itoa(hiddenFor), strings.ReplaceAll(msg, "#", "##")); err != nil {
		undo()
		return nil, fmt.Errorf("telling the user how to bring the dialog back: %w", err)
	}
	return undo, nil
}

// Tell implements Teller: it shows msg on the client of t's pane for a
// few seconds, as tmux shows its own messages.
func (t *Tmux) Tell(msg string) error {
	if _, err := t.run("display-message", "-t", t.Pane, "-d", strconv.Itoa(hiddenFor), strings.ReplaceAll(msg, "#", "##")); err != nil {
		return fmt.Errorf("telling the user that a question waits: %w", err)
	}
	return nil
}

// source runs tmux commands as tmux listed them (list-keys prints
// commands tmux can read back), from a file only the user can read.
func (t *Tmux) source(cmds string) error {
	f, err := os.CreateTemp("", "askuser-keys-")
	if err != nil {
		return fmt.Errorf("restoring a key binding: %w", err)
	}
	defer os.Remove(f.Name())
	_, err = f.WriteString(cmds)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("restoring a key binding: %w", err)
	}
	if _, err := t.run("source-file", f.Name()); err != nil {
		return fmt.Errorf("restoring the key binding %q: %w", safetext.Line(strings.TrimSpace(cmds)), err)
	}
	return nil
}

// shellQuote joins argv into one sh command line.
func shellQuote(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
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
		if _, err := w.t.run("display-popup", "-C", "-t", w.t.Pane); err != nil {
			w.closeErr = fmt.Errorf("popup: closing the tmux popup: %w", err)
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
