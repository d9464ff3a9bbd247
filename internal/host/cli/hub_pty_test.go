package cli_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
)

const hubQuestion = `{"questions":[{"title":"Deploy where?","options":[{"label":"staging"},{"label":"production"}]}]}`

// stateEnv is an environment that holds only XDG_STATE_HOME, state: a
// hub's, or an asker's, for a state directory of the test's.
func stateEnv(state string) func(string) string {
	return func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}
}

// startTestHub runs a real hub for a state directory of the test's.
func startTestHub(t *testing.T) (state string, c *hub.Client) {
	t.Helper()
	state = t.TempDir()
	getenv := stateEnv(state)
	_, stop, err := hubserver.Start(context.Background(), &hubserver.Options{Getenv: getenv})
	if err != nil {
		t.Fatalf("hub: %v", err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("hub: %v", err)
		}
	})
	c, err = hub.Dial(context.Background(), &hub.DialOptions{Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return state, c
}

// onePending waits until one question waits on the hub and returns it.
func onePending(t *testing.T, c *hub.Client) hub.Question {
	t.Helper()
	return pendingN(t, c, 1)[0]
}

// TestHubOnPty runs askuser ask in a real pseudo-terminal with a real hub
// running: an answer given on the hub closes the dialog and is the
// result, and an answer given in the terminal closes the question on the
// hub, which then refuses another saying where it was answered.
func TestHubOnPty(t *testing.T) {
	state, c := startTestHub(t)
	file := filepath.Join(t.TempDir(), "q.json")
	if err := os.WriteFile(file, []byte(hubQuestion), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "TERM=xterm-256color", "XDG_STATE_HOME="+state)

	t.Run("hub answers", func(t *testing.T) {
		var stderr bytes.Buffer
		s := startOnPtyWith(t, env, &stderr, "ask", "--no-config", file)
		s.expect("production")
		q := onePending(t, c)
		if q.Tag.Agent != "askuser ask" || q.Tag.Contract != hub.ContractAskUser {
			t.Errorf("tag = %+v", q.Tag)
		}
		answer := `{"status":"answered","answers":[{"index":0,"id":"q1","title":"Deploy where?","kind":"single","selections":["production"],"usedDefault":false}]}`
		if _, err := c.Answer(context.Background(), q.ID, []byte(answer), "pty test"); err != nil {
			t.Fatal(err)
		}
		code, res := s.wait()
		if code != 0 || res.Status != contract.StatusAnswered || res.Answers[0].Selections[0] != "production" {
			t.Fatalf("exit status %d, result %+v", code, res)
		}
		if !strings.Contains(stderr.String(), "answered by pty test through the hub (question "+q.ID+"), not on this terminal") {
			t.Errorf("stderr does not say where it was answered:\n%s", stderr.String())
		}
		s.drained()
	})

	t.Run("terminal answers", func(t *testing.T) {
		var stderr bytes.Buffer
		s := startOnPtyWith(t, env, &stderr, "ask", "--no-config", "--mode", "native", file)
		s.expect("Deploy where?")
		q := onePending(t, c)
		s.expect("left]: ")
		s.send("1\r")
		code, res := s.wait()
		if code != 0 || res.Route != contract.RouteNative || res.Answers[0].Selections[0] != "staging" {
			t.Fatalf("exit status %d, result %+v", code, res)
		}
		_, err := c.Answer(context.Background(), q.ID, []byte(`{"status":"answered","answers":[]}`), "pty test")
		var re *hub.RefusedError
		if !errors.As(err, &re) || re.Reason != hub.RefusedAnswered || !strings.Contains(re.Message, "answered in the terminal of askuser ask") {
			t.Fatalf("answer after the terminal's: %v", err)
		}
		if qs, _ := c.Pending(context.Background()); len(qs) != 0 {
			t.Errorf("%d questions still wait", len(qs))
		}
		s.drained()
	})
}
