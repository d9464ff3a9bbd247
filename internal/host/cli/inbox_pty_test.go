package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/host/cli"
	"github.com/askuser/askuser/internal/testkit"
)

const inboxAUQ = `{"questions":[{"id":"db","question":"Which database?","header":"Database","options":[
 {"id":"pg","label":"Postgres","description":"Relational"},{"id":"lite","label":"SQLite","description":"Embedded"}]}]}`

// headlessAsk is askuser ask running with no terminal at all, in a
// session of its own, so that the hub is its only route.
type headlessAsk struct {
	t              *testing.T
	stdout, stderr bytes.Buffer
	done           chan error
}

func startHeadlessAsk(t *testing.T, env []string, args ...string) *headlessAsk {
	t.Helper()
	h := &headlessAsk{t: t, done: make(chan error, 1)}
	cmd := exec.Command(buildAskuser(t), args...)
	cmd.Env, cmd.Stdout, cmd.Stderr = env, &h.stdout, &h.stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { h.done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-h.done
		if t.Failed() {
			t.Logf("askuser %s said: %s", args[0], h.stderr.String())
		}
	})
	return h
}

// result waits for askuser ask to exit and returns its status and
// standard output.
func (h *headlessAsk) result() (int, string) {
	h.t.Helper()
	select {
	case err := <-h.done:
		h.done <- err
		if ee, ok := errors.AsType[*exec.ExitError](err); ok {
			return ee.ExitCode(), h.stdout.String()
		}
		if err != nil {
			h.t.Fatal(err)
		}
		return 0, h.stdout.String()
	case <-time.After(testkit.Patience(h.t)):
		h.t.Fatalf("askuser ask did not exit; it said: %s", h.stderr.String())
	}
	return 0, ""
}

// inboxScreen is askuser inbox on a pseudo-terminal, read through a
// terminal emulator.
type inboxScreen struct {
	t    testing.TB
	tty  *os.File
	mu   sync.Mutex
	emu  *vt.Emulator
	done chan error
}

func startInbox(t testing.TB, env []string, args ...string) *inboxScreen {
	t.Helper()
	const w, h = 120, 30
	cmd := exec.Command(buildAskuser(t), append([]string{"inbox"}, args...)...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: h, Cols: w})
	if err != nil {
		t.Fatal(err)
	}
	s := &inboxScreen{t: t, tty: tty, emu: vt.NewEmulator(w, h), done: make(chan error, 1)}
	var wg sync.WaitGroup
	wg.Go(func() { io.Copy(tty, s.emu) }) // the terminal's answers to queries
	wg.Go(func() {
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			s.mu.Lock()
			s.emu.Write(buf[:n])
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	})
	go func() { s.done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		select {
		case err := <-s.done:
			s.done <- err
		case <-time.After(5 * time.Second):
		}
		tty.Close()
		s.emu.InputPipe().(io.Closer).Close()
		wg.Wait()
		if t.Failed() {
			t.Logf("askuser inbox said: %s", stderr.String())
		}
	})
	return s
}

func (s *inboxScreen) screen() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.emu.String()
}

// waitFor waits until the screen shows every one of texts.
func (s *inboxScreen) waitFor(texts ...string) string {
	s.t.Helper()
	deadline := testkit.PatienceDeadline(s.t)
	for {
		sc := s.screen()
		ok := true
		for _, x := range texts {
			ok = ok && strings.Contains(sc, x)
		}
		if ok {
			return sc
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the inbox never showed %q; it shows:\n%s", texts, sc)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (s *inboxScreen) send(keys string) {
	s.t.Helper()
	if _, err := s.tty.Write([]byte(keys)); err != nil {
		s.t.Fatal(err)
	}
}

func (s *inboxScreen) exit() int {
	s.t.Helper()
	return s.exitWithin(testkit.Patience(s.t))
}

// exitWithin waits up to d for askuser inbox to exit and returns its
// exit status.
func (s *inboxScreen) exitWithin(d time.Duration) int {
	s.t.Helper()
	select {
	case err := <-s.done:
		s.done <- err
		if ee, ok := errors.AsType[*exec.ExitError](err); ok {
			return ee.ExitCode()
		}
		if err != nil {
			s.t.Fatal(err)
		}
		return 0
	case <-time.After(d):
		s.t.Fatalf("askuser inbox did not exit within %v; it shows:\n%s", d, s.screen())
	}
	return 0
}

// pendingN waits until n questions wait on the hub and returns them.
func pendingN(t *testing.T, c *hub.Client, n int) []hub.Question {
	t.Helper()
	deadline := testkit.PatienceDeadline(t)
	for {
		qs, err := c.Pending(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(qs) == n {
			return qs
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d questions wait on the hub, want %d", len(qs), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	keyDown  = "\x1b[B"
	keyEnter = "\r"
)

// TestInboxOnPty asks a question of each contract with askuser ask on
// a real hub, shows them in askuser inbox on a real pseudo-terminal,
// answers both there by keys, and checks that each askuser ask printed
// the answer and was told it was the person's.
func TestInboxOnPty(t *testing.T) {
	state, c := startTestHub(t)
	env := append(os.Environ(), "TERM=xterm-256color", "XDG_STATE_HOME="+state)
	askUser := startHeadlessAsk(t, env, "ask", "--no-config", "--timeout-per-question", "600000", writeFile(t, "q.json", hubQuestion))
	pendingN(t, c, 1)
	askAUQ := startHeadlessAsk(t, env, "ask", "--no-config", "--tool", "AskUserQuestion", "--timeout-per-question", "0", writeFile(t, "auq.json", inboxAUQ))
	pendingN(t, c, 2)

	s := startInbox(t, env)
	sc := s.waitFor("2 questions wait", "Which database?", "Deploy where?", "no deadline", "AskUserQuestion")
	// Newest first: the AskUserQuestion request was asked last.
	if strings.Index(sc, "Which database?") > strings.Index(sc, "Deploy where?") {
		t.Errorf("the newest question is not first:\n%s", sc)
	}
	if !strings.Contains(sc, "› askuser ask") {
		t.Errorf("the first row is not selected:\n%s", sc)
	}

	s.send(keyEnter)
	s.waitFor("Postgres", "SQLite", "esc back to the list")
	s.send(keyDown + keyEnter)
	code, out := askAUQ.result()
	var res auq.Result
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || res.Cancelled || res.Answers["db"].Choice.Label != "SQLite" {
		t.Fatalf("AskUserQuestion: exit status %d, result %s (%v); it said %s", code, out, err, askAUQ.stderr.String())
	}
	if !strings.Contains(askAUQ.stderr.String(), "answered by the person in askuser inbox") {
		t.Errorf("askuser ask was not told the person answered:\n%s", askAUQ.stderr.String())
	}
	s.waitFor("1 question waits", "answered; its agent has the answer")

	s.send(keyEnter)
	s.waitFor("staging", "production", "⏱ 9:")
	s.send(keyDown + keyEnter)
	code, out = askUser.result()
	var r contract.Result
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || r.Status != contract.StatusAnswered || r.Answers[0].Selections[0] != "production" {
		t.Fatalf("ask_user: exit status %d, result %s (%v); it said %s", code, out, err, askUser.stderr.String())
	}
	s.waitFor("no questions wait")
	s.send("q")
	if code := s.exit(); code != 0 {
		t.Errorf("askuser inbox: exit status %d, want 0", code)
	}
}

// TestInboxAnsweredElsewhere opens a question in askuser inbox and
// answers it with askuser answer meanwhile: the inbox closes it and says
// where it was answered.
func TestInboxAnsweredElsewhere(t *testing.T) {
	state, c := startTestHub(t)
	env := append(os.Environ(), "TERM=xterm-256color", "XDG_STATE_HOME="+state)
	ask := startHeadlessAsk(t, env, "ask", "--no-config", writeFile(t, "q.json", hubQuestion))
	q := pendingN(t, c, 1)[0]

	s := startInbox(t, env)
	s.waitFor("1 question waits")
	s.send(keyEnter)
	s.waitFor("production", "esc back to the list")

	answer := exec.Command(buildAskuser(t), "answer", "--by", "ci-policy", q.ID, "-")
	answer.Env = env
	answer.Stdin = strings.NewReader(`{"status":"answered","answers":[{"index":0,"id":"q1","title":"Deploy where?","kind":"single","selections":["staging"],"usedDefault":false}]}`)
	if out, err := answer.CombinedOutput(); err != nil {
		t.Fatalf("askuser answer: %v\n%s", err, out)
	}
	sc := s.waitFor("no questions wait", "answered by ci-policy (askuser answer)")
	if strings.Contains(sc, "esc back to the list") {
		t.Errorf("the questionnaire is still open:\n%s", sc)
	}
	if code, out := ask.result(); code != 0 || !strings.Contains(out, `"staging"`) {
		t.Errorf("askuser ask: exit status %d, result %s", code, out)
	}
	s.send("\x03")
	if code := s.exit(); code != 0 {
		t.Errorf("askuser inbox: exit status %d, want 0", code)
	}
}

// twinQuestion is asked beside a question whose countdown was stopped,
// with the same timeout, to mark by its end that the deadline passed.
const twinQuestion = `{"questions":[{"title":"Wait out the deadline?","options":[{"label":"yes"},{"label":"no"}]}]}`

// TestInboxStopsCountdown stops, with Alt+Q in askuser inbox, the
// countdown of a question that askuser ask asked with a 10 s deadline:
// the dialog says there is no timeout, askuser ask outlives its deadline,
// and the answer given after it reaches askuser ask. (With 4 s, under
// the load of a whole test run from empty caches, the test once found
// no question waiting: the deadline leaves room for a slow start.)
func TestInboxStopsCountdown(t *testing.T) {
	t.Parallel()
	state, c := startTestHub(t)
	env := append(os.Environ(), "TERM=xterm-256color", "XDG_STATE_HOME="+state)
	ask := startHeadlessAsk(t, env, "ask", "--no-config", "--timeout-per-question", "10000", writeFile(t, "q.json", hubQuestion))
	q := pendingN(t, c, 1)[0]

	s := startInbox(t, env)
	s.waitFor("1 question waits")
	s.send(keyEnter)
	s.waitFor("production", "⏱ 0:0")
	s.send("\x1bq")
	s.waitFor("No timeout", "the countdown is stopped for every surface")
	// Nothing happens at the deadline now: askuser ask must still run
	// once a twin of it, asked after it with the same timeout, ended at
	// its own deadline.
	twin := startHeadlessAsk(t, env, "ask", "--no-config", "--timeout-per-question", "10000", writeFile(t, "twin.json", twinQuestion))
	if code, out := twin.result(); code != 124 || !strings.Contains(out, `"status":"timeout"`) {
		t.Fatalf("the twin askuser ask: exit status %d, result %s; want a timeout", code, out)
	}
	select {
	case err := <-ask.done:
		ask.done <- err
		t.Fatalf("askuser ask ended (%v) at its stopped countdown's deadline; it said %s", err, ask.stderr.String())
	default:
	}
	if got, _, err := c.Question(context.Background(), q.ID); err != nil || got.Tag.Deadline != nil {
		t.Fatalf("the question on the hub: %+v, %v; want it waiting with no deadline", got, err)
	}
	s.send(keyDown + keyEnter)
	if code, out := ask.result(); code != 0 || !strings.Contains(out, `"production"`) {
		t.Fatalf("askuser ask: exit status %d, result %s; it said %s", code, out, ask.stderr.String())
	}
	s.send("q")
	if code := s.exit(); code != 0 {
		t.Errorf("askuser inbox: exit status %d, want 0", code)
	}
}

// freezeHub stops the hub process of state with SIGSTOP: its port still
// takes connections and bytes, and answers nothing, as a hub on a
// starved machine or behind a stalled link. It goes on at the end of the
// test.
func freezeHub(t *testing.T, state string) {
	t.Helper()
	info, err := hub.ReadInfo(filepath.Join(state, "askuser", "hub", "hub.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(info.PID, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(info.PID, syscall.SIGCONT) })
	// The signal is delivered, not yet taken: wait until the kernel says
	// the process is stopped, so that nothing sent from here is served.
	stat := fmt.Sprintf("/proc/%d/stat", info.PID)
	st := ""
	for deadline := time.Now().Add(testkit.Patience(t)); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		b, err := os.ReadFile(stat)
		if err != nil {
			t.Fatalf("the hub, process %d, is gone: %v", info.PID, err)
		}
		// pid (comm) state ...: the state follows the last ')'.
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) {
			st = string(b[i+2])
		}
		if st == "T" {
			return
		}
	}
	t.Fatalf("the hub, process %d, was not stopped by SIGSTOP: its state is %q", info.PID, st)
}

// quitWait is how long q or Ctrl+C may take to end askuser inbox: well
// under any wait on a hub that does not answer (a request's two seconds,
// a send's or a watch's stop's five).
const quitWait = 2500 * time.Millisecond

// TestInboxQuitsWhileHubFrozen presses q, or Ctrl+C, in askuser inbox
// while its hub answers nothing, in the list and while an answer is on
// its way: the inbox exits at once, with status 0, whatever its
// connection does.
func TestInboxQuitsWhileHubFrozen(t *testing.T) {
	t.Parallel()
	bin := buildAskuser(t)
	for _, tc := range []struct {
		name, key string
		sending   bool
	}{
		{"q in the list", "q", false},
		{"ctrl+c in the list", "\x03", false},
		{"q with an answer on its way", "q", true},
		{"ctrl+c with an answer on its way", "\x03", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := t.TempDir()
			testkit.StartHub(t, state, bin, "hub")
			env := append(os.Environ(), "TERM=xterm-256color", "XDG_STATE_HOME="+state)
			startHeadlessAsk(t, env, "ask", "--no-config", "--timeout-per-question", "0", writeFile(t, "q.json", hubQuestion))
			c, err := hub.Dial(context.Background(), &hub.DialOptions{Getenv: stateEnv(state)})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			pendingN(t, c, 1)
			s := startInbox(t, env)
			s.waitFor("1 question waits", "Deploy where?")
			if tc.sending {
				s.send(keyEnter)
				s.waitFor("production", "esc back to the list")
			}
			freezeHub(t, state)
			if tc.sending {
				s.send(keyDown + keyEnter)
				s.waitFor("sending…")
			}
			s.send(tc.key)
			if code := s.exitWithin(quitWait); code != 0 {
				t.Errorf("askuser inbox: exit status %d, want 0", code)
			}
		})
	}
}

// TestInboxWithoutHub: with no hub, askuser inbox says so in one line and
// exits with status 1 at once.
func TestInboxWithoutHub(t *testing.T) {
	state := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := cli.Run(context.Background(), []string{"inbox"}, &cli.Env{Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}})
	want := "askuser inbox: no hub runs for this user; start one with askuser hub\n"
	if code != 1 || stderr.String() != want || stdout.Len() != 0 {
		t.Errorf("exit status %d, stderr %q, stdout %q; want 1 and %q", code, stderr.String(), stdout.String(), want)
	}
}
