package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/safetext"
	"github.com/askuser/askuser/tui"
)

const inboxUsage = `usage: askuser inbox [--by NAME]

Show every question that waits on the user's hub, newest first, one row
each: the agent that asked, its project, its contract, how many
questions, the time left and, when it is not this one, the machine. The
list follows the hub live. ↑↓ move, Enter opens the question in the
same dialog askuser ask shows; submitting it answers the question
through the hub, as the person. In an open question, Esc goes back to
the list and the question keeps waiting; Ctrl+X dismisses it for its
agent. q or Ctrl+C quits. A question answered elsewhere closes, saying
where.

Exit status: 0 quit; 1 no hub runs or it does not answer, or no
terminal; 3 any other error.

flags:
`

// watchGrace is how long askuser inbox, once the person quit it, waits
// for its watch of the hub to end: at once on a hub that answers.
const watchGrace = 250 * time.Millisecond

func runInbox(ctx context.Context, env *Env, args []string) int {
	var by string
	fs := newFlagSet("inbox", env, inboxUsage, func(fs *flag.FlagSet) {
		fs.StringVar(&by, "by", "", "who answers, as the asking agent is told (default \"the person in askuser inbox\")")
	})
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(env, "inbox", "takes no arguments")
	}
	if by != "" {
		by += " in askuser inbox"
	}
	c, err := hub.Dial(ctx, &hub.DialOptions{Getenv: env.Getenv, Name: "askuser inbox"})
	if errors.Is(err, hub.ErrNoHub) {
		fmt.Fprintln(env.Stderr, "askuser inbox: no hub runs for this user; start one with askuser hub")
		return 1
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "askuser inbox: %s\n", safetext.Line(err.Error()))
		return 1
	}
	defer c.Close()
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		fmt.Fprintf(env.Stderr, "askuser inbox: no terminal to show the inbox on: %v\n", err)
		return 1
	}
	defer tty.Close()
	// The watch starts beside the terminal's setup: both take a while,
	// and the first screen waits for both. A watch the hub refuses ends
	// the inbox with its error.
	runCtx, stopRun := context.WithCancelCause(ctx)
	defer stopRun(nil)
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	events := make(chan hub.WatchEvent)
	go func() {
		defer close(events)
		watched, err := c.Watch(wctx)
		if err != nil {
			stopRun(err)
			return
		}
		for e := range watched {
			select {
			case events <- e:
			case <-wctx.Done():
				// The watch ends once its context is done.
			}
		}
	}()
	machine, _ := os.Hostname()
	err = tui.RunInbox(runCtx, tty, tty, events, c, &tui.InboxOptions{By: by, Machine: machine})
	// The watch ends once it has stopped following the hub, which a hub
	// that does not answer holds up for seconds: the person who quit
	// does not wait for it longer than watchGrace.
	cancel()
	watchEnded := make(chan struct{})
	go func() {
		defer close(watchEnded)
		for range events {
		}
	}()
	grace := time.NewTimer(watchGrace)
	select {
	case <-watchEnded:
	case <-grace.C:
	}
	grace.Stop()
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(env.Stderr, "askuser inbox: %s\n", safetext.Line(err.Error()))
		return ExitError
	}
	return 0
}
