package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/program"
	"github.com/askuser/askuser/internal/safetext"
)

const hubUsage = `usage: askuser hub [--web [ADDR] [--tls | --cert F --key F] [--url URL]]
       askuser hub status | pair | devices | revoke ID

askuser hub runs the hub in the foreground: the one queue where the
questions of every askuser of this user wait, answered from whichever
surface comes first (askuser pending and askuser answer; the terminal
that asked). It listens on 127.0.0.1 only and keeps its store, and a
file only this user can read that tells local askuser processes where it
is, in $XDG_STATE_HOME/askuser/hub (else ~/.local/state/askuser/hub).
SIGTERM stops it with nothing lost; a second hub refuses to start.

With --web the hub also serves its web page, the waiting questions as
forms for a browser, on ADDR (127.0.0.1:7373 unless given; beyond
loopback with TLS only); askuser hub status prints its address with
its access token in the fragment (/#token=…), which the page keeps for
its tab and sends in a header, never a cookie.
askuser hub pair prints a one-time link that pairs a phone with it;
devices lists them, revoke ends one (askuser-hub --help says more).

The hub is the askuser-hub program, a program of its own so that the
server it embeds costs the askuser every agent runs nothing. askuser
hub finds it beside askuser (a release archive holds both), in the npm
package @askuser/askuser-hub installed beside @askuser/askuser, or on
PATH (npm i -g @askuser/askuser-hub puts it there).

askuser hub status says whether a hub runs, where, the room left on the
disk of its store (FULL when it cannot store answers, and so refuses new
questions), the remote hub it relays with, if any, and how many
questions wait. Exit status: 0 a hub
runs, 1 none runs or it does not answer.

An agent whose config names a remote hub ("hub": {"url": …,
"credentials": …, "recipients": […]}) needs no askuser hub: when none
runs, askuser ask, askuser mcp and the Pi package start askuser-hub in
the background, relaying with that remote, and it stops by itself once
idle.
`

func runHub(ctx context.Context, env *Env, args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "-h", "--help", "help":
			fmt.Fprint(env.Stderr, hubUsage)
			return 0
		case "status":
			if len(args) > 1 {
				return usageError(env, "hub", "status takes no arguments")
			}
			return hubStatus(ctx, env)
		}
	}
	self, _ := os.Executable()
	path, err := program.FindHubBinary(self, runtime.GOOS, runtime.GOARCH, exec.LookPath)
	if err != nil {
		fmt.Fprintf(env.Stderr, "askuser hub: %v\n", err)
		return ExitError
	}
	return execHub(ctx, env, path, args)
}

// hubStatus says whether a hub runs, where, and how many questions wait.
func hubStatus(ctx context.Context, env *Env) int {
	paths, err := hub.Locate(env.Getenv)
	if err != nil {
		fmt.Fprintf(env.Stderr, "askuser hub: %v\n", err)
		return ExitError
	}
	info, err := hub.ReadInfo(paths.Info)
	if errors.Is(err, hub.ErrNoHub) {
		fmt.Fprintf(env.Stdout, "no hub runs for this user (its directory is %s); start one with askuser hub\n", paths.Dir)
		return 1
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "askuser hub: %v\n", err)
		return ExitError
	}
	c, err := hub.Dial(ctx, &hub.DialOptions{Info: &info, Name: "askuser hub status"})
	if err != nil {
		fmt.Fprintf(env.Stdout, "the hub of process %d at %s does not answer (%s); if that process is gone, start a new hub with askuser hub\n", info.PID, info.URL, safetext.Line(err.Error()))
		return 1
	}
	defer c.Close()
	qs, err := c.Pending(ctx)
	if err != nil {
		fmt.Fprintf(env.Stderr, "askuser hub: %v\n", err)
		return ExitError
	}
	store := info.Store
	if st, ok, err := c.Store(ctx); err == nil && ok {
		// Whether it takes questions, and the room left.
		store = st.String()
	}
	fmt.Fprintf(env.Stdout, "a hub runs: process %d at %s, started %s\nstore: %s\n",
		info.PID, info.URL, info.Started.Local().Format(time.RFC3339), oneLine(store))
	if info.Page != "" {
		fmt.Fprintf(env.Stdout, "web page: %s\n", oneLine(info.Page))
	}
	if info.Remote != "" {
		fmt.Fprintf(env.Stdout, "relays with the remote hub at %s\n", oneLine(info.Remote))
	}
	if info.IdleMs > 0 {
		fmt.Fprintf(env.Stdout, "stops by itself once idle for %v\n", time.Duration(info.IdleMs)*time.Millisecond)
	}
	fmt.Fprintln(env.Stdout, plural(len(qs), "question waits", "questions wait"))
	return 0
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// oneLine shows a claim from the hub (a tag, a title) on one line, its
// control characters made harmless.
func oneLine(s string) string {
	return safetext.Line(strings.TrimSpace(s))
}
