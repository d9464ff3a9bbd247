package program

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/prefs"
)

// HubBinary is the program that serves the hub.
const HubBinary = "askuser-hub"

// HubLogFile is the log of a hub that askuser started, in the hub's
// directory.
const HubLogFile = "hub.log"

// maxLog is the size past which HubLogFile starts again, at a start.
const maxLog = 1 << 20

// readyWait bounds the wait for a started hub to write its info file;
// one starts in about 50 ms.
const readyWait = 5 * time.Second

// EnsureHub returns the info of the user's running hub. When none runs and
// remote is set, it starts one that relays with remote (see StartHub);
// when none runs, or there is no place for one, and remote is nil, the
// error wraps hub.ErrNoHub. A hub that runs but relays with another
// remote than remote, or with none, is still used: warn is told so,
// naming both.
func EnsureHub(ctx context.Context, getenv func(string) string, remote *prefs.Remote, warn func(string)) (hub.Info, error) {
	paths, err := hub.Locate(getenv)
	switch {
	case err != nil && remote == nil:
		// No place for a hub: none runs, as before a config named one.
		return hub.Info{}, fmt.Errorf("%w: %w", hub.ErrNoHub, err)
	case err != nil:
		return hub.Info{}, err
	}
	info, err := hub.ReadInfo(paths.Info)
	switch {
	case remote == nil:
	case errors.Is(err, hub.ErrNoHub):
		info, err = StartHub(ctx, paths, remote, 0)
	case err == nil && ProcessGone(info.PID):
		// A hub that was killed left its info file: nobody else would
		// start another here.
		info, err = StartHub(ctx, paths, remote, info.PID)
	}
	if err == nil && remote != nil && info.Remote != remote.URL {
		other := "no remote hub: the questions go to it alone, on this machine"
		if info.Remote != "" {
			other = "the remote hub at " + info.Remote + ": the questions go there through it"
		}
		warn(fmt.Sprintf("the config names the remote hub at %s, but the hub that runs here (process %d) relays with %s", remote.URL, info.PID, other))
	}
	return info, err
}

// StartHub starts askuser-hub in the background, in paths, relaying with
// remote and stopping once idle for remote.IdleMs, and returns its info
// once it has written it. The hub runs in a session of its own, with no
// terminal, and logs to HubLogFile. When another hub wins the race to
// start, StartHub returns that one's info. stale is the process of an info
// file left by a hub that is gone, to wait past; 0 for none.
func StartHub(ctx context.Context, paths hub.Paths, remote *prefs.Remote, stale int) (hub.Info, error) {
	self, _ := os.Executable()
	bin, err := FindHubBinary(self, runtime.GOOS, runtime.GOARCH, exec.LookPath)
	if err != nil {
		return hub.Info{}, fmt.Errorf("no hub runs, and none can be started to relay with the remote hub at %s: %w", remote.URL, err)
	}
	if err := os.MkdirAll(paths.Dir, 0o700); err != nil {
		return hub.Info{}, fmt.Errorf("start the hub: %w", err)
	}
	logPath := filepath.Join(paths.Dir, HubLogFile)
	flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND
	if st, err := os.Stat(logPath); err == nil && st.Size() > maxLog {
		flags |= os.O_TRUNC
	}
	log, err := os.OpenFile(logPath, flags, 0o600)
	if err != nil {
		return hub.Info{}, fmt.Errorf("start the hub: %w", err)
	}
	idle := time.Duration(remote.IdleMs) * time.Millisecond
	if idle == 0 {
		idle = config.DefaultIdleMs * time.Millisecond
	}
	// Nothing secret on the command line: credentials is a path.
	cmd := exec.Command(bin, "--remote", remote.URL, "--credentials", remote.Credentials,
		"--recipients", strings.Join(remote.Recipients, ","), "--idle", idle.String())
	// The hub must find itself where askuser looks for it.
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+filepath.Dir(filepath.Dir(paths.Dir)))
	cmd.Stderr = log
	// Not the agent's directory, which may go away before the hub.
	cmd.Dir = paths.Dir
	detach(cmd)
	err = cmd.Start()
	log.Close()
	if err != nil {
		return hub.Info{}, fmt.Errorf("start %s: %w", bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.NewTimer(readyWait)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		info, err := hub.ReadInfo(paths.Info)
		if !errors.Is(err, hub.ErrNoHub) && (err != nil || info.PID != stale) {
			return info, err
		}
		select {
		case <-ctx.Done():
			return hub.Info{}, ctx.Err()
		case err := <-exited:
			// Status 1: another hub runs, and writes its info soon; or,
			// when the info file's process seemed gone, it runs where
			// this process cannot see it (another PID namespace).
			if ee, ok := errors.AsType[*exec.ExitError](err); !ok || ee.ExitCode() != 1 {
				return hub.Info{}, fmt.Errorf("the hub started for the remote hub at %s ended (%v); its log %s ends: %s", remote.URL, err, logPath, tail(logPath))
			}
			if stale != 0 {
				return hub.ReadInfo(paths.Info)
			}
			exited = nil
		case <-deadline.C:
			return hub.Info{}, fmt.Errorf("the hub started for the remote hub at %s was not ready within %v; see its log %s", remote.URL, readyWait, logPath)
		case <-tick.C:
		}
	}
}

// tail is the last line of the file at path.
func tail(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > 512 {
		f.Seek(-512, io.SeekEnd)
	}
	b, _ := io.ReadAll(f)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// FindHubBinary looks for askuser-hub for goos and goarch: beside self,
// the askuser executable (a release archive, make build); then, when self
// is the binary of the npm package @askuser/askuser-<os>-<cpu>, in the
// package @askuser/askuser-hub-<os>-<cpu> beside it in node_modules (both
// launchers installed in one project); then on PATH with lookPath, where
// npm i -g @askuser/askuser-hub puts its launcher.
func FindHubBinary(self, goos, goarch string, lookPath func(string) (string, error)) (string, error) {
	exe := HubBinary
	if goos == "windows" {
		exe += ".exe"
	}
	var candidates []string
	if self != "" {
		dir := filepath.Dir(self)
		candidates = append(candidates, filepath.Join(dir, exe))
		// <node_modules>/@askuser/askuser-<platform>/bin/askuser
		if pkg := filepath.Dir(dir); filepath.Base(dir) == "bin" && filepath.Base(pkg) == "askuser-"+nodePlatform(goos, goarch) {
			candidates = append(candidates, filepath.Join(filepath.Dir(pkg), HubBinary+"-"+nodePlatform(goos, goarch), "bin", exe))
		}
	}
	for _, p := range candidates {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, nil
		}
	}
	if p, err := lookPath(HubBinary); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("the %s program, which runs the hub, is neither beside askuser nor on PATH; get it with npm i -g @askuser/askuser-hub, from the release archive (askuser_%s_%s_%s, which holds it beside askuser), or from a checkout with go install ./cmd/askuser-hub",
		HubBinary, Release(), goos, goarch)
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
