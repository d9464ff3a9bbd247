package clients

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The TUI tests run a client in a pane of an inner tmux server, with a
// tmux client of that server attached inside a pane of an outer one: the
// outer capture-pane shows the user's whole screen, popups included, and
// its send-keys types on the attached client as a user would.

// screenWait bounds a wait for something on the screen. Clients take
// seconds to start on a busy machine; this is only there so that a wait
// that never ends fails the test.
const screenWait = 2 * time.Minute

// Size of the user's terminal.
const cols, rows = 120, 40

// A tui is a client running in tmux with a tmux client attached.
type tui struct {
	t     *testing.T
	s     *sandbox
	tmux  string
	inner string // the inner server's socket
	outer string // the outer server's socket
	pane  string // the outer pane that shows the attached client
}

// startTUI runs the client name with args in the sandbox, in tmux.
func (s *sandbox) startTUI(name string, args ...string) *tui {
	t := s.t
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatalf("tmux is not installed (%v): the clients' TUI tests need it", err)
	}
	// Not under t.TempDir: a long name would put the socket's path past
	// the limit of a Unix socket address.
	dir, err := os.MkdirTemp("/tmp", "auc")
	if err != nil {
		t.Fatal(err)
	}
	u := &tui{t: t, s: s, tmux: tmux, inner: filepath.Join(dir, "in"), outer: filepath.Join(dir, "out")}
	t.Cleanup(func() {
		exec.Command(tmux, "-S", u.outer, "kill-server").Run()
		exec.Command(tmux, "-S", u.inner, "kill-server").Run()
		os.RemoveAll(dir)
	})
	cmd := "exec " + shellQuote(clientBin(t, name))
	for _, a := range args {
		cmd += " " + shellQuote(a)
	}
	u.tmuxIn(s.env, "-f", "/dev/null", "new-session", "-d", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), "-c", s.work, cmd)
	u.tmuxIn(nil, "set-option", "-g", "status", "off")
	u.tmuxIn(nil, "set-option", "-g", "remain-on-exit", "on")
	attach := "env -u TMUX -u TMUX_PANE TERM=xterm-256color " + shellQuote(tmux) + " -S " + shellQuote(u.inner) + " attach -t 0"
	u.tmuxOut("-f", "/dev/null", "new-session", "-d", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), attach)
	u.tmuxOut("set-option", "-g", "status", "off")
	u.pane = strings.TrimSpace(u.tmuxOut("display-message", "-p", "#{pane_id}"))
	u.until("a tmux client attached", func() bool {
		return strings.TrimSpace(u.tmuxIn(nil, "list-clients")) != ""
	})
	return u
}

func (u *tui) tmuxIn(env []string, args ...string) string {
	u.t.Helper()
	c := exec.Command(u.tmux, append([]string{"-S", u.inner}, args...)...)
	if env != nil {
		c.Env = env
	}
	out, err := c.CombinedOutput()
	if err != nil {
		u.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (u *tui) tmuxOut(args ...string) string {
	u.t.Helper()
	c := exec.Command(u.tmux, append([]string{"-S", u.outer}, args...)...)
	c.Env = withoutTmux(os.Environ())
	out, err := c.CombinedOutput()
	if err != nil {
		u.t.Fatalf("outer tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// screen is what the user's terminal shows.
func (u *tui) screen() string { return u.tmuxOut("capture-pane", "-p", "-t", u.pane) }

// keys types keys on the user's terminal, in tmux's send-keys names.
func (u *tui) keys(keys ...string) {
	u.t.Helper()
	u.tmuxOut(append([]string{"send-keys", "-t", u.pane}, keys...)...)
}

// text types text literally.
func (u *tui) text(s string) { u.t.Helper(); u.keys("-l", s) }

// waitFor polls the screen until ok accepts it, and returns it.
func (u *tui) waitFor(what string, ok func(screen string) bool) string {
	u.t.Helper()
	deadline := time.Now().Add(screenWait)
	for {
		s := u.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			u.t.Fatalf("waiting for %s; the screen is:\n%s", what, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitText waits until the screen shows every one of texts.
func (u *tui) waitText(texts ...string) string {
	u.t.Helper()
	return u.waitFor(strings.Join(texts, " and "), func(s string) bool {
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	})
}

// waitGone waits until the screen no longer shows text.
func (u *tui) waitGone(text string) string {
	u.t.Helper()
	return u.waitFor(text+" gone", func(s string) bool { return !strings.Contains(s, text) })
}

// pressUntilGone presses key until the screen no longer shows text. A TUI
// may drop a key that comes in the frame where its focus moved (Claude
// Code's form does, for Enter on Accept), so the key is pressed again
// when text is still there after a few seconds, up to five times.
func (u *tui) pressUntilGone(key, text string) {
	u.t.Helper()
	for range 5 {
		u.keys(key)
		deadline := time.Now().Add(3 * time.Second)
		for time.Now().Before(deadline) {
			if !strings.Contains(u.screen(), text) {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	u.t.Fatalf("%s did not take %q off the screen:\n%s", key, text, u.screen())
}

// until waits until ok, showing the screen if it never is.
func (u *tui) until(what string, ok func() bool) {
	u.t.Helper()
	u.waitFor(what, func(string) bool { return ok() })
}

// result waits until the scripted model has received the tool's result,
// and returns it.
func (u *tui) result(m *model) string {
	u.t.Helper()
	select {
	case <-m.got:
	case <-time.After(screenWait):
		u.t.Fatalf("the model received no tool result; the screen is:\n%s", u.screen())
	}
	return oneResult(u.t, m)
}

// binding is what the inner tmux lists for key in the root table.
func (u *tui) binding(key string) string {
	out, _ := exec.Command(u.tmux, "-S", u.inner, "list-keys", "-T", "root", key).CombinedOutput()
	return string(out)
}

// popups lists the askuser popup helpers running.
func popups() []string {
	var found []string
	for _, p := range procs() {
		if len(p.args) > 1 && p.args[0] == askuserBin && p.args[1] == "popup" {
			found = append(found, strconv.Itoa(p.pid)+": "+strings.Join(p.args, " "))
		}
	}
	return found
}

type proc struct {
	pid  int
	args []string
	env  string
}

func procs() []proc {
	entries, _ := os.ReadDir("/proc")
	var out []proc
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(cmdline) == 0 {
			continue
		}
		env, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		out = append(out, proc{pid: pid, args: strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00"), env: string(env)})
	}
	return out
}

// stopLeftovers ends what the sandbox's clients left running, such as
// Codex's background daemon and the servers it started: every process
// whose HOME is the sandbox's.
func (s *sandbox) stopLeftovers() {
	mark := "\x00HOME=" + s.home + "\x00"
	for _, p := range procs() {
		if strings.Contains("\x00"+p.env, mark) {
			syscall.Kill(p.pid, syscall.SIGKILL)
		}
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func withoutTmux(env []string) []string {
	var out []string
	for _, e := range env {
		if !strings.HasPrefix(e, "TMUX=") && !strings.HasPrefix(e, "TMUX_PANE=") {
			out = append(out, e)
		}
	}
	return out
}

// ask types the user's prompt until the model has called the tool. A
// client may take the first prompt before its MCP server has listed its
// tools, and the scripted model then only answers "Noted.": the prompt
// is typed again, as a user would.
func (u *tui) ask(m *model) {
	u.t.Helper()
	for try := 0; try < 10; try++ {
		screen := u.screen()
		before, typed := strings.Count(screen, "Noted."), strings.Count(screen, prompt)
		u.text(prompt)
		// Enter only once the prompt is on screen: a client that takes
		// quick keys for a paste, as Codex does, would put Enter in it.
		u.waitFor("the prompt typed", func(s string) bool { return strings.Count(s, prompt) > typed })
		u.keys("Enter")
		called := false
		u.waitFor("the model's answer to the prompt", func(s string) bool {
			_, calls, _ := m.state()
			called = calls > 0
			return called || strings.Count(s, "Noted.") > before
		})
		if called {
			return
		}
	}
	u.t.Fatalf("the client never offered the tool to the model; the screen is:\n%s", u.screen())
}
