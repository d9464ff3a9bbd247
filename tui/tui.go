// Package tui shows the questionnaire dialog on a real terminal. A
// Renderer runs one Bubble Tea program per questionnaire, hosting
// askuser's dialog on the terminal it was given: Render is the terminal
// host's custom route for ask_user, and RenderQuestions for
// AskUserQuestion.
//
// The dialog is drawn either inline, below the prompt, leaving a one-line
// summary behind, or as an overlay: a centred box on the alternate screen
// that leaves the screen as it was. The overlay's toggle key hides it to
// show the normal screen, with a one-line notice, and the same key brings
// it back. The deadline keeps running while it is hidden. A hidden dialog
// takes no keys, so nothing changes out of sight, except Esc and Ctrl+C,
// which dismiss it as they do when it is shown.
//
// A Popup is the same dialog for a terminal made to hold it, such as a
// tmux popup: Fit sizes the terminal to the questionnaire, the box fills
// it, and the toggle key ends Show so that the host can close the
// terminal, which would otherwise cover the screen, and Show the dialog
// again later, as it was.
package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/dialog"
	"github.com/askuser/askuser/internal/notify"
)

// Options configures a Renderer. A nil *Options means the defaults.
type Options struct {
	// Theme supplies the dialog's colours; nil means DefaultTheme().
	// Bubble Tea still lowers colours to what the terminal supports.
	Theme *Theme
	// Environ is the environment used to detect the terminal's colour
	// support; nil means the process's own.
	Environ []string
	// Width and Height are the size to assume when the output is not a
	// terminal whose size can be read, as in tests. If either is zero the
	// size assumed is 80×24.
	Width, Height int

	alerts *alerts // the call's notifications, for run
}

// ErrClosed is returned by Render after Close.
var ErrClosed = errors.New("tui: the renderer is closed")

// The size assumed when the output's own cannot be read.
const defaultWidth, defaultHeight = 80, 24

// stopGrace is how long a program may take to draw its last frame and
// restore the terminal after its context is done before it is killed. It
// is well inside the half second that cmd/askuser gives a command after a
// signal, so the terminal is restored before the process is made to exit.
const stopGrace = 300 * time.Millisecond

// Renderer draws questionnaires on one terminal. Render calls take turns:
// one program owns the terminal at a time. Close waits for a running
// program to restore the terminal. The zero Renderer is not usable; make
// one with New.
type Renderer struct {
	in   io.Reader
	out  io.Writer
	opts Options

	mu      sync.Mutex // held while a program runs
	closeMu sync.Mutex
	closed  bool
}

// New returns a Renderer that reads keys from in and draws on out,
// normally both the controlling terminal (an *os.File), which Bubble Tea
// then puts in raw mode for the duration of each Render.
func New(in io.Reader, out io.Writer, opts *Options) *Renderer {
	r := &Renderer{in: in, out: out}
	if opts != nil {
		r.opts = *opts
	}
	return r
}

// Render shows s's questionnaire until the user submits or dismisses it,
// or ctx is done. When ctx is done it stops the program at once, leaves
// the terminal as it found it (with the summary line in inline mode) and
// returns context.Cause(ctx). An error from the terminal is returned as
// is; the core reports it as custom_ui_failed.
func (r *Renderer) Render(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
	return renderOn(ctx, r, s, notify.Subject{Header: s.Request.Header}, func() dialogModel[[]contract.Answer] { return newModel(s, r.theme()) })
}

// renderOn is Render for the dialog of any contract: it takes the
// terminal, tells the user that the questionnaire of subject waits, and
// runs the model newModel makes.
func renderOn[Req, Ans any](ctx context.Context, r *Renderer, s *ask.Session[Req], subject notify.Subject, newModel func() dialogModel[Ans]) (ask.Outcome[Ans], error) {
	release, err := r.take(ctx)
	if err != nil {
		return ask.Outcome[Ans]{}, err
	}
	defer release()

	m := newModel()
	o, quiet := notifying(r.opts, r.out, s.Notify, subject, s.Countdown)
	defer quiet()
	out, err := run(ctx, m, r.in, r.out, o, nil)
	if errors.Is(err, errHiddenQuit) {
		err = errors.New("tui: the dialog ended hidden")
	}
	return out, err
}

// take waits for the terminal to be free and takes it, unless ctx is
// done (context.Cause) or the renderer is closed (ErrClosed). release
// frees it.
func (r *Renderer) take(ctx context.Context) (release func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, context.Cause(ctx)
	}
	r.mu.Lock()
	if r.isClosed() {
		r.mu.Unlock()
		return nil, ErrClosed
	}
	return r.mu.Unlock, nil
}

// errHiddenQuit is run's error when a popup's model quit because the user
// hid it.
var errHiddenQuit = errors.New("tui: hidden")

// run runs one Bubble Tea program for m on in and out until the user
// ends the dialog, hides a popup's dialog (errHiddenQuit), or ctx is
// done (context.Cause). Each value on resize makes it read out's size
// again, for a terminal whose size changes reach another process.
func run[Ans any](ctx context.Context, m dialogModel[Ans], in io.Reader, out io.Writer, o Options, resize <-chan struct{}) (ask.Outcome[Ans], error) {
	final, err := runProgram(ctx, m, in, out, o, resize)
	if fm, ok := final.(dialogModel[Ans]); ok {
		m = fm
	}
	if err != nil {
		return ask.Outcome[Ans]{}, err
	}
	switch e := m.ended(); {
	case e.hid:
		return ask.Outcome[Ans]{}, errHiddenQuit
	case !e.finished:
		return ask.Outcome[Ans]{}, errors.New("tui: the dialog ended without an answer")
	default:
		return e.outcome, nil
	}
}

// runProgram runs one Bubble Tea program for m, as run describes, and
// returns its final model. The error is context.Cause(ctx) when ctx is
// done, and the terminal's error, wrapped, when the program failed.
func runProgram(ctx context.Context, m tea.Model, in io.Reader, out io.Writer, o Options, resize <-chan struct{}) (tea.Model, error) {
	opts := []tea.ProgramOption{
		tea.WithInput(in),
		tea.WithOutput(out),
		// Signals belong to the caller: the CLI turns SIGINT and SIGTERM
		// into a cancelled context, which ends the program below. In raw
		// mode Ctrl+C is a key, and the dialog reads it as Esc.
		tea.WithoutSignalHandler(),
	}
	if o.Environ != nil {
		opts = append(opts, tea.WithEnvironment(o.Environ))
	}
	// A terminal's own size wins over this one.
	w, h := o.Width, o.Height
	if w <= 0 || h <= 0 {
		w, h = defaultWidth, defaultHeight
	}
	opts = append(opts, tea.WithWindowSize(w, h))
	p := tea.NewProgram(m, opts...)
	o.alerts.attach(p)
	defer o.alerts.attach(nil)

	finished := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for {
			select {
			case <-finished:
				return
			case <-resize:
				if f, ok := out.(interface{ Fd() uintptr }); ok {
					if w, h, err := term.GetSize(f.Fd()); err == nil {
						go p.Send(tea.WindowSizeMsg{Width: w, Height: h})
					}
				}
				continue
			case <-ctx.Done():
			}
			// Let the model draw its last frame and quit on its own, so
			// the terminal is restored the usual way; kill it if it
			// cannot.
			go p.Send(stopMsg{cause: context.Cause(ctx)})
			t := time.NewTimer(stopGrace)
			defer t.Stop()
			select {
			case <-finished:
			case <-t.C:
				p.Kill()
			}
			return
		}
	}()
	final, err := p.Run()
	close(finished)
	<-watched

	if ctx.Err() != nil {
		return final, context.Cause(ctx)
	}
	if err != nil {
		return final, fmt.Errorf("showing the dialog on the terminal: %w", err)
	}
	return final, nil
}

// Close waits for a running Render to give the terminal back, and makes
// later Render calls fail with ErrClosed. A Render ends when its context
// is done, so Close returns promptly once the core has settled the call.
// Close does not close the terminal. It is idempotent and safe to call
// from any goroutine.
func (r *Renderer) Close() error {
	r.closeMu.Lock()
	r.closed = true
	r.closeMu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	return nil
}

func (r *Renderer) isClosed() bool {
	r.closeMu.Lock()
	defer r.closeMu.Unlock()
	return r.closed
}

func (r *Renderer) theme() dialog.Theme {
	return dialogTheme(r.opts.Theme)
}

// overlay reports whether s asks for the overlay.
func overlay(s *ask.Session[*contract.Request]) bool { return s.Display != contract.DisplayInline }

var _ ask.Renderer[*contract.Request, []contract.Answer] = (*Renderer)(nil)

// stopMsg tells the model that the call is over for cause.
type stopMsg struct{ cause error }

// newDialog builds the dialog for s.
func newDialog(s *ask.Session[*contract.Request], th dialog.Theme) *dialog.Model {
	ov := overlay(s)
	toggle := ""
	if ov {
		toggle = s.ToggleKey
	}
	return dialog.New(s.Request, &dialog.Options{
		Theme:     th,
		Countdown: countdownOf(s.Countdown),
		ToggleKey: toggle,
		Overlay:   ov,
		Title:     "askuser",
	})
}

// countdownOf is c as a dialog takes it: a nil interface for no
// countdown.
func countdownOf(c *ask.Countdown) dialog.Countdown {
	if c == nil {
		return nil
	}
	return c
}
