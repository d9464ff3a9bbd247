package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/contract"
)

// TestPopupNotify runs askuser mcp in a tmux pane with a client attached
// on a pty, opens a popup, and reads every byte tmux sends the client:
// with the notifications on, the bell and the desktop notification (through
// tmux's passthrough) come once each and the pane's title says that a
// question waits until it is answered; with them off, none of that.
func TestPopupNotify(t *testing.T) {
	if testing.Short() {
		t.Skip("the popup test runs a real tmux; skipped in -short mode")
	}
	const question = `{"header":"Release","questions":[{"title":"Deploy where?","options":[{"label":"staging"},{"label":"production"}]}]}`
	const note = "\x1b]9;askuser: question waiting: Release · 10m left\x1b\\"
	tests := []struct {
		name, notify string
		on           bool
	}{
		{"on", `{"desktop": "osc9"}`, true},
		{"off", `{"bell": false, "desktop": false, "title": false}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startTmuxServer(t)
			c.run("set", "-g", "allow-passthrough", "on")
			c.attach()
			before := c.paneTitle()
			cfg := filepath.Join(t.TempDir(), "config.json")
			if err := os.WriteFile(cfg, []byte(`{"timeoutPerQuestionMs": 600000, "notify": `+tt.notify+`}`), 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := c.serverCmd()
			cmd.Args = []string{cmd.Args[0], "mcp", "--config", cfg}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "notify-test", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			done := callAsync(context.Background(), cs, question)
			c.waitText("Deploy where?", "staging")
			waiting := "askuser: question waiting · Release"
			if tt.on {
				c.waitFor("the pane's title to say a question waits", func() bool { return c.paneTitle() == waiting })
				c.waitFor("the notification on the terminal", func() bool { return strings.Contains(c.raw(), note) })
			} else if got := c.paneTitle(); got != before {
				t.Errorf("pane title %q while waiting, want it left as %q", got, before)
			}
			c.typeKeys("\r")
			if res := waitResult(t, done); res.Status != contract.StatusAnswered {
				t.Fatalf("result %+v", res)
			}
			c.waitFor("the pane's title back", func() bool { return c.paneTitle() == before })
			raw := c.raw()
			want := map[bool]int{true: 1, false: 0}[tt.on]
			if n := strings.Count(raw, note); n != want {
				t.Errorf("%d notifications, want %d", n, want)
			}
			if n := strings.Count(raw, "\a"); n != want {
				t.Errorf("%d bells, want %d", n, want)
			}
			for _, secret := range []string{"Deploy where?", "staging", "production"} {
				if strings.Contains(c.paneTitle(), secret) {
					t.Errorf("the title shows %q", secret)
				}
			}
		})
	}
}

func (c *tmuxClient) paneTitle() string {
	return strings.TrimSuffix(c.run("display", "-p", "-t", c.pane, "#{pane_title}"), "\n")
}

func (c *tmuxClient) raw() string {
	c.emu.mu.Lock()
	defer c.emu.mu.Unlock()
	return c.emu.raw.String()
}
