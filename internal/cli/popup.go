package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/config"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/popup"
)

const popupUsage = `usage: askuser popup --socket PATH

Show the questionnaire of a waiting askuser mcp in this terminal and send
the answer back over its socket. askuser mcp starts this command in a
terminal popup; it is not meant to be run by hand.

flags:
`

// popupRenderer binds the custom route of askuser mcp: askuser's own
// dialog in a tmux popup on the pane the server runs in. It returns nil
// and the reason when the popup cannot run.
func popupRenderer(env *Env) (ask.Renderer, string) {
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if getenv("TMUX") == "" {
		return nil, "the server does not run inside tmux ($TMUX is not set)"
	}
	pane := getenv("TMUX_PANE")
	if pane == "" {
		return nil, "$TMUX_PANE is not set, so there is no pane to open the popup on"
	}
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		return nil, "tmux is not on the PATH: " + err.Error()
	}
	self, err := os.Executable()
	if err != nil {
		return nil, "the askuser binary cannot be found to run in the popup: " + err.Error()
	}
	t := &popup.Tmux{Path: tmux, Pane: pane}
	attached, err := t.Attached()
	switch {
	case err != nil:
		return nil, fmt.Sprintf("tmux cannot say whether a client shows pane %s: %v", pane, err)
	case !attached:
		return nil, fmt.Sprintf("no tmux client is attached to the session of pane %s, so a popup would show nowhere", pane)
	}
	return popup.NewRenderer(t, []string{self, "popup"}), ""
}

func runPopup(ctx context.Context, env *Env, args []string) int {
	var sock string
	fs := newFlagSet("popup", env, popupUsage, func(fs *flag.FlagSet) {
		fs.StringVar(&sock, "socket", "", "the socket of the waiting server")
	})
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if sock == "" || fs.NArg() > 0 {
		return usageError(env, "popup", "give --socket PATH and nothing else")
	}
	conn, job, err := popup.Dial(ctx, sock)
	if err != nil {
		fmt.Fprintf(env.Stderr, "askuser popup: %v\n", err)
		return ExitError
	}
	defer conn.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-conn.Gone():
			cancel()
		case <-ctx.Done():
		}
	}()

	caps, closeTTY := terminalCapabilities()
	defer closeTTY()
	if caps.Custom != nil {
		caps.Custom = countdownWatch{r: caps.Custom, report: conn.Report, stderr: env.Stderr}
	}
	res := ask.NewAsker(ask.NewHost(caps, popupHostOptions(job)), nil).Ask(ctx, job.Request, nil)
	var rep popup.Report
	switch {
	case res.Status == contract.StatusAnswered:
		rep = popup.Report{Type: popup.ReportOutcome, Answers: res.Answers}
	case res.Status == contract.StatusAborted && res.CancelledReason == contract.CancelUser:
		rep = popup.Report{Type: popup.ReportOutcome, Dismissed: true}
	case res.Status == contract.StatusError && res.Error != nil:
		rep = popup.Report{Type: popup.ReportError, Message: string(res.Error.Code) + ": " + res.Error.Message}
	default:
		// Timed out or stopped: the server has decided already.
		return 0
	}
	if err := conn.Report(rep); err != nil && ctx.Err() == nil {
		fmt.Fprintf(env.Stderr, "askuser popup: sending the answer: %v\n", err)
		return ExitError
	}
	return 0
}

// popupHostOptions are the preferences the server resolved, passed on so
// that the popup shows the same dialog with the same time left. The
// server's deadline is the one that counts; the popup's own ends a moment
// later at most. The popup is the custom route: the mode is custom, so a
// dialog that cannot run is reported, never replaced by line prompts.
func popupHostOptions(job popup.Job) *ask.HostOptions {
	var per int64
	if job.RemainingMs > 0 {
		n := int64(len(job.Request.Questions))
		per = (job.RemainingMs + n - 1) / n
	}
	toggle := job.ToggleKey
	return &ask.HostOptions{Options: config.Prefs{Mode: contract.RouteCustom, DisplayMode: job.Display, TimeoutPerQuestionMs: &per, ToggleKey: &toggle}}
}

// countdownWatch tells the server when the user stops the countdown in
// the popup, so that the server's deadline stops too.
type countdownWatch struct {
	r      ask.Renderer
	report func(popup.Report) error // conn.Report
	stderr io.Writer
}

const countdownPoll = 100 * time.Millisecond

func (w countdownWatch) Render(ctx context.Context, s *ask.Session) (ask.Outcome, error) {
	if _, ok := s.Countdown.Deadline(); ok {
		done := make(chan struct{})
		defer close(done)
		go func() {
			t := time.NewTicker(countdownPoll)
			defer t.Stop()
			for {
				select {
				case <-done:
					return
				case <-t.C:
					// Deadline keeps reporting a deadline that has passed;
					// only a cancel, the user stopping the countdown,
					// clears it.
					if _, ok := s.Countdown.Deadline(); !ok {
						if err := w.report(popup.Report{Type: popup.ReportCountdownCancelled}); err != nil {
							fmt.Fprintf(w.stderr, "askuser popup: telling the server the countdown stopped: %v\n", err)
						}
						return
					}
				}
			}
		}()
	}
	return w.r.Render(ctx, s)
}
