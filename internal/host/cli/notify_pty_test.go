package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/testkit"
)

// notifyQuestionnaire has a header, which notifications show, and
// question and option text, which they must never show.
const notifyQuestionnaire = `{"header":"Release","questions":[
 {"title":"Deploy where?","options":[{"label":"staging"},{"label":"production"}]}]}`

// plainEnv is the test's environment without anything that names a
// terminal, so that detection sees only what a test sets.
func plainEnv(extra ...string) []string {
	var env []string
	for _, e := range os.Environ() {
		name, _, _ := strings.Cut(e, "=")
		switch name {
		case "TERM", "TERM_PROGRAM", "TMUX", "TMUX_PANE", "KITTY_WINDOW_ID", "ITERM_SESSION_ID", "LC_TERMINAL", "WEZTERM_PANE", "GHOSTTY_RESOURCES_DIR", "WT_SESSION":
			continue
		}
		env = append(env, e)
	}
	return append(env, extra...)
}

// notifySetup writes the questionnaire and a config file holding the
// notify object notify, and returns their paths.
func notifySetup(t *testing.T, notify string) (q, cfg string) {
	t.Helper()
	dir := t.TempDir()
	q, cfg = filepath.Join(dir, "q.json"), filepath.Join(dir, "config.json")
	if err := os.WriteFile(q, []byte(notifyQuestionnaire), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(`{"timeoutPerQuestionMs": 600000, "notify": `+notify+`}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return q, cfg
}

// sequences finds the notification sequences in what was drawn.
var sequences = map[string]*regexp.Regexp{
	"osc777":    regexp.MustCompile(`\x1b\]777;notify;([^\x1b\x07]*)\x1b\\`),
	"titlePush": regexp.MustCompile(`\x1b\[22;0t`),
	"titleSet":  regexp.MustCompile(`\x1b\]2;([^\x1b\x07]*)\x1b\\`),
	"titlePop":  regexp.MustCompile(`\x1b\[23;0t`),
}

// bells counts the BEL characters that are not the end of an OSC
// sequence.
func bells(screen string) int {
	n := 0
	for i := 0; i < len(screen); i++ {
		switch screen[i] {
		case 0x1b:
			if i+1 < len(screen) && screen[i+1] == ']' {
				// Skip the OSC sequence to its terminator.
				end := strings.IndexAny(screen[i:], "\x07")
				st := strings.Index(screen[i:], "\x1b\\")
				switch {
				case end >= 0 && (st < 0 || end < st):
					i += end
				case st >= 0:
					i += st + 1
				}
			}
		case 0x07:
			n++
		}
	}
	return n
}

// TestNotifyOnPty runs askuser ask on a real pseudo-terminal and reads
// every byte it writes there: with the notifications on, the bell, the
// desktop notification and the title sequences come once each, and say
// nothing of the question; with them off, none come.
func TestNotifyOnPty(t *testing.T) {
	tests := []struct {
		name   string
		notify string
		want   map[string]int
	}{
		{"all on", `{"bell": true, "desktop": "osc777", "title": true}`,
			map[string]int{"bell": 1, "osc777": 1, "titlePush": 1, "titleSet": 1, "titlePop": 1}},
		{"defaults on an unknown terminal", `{}`,
			map[string]int{"bell": 1, "osc777": 0, "titlePush": 1, "titleSet": 1, "titlePop": 1}},
		{"all off", `{"bell": false, "desktop": false, "title": false}`,
			map[string]int{"bell": 0, "osc777": 0, "titlePush": 0, "titleSet": 0, "titlePop": 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, cfg := notifySetup(t, tt.notify)
			s := startOnPtyWith(t, plainEnv("TERM=xterm-256color"), nil, "ask", "--config", cfg, q)
			s.expect("Deploy where?")
			s.send("\r")
			code, res := s.wait()
			if code != 0 {
				t.Fatalf("exit status %d, result %+v", code, res)
			}
			s.drained()
			s.mu.Lock()
			screen := s.screen.String()
			s.mu.Unlock()
			got := map[string]int{"bell": bells(screen)}
			for name, re := range sequences {
				got[name] = len(re.FindAllString(screen, -1))
			}
			for name, n := range tt.want {
				if got[name] != n {
					t.Errorf("%s: %d, want %d", name, got[name], n)
				}
			}
			for _, name := range []string{"osc777", "titleSet"} {
				for _, m := range sequences[name].FindAllStringSubmatch(screen, -1) {
					for _, secret := range []string{"Deploy", "staging", "production"} {
						if strings.Contains(m[1], secret) {
							t.Errorf("%s carries %q: %q", name, secret, m[1])
						}
					}
				}
			}
			if tt.want["osc777"] == 1 {
				m := sequences["osc777"].FindStringSubmatch(screen)
				if want := "askuser: question waiting;Release · 10m left"; m[1] != want {
					t.Errorf("notification %q, want %q", m[1], want)
				}
			}
			if tt.want["titleSet"] == 1 {
				m := sequences["titleSet"].FindStringSubmatch(screen)
				if want := "askuser: question waiting · Release"; m[1] != want {
					t.Errorf("title %q, want %q", m[1], want)
				}
				// Pushed before it is set, popped at the end.
				push, set, pop := strings.Index(screen, "\x1b[22;0t"), strings.Index(screen, "\x1b]2;"), strings.LastIndex(screen, "\x1b[23;0t")
				if !(push < set && set < pop) {
					t.Errorf("title push at %d, set at %d, pop at %d", push, set, pop)
				}
			}
		})
	}
}

// TestNotifyCommandOnPty runs a notify command that sleeps and one that
// fails: the dialog opens while the first still runs, and the failure of
// the second is reported on standard error once the dialog is done.
func TestNotifyCommandOnPty(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skipf("no /bin/sh to run the notify command with: %v", err)
	}
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skipf("no /proc to see the notify command end in: %v", err)
	}
	tests := []struct {
		name, script string
		report       string // on standard error, "" for none
	}{
		{"sleeps", `echo $$ > "$0.pid"; exec sleep 10`, ""},
		{"exits 1", `echo $$ > "$0.pid"; echo unreachable >&2; exit 1`, `askuser ask: the notify command "/bin/sh" failed: exit status 1: unreachable`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			mark := filepath.Join(dir, "cmd")
			q, cfg := notifySetup(t, fmt.Sprintf(`{"bell": false, "title": false, "command": ["/bin/sh", "-c", %q, %q]}`, tt.script, mark))
			var stderr bytes.Buffer
			s := startOnPtyWith(t, plainEnv("TERM=xterm-256color"), &stderr, "ask", "--config", cfg, q)
			s.expect("Deploy where?")
			pid := waitPid(t, mark+".pid")
			if tt.report == "" {
				if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err != nil {
					t.Error("the dialog opened only after the command had finished")
				}
				t.Cleanup(func() {
					if p, err := os.FindProcess(pid); err == nil {
						p.Kill()
					}
				})
			} else {
				// Let the command end and be reaped before the dialog does.
				waitGone(t, pid)
			}
			s.send("\r")
			code, res := s.wait()
			if code != 0 {
				t.Fatalf("exit status %d, result %+v, stderr %s", code, res, stderr.String())
			}
			if got := strings.TrimSpace(stderr.String()); got != tt.report {
				t.Errorf("standard error %q, want %q", got, tt.report)
			}
		})
	}
}

// waitPid reads the process id a command wrote to path.
func waitPid(t *testing.T, path string) int {
	t.Helper()
	deadline := testkit.PatienceDeadline(t)
	for {
		data, err := os.ReadFile(path)
		if err == nil && bytes.HasSuffix(data, []byte("\n")) {
			var pid int
			if _, err := fmt.Sscan(string(data), &pid); err != nil {
				t.Fatal(err)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("the notify command never wrote %s", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitGone waits until process pid has ended and been reaped.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := testkit.PatienceDeadline(t)
	for {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err != nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d did not end", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestNotifyReminderOnPty waits on a real pseudo-terminal for the
// reminder, which a 20 s deadline gets at 10 s left, while the dialog
// draws: the bell and the notification once more, whole, and the dialog
// still answers.
func TestNotifyReminderOnPty(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("the reminder comes 10 s after the dialog opens; skipped in -short mode")
	}
	q, cfg := notifySetup(t, `{"bell": true, "desktop": "osc777", "title": false}`)
	s := startOnPtyWith(t, plainEnv("TERM=xterm-256color"), nil, "ask", "--config", cfg, "--timeout-per-question", "20000", q)
	s.expect("Deploy where?")
	// The reminder comes 10 s after the dialog opens.
	reminder := "\x1b]777;notify;askuser: question waiting;Release · 10s left\x1b\\"
	deadline := testkit.PatienceDeadline(t)
	for {
		s.mu.Lock()
		seen := strings.Contains(s.screen.String(), reminder)
		s.mu.Unlock()
		if seen {
			break
		}
		if time.Now().After(deadline) {
			s.mu.Lock()
			all := s.screen.String()
			s.mu.Unlock()
			t.Fatalf("no reminder %q; notifications: %q", reminder, sequences["osc777"].FindAllString(all, -1))
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.send("\r")
	if code, res := s.wait(); code != 0 {
		t.Fatalf("exit status %d, result %+v", code, res)
	}
	s.drained()
	s.mu.Lock()
	screen := s.screen.String()
	s.mu.Unlock()
	if n := len(sequences["osc777"].FindAllString(screen, -1)); n != 2 {
		t.Errorf("%d notifications, want the opening and the reminder", n)
	}
	if n := bells(screen); n != 2 {
		t.Errorf("%d bells, want 2", n)
	}
}
