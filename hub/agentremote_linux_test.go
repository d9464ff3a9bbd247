package hub_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/testbin"
)

// TestClusterAgentConfig runs an agent on a machine where no hub runs
// and whose only askuser setting is its config's hub, naming a real
// three-node cluster. askuser ask, without a terminal, starts the
// machine's hub in the background, relaying with the cluster, and
// publishes its question there, sealed; the person's hub, whose key the
// config lists, shows it tagged with the agent's machine and answers it;
// askuser ask prints that answer. The hub it started then stops by
// itself once idle, leaving neither a process nor its info file. Where
// the test may make namespaces, the agent's machine is one, with its own
// host name and network, that reaches only the cluster.
func TestClusterAgentConfig(t *testing.T) {
	askuser, err := testbin.Build("github.com/askuser/askuser/cmd/askuser")
	if err != nil {
		t.Fatal(err)
	}
	// Beside askuser, where askuser finds it.
	if _, err := testbin.Build("github.com/askuser/askuser/cmd/askuser-hub"); err != nil {
		t.Fatal(err)
	}
	c := startCluster(t)
	me := newPerson(t, c)
	mine := me.hub(t, c)

	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	info := filepath.Join(state, "askuser", "hub", "hub.json")
	url := c.urls()
	machine, _ := os.Hostname()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{askuser, "ask", "--config", filepath.Join(dir, "config.json"), filepath.Join(dir, "q.json")}
	env := []string{"HOME=" + dir, "XDG_STATE_HOME=" + state, "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"PATH=" + os.Getenv("PATH"), "TERM=dumb"}
	if ok, why := namespaces(); ok {
		url = "nats://127.0.0.1:4222"
		machine = "agent-box-" + secret()[:6]
		args = append([]string{"unshare", "--net", "--uts", "--", self, "--", "sh", "-c", `hostname "$1" && shift && exec "$@"`, "sh", machine}, args...)
		env = append(env, forwardEnv+"="+c.bridge(t), fmt.Sprintf("%s_UNREACHABLE=%d,%d,%d", forwardEnv, c.nodes[0].port, c.nodes[1].port, c.nodes[2].port))
	} else {
		t.Logf("the agent runs without a network namespace of its own: %s", why)
	}

	word := secret()
	title, yes, no := "Ship the "+word+" build?", "yes-"+word, "no-"+word
	req, _ := json.Marshal(map[string]any{"questions": []map[string]any{{"title": title, "options": []map[string]any{{"label": yes}, {"label": no}}}}})
	const idleMs = 1500
	cfg, _ := json.Marshal(map[string]any{"timeoutPerQuestionMs": 60000, "hub": map[string]any{
		"url": url, "credentials": c.credentials(t, "agent"), "recipients": []string{me.recipient}, "idleMs": idleMs}})
	for name, data := range map[string][]byte{"config.json": cfg, "q.json": req} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}

	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// No controlling terminal: the hub is the agent's only route.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })

	// The hub askuser started: found by its info file, killed at the end
	// if it is still there, before its directory is removed.
	var started hub.Info
	for wait := time.Now().Add(10 * time.Second); started.PID == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(wait) {
			t.Fatalf("askuser ask started no hub; it said: %s", stderr.String())
		}
		started, _ = hub.ReadInfo(info)
	}
	t.Cleanup(func() {
		if testbin.Running(started.PID) {
			syscall.Kill(started.PID, syscall.SIGKILL)
		}
	})
	if started.Remote != url {
		t.Errorf("the started hub relays with %q, want %q", started.Remote, url)
	}

	var q hub.Question
	for wait := time.Now().Add(20 * time.Second); q.ID == ""; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(wait) {
			t.Fatalf("the question did not reach the person's hub; askuser ask said: %s\nthe started hub logged: %s", stderr.String(), readFile(filepath.Join(state, "askuser", "hub", "hub.log")))
		}
		qs, err := mine.Pending(context.Background())
		if err != nil {
			t.Logf("pending: %v", err)
		}
		for _, p := range qs {
			if bytes.Contains(p.Request, []byte(title)) {
				q = p
			}
		}
	}
	if q.Tag.Machine != machine || q.Tag.Agent != "askuser ask" {
		t.Errorf("the question is tagged agent %q on machine %q; want askuser ask on %q", q.Tag.Agent, q.Tag.Machine, machine)
	}
	if _, err := answerRetrying(mine, &q, yes, "alice"); err != nil {
		t.Fatalf("answer on the person's hub: %v", err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("askuser ask: %v\nstderr: %s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("askuser ask did not end after the answer; stderr: %s", stderr.String())
	}
	var res struct {
		Status  string `json:"status"`
		Answers []struct {
			Selections []string `json:"selections"`
		} `json:"answers"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil || res.Status != "answered" || len(res.Answers) != 1 ||
		len(res.Answers[0].Selections) != 1 || res.Answers[0].Selections[0] != yes {
		t.Errorf("askuser ask printed %s (%v); want the answer %q", stdout.String(), err, yes)
	}
	if s, want := stderr.String(), "askuser ask: answered by alice through the hub (question "+q.ID+"), not on this terminal\n"; s != want {
		t.Errorf("askuser ask said on stderr:\n%s\nwant:\n%s", s, want)
	}
	stopAt := time.Now()

	// Idle: no question waits and nothing is connected.
	for wait := time.Now().Add(idleMs*time.Millisecond + 15*time.Second); ; time.Sleep(50 * time.Millisecond) {
		_, err := hub.ReadInfo(info)
		if errors.Is(err, hub.ErrNoHub) && !testbin.Running(started.PID) {
			break
		}
		if time.Now().After(wait) {
			t.Fatalf("the hub askuser started (process %d) did not stop when idle: info file %v, process alive %v; it logged: %s",
				started.PID, err, testbin.Running(started.PID), readFile(filepath.Join(state, "askuser", "hub", "hub.log")))
		}
	}
	t.Logf("the started hub stopped %v after the agent ended", time.Since(stopAt).Round(10*time.Millisecond))
	if log := readFile(filepath.Join(state, "askuser", "hub", "hub.log")); !strings.Contains(log, "stopping: idle") {
		t.Errorf("the started hub's log does not say it stopped when idle: %s", log)
	}
}

func readFile(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	return string(data)
}
