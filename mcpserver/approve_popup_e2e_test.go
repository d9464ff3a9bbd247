package mcpserver_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/mcpserver"
)

// TestApprovePopup asks an approval in a real tmux popup, beside
// ask_user: askuser mcp --approve-tool shows it as a questionnaire of
// one question, and Allow once, picked with Down and Enter (Deny has the focus first), allows the call with its input unchanged.
func TestApprovePopup(t *testing.T) {
	if testing.Short() {
		t.Skip("the popup test runs a real tmux; skipped in -short mode")
	}
	c := startTmux(t)
	cmd := c.serverCmd()
	cmd.Args = append(cmd.Args, "--approve-tool")
	cl := mcp.NewClient(&mcp.Implementation{Name: "popup-test", Version: "1"}, nil)
	cs, err := cl.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	done := make(chan callResult, 1)
	go func() {
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: mcpserver.ApproveToolName, Arguments: json.RawMessage(touch)})
		done <- callResult{r, err}
	}()
	c.waitText("claude-code wants to run a command. Allow it?", "Allow once", "touch /tmp/ran")
	c.typeKeys("\x1b[B") // Down: Deny has the focus; Allow once is next
	c.typeKeys("\r")
	got := waitCall(t, done)
	if got.err != nil {
		t.Fatal(got.err)
	}
	if want := `{"behavior":"allow","updatedInput":{"command":"touch /tmp/ran","description":"Create a file"}}`; text(got.res) != want {
		t.Errorf("result\n got %s\nwant %s", text(got.res), want)
	}
	noStrayPopup(c)
}
