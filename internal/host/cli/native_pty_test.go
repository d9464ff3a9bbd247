package cli_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/creack/pty"
	"github.com/google/go-cmp/cmp"
)

// buildAskuser returns cmd/askuser built once for the tests that run the
// real binary on a real terminal, skipping the test when there is no go
// command to build it with.
func buildAskuser(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("the go command is not on PATH (%v): the real-terminal tests build askuser with it", err)
	}
	bin, err := testkit.Build("github.com/askuser/askuser/cmd/askuser")
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// ptySession is the binary running with a pseudo-terminal as its
// controlling terminal, and standard output kept apart from it.
type ptySession struct {
	t      *testing.T
	tty    *os.File
	cmd    *exec.Cmd
	stdout bytes.Buffer

	mu     sync.Mutex
	screen bytes.Buffer // everything drawn on the terminal
	seen   int          // how much of screen expect has consumed
	grew   chan struct{}
	done   chan error
	read   chan struct{} // closed when the terminal has nothing more to read
}

func startOnPty(t *testing.T, args ...string) *ptySession {
	t.Helper()
	return startOnPtyWith(t, append(os.Environ(), "TERM=xterm-256color"), nil, args...)
}

// startOnPtyWith is startOnPty with the environment env, and standard
// error on stderr (nil: with standard output).
func startOnPtyWith(t *testing.T, env []string, stderr io.Writer, args ...string) *ptySession {
	t.Helper()
	return startOnPtyTo(t, env, nil, stderr, args...)
}

// startOnPtyTo is startOnPtyWith with standard output also written, as
// it comes, to stdout (nil for nowhere else).
func startOnPtyTo(t *testing.T, env []string, stdout, stderr io.Writer, args ...string) *ptySession {
	t.Helper()
	bin := buildAskuser(t)
	s := &ptySession{t: t, grew: make(chan struct{}, 1), done: make(chan error, 1), read: make(chan struct{})}
	s.cmd = exec.Command(bin, args...)
	s.cmd.Stdout = &s.stdout
	if stdout != nil {
		s.cmd.Stdout = io.MultiWriter(&s.stdout, stdout)
	}
	s.cmd.Stderr = stderr
	if stderr == nil {
		s.cmd.Stderr = &s.stdout
	}
	s.cmd.Env = env
	var err error
	s.tty, err = pty.StartWithSize(s.cmd, &pty.Winsize{Rows: 30, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(s.read)
		buf := make([]byte, 4096)
		for {
			n, err := s.tty.Read(buf)
			s.mu.Lock()
			s.screen.Write(buf[:n])
			s.mu.Unlock()
			select {
			case s.grew <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	go func() { s.done <- s.cmd.Wait() }()
	t.Cleanup(func() {
		s.cmd.Process.Kill()
		s.tty.Close()
	})
	return s
}

// expect waits until the terminal shows want after what earlier calls
// consumed, and consumes up to its end.
func (s *ptySession) expect(want string) {
	s.t.Helper()
	limit := time.After(testkit.Patience(s.t))
	for {
		s.mu.Lock()
		text := s.screen.String()
		s.mu.Unlock()
		if i := strings.Index(text[s.seen:], want); i >= 0 {
			s.seen += i + len(want)
			return
		}
		select {
		case <-s.grew:
		case <-limit:
			s.t.Fatalf("the terminal never showed %q; it shows:\n%s", want, text[s.seen:])
		}
	}
}

func (s *ptySession) send(text string) {
	s.t.Helper()
	if _, err := s.tty.Write([]byte(text)); err != nil {
		s.t.Fatal(err)
	}
}

// exit waits for askuser to exit and returns its status and what it
// printed.
func (s *ptySession) exit() (int, string) {
	s.t.Helper()
	var err error
	select {
	case err = <-s.done:
	case <-time.After(testkit.Patience(s.t)):
		s.t.Fatal("askuser did not exit")
	}
	code := 0
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		code = ee.ExitCode()
	} else if err != nil {
		s.t.Fatal(err)
	}
	return code, s.stdout.String()
}

// ptyStep is a prompt to wait for and the answer to type at it.
type ptyStep struct{ prompt, answer string }

// answer waits for each step's prompt and the time left after it, and
// types its answer.
func (s *ptySession) answer(steps []ptyStep) {
	s.t.Helper()
	for _, st := range steps {
		s.expect(st.prompt)
		s.expect("left]: ")
		s.send(st.answer)
	}
}

// wait returns the exit status and the result printed on standard output.
// drained waits until everything askuser wrote to the terminal has been
// read, which is once it has exited and its terminal is closed.
func (s *ptySession) drained() {
	s.t.Helper()
	select {
	case <-s.read:
	case <-time.After(testkit.Patience(s.t)):
		s.t.Fatal("the terminal still had output long after askuser exited")
	}
}

func (s *ptySession) wait() (int, contract.Result) {
	s.t.Helper()
	code, _ := s.exit()
	var res contract.Result
	if err := json.Unmarshal(s.stdout.Bytes(), &res); err != nil {
		s.t.Fatalf("standard output is not one result: %v\n%s", err, s.stdout.Bytes())
	}
	return code, res
}

const ptyQuestionnaire = `{"header":"Release","questions":[
 {"title":"Deploy where?","options":[{"label":"staging","description":"internal"},{"label":"production"}]},
 {"title":"Checks","kind":"multi","options":[{"label":"unit"},{"label":"integration"},{"label":"e2e"}]},
 {"title":"Run the migrations?","kind":"bool"},
 {"title":"Release note"},
 {"title":"Settings","kind":"simple-form","fields":[
   {"name":"confirmed","label":"Confirm","kind":"bool","required":true},
   {"name":"target","label":"Target","kind":"single","options":[{"label":"eu"},{"label":"us"}]},
   {"name":"region","label":"Region","kind":"input","default":"north"}]}
]}`

// TestNativeOnPty answers every kind of question through the line prompts
// of `askuser ask --mode native` on a real pseudo-terminal, with a wrong
// answer re-prompted on the way, and checks the JSON on standard output.
func TestNativeOnPty(t *testing.T) {
	file := filepath.Join(t.TempDir(), "q.json")
	if err := os.WriteFile(file, []byte(ptyQuestionnaire), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startOnPty(t, "ask", "--mode", "native", "--no-config", file)
	s.answer([]ptyStep{
		{"Question 1 of 5: Deploy where?", "2 | after lunch\r"},
		{"Question 2 of 5: Checks", "1,3\r"},
		{"Question 3 of 5: Run the migrations?", "maybe\r"},
		{"Not accepted", "false\r"},
		{"Question 4 of 5: Release note", "  ship it  \r"},
		{"Field 1 of 3: Confirm", "yes\r"},
		{"Field 2 of 3: Target", "\r"},
		{"Field 3 of 3: Region", "\r"},
	})
	code, res := s.wait()
	if code != 0 {
		t.Fatalf("exit status %d, want 0; output:\n%s", code, s.stdout.Bytes())
	}
	want := `{"status":"answered","route":"native","answers":[
	{"index":0,"id":"q1","title":"Deploy where?","kind":"single","selections":["production"],"freeText":"after lunch","usedDefault":false},
	{"index":1,"id":"q2","title":"Checks","kind":"multi","selections":["unit","e2e"],"usedDefault":false},
	{"index":2,"id":"q3","title":"Run the migrations?","kind":"bool","selections":[],"usedDefault":false,"value":false},
	{"index":3,"id":"q4","title":"Release note","kind":"input","selections":[],"freeText":"ship it","usedDefault":false},
	{"index":4,"id":"q5","title":"Settings","kind":"simple-form","selections":[],"usedDefault":true,"value":{"confirmed":true,"region":"north"}}]}`
	got, _ := json.Marshal(res)
	var wantV, gotV any
	if err := json.Unmarshal([]byte(want), &wantV); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &gotV); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantV, gotV); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
}

// TestNativeOnPtyEnds checks the ways a native questionnaire ends without
// answers: Esc then Enter dismisses it (exit 1, aborted by the user), an
// interrupt aborts it for the caller (exit 1), and silence past the
// deadline times it out (exit 124).
func TestNativeOnPtyEnds(t *testing.T) {
	file := filepath.Join(t.TempDir(), "q.json")
	if err := os.WriteFile(file, []byte(ptyQuestionnaire), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		keys     string
		signal   os.Signal
		wantCode int
		want     contract.Result
	}{
		{
			name:     "esc",
			keys:     "\x1b\r",
			wantCode: 1,
			want:     contract.Result{Status: contract.StatusAborted, Route: contract.RouteNative, CancelledReason: contract.CancelUser},
		},
		{
			name:     "interrupt",
			signal:   os.Interrupt,
			wantCode: 1,
			want:     contract.Result{Status: contract.StatusAborted, Route: contract.RouteNative, CancelledReason: contract.CancelAbort},
		},
		{
			name:     "timeout",
			args:     []string{"--timeout-per-question", "100"},
			wantCode: 124,
			want:     contract.Result{Status: contract.StatusTimeout, Route: contract.RouteNative},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"ask", "--mode", "native", "--no-config"}, tt.args...)
			s := startOnPty(t, append(args, file)...)
			s.expect("Question 1 of 5")
			s.expect("left]: ")
			if tt.keys != "" {
				s.send(tt.keys)
			}
			if tt.signal != nil {
				if err := s.cmd.Process.Signal(tt.signal); err != nil {
					t.Fatal(err)
				}
			}
			code, res := s.wait()
			if code != tt.wantCode {
				t.Errorf("exit status %d, want %d", code, tt.wantCode)
			}
			if diff := cmp.Diff(tt.want, res, cmp.FilterPath(func(p cmp.Path) bool {
				return p.Last().String() == ".Answers"
			}, cmp.Ignore())); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if len(res.Answers) != 0 {
				t.Errorf("answers %v, want none", res.Answers)
			}
		})
	}
}
