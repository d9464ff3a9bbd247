package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hubBinary builds askuser-hub once per test run, next to the askuser
// binary.
func hubBinary(t *testing.T) string {
	t.Helper()
	bin, err := testkit.Build("github.com/askuser/askuser/cmd/askuser-hub")
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// startHubProcess runs a real hub process whose state directory is state
// until the test ends, and waits until it has written its info file. It
// returns a function that sends the process sig and waits until it is
// gone.
func startHubProcess(t *testing.T, state string) (signal func(sig syscall.Signal)) {
	t.Helper()
	cmd := exec.Command(hubBinary(t))
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state)
	var stderr testkit.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var waited error
	done := make(chan struct{})
	go func() { waited = cmd.Wait(); close(done) }()
	signal = func(sig syscall.Signal) {
		t.Helper()
		_ = cmd.Process.Signal(sig)
		select {
		case <-done:
		case <-time.After(testkit.Patience(t)):
			_ = cmd.Process.Kill()
			<-done
			t.Errorf("the hub did not stop on %v:\n%s", sig, stderr.String())
		}
	}
	t.Cleanup(func() { signal(syscall.SIGTERM) })
	paths := hubPaths(t, state)
	deadline := testkit.PatienceDeadline(t)
	for {
		info, err := hub.ReadInfo(paths.Info)
		if err == nil && info.PID == cmd.Process.Pid {
			return signal
		}
		select {
		case <-done:
			t.Fatalf("the hub ended: %v\n%s", waited, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hub was not ready within %v:\n%s", testkit.Patience(t), stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func hubPaths(t *testing.T, state string) hub.Paths {
	t.Helper()
	p, err := hub.Locate(func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// hubClient connects a go-sdk client named hubtest to askuser mcp run
// with state as its state directory, outside tmux, at protocol v. A nil
// elicit declares no elicitation.
func hubClient(t *testing.T, state, v string, elicit elicitFunc, args ...string) (*mcp.ClientSession, *testkit.Buffer) {
	t.Helper()
	cmd := serverCommand(t, args...)
	cmd.Env = append(cmd.Env, "XDG_STATE_HOME="+state)
	var stderr testkit.Buffer
	cmd.Stderr = &stderr
	var opts mcp.ClientOptions
	if v >= "2026-07-28" {
		// The test answers each form sent as InputRequests itself.
		opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	}
	if elicit != nil {
		opts.ElicitationHandler = func(ctx context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return elicit(ctx, r) }
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "hubtest", Version: "1.0"}, &opts)
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: v})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, &stderr
}

// askuserCmd runs the askuser binary with state as its state directory.
func askuserCmd(t *testing.T, state, stdin string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(askuserBinary(t), args...)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("askuser %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

// pendingEntry is one entry of askuser pending --json.
type pendingEntry struct {
	ID        string `json:"id"`
	Agent     string `json:"agent"`
	Project   string `json:"project"`
	Contract  string `json:"contract"`
	Questions int    `json:"questions"`
	Deadline  string `json:"deadline"`
}

// onePending waits until askuser pending --json lists one question.
func onePending(t *testing.T, state string) pendingEntry {
	t.Helper()
	deadline := testkit.PatienceDeadline(t)
	for {
		out, err := askuserCmd(t, state, "", "pending", "--json")
		if err != nil {
			t.Fatal(err)
		}
		var list []pendingEntry
		if err := json.Unmarshal([]byte(out), &list); err != nil {
			t.Fatalf("pending --json: %v\n%s", err, out)
		}
		if len(list) == 1 {
			return list[0]
		}
		if len(list) > 1 || time.Now().After(deadline) {
			t.Fatalf("%d questions wait, want 1:\n%s", len(list), out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

const hubAskUser = `{"questions":[{"title":"Deploy where?","options":[{"label":"staging"},{"label":"production"}]}]}`
const hubAUQ = `{"questions":[{"id":"db","question":"Which database?","header":"Database","options":[{"id":"pg","label":"Postgres","description":"d"},{"id":"lite","label":"SQLite","description":"d"}]}]}`

// hubAnswer is the answer askuser answer gives for the contract.
func hubAnswer(t *testing.T, c string) string {
	t.Helper()
	var v any
	if c == hub.ContractAskUser {
		req, _, err := contract.Parse([]byte(hubAskUser))
		if err != nil {
			t.Fatal(err)
		}
		a := contract.NewAnswer(req, 0)
		a.Selections = []string{"production"}
		v = contract.Result{Status: contract.StatusAnswered, Answers: []contract.Answer{a}}
	} else {
		v = auq.Result{Answers: map[string]auq.Answer{"db": {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: "lite", Label: "SQLite"}}}}
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// allowedMembers are the members each contract's structured content may
// have: its result's, and guidance.
var allowedMembers = map[string][]string{
	hub.ContractAskUser:         {"status", "route", "answers", "cancelledReason", "error", "warnings", "guidance"},
	hub.ContractAskUserQuestion: {"cancelled", "answers", "metadata", "error", "guidance"},
}

// checkMembers fails when the structured content of r has a member its
// contract does not allow.
func checkMembers(t *testing.T, r *mcp.CallToolResult, c string) map[string]json.RawMessage {
	t.Helper()
	b, err := json.Marshal(r.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for k := range m {
		if !slices.Contains(allowedMembers[c], k) {
			t.Errorf("the result has a member %q that %s does not allow: %s", k, c, b)
		}
	}
	return m
}

func toolText(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func callTool(cs *mcp.ClientSession, name, args string) <-chan *mcp.CallToolResult {
	out := make(chan *mcp.CallToolResult, 1)
	go func() {
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		if err != nil {
			r = &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "call failed: " + err.Error()}}, IsError: true}
		}
		out <- r
	}()
	return out
}

func hubResult(t *testing.T, ch <-chan *mcp.CallToolResult) *mcp.CallToolResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the call did not end")
		return nil
	}
}

// TestHubHeadless: a client that can show no form, outside tmux, with a
// real hub running, waits for the hub; askuser answer answers it and
// the model is told which program did, in both contracts. The question
// is tagged with the client's name, the project and the contract.
func TestHubHeadless(t *testing.T) {
	state := t.TempDir()
	startHubProcess(t, state)
	wd, _ := os.Getwd()
	for _, c := range []string{hub.ContractAskUser, hub.ContractAskUserQuestion} {
		t.Run(c, func(t *testing.T) {
			name, req, args := mcpserver.ToolName, hubAskUser, []string{"--timeout-per-question", "20000"}
			if c == hub.ContractAskUserQuestion {
				name, req, args = auq.ToolName, hubAUQ, append(args, "--tool", auq.ToolName)
			}
			cs, stderr := hubClient(t, state, "2025-11-25", nil, args...)
			call := callTool(cs, name, req)
			q := onePending(t, state)
			if q.Agent != "hubtest 1.0" || q.Contract != c || q.Questions != 1 || q.Project != wd || q.Deadline == "" {
				t.Errorf("tag = %+v", q)
			}
			if _, err := askuserCmd(t, state, hubAnswer(t, c), "answer", "--by", "ci-policy", q.ID, "-"); err != nil {
				t.Fatal(err)
			}
			r := hubResult(t, call)
			m := checkMembers(t, r, c)
			text := toolText(r)
			if r.IsError || !strings.Contains(text, "they waited on the askuser hub, where they were answered by ci-policy (askuser answer)") {
				t.Errorf("text does not say where the answer came from:\n%s", text)
			}
			want := `"production"`
			if c == hub.ContractAskUserQuestion {
				want = `"SQLite"`
			}
			if !strings.Contains(string(m["answers"]), want) {
				t.Errorf("answers = %s, want %s", m["answers"], want)
			}
			if s := stderr.String(); s != "" {
				t.Errorf("stderr: %s", s)
			}
		})
	}
	t.Run("timeout", func(t *testing.T) {
		cs, _ := hubClient(t, state, "2025-11-25", nil, "--timeout-per-question", "1000")
		r := hubResult(t, callTool(cs, mcpserver.ToolName, hubAskUser))
		m := checkMembers(t, r, hub.ContractAskUser)
		if string(m["status"]) != `"timeout"` || !strings.Contains(toolText(r), "waited on the askuser hub; nobody answered them there") {
			t.Errorf("status %s, text:\n%s", m["status"], toolText(r))
		}
	})
}

// TestHubRestart: a client that can show no form waits on the hub, which
// is killed, or stopped, and started again on another port: the answer
// given on the next hub with askuser answer reaches the model.
func TestHubRestart(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			state := t.TempDir()
			stop := startHubProcess(t, state)
			cs, _ := hubClient(t, state, "2025-11-25", nil, "--timeout-per-question", "60000")
			call := callTool(cs, mcpserver.ToolName, hubAskUser)
			q := onePending(t, state)
			stop(sig)
			startHubProcess(t, state)
			if got := onePending(t, state); got.ID != q.ID {
				t.Fatalf("the next hub holds question %s, want %s", got.ID, q.ID)
			}
			if _, err := askuserCmd(t, state, hubAnswer(t, hub.ContractAskUser), "answer", "--by", "ci-policy", q.ID, "-"); err != nil {
				t.Fatal(err)
			}
			r := hubResult(t, call)
			m := checkMembers(t, r, hub.ContractAskUser)
			if string(m["status"]) != `"answered"` || !strings.Contains(string(m["answers"]), `"production"`) {
				t.Errorf("result %s, text:\n%s", m, toolText(r))
			}
		})
	}
}

// TestHubWinsOverForm: a client whose form is on screen, and answered
// slowly, gets the hub's answer, and its elicitation request is
// cancelled with notifications/cancelled.
func TestHubWinsOverForm(t *testing.T) {
	state := t.TempDir()
	startHubProcess(t, state)
	cancelled := make(chan error, 1)
	// The person at the form answers only once the test ends, however
	// long the hub's answer takes to come.
	release := make(chan struct{})
	slow := func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		select {
		case <-ctx.Done():
			cancelled <- context.Cause(ctx)
			return nil, ctx.Err()
		case <-release:
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1": "staging"}}, nil
		}
	}
	cs, _ := hubClient(t, state, "2025-11-25", slow, "--timeout-per-question", "20000")
	t.Cleanup(func() { close(release) })
	call := callTool(cs, mcpserver.ToolName, hubAskUser)
	q := onePending(t, state)
	if q.Agent != "hubtest 1.0" {
		t.Errorf("agent = %q", q.Agent)
	}
	if _, err := askuserCmd(t, state, hubAnswer(t, hub.ContractAskUser), "answer", q.ID, "-"); err != nil {
		t.Fatal(err)
	}
	r := hubResult(t, call)
	m := checkMembers(t, r, hub.ContractAskUser)
	if !strings.Contains(string(m["answers"]), `"production"`) {
		t.Errorf("answers = %s", m["answers"])
	}
	if text := toolText(r); !strings.Contains(text, "The answer came through the askuser hub, not from the form of hubtest 1.0: it was answered by askuser answer") {
		t.Errorf("text:\n%s", text)
	}
	select {
	case err := <-cancelled:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the elicitation ended with %v", err)
		}
	case <-time.After(testkit.Patience(t)):
		t.Error("the client's elicitation was not cancelled")
	}
}

// TestHubAbsent: with the hub off, or out of reach, a client gets what
// it got without one; a hub out of reach is said once on stderr.
func TestHubAbsent(t *testing.T) {
	t.Run("unreachable", func(t *testing.T) {
		state := t.TempDir()
		paths := hubPaths(t, state)
		if err := os.MkdirAll(paths.Dir, 0o700); err != nil {
			t.Fatal(err)
		}
		// A hub that died without removing its info file.
		if err := hubserver.WriteInfo(paths.Info, hub.Info{URL: "nats://127.0.0.1:1", Token: "x", PID: 1}); err != nil {
			t.Fatal(err)
		}
		cs, stderr := hubClient(t, state, "2025-11-25", nil)
		for range 2 {
			r := hubResult(t, callTool(cs, mcpserver.ToolName, hubAskUser))
			m := checkMembers(t, r, hub.ContractAskUser)
			if !strings.Contains(string(m["error"]), "unsupported_mode") {
				t.Errorf("result: %s", m["error"])
			}
		}
		form, formErr := hubClient(t, state, "2025-11-25", accept(`{"q1":"staging"}`))
		r := hubResult(t, callTool(form, mcpserver.ToolName, hubAskUser))
		if m := checkMembers(t, r, hub.ContractAskUser); !strings.Contains(string(m["answers"]), `"staging"`) {
			t.Errorf("the form's answer was lost: %s", toolText(r))
		}
		if n := strings.Count(stderr.String(), "the hub cannot be reached"); n != 1 {
			t.Errorf("stderr says %d times that the hub cannot be reached, want 1:\n%s", n, stderr.String())
		}
		// The form's session dials the hub beside the form, which may
		// be answered first.
		for end := testkit.PatienceDeadline(t); !strings.Contains(formErr.String(), "the hub cannot be reached") && time.Now().Before(end); {
			time.Sleep(10 * time.Millisecond)
		}
		if n := strings.Count(formErr.String(), "the hub cannot be reached"); n != 1 {
			t.Errorf("stderr of the form's server says %d times that the hub cannot be reached, want 1:\n%s", n, formErr.String())
		}
	})
	t.Run("off", func(t *testing.T) {
		state := t.TempDir()
		startHubProcess(t, state)
		cs, stderr := hubClient(t, state, "2025-11-25", nil, "--hub", "off")
		r := hubResult(t, callTool(cs, mcpserver.ToolName, hubAskUser))
		if m := checkMembers(t, r, hub.ContractAskUser); !strings.Contains(string(m["error"]), "unsupported_mode") {
			t.Errorf("result: %s", m["error"])
		}
		if s := stderr.String(); s != "" {
			t.Errorf("stderr: %s", s)
		}
	})
}

// TestHubFormNotShown: a client that declares forms but dismisses one at
// once, as one with no terminal does, leaves the call to the hub, and
// the model is told that the client could not show it.
func TestHubFormNotShown(t *testing.T) {
	state := t.TempDir()
	startHubProcess(t, state)
	dismiss := func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	cs, _ := hubClient(t, state, "2025-11-25", dismiss, "--timeout-per-question", "20000")
	call := callTool(cs, mcpserver.ToolName, hubAskUser)
	q := onePending(t, state)
	if _, err := askuserCmd(t, state, hubAnswer(t, hub.ContractAskUser), "answer", "--by", "eval", q.ID, "-"); err != nil {
		t.Fatal(err)
	}
	r := hubResult(t, call)
	m := checkMembers(t, r, hub.ContractAskUser)
	if string(m["status"]) != `"answered"` || !strings.Contains(toolText(r), "The MCP client hubtest 1.0 cannot show these questions here, so they waited on the askuser hub, where they were answered by eval (askuser answer)") {
		t.Errorf("status %s, text:\n%s", m["status"], toolText(r))
	}
}

// TestHubOverInputRequests: a 2026-07-28 client, whose form goes out as
// InputRequests with no call in flight while it is on screen, has its
// questionnaire offered on the hub. An answer given there while the form
// is out wins when the client calls again with its own answer, and the
// model is told where it came from; a form answered first closes the
// question on the hub, and an answer there after it is refused, saying
// so. Both contracts.
func TestHubOverInputRequests(t *testing.T) {
	state := t.TempDir()
	startHubProcess(t, state)
	for _, c := range []string{hub.ContractAskUser, hub.ContractAskUserQuestion} {
		name, req, args := mcpserver.ToolName, hubAskUser, []string{"--timeout-per-question", "60000"}
		own, ownWant, hubWant := map[string]any{"q1": "staging"}, `"staging"`, `"production"`
		if c == hub.ContractAskUserQuestion {
			name, req, args = auq.ToolName, hubAUQ, append(args, "--tool", auq.ToolName)
			own, ownWant, hubWant = map[string]any{"q1": "Postgres"}, `"Postgres"`, `"SQLite"`
		}
		cs, stderr := hubClient(t, state, "2026-07-28", accept(`{}`), args...)
		for _, hubFirst := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/hub first %v", c, hubFirst), func(t *testing.T) {
				first := hubResult(t, callTool(cs, name, req))
				if !first.NeedsInput() || first.RequestState == "" {
					t.Fatalf("the first call: %s; want the form as InputRequests", toolText(first))
				}
				q := onePending(t, state)
				if q.Agent != "hubtest 1.0" || q.Contract != c || q.Deadline == "" {
					t.Errorf("tag = %+v", q)
				}
				if hubFirst {
					if _, err := askuserCmd(t, state, hubAnswer(t, c), "answer", "--by", "ci-policy", q.ID, "-"); err != nil {
						t.Fatal(err)
					}
				}
				r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(req),
					RequestState: first.RequestState, InputResponses: mcp.InputResponseMap{"questionnaire": &mcp.ElicitResult{Action: "accept", Content: own}}})
				if err != nil {
					t.Fatal(err)
				}
				m := checkMembers(t, r, c)
				text := toolText(r)
				if hubFirst {
					if !strings.Contains(string(m["answers"]), hubWant) || strings.Contains(string(m["answers"]), ownWant) {
						t.Errorf("answers = %s, want the hub's %s", m["answers"], hubWant)
					}
					if !strings.Contains(text, "The answer came through the askuser hub, not from the form of hubtest 1.0: it was answered by ci-policy (askuser answer)") {
						t.Errorf("text does not say where the answer came from:\n%s", text)
					}
					return
				}
				if !strings.Contains(string(m["answers"]), ownWant) || strings.Contains(text, "askuser hub") {
					t.Errorf("answers = %s, want the form's %s; text:\n%s", m["answers"], ownWant, text)
				}
				_, err = askuserCmd(t, state, hubAnswer(t, c), "answer", q.ID, "-")
				if err == nil || !strings.Contains(err.Error(), "was already answered in askuser mcp for hubtest 1.0") {
					t.Errorf("an answer on the hub after the form's: %v", err)
				}
			})
		}
		if s := stderr.String(); s != "" {
			t.Errorf("stderr: %s", s)
		}
	}
}
