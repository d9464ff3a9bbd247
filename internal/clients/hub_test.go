package clients

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
)

// startSandboxHub runs a real hub, the embedded NATS server, in this
// process with the sandbox's state directory, where askuser mcp run by
// the client finds it, until the test ends. It returns a client of it.
func startSandboxHub(s *sandbox) *hub.Client {
	s.t.Helper()
	getenv := func(k string) string {
		for _, kv := range s.env {
			if v, ok := strings.CutPrefix(kv, k+"="); ok {
				return v
			}
		}
		return ""
	}
	paths, err := hub.Locate(getenv)
	if err != nil {
		s.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	info, stop, err := hubserver.Start(ctx, &hubserver.Options{Paths: paths})
	if err != nil {
		s.t.Fatalf("the hub did not start: %v", err)
	}
	s.t.Cleanup(func() {
		if err := stop(); err != nil {
			s.t.Errorf("hub: %v", err)
		}
	})
	c, err := hub.Dial(ctx, &hub.DialOptions{Info: &info})
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(c.Close)
	return c
}

// Claude Code 2.1.332 shows askuser's form, sent as InputRequests on
// protocol 2026-07-28, while the questionnaire is offered on the hub. A
// program answers it there; the form stays on screen, and when the
// person closes it (Esc) the model gets the hub's answer and is told it
// came through the hub.
func TestClaudeHubOverForm(t *testing.T) {
	var c *hub.Client
	u, m := claudeTUI(t, "native", func(s *sandbox) { c = startSandboxHub(s) })
	u.ask(m)
	u.waitText("requests your input", "Pick a colour: ▸ not set")
	var q hub.Question
	u.until("the question waiting on the hub", func() bool {
		qs, err := c.Pending(context.Background())
		if err != nil || len(qs) != 1 {
			return false
		}
		q = qs[0]
		return true
	})
	req, _, err := contract.Parse(q.Request)
	if err != nil {
		t.Fatal(err)
	}
	a := contract.NewAnswer(req, 0)
	a.Selections = []string{"red"}
	data, err := json.Marshal(contract.Result{Status: contract.StatusAnswered, Answers: []contract.Answer{a}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Answer(context.Background(), q.ID, data, "ci-policy"); err != nil {
		t.Fatal(err)
	}
	// Nothing closes the form on this protocol: the person does.
	u.waitText("requests your input")
	u.pressUntilGone("Escape", "requests your input")
	res, guidance := structuredResult(t, u.result(m))
	if res.Status != contract.StatusAnswered || len(res.Answers) != 1 || strings.Join(res.Answers[0].Selections, ",") != "red" {
		t.Errorf("the model received %+v; want the hub's answer, red", res)
	}
	if !strings.Contains(guidance, "The answer came through the askuser hub, not from the form of") ||
		!strings.Contains(guidance, "answered by ci-policy") {
		t.Errorf("the guidance does not say where the answer came from:\n%s", guidance)
	}
	u.waitText(finalText)
}
