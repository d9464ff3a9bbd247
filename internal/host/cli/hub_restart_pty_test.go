package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/testkit"
)

// TestHubRestartOnPty runs askuser ask in a real terminal while its hub,
// a process of its own, is killed or stopped and started again on
// another port: an answer given on the next hub closes the dialog, and
// an answer given in the terminal closes the question on the next hub.
func TestHubRestartOnPty(t *testing.T) {
	t.Parallel()
	bin := buildAskuser(t)
	file := filepath.Join(t.TempDir(), "q.json")
	if err := os.WriteFile(file, []byte(hubQuestion), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		for _, where := range []string{"hub", "terminal"} {
			t.Run(sig.String()+", answered on the "+where, func(t *testing.T) {
				state := t.TempDir()
				getenv := stateEnv(state)
				first := testkit.StartHub(t, state, bin, "hub")
				env := append(os.Environ(), "TERM=xterm-256color", "XDG_STATE_HOME="+state)
				var stderr bytes.Buffer
				s := startOnPtyWith(t, env, &stderr, "ask", "--no-config", "--mode", "native", file)
				s.expect("left]: ")
				c, err := hub.Dial(context.Background(), &hub.DialOptions{Getenv: getenv})
				if err != nil {
					t.Fatal(err)
				}
				q := onePending(t, c)
				c.Close()

				first.Signal(t, sig)
				testkit.StartHub(t, state, bin, "hub")
				c, err = hub.Dial(context.Background(), &hub.DialOptions{Getenv: getenv})
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				if got := onePending(t, c); got.ID != q.ID {
					t.Fatalf("the next hub holds question %s, want %s", got.ID, q.ID)
				}
				want := "production"
				if where == "hub" {
					answer := `{"status":"answered","answers":[{"index":0,"id":"q1","title":"Deploy where?","kind":"single","selections":["production"],"usedDefault":false}]}`
					if _, err := c.Answer(context.Background(), q.ID, []byte(answer), "pty test"); err != nil {
						t.Fatal(err)
					}
				} else {
					want = "staging"
					s.send("1\r")
				}
				code, res := s.wait()
				if code != 0 || res.Status != contract.StatusAnswered || res.Answers[0].Selections[0] != want {
					t.Fatalf("exit status %d, result %+v\n%s", code, res, stderr.String())
				}
				if where == "terminal" {
					_, err := c.Answer(context.Background(), q.ID, []byte(`{"status":"answered","answers":[]}`), "pty test")
					var re *hub.RefusedError
					if !errors.As(err, &re) || re.Reason != hub.RefusedAnswered || !strings.Contains(re.Message, "answered in the terminal of askuser ask") {
						t.Fatalf("answer on the next hub after the terminal's: %v", err)
					}
				}
			})
		}
	}
}

// TestInboxHubRestart keeps askuser inbox open while the hub, a process
// of its own, is killed or stopped and started again on another port:
// the inbox shows the question again from the next hub and answers it
// there, and the headless askuser ask that asked it gets the answer.
func TestInboxHubRestart(t *testing.T) {
	t.Parallel()
	bin := buildAskuser(t)
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			state := t.TempDir()
			getenv := stateEnv(state)
			first := testkit.StartHub(t, state, bin, "hub")
			env := append(os.Environ(), "TERM=xterm-256color", "XDG_STATE_HOME="+state)
			ask := startHeadlessAsk(t, env, "ask", "--no-config", "--timeout-per-question", "600000", writeFile(t, "q.json", hubQuestion))
			s := startInbox(t, env)
			s.waitFor("1 question waits", "Deploy where?")

			first.Signal(t, sig)
			testkit.StartHub(t, state, bin, "hub")
			c, err := hub.Dial(context.Background(), &hub.DialOptions{Getenv: getenv})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			pendingN(t, c, 1)
			s.waitFor("1 question waits", "Deploy where?")
			s.send(keyEnter)
			s.waitFor("staging", "production", "esc back to the list")
			s.send(keyDown + keyEnter)
			code, out := ask.result()
			var r contract.Result
			if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || r.Status != contract.StatusAnswered || r.Answers[0].Selections[0] != "production" {
				t.Fatalf("askuser ask: exit status %d, result %s (%v); it said %s", code, out, err, ask.stderr.String())
			}
			s.waitFor("no questions wait")
			s.send("q")
			if code := s.exit(); code != 0 {
				t.Errorf("askuser inbox: exit status %d, want 0", code)
			}
		})
	}
}
