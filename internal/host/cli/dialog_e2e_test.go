package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/testkit"
)

// The tests in this file run the real askuser binary in a real terminal,
// a tmux pane, type on it with send-keys and read the screen with
// capture-pane.

const e2eRequest = `{"header":"E2E","questions":[
 {"title":"Pick a colour","options":[{"label":"red"},{"label":"green"}]},
 {"title":"Pick sizes","kind":"multi","options":[{"label":"S"},{"label":"M"},{"label":"L"}]},
 {"title":"Your name","kind":"input"},
 {"title":"Ship it?","kind":"bool"}]}`

// pane is one tmux server with one pane running sh in a work directory.
type pane struct {
	t    *testing.T
	tmux string
	sock string
	dir  string
	// before is the screen before askuser draws: a marker line and the
	// command.
	before string
}

// newPane starts a 100×30 pane. It skips the test, saying why, when tmux
// is not installed.
func newPane(t *testing.T, bin string) *pane {
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skipf("tmux is not installed (%v): the real-terminal test needs it", err)
	}
	dir := t.TempDir()
	// A socket's path is at most about 100 bytes, and t.TempDir's holds
	// the test's name: the socket gets a short directory of its own.
	sockDir, err := os.MkdirTemp("", "au")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	p := &pane{t: t, tmux: tmux, sock: filepath.Join(sockDir, "tmux.sock"), dir: dir}
	script := "cd " + dir + "\n" + bin + ` ask "$@" q.json > out.json 2> err.txt; echo $? > rc.txt` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "q.json"), []byte(e2eRequest), 0o644); err != nil {
		t.Fatal(err)
	}
	p.run("-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", "-c", dir, "env 'PS1=$ ' sh")
	t.Cleanup(func() { exec.Command(p.tmux, "-S", p.sock, "kill-server").Run() })
	p.waitScreen("the shell prompt", func(s string) bool { return strings.HasPrefix(s, "$") })
	return p
}

func (p *pane) run(args ...string) string {
	p.t.Helper()
	out, err := exec.Command(p.tmux, append([]string{"-S", p.sock}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// keys sends tmux key names, such as Down, Enter, Escape or M-o.
func (p *pane) keys(keys ...string) {
	p.t.Helper()
	p.run(append([]string{"send-keys", "-t", "0"}, keys...)...)
}

// text types s literally.
func (p *pane) text(s string) {
	p.t.Helper()
	p.run("send-keys", "-t", "0", "-l", "--", s)
}

// screen returns the visible screen, trailing blank lines dropped.
func (p *pane) screen() string {
	p.t.Helper()
	return strings.TrimRight(p.run("capture-pane", "-p", "-t", "0"), "\n ")
}

// waitScreen polls the screen until ok accepts it.
func (p *pane) waitScreen(what string, ok func(string) bool) string {
	p.t.Helper()
	deadline := testkit.PatienceDeadline(p.t)
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		s := p.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waiting for %s, the screen is:\n%s", what, s)
		}
		<-tick.C
	}
}

// waitText waits for the screen to show every one of texts while
// askuser runs.
func (p *pane) waitText(texts ...string) string {
	p.t.Helper()
	return p.waitScreen(strings.Join(texts, " and "), func(s string) bool {
		if rc, err := os.ReadFile(filepath.Join(p.dir, "rc.txt")); err == nil {
			errText, _ := os.ReadFile(filepath.Join(p.dir, "err.txt"))
			p.t.Fatalf("askuser exited with %s before showing %q: %s\nthe screen is:\n%s", bytes.TrimSpace(rc), texts, errText, s)
		}
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	})
}

// start runs askuser ask with args on q.json.
func (p *pane) start(args ...string) {
	p.t.Helper()
	p.text("clear; echo before")
	p.keys("Enter")
	p.waitText("before\n$")
	cmd := "sh run.sh " + strings.Join(args, " ")
	p.text(cmd)
	p.keys("Enter")
	p.before = "before\n$ " + cmd
}

// result waits for askuser to exit and returns its status, its standard
// output and the screen it left, with the prompt after it.
func (p *pane) result() (int, string, string) {
	p.t.Helper()
	var rc []byte
	p.waitScreen("askuser to exit", func(string) bool {
		var err error
		rc, err = os.ReadFile(filepath.Join(p.dir, "rc.txt"))
		return err == nil && bytes.HasSuffix(rc, []byte("\n"))
	})
	code := atoi(p.t, string(rc))
	out, err := os.ReadFile(filepath.Join(p.dir, "out.json"))
	if err != nil {
		p.t.Fatal(err)
	}
	errText, _ := os.ReadFile(filepath.Join(p.dir, "err.txt"))
	if len(errText) > 0 {
		p.t.Logf("askuser's standard error: %s", errText)
	}
	os.Remove(filepath.Join(p.dir, "rc.txt"))
	screen := p.waitScreen("the prompt after askuser", func(s string) bool { return strings.HasSuffix(s, "\n$") })
	return code, string(out), screen
}

// ends waits for askuser to exit and checks its status, its result, and
// that the screen holds only what was there before plus left: nothing for
// the overlay, the summary line for inline.
func (p *pane) ends(wantCode int, want contract.Result, left string) {
	p.t.Helper()
	p.endsWith(wantCode, func(out string) { checkJSON(p.t, out, want) }, left)
}

// endsWith is ends with check for the result.
func (p *pane) endsWith(wantCode int, check func(out string), left string) {
	p.t.Helper()
	code, out, screen := p.result()
	if code != wantCode {
		p.t.Errorf("exit status %d, want %d", code, wantCode)
	}
	check(out)
	wantScreen := p.before + "\n$"
	if left != "" {
		wantScreen = p.before + "\n" + left + "\n$"
	}
	if screen != wantScreen {
		p.t.Errorf("askuser left this screen:\n%s\nwant:\n%s", screen, wantScreen)
	}
}

// checkJSON checks that out is one line of JSON holding want.
func checkJSON(t *testing.T, out string, want contract.Result) {
	t.Helper()
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") || strings.ContainsRune(out, '\x1b') {
		t.Errorf("standard output is not one clean line of JSON: %q", out)
	}
	var got contract.Result
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("standard output is not JSON: %v: %q", err, out)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("result mismatch (-want +got):\n%s", diff)
	}
}

func TestDialogOnTerminal(t *testing.T) {
	t.Parallel()
	bin := buildAskuser(t)
	aborted := contract.Result{Status: contract.StatusAborted, Route: contract.RouteCustom, Answers: []contract.Answer{}, CancelledReason: contract.CancelUser}

	t.Run("overlay answers by keys", func(t *testing.T) {
		p := newPane(t, bin)
		p.start("--no-config")
		p.waitText("╭", "Pick a colour", "▸ ( ) red")
		p.keys("Down", "Enter")
		p.waitText("Pick sizes", "▸ [ ] S")
		p.keys("Space", "Down", "Down", "Space")
		p.waitText("▸ [✓] L")
		p.keys("Tab")
		p.waitText("Your name", "✎")
		p.text("Ada 日本")
		p.waitText("✎ Ada 日本")
		// The terminal cursor stands after the text, for input methods.
		cur := strings.Fields(p.run("display", "-p", "-t", "0", "#{cursor_x} #{cursor_y}"))
		row := strings.Split(p.screen(), "\n")[atoi(t, cur[1])]
		if i := strings.Index(row, "✎ Ada 日本"); i < 0 || atoi(t, cur[0]) != ansi.StringWidth(row[:i+len("✎ Ada 日本")]) {
			t.Errorf("cursor at column %s of %q, want right after the text", cur[0], row)
		}
		p.keys("Enter")
		p.waitText("Ship it?", "▸ [ ] True")
		p.keys("Right", "Enter")
		p.waitText("Review your answers", "▸ [ Submit ]")
		p.keys("Enter")
		code, out, screen := p.result()
		if code != 0 {
			t.Errorf("exit status %d, want 0", code)
		}
		b := false
		checkJSON(t, out, contract.Result{Status: contract.StatusAnswered, Route: contract.RouteCustom, Answers: []contract.Answer{
			{Index: 0, ID: "q1", Title: "Pick a colour", Kind: contract.KindSingle, Selections: []string{"green"}},
			{Index: 1, ID: "q2", Title: "Pick sizes", Kind: contract.KindMulti, Selections: []string{"S", "L"}},
			{Index: 2, ID: "q3", Title: "Your name", Kind: contract.KindInput, Selections: []string{}, FreeText: "Ada 日本"},
			{Index: 3, ID: "q4", Title: "Ship it?", Kind: contract.KindBool, Selections: []string{}, Value: &contract.AnswerValue{Bool: b}},
		}})
		if want := p.before + "\n$"; screen != want {
			t.Errorf("the overlay left this screen:\n%s\nwant:\n%s", screen, want)
		}
	})

	t.Run("inline esc dismisses", func(t *testing.T) {
		p := newPane(t, bin)
		p.start("--no-config", "--display", "inline")
		s := p.waitText("Pick a colour", "esc dismiss")
		if strings.Contains(s, "╭") || !strings.HasPrefix(s, p.before+"\n") {
			t.Errorf("the inline dialog is not drawn below the prompt:\n%s", s)
		}
		p.keys("Escape")
		p.ends(1, aborted, "✗ E2E: dismissed")
	})

	t.Run("overlay hides and shows", func(t *testing.T) {
		p := newPane(t, bin)
		p.start("--no-config")
		p.waitText("╭", "alt+o hide")
		p.keys("M-o")
		s := p.waitText("askuser is hidden: alt+o shows it, esc dismisses it")
		if !strings.HasPrefix(s, p.before+"\n") || strings.Contains(s, "╭") {
			t.Errorf("hiding does not show the normal screen:\n%s", s)
		}
		p.keys("M-o")
		p.waitText("╭", "Pick a colour")
		p.keys("Down", "M-o")
		p.waitText("askuser is hidden")
		p.keys("M-o")
		p.waitText("▸ ( ) green")
		// Esc dismisses a hidden dialog too, and the notice goes with it.
		p.keys("M-o")
		p.waitText("askuser is hidden")
		p.keys("Escape")
		p.ends(1, aborted, "")
	})

	t.Run("hidden overlay times out", func(t *testing.T) {
		p := newPane(t, bin)
		p.start("--no-config", "--timeout-per-question", "1000")
		p.waitText("╭", "alt+o hide")
		p.keys("M-o")
		p.waitText("askuser is hidden")
		p.ends(124, contract.Result{Status: contract.StatusTimeout, Route: contract.RouteCustom, Answers: []contract.Answer{}}, "")
	})

	t.Run("ctrl+c dismisses", func(t *testing.T) {
		p := newPane(t, bin)
		p.start("--no-config", "--display", "inline")
		p.waitText("Pick a colour", "esc dismiss")
		p.keys("C-c")
		p.ends(1, aborted, "✗ E2E: dismissed")
	})

	for _, display := range []string{"overlay", "inline"} {
		t.Run(display+" times out", func(t *testing.T) {
			p := newPane(t, bin)
			p.start("--no-config", "--display", display, "--timeout-per-question", "300")
			left := ""
			if display == "inline" {
				left = "⏱ E2E: timed out"
			}
			p.ends(124, contract.Result{Status: contract.StatusTimeout, Route: contract.RouteCustom, Answers: []contract.Answer{}}, left)
		})
	}

	t.Run("native mode keeps line prompts", func(t *testing.T) {
		p := newPane(t, bin)
		p.start("--no-config", "--mode", "native")
		s := p.waitText("Question 1 of 4: Pick a colour", "1. red")
		if strings.Contains(s, "▸") {
			t.Errorf("--mode native shows the dialog:\n%s", s)
		}
		p.keys("C-d")
		if code, _, _ := p.result(); code != 1 {
			t.Errorf("exit status %d, want 1", code)
		}
	})
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return n
}
