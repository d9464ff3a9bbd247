package cli_test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"

	"github.com/askuser/askuser/internal/testkit"
)

// TestNotifyInTmux runs askuser ask in a tmux pane whose client is
// attached on a pseudo-terminal, and reads every byte tmux sends that
// terminal: the bell and the desktop notification, passed through, come
// once each, and the pane's title says that a question waits while it
// does, and is restored afterwards.
func TestNotifyInTmux(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skipf("tmux is not installed (%v): the test needs it", err)
	}
	bin := buildAskuser(t)
	q, cfg := notifySetup(t, `{"desktop": "osc9"}`)
	// Not t.TempDir: under a long TMPDIR the socket's path could pass the
	// limit of a Unix socket address.
	dir, err := os.MkdirTemp("/tmp", "au")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "s")
	rc := filepath.Join(dir, "rc")
	script := filepath.Join(dir, "run.sh")
	body := "printf '\\033]2;before\\033\\\\'\n" + bin + " ask --config " + cfg + " " + q + " > /dev/null; echo $? > " + rc + "\nexec sleep 60\n"
	if err := os.WriteFile(script, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := func(args ...string) string {
		out, err := exec.Command(tmux, append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSuffix(string(out), "\n")
	}
	client := exec.Command(tmux, "-S", sock, "-f", "/dev/null", "new-session", "-x", "100", "-y", "30",
		"tmux set -g allow-passthrough on; sh "+script)
	client.Env = plainEnv("TERM=xterm-256color")
	f, err := pty.StartWithSize(client, &pty.Winsize{Rows: 30, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var raw bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			mu.Lock()
			raw.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		exec.Command(tmux, "-S", sock, "kill-server").Run()
		client.Process.Kill()
		client.Wait()
		f.Close()
	})
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := testkit.PatienceDeadline(t)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s", what)
			}
			time.Sleep(25 * time.Millisecond)
		}
	}
	waitFor("the dialog", func() bool {
		out, _ := exec.Command(tmux, "-S", sock, "capture-pane", "-p").Output()
		return strings.Contains(string(out), "Deploy where?")
	})
	if got, want := tm("display", "-p", "#{pane_title}"), "askuser: question waiting · Release"; got != want {
		t.Errorf("pane title %q while waiting, want %q", got, want)
	}
	f.WriteString("\r")
	waitFor("askuser to exit", func() bool { _, err := os.Stat(rc); return err == nil })
	if got := tm("display", "-p", "#{pane_title}"); got != "before" {
		t.Errorf("pane title %q after the dialog, want it restored to %q", got, "before")
	}
	note := "\x1b]9;askuser: question waiting: Release · 10m left\x1b\\"
	waitFor("the notification", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return strings.Contains(raw.String(), note)
	})
	mu.Lock()
	out := raw.String()
	mu.Unlock()
	if n := strings.Count(out, note); n != 1 {
		t.Errorf("%d notifications, want 1", n)
	}
	if n := bells(out); n != 1 {
		t.Errorf("%d bells, want 1", n)
	}
	for _, secret := range []string{"Deploy where?", "staging", "production"} {
		if strings.Contains(strings.ReplaceAll(out, "\x1b\\", ""), "]9;"+secret) {
			t.Errorf("a notification shows %q", secret)
		}
	}
}

// TestNotifyTitleInTmuxStatus shows the pane title in tmux's status line,
// as tmux's own default status-right does, on a client drawn by a
// terminal emulator: a header written as tmux style directives shows as
// the text it is, and restyles nothing.
func TestNotifyTitleInTmuxStatus(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skipf("tmux is not installed (%v): the test needs it", err)
	}
	bin := buildAskuser(t)
	const header = "#[fg=red,bg=blue]X#[default]"
	dir, err := os.MkdirTemp("/tmp", "au")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	q, cfg := filepath.Join(dir, "q.json"), filepath.Join(dir, "config.json")
	files := map[string]string{
		q:                            `{"header":"` + header + `","questions":[{"title":"Deploy where?","options":[{"label":"staging"}]}]}`,
		cfg:                          `{"timeoutPerQuestionMs": 600000, "notify": {"title": true, "bell": false, "desktop": false}}`,
		filepath.Join(dir, "run.sh"): bin + " ask --config " + cfg + " " + q + " > /dev/null 2> " + filepath.Join(dir, "err") + "\nexec sleep 60\n",
	}
	for name, body := range files {
		if err := os.WriteFile(name, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	sock := filepath.Join(dir, "s")
	const w, h = 120, 20
	client := exec.Command(tmux, "-S", sock, "-f", "/dev/null", "new-session", "-x", "120", "-y", "20",
		"tmux set -g status-style default \\; set -g status-left '' \\; set -g status-right-length 100 \\; set -g status-right '<#{pane_title}>'; sh "+filepath.Join(dir, "run.sh"))
	client.Env = plainEnv("TERM=xterm-256color")
	f, err := pty.StartWithSize(client, &pty.Winsize{Rows: h, Cols: w})
	if err != nil {
		t.Fatal(err)
	}
	emu := vt.NewEmulator(w, h)
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Go(func() { io.Copy(f, emu) }) // the terminal's answers to tmux's queries
	wg.Go(func() {
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			mu.Lock()
			emu.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	})
	t.Cleanup(func() {
		exec.Command(tmux, "-S", sock, "kill-server").Run()
		client.Process.Kill()
		client.Wait()
		f.Close()
		// Ends the copy of the answers. Emulator.Close would do it too,
		// but it sets a flag that Read reads without a lock.
		emu.InputPipe().(io.Closer).Close()
		wg.Wait()
	})
	status := func() string {
		mu.Lock()
		defer mu.Unlock()
		var b strings.Builder
		for x := 0; x < w; x++ {
			if c := emu.CellAt(x, h-1); c != nil {
				b.WriteString(c.Content)
			}
		}
		return strings.TrimRight(b.String(), " ")
	}
	deadline := testkit.PatienceDeadline(t)
	for !strings.Contains(status(), "question waiting") {
		if time.Now().After(deadline) {
			errText, _ := os.ReadFile(filepath.Join(dir, "err"))
			t.Fatalf("waiting for the title in the status line, which is %q; askuser said %s", status(), errText)
		}
		time.Sleep(25 * time.Millisecond)
	}
	want := "<askuser: question waiting · " + header + ">"
	if got := status(); !strings.HasSuffix(got, want) {
		t.Errorf("status line %q, want it to end in %q", got, want)
	}
	mu.Lock()
	defer mu.Unlock()
	for x := 0; x < w; x++ {
		if c := emu.CellAt(x, h-1); c != nil && (c.Style.Bg != nil || c.Style.Fg != nil) {
			t.Errorf("status cell %d %q has colours %v on %v: the title restyled it", x, c.Content, c.Style.Fg, c.Style.Bg)
			break
		}
	}
}
