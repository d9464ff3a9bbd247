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
	"github.com/askuser/askuser/internal/testkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestClusterAgentConfig runs agents on machines where no hub runs and
// whose only askuser setting is their config's hub, naming a real
// three-node cluster: askuser ask without a terminal and askuser mcp for
// a client without forms. Each starts its machine's hub in the
// background, relaying with the cluster, and publishes its question
// there, sealed; the person's hub, whose key the config lists, shows it
// tagged with the agent's machine and answers it; the agent gets that
// answer. The hub it started then stops by itself once idle, leaving
// neither a process nor its info file. Where the test may make
// namespaces, askuser ask's machine is one, with its own host name and
// network, that reaches only the cluster.
func TestClusterAgentConfig(t *testing.T) {
	t.Parallel()
	// askuser-hub is built beside askuser, where askuser finds it.
	askuser, _, c, _, me := agentsCluster(t)
	mine := me.hub(t, c)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}

	t.Run("askuser ask", func(t *testing.T) {
		t.Parallel()
		m := newConfigMachine(t, c)
		args := []string{askuser, "ask", "--config", m.config, filepath.Join(m.dir, "q.json")}
		env := m.env()
		if ok, why := namespaces(); ok {
			m.url = "nats://127.0.0.1:4222"
			m.name = "agent-box-" + secret()[:6]
			args = append([]string{"unshare", "--net", "--uts", "--", self, "--", "sh", "-c", `hostname "$1" && shift && exec "$@"`, "sh", m.name}, args...)
			n := c.nodes
			env = append(env, forwardEnv+"="+c.bridge(t), fmt.Sprintf("%s_UNREACHABLE=%d,%d,%d,%d,%d,%d", forwardEnv, n[0].port, n[1].port, n[2].port, n[0].lport, n[1].lport, n[2].lport))
		} else {
			t.Logf("the agent runs without a network namespace of its own: %s", why)
		}
		m.writeConfig(t, c, me)
		title, yes := m.question(t)

		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = env
		var stdout bytes.Buffer
		var stderr testkit.Buffer // read while askuser writes it
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		// No controlling terminal: the hub is the agent's only route.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })

		started := m.startedHub(t, func() string { return stderr.String() })
		q := m.reached(t, mine, title, "askuser ask", func() string { return stderr.String() })
		if _, err := answerRetrying(t, mine, &q, yes, "alice"); err != nil {
			t.Fatalf("answer on the person's hub: %v", err)
		}
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("askuser ask: %v\nstderr: %s", err, stderr.String())
			}
		case <-time.After(testkit.Patience(t)):
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
		m.stopsWhenIdle(t, started)
	})

	t.Run("askuser mcp", func(t *testing.T) {
		t.Parallel()
		m := newConfigMachine(t, c)
		m.writeConfig(t, c, me)
		title, yes := m.question(t)
		cmd := exec.Command(askuser, "mcp", "--config", m.config)
		cmd.Env = append(m.env(), "TMUX=")
		var stderr testkit.Buffer // read while askuser writes it
		cmd.Stderr = &stderr
		client := mcp.NewClient(&mcp.Implementation{Name: "ci-agent", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		results := make(chan *mcp.CallToolResult, 1)
		go func() {
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask_user", Arguments: json.RawMessage(m.request)})
			if err != nil {
				r = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
			}
			results <- r
		}()
		started := m.startedHub(t, func() string { return stderr.String() })
		q := m.reached(t, mine, title, "ci-agent 1", func() string { return stderr.String() })
		if _, err := answerRetrying(t, mine, &q, yes, "alice"); err != nil {
			t.Fatalf("answer on the person's hub: %v", err)
		}
		select {
		case r := <-results:
			got, _ := json.Marshal(r.StructuredContent)
			if r.IsError || !bytes.Contains(got, []byte(`"status":"answered"`)) || !bytes.Contains(got, []byte(`"selections":["`+yes+`"]`)) {
				t.Errorf("the MCP call returned %s %+v; want the answer %q\nstderr: %s", got, r.Content, yes, stderr.String())
			}
		case <-time.After(testkit.Patience(t)):
			t.Fatalf("the MCP call did not return after the answer; stderr: %s", stderr.String())
		}
		// The client goes, and with it the last askuser of the machine.
		cs.Close()
		m.stopsWhenIdle(t, started)
	})
}

// configMachine is one agent machine of TestClusterAgentConfig: its home,
// state and config directories, its config, and the cluster address and
// host name it has.
type configMachine struct {
	dir, state, config, url, name string
	request                       []byte
}

// idleMs is how long the hubs the agents start wait idle. The agent that
// started a hub must connect to it within that time, or the hub stops
// first: on a loaded machine, with the race detector, that took more
// than 1.5 s.
const idleMs = 6000

func newConfigMachine(t *testing.T, c *cluster) *configMachine {
	dir := t.TempDir()
	name, _ := os.Hostname()
	return &configMachine{dir: dir, state: filepath.Join(dir, "state"), config: filepath.Join(dir, "config.json"), url: c.urls(), name: name}
}

func (m *configMachine) env() []string {
	return []string{"HOME=" + m.dir, "XDG_STATE_HOME=" + m.state, "XDG_CONFIG_HOME=" + filepath.Join(m.dir, "config"),
		"PATH=" + os.Getenv("PATH"), "TERM=dumb"}
}

func (m *configMachine) hubFile(name string) string {
	return filepath.Join(m.state, "askuser", "hub", name)
}

// writeConfig writes the agent's config: the cluster, the agent's
// credentials, the person's key.
func (m *configMachine) writeConfig(t *testing.T, c *cluster, me person) {
	cfg, _ := json.Marshal(map[string]any{"timeoutPerQuestionMs": 60000, "hub": map[string]any{
		"url": m.url, "credentials": c.credentials(t, "agent"), "recipients": []string{me.recipient}, "idleMs": idleMs}})
	if err := os.WriteFile(m.config, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
}

// question writes the agent's question, q.json, and returns its title
// and first option, both unique.
func (m *configMachine) question(t *testing.T) (title, yes string) {
	word := secret()
	title, yes = "Ship the "+word+" build?", "yes-"+word
	m.request, _ = json.Marshal(map[string]any{"questions": []map[string]any{{"title": title, "options": []map[string]any{{"label": yes}, {"label": "no-" + word}}}}})
	if err := os.WriteFile(filepath.Join(m.dir, "q.json"), m.request, 0o600); err != nil {
		t.Fatal(err)
	}
	return title, yes
}

// startedHub returns the info of the hub the agent started, relaying
// with the machine's cluster address, and kills it at the end if it is
// still there, before its directory is removed.
func (m *configMachine) startedHub(t *testing.T, said func() string) hub.Info {
	t.Helper()
	var started hub.Info
	for wait := testkit.PatienceDeadline(t); started.PID == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(wait) {
			t.Fatalf("the agent started no hub; it said: %s", said())
		}
		started, _ = hub.ReadInfo(m.hubFile("hub.json"))
	}
	t.Cleanup(func() {
		if testkit.Running(started.PID) {
			syscall.Kill(started.PID, syscall.SIGKILL)
		}
	})
	if started.Remote != m.url {
		t.Errorf("the started hub relays with %q, want %q", started.Remote, m.url)
	}
	return started
}

// reached waits for the question titled title on the person's hub, and
// checks that it is tagged with the agent and the machine.
func (m *configMachine) reached(t *testing.T, mine *hub.Client, title, agent string, said func() string) hub.Question {
	t.Helper()
	var q hub.Question
	for wait := testkit.PatienceDeadline(t); q.ID == ""; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(wait) {
			t.Fatalf("the question did not reach the person's hub; the agent said: %s\nthe started hub logged: %s", said(), readFile(m.hubFile("hub.log")))
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
	// The machine is new to the person's hub: its first question shows
	// its key's fingerprint.
	if machine, _, _ := strings.Cut(q.Tag.Machine, " (new to this hub: key "); machine != m.name || q.Tag.Agent != agent {
		t.Errorf("the question is tagged agent %q on machine %q; want %s on %q", q.Tag.Agent, q.Tag.Machine, agent, m.name)
	}
	return q
}

// stopsWhenIdle waits for the started hub to stop by itself, now that no
// question waits and nothing is connected: its info file gone, its
// process ended, its log saying why.
func (m *configMachine) stopsWhenIdle(t *testing.T, started hub.Info) {
	t.Helper()
	from := time.Now()
	for wait := from.Add(idleMs*time.Millisecond + testkit.Patience(t)); ; time.Sleep(50 * time.Millisecond) {
		_, err := hub.ReadInfo(m.hubFile("hub.json"))
		if errors.Is(err, hub.ErrNoHub) && !testkit.Running(started.PID) {
			break
		}
		if time.Now().After(wait) {
			t.Fatalf("the hub the agent started (process %d) did not stop when idle: info file %v, process running %v; it logged: %s",
				started.PID, err, testkit.Running(started.PID), readFile(m.hubFile("hub.log")))
		}
	}
	t.Logf("the started hub stopped %v after the agent was done", time.Since(from).Round(10*time.Millisecond))
	if log := readFile(m.hubFile("hub.log")); !strings.Contains(log, "stopping: idle") {
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
