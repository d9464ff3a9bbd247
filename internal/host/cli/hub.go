package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/safetext"
)

const hubUsage = `usage: askuser hub
       askuser hub status

askuser hub runs the hub in the foreground: the one queue where the
questions of every askuser of this user wait, answered from whichever
surface comes first (askuser pending and askuser answer; the terminal
that asked). It listens on 127.0.0.1 only and keeps its store, and a
file only this user can read that tells local askuser processes where it
is, in $XDG_STATE_HOME/askuser/hub (else ~/.local/state/askuser/hub).
SIGTERM stops it with nothing lost; a second hub refuses to start.

The hub is the askuser-hub program, installed beside askuser, so that
the server it embeds costs the askuser every agent runs nothing.

askuser hub status says whether a hub runs, where, and how many questions
wait. Exit status: 0 a hub runs, 1 none runs or it does not answer.
`

// hubBinary is the program that serves the hub.
const hubBinary = "askuser-hub"

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
		return usageError(env, "hub", fmt.Sprintf("unknown argument %q", args[0]))
	}
	path, err := findHubBinary()
	if err != nil {
		fmt.Fprintf(env.Stderr, "askuser hub: %v\n", err)
		return ExitError
	}
	return execHub(ctx, env, path)
}

// findHubBinary looks for askuser-hub beside this program, then on PATH.
func findHubBinary() (string, error) {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), hubBinary+exeSuffix())
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, nil
		}
	}
	p, err := exec.LookPath(hubBinary)
	if err != nil {
		return "", fmt.Errorf("the %s program, which runs the hub, is neither beside askuser nor on PATH; install it from the same release as askuser", hubBinary)
	}
	return p, nil
}

func exeSuffix() string {
	if filepath.Separator == '\\' {
		return ".exe"
	}
	return ""
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
	fmt.Fprintf(env.Stdout, "a hub runs: process %d at %s, started %s\nstore: %s\n%s\n",
		info.PID, info.URL, info.Started.Local().Format(time.RFC3339), info.Store, plural(len(qs), "question waits", "questions wait"))
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
