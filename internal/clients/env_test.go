package clients

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/testkit"
)

// clientWait bounds one headless run of a client, start to exit. A run
// takes seconds; this is only there so that a client that hangs fails
// the test instead of the whole suite.
const clientWait = 3 * time.Minute

// askuserBin is the askuser binary under test, built by TestMain unless
// ASKUSER_BIN names one.
var askuserBin string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if os.Getenv("ASKUSER_CLIENTS") == "" {
		return m.Run()
	}
	askuserBin = os.Getenv("ASKUSER_BIN")
	if askuserBin == "" {
		defer testkit.RemoveBuilds()
		var err error
		if askuserBin, err = testkit.Build("github.com/askuser/askuser/cmd/askuser"); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	defer removeCodexSockets()()
	return m.Run()
}

// removeCodexSockets notes what Codex's daemon directory holds now, and
// returns a function that removes what the run added to it. Codex puts
// its daemon's sockets in /tmp/codex-daemon-<uid> whatever TMPDIR says,
// so the sandboxes cannot hold them; they are removed once every test is
// done and every client is stopped.
func removeCodexSockets() func() {
	dir := filepath.Join("/tmp", fmt.Sprintf("codex-daemon-%d", os.Getuid()))
	before := map[string]bool{}
	entries, err := os.ReadDir(dir)
	existed := err == nil
	for _, e := range entries {
		before[e.Name()] = true
	}
	return func() {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			if !before[e.Name()] {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
		if !existed {
			os.Remove(dir) // only if it is empty
		}
	}
}

// clientPaths are the clients' commands inside the installed tree.
var clientPaths = map[string]string{
	"claude":   ".bin/claude",
	"codex":    ".bin/codex",
	"gemini":   ".bin/gemini",
	"node":     ".bin/node",
	"opencode": "opencode-linux-x64/bin/opencode",
	"kilo":     "@kilocode/cli-linux-x64/bin/kilo",
	"cn":       "@continuedev/cli/dist/cn.js",
}

// clientBin returns the path of a client's command in the installed
// tree named by ASKUSER_CLIENTS (internal/clients/node_modules). Without it the
// test is skipped, saying how to run it; a client missing from the tree
// fails the test.
func clientBin(t *testing.T, name string) string {
	t.Helper()
	dir := os.Getenv("ASKUSER_CLIENTS")
	if dir == "" {
		t.Skip("the real MCP clients run from `make clients-test`, which installs them; or set ASKUSER_CLIENTS to internal/clients/node_modules")
	}
	p := filepath.Join(dir, clientPaths[name])
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("client %s is not installed (%v): run `make clients-deps`", name, err)
	}
	return p
}

// A sandbox is a home of its own for one client run: HOME, the XDG
// directories and the client's config directories, all in a temporary
// directory removed after the test, and a working directory inside it.
type sandbox struct {
	t    *testing.T
	root string
	home string
	work string // the client's working directory, the "project"
	env  []string
}

func newSandbox(t *testing.T) *sandbox {
	t.Helper()
	root := t.TempDir()
	s := &sandbox{t: t, root: root, home: filepath.Join(root, "home"), work: filepath.Join(root, "project")}
	// The client's TMPDIR is not under t.TempDir, whose name grows with
	// the test's: the popup's socket goes in it, and a Unix socket's path
	// may be 107 bytes at most.
	tmp, err := os.MkdirTemp("", "auc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	t.Cleanup(s.stopLeftovers)
	for _, d := range []string{s.home, s.work, filepath.Join(s.home, ".config"),
		filepath.Join(s.home, ".local/share"), filepath.Join(s.home, ".cache"), filepath.Join(s.home, ".local/state")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.env = []string{
		"PATH=" + filepath.Dir(clientBin(t, "node")) + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + s.home,
		"XDG_CONFIG_HOME=" + filepath.Join(s.home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(s.home, ".local/share"),
		"XDG_CACHE_HOME=" + filepath.Join(s.home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(s.home, ".local/state"),
		"TMPDIR=" + tmp,
		"LANG=C.UTF-8",
		"TERM=xterm-256color",
		"NO_COLOR=1",
		// Anything a client sends elsewhere than the scripted model goes
		// to a proxy that is not there.
		"HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9",
		"https_proxy=http://127.0.0.1:9", "http_proxy=http://127.0.0.1:9",
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	}
	return s
}

// setenv adds variables to the client's environment.
func (s *sandbox) setenv(kv ...string) { s.env = append(s.env, kv...) }

// write writes a file under the sandbox's root.
func (s *sandbox) write(rel, content string) string {
	s.t.Helper()
	p := filepath.Join(s.root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
	return p
}

// askuserArgs are the arguments of askuser mcp for a client's
// config, with mode forced when not empty, and extra after them.
func askuserArgs(mode string, extra ...string) []string {
	args := []string{"mcp", "--no-config"}
	if mode != "" {
		args = append(args, "--mode", mode)
	}
	return append(args, extra...)
}

// headless runs a client's command to its end in the sandbox and
// returns what it printed. A client that does not end within clientWait
// is killed and fails the test.
func (s *sandbox) headless(name string, args ...string) string {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), clientWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, clientBin(s.t, name), args...)
	cmd.Dir = s.work
	cmd.Env = s.env
	cmd.Stdin = nil
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		s.t.Fatalf("%s did not end within %v:\n%s", name, clientWait, out)
	}
	if err != nil {
		s.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}
