package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/host/popup"
)

const popupUsage = `usage: askuser popup --socket PATH

Hand this terminal to a waiting askuser mcp, which shows its
questionnaire here, and stay until it is done. askuser mcp starts this
command in a terminal popup; it is not meant to be run by hand.

flags:
`

// popupCapabilities binds the custom route of askuser mcp: askuser's own
// dialog in a tmux popup on the pane the server runs in, for ask_user, or
// for AskUserQuestion when questions is set, and for AskUserQuestion as
// well when approvals is set, which shows the approve tool's approvals.
// Without a popup it binds none and says why.
func popupCapabilities(env *Env, questions, approvals bool) ask.Capabilities {
	r, why := tmuxPopup(env)
	if r == nil {
		return ask.Capabilities{CustomReason: why}
	}
	var caps ask.Capabilities
	if questions || approvals {
		caps = ask.Bind(caps, contract.RouteCustom, ask.AskUserQuestion, ask.RendererFunc[*auq.Request, auq.Result](r.RenderQuestions))
	}
	if !questions {
		caps = ask.Bind(caps, contract.RouteCustom, ask.AskUser, r)
	}
	return caps
}

// tmuxPopup is the tmux popup on the pane the server runs in, or nil and
// the reason it cannot run.
func tmuxPopup(env *Env) (*popup.Renderer, string) {
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
	if err := t.Check(); err != nil {
		return nil, err.Error()
	}
	warn := func(err error) { fmt.Fprintf(env.Stderr, "askuser mcp: %v\n", err) }
	return popup.NewRenderer(t, []string{self, "popup"}, &popup.Options{Warn: warn}), ""
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
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		fmt.Fprintf(env.Stderr, "askuser popup: there is no terminal to hand over: %v\n", err)
		return ExitError
	}
	defer tty.Close()
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var termEnv []string
	for _, name := range popup.TermEnv {
		if v := getenv(name); v != "" {
			termEnv = append(termEnv, name+"="+v)
		}
	}
	conn, err := popup.Dial(ctx, sock, tty, termEnv)
	if err != nil {
		fmt.Fprintf(env.Stderr, "askuser popup: %v\n", err)
		return ExitError
	}
	defer conn.Close()
	resized, stop := notifyResize()
	defer stop()
	for {
		select {
		case <-conn.Gone():
			return 0
		case <-ctx.Done():
			return 0
		case <-resized:
			if err := conn.Resized(); err != nil {
				fmt.Fprintf(env.Stderr, "askuser popup: telling the server the terminal changed size: %v\n", err)
				return ExitError
			}
		}
	}
}
