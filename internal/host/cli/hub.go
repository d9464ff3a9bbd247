package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
its access token.
askuser hub pair prints a one-time link that pairs a phone with it;
devices lists them, revoke ends one (askuser-hub --help says more).

The hub is the askuser-hub program, a program of its own so that the
server it embeds costs the askuser every agent runs nothing. askuser
hub finds it beside askuser (a release archive holds both), in the npm
package @askuser/askuser-hub installed beside @askuser/askuser, or on
PATH (npm i -g @askuser/askuser-hub puts it there).

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
	}
	self, _ := os.Executable()
	path, err := findHubBinary(self, runtime.GOOS, runtime.GOARCH, exec.LookPath)
	if err != nil {
		fmt.Fprintf(env.Stderr, "askuser hub: %v\n", err)
		return ExitError
	}
	return execHub(ctx, env, path, args)
}

// findHubBinary looks for askuser-hub for goos and goarch: beside self,
// the askuser executable (a release archive, make build); then, when self
// is the binary of the npm package @askuser/askuser-<os>-<cpu>, in the
// package @askuser/askuser-hub-<os>-<cpu> beside it in node_modules (both
// launchers installed in one project); then on PATH with lookPath, where
// npm i -g @askuser/askuser-hub puts its launcher.
func findHubBinary(self, goos, goarch string, lookPath func(string) (string, error)) (string, error) {
	exe := hubBinary
	if goos == "windows" {
		exe += ".exe"
	}
	var candidates []string
	if self != "" {
		dir := filepath.Dir(self)
		candidates = append(candidates, filepath.Join(dir, exe))
		// <node_modules>/@askuser/askuser-<platform>/bin/askuser
		if pkg := filepath.Dir(dir); filepath.Base(dir) == "bin" && filepath.Base(pkg) == "askuser-"+nodePlatform(goos, goarch) {
			candidates = append(candidates, filepath.Join(filepath.Dir(pkg), hubBinary+"-"+nodePlatform(goos, goarch), "bin", exe))
		}
	}
	for _, p := range candidates {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, nil
		}
	}
	if p, err := lookPath(hubBinary); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("the %s program, which runs the hub, is neither beside askuser nor on PATH; get it with npm i -g @askuser/askuser-hub, from the release archive (askuser_%s_%s_%s, which holds it beside askuser), or from a checkout with go install ./cmd/askuser-hub",
		hubBinary, program.Release(), goos, goarch)
}

// nodePlatform names goos and goarch as Node and the npm platform
// packages do: linux-x64, win32-arm64.
func nodePlatform(goos, goarch string) string {
	if goos == "windows" {
		goos = "win32"
	}
	if goarch == "amd64" {
		goarch = "x64"
	}
	return goos + "-" + goarch
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
	fmt.Fprintf(env.Stdout, "a hub runs: process %d at %s, started %s\nstore: %s\n",
		info.PID, info.URL, info.Started.Local().Format(time.RFC3339), info.Store)
	if info.Page != "" {
		fmt.Fprintf(env.Stdout, "web page: %s\n", oneLine(info.Page))
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
