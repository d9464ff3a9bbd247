package cli

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/notify"
)

// commandWait is how long askuser ask waits, once its result is
// written, for a notify command still running, so that a failure can be
// reported before it exits; a command still running then is stopped.
const commandWait = 2 * time.Second

// terminalNotify returns the Options of an Asker on the terminal host,
// which run the user's notify command, and a function to call once the
// result is written: it waits for the command within commandWait, or
// until ctx is done, stops what still runs, and writes the reports that
// were held.
func terminalNotify(env *Env, name string, host *ask.Host) (*ask.Options, func(ctx context.Context)) {
	reports := newHeldReports(env.Stderr, name)
	cmds := notify.NewCommands(notify.HostTerminal, reports.report)
	return &ask.Options{OnOpen: cmds.OnOpen(host.Preferences().Notify.Command)}, func(ctx context.Context) {
		cmds.Close(ctx, commandWait)
		reports.release()
	}
}

// endResult closes standard output once the result is on it, so that a
// reader such as $(askuser ask) has it at once, while askuser still
// waits for a notify command.
func endResult(env *Env) {
	if c, ok := env.Stdout.(io.Closer); ok {
		c.Close()
	}
}

// heldReports holds the reports that come while a dialog draws on the
// terminal that standard error may be, and writes them once it is done.
type heldReports struct {
	w    io.Writer
	name string

	mu      sync.Mutex
	holding bool
	held    []error
}

func newHeldReports(w io.Writer, name string) *heldReports {
	return &heldReports{w: w, name: name, holding: true}
}

func (r *heldReports) report(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.holding {
		r.held = append(r.held, err)
		return
	}
	fmt.Fprintf(r.w, "askuser %s: %v\n", r.name, err)
}

// release writes what was held, and from now on writes at once.
func (r *heldReports) release() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.holding = false
	for _, err := range r.held {
		fmt.Fprintf(r.w, "askuser %s: %v\n", r.name, err)
	}
	r.held = nil
}
