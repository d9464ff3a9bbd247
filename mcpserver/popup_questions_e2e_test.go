package mcpserver_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/auq"
)

// questionsInTmux starts askuser mcp --tool AskUserQuestion as if in the
// tmux pane, with a client that declares no elicitation, so the popup is
// the only route.
func (c *tmuxClient) questionsInTmux() *mcp.ClientSession {
	c.t.Helper()
	cmd := c.serverCmd()
	cmd.Args = append(cmd.Args, "--tool", auq.ToolName)
	cl := mcp.NewClient(&mcp.Implementation{Name: "popup-test", Version: "1"}, nil)
	cs, err := cl.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { cs.Close() })
	return cs
}

func callQuestionsAsync(cs *mcp.ClientSession, args string) <-chan callResult {
	ch := make(chan callResult, 1)
	go func() {
		r, err := callQuestions(context.Background(), cs, args)
		ch <- callResult{r, err}
	}()
	return ch
}

// TestQuestionsPopup shows AskUserQuestion in a real tmux popup, where
// the dialog runs in askuser mcp on the popup's terminal, and dismisses
// it (TestQuestionsPopupHides answers it).
func TestQuestionsPopup(t *testing.T) {
	if testing.Short() {
		t.Skip("the popup test runs a real tmux; skipped in -short mode")
	}
	var mu sync.Mutex
	t.Run("esc twice dismisses", func(t *testing.T) {
		mu.Lock()
		defer mu.Unlock()
		c := startTmux(t)
		cs := c.questionsInTmux()
		done := callQuestionsAsync(cs, auqRequest)
		c.waitText("Which database?")
		c.typeKeys("\x1b")
		c.waitText("Press Esc again to dismiss")
		c.typeKeys("\x1b")
		got := waitCall(t, done)
		if got.err != nil {
			t.Fatal(got.err)
		}
		sameJSON(t, structuredJSON(t, got.res), `{"cancelled":true,"metadata":{"source":"test","flowId":"f-1"}}`)
		if !strings.Contains(text(got.res), "dismissed") {
			t.Errorf("the text does not say the user dismissed it:\n%s", text(got.res))
		}
		c.waitGone("Which database?")
		noStrayPopup(c)
	})
}

// TestQuestionsPopupHides answers in the popup, closing it with
// Ctrl+Shift+Q and opening it again with the same key, with the note
// kept. The outer terminal sends
// the key as the kitty keyboard protocol does, which tmux reads with
// extended-keys on.
func TestQuestionsPopupHides(t *testing.T) {
	if testing.Short() {
		t.Skip("the popup test runs a real tmux; skipped in -short mode")
	}
	c := startTmuxServer(t)
	c.run("set", "-s", "extended-keys", "on")
	c.attach()
	cs := c.questionsInTmux()
	done := callQuestionsAsync(cs, auqRequest)
	c.waitText("Which database?", "ctrl+shift+q hide")
	c.typeKeys("n")
	c.waitText("✎")
	c.typeKeys("fast\r")
	c.waitText("✎ fast")
	c.typeKeys("\x1b[113;6u")
	c.waitGone("Which database?")
	// The popup closes before the server binds the key to open it again,
	// and then says so.
	c.waitText("ctrl+shift+q shows them again")
	c.typeKeys("\x1b[113;6u")
	c.waitText("Which database?", "✎ fast")
	c.typeKeys("\r")
	c.waitText("Submit")
	c.typeKeys("\r")
	got := waitCall(t, done)
	if got.err != nil {
		t.Fatal(got.err)
	}
	sameJSON(t, structuredJSON(t, got.res), `{"cancelled":false,
		"answers":{"db":{"kind":"single","optionId":"pg","label":"Postgres"}},
		"annotations":{"db":{"optionNotes":{"pg":"fast"},"selectedPreview":"SELECT 1;"}},
		"metadata":{"source":"test","flowId":"f-1"}}`)
	noStrayPopup(c)
}
