package pibridge

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestNotify checks the notifications of the custom route: the opening
// sequences go to the shim in a notify message once the component is
// open, the title comes back after the close, and the notify command's
// failure comes as a notice. None of them holds the question.
func TestNotify(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skipf("no /bin/sh to run the notify command with: %v", err)
	}
	t.Setenv("TMUX", "")
	tests := []struct {
		tool, params, dismiss string
		secrets               []string
	}{
		{"ask_user", deploy, "escape", []string{"Deploy", "prod"}},
		{"AskUserQuestion", framework, "ctrl+c", []string{"framework", "Vue", "Framework"}},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			opts := map[string]any{"timeoutPerQuestionMs": 600000, "notify": map[string]any{
				"desktop": "osc777", "command": []string{"/bin/sh", "-c", "exit 3"}}}
			c := ready(t, hello("tui", true, tuiUI, map[string]any{"options": opts, "tool": tt.tool}))
			sendAsk(c, "c1", tt.params, "")
			msgs := c.until("open")
			msgs = append(msgs, c.until("notify")...)
			c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": tt.dismiss})
			msgs = append(msgs, c.until("result")...)
			checkNotify(t, c, msgs, tt.secrets)
		})
	}
}

// checkNotify checks the messages of a call that opened a component and
// was dismissed, with more read from c until the notice.
func checkNotify(t *testing.T, c *client, msgs []map[string]any, secrets []string) {
	t.Helper()
	for !slices.Contains(types(msgs), typeNotice) {
		msgs = append(msgs, c.next())
	}
	var data []string
	var notices []string
	got := types(msgs)
	for _, m := range msgs {
		switch m["type"] {
		case typeNotify:
			if m["call"] != "c1" {
				t.Errorf("notify for call %v", m["call"])
			}
			data = append(data, m["data"].(string))
		case typeNotice:
			notices = append(notices, m["message"].(string))
		}
	}
	want := []string{
		"\a\x1b]777;notify;askuser: question waiting;10m left\x1b\\\x1b[22;0t\x1b]2;askuser: question waiting\x1b\\",
		"\x1b[23;0t",
	}
	if !slices.Equal(data, want) {
		t.Errorf("notify data %q, want %q", data, want)
	}
	if open, first := slices.Index(got, typeOpen), slices.Index(got, typeNotify); first < open {
		t.Errorf("messages %v: the first notify comes before the open", got)
	}
	rev := slices.Clone(got)
	slices.Reverse(rev)
	if lastNotify := len(got) - 1 - slices.Index(rev, typeNotify); slices.Index(got, typeClose) > lastNotify {
		t.Errorf("messages %v: the title is not restored after the close", got)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], `the notify command "/bin/sh" failed: exit status 3`) {
		t.Errorf("notices %q", notices)
	}
	for _, d := range data {
		for _, secret := range secrets {
			if strings.Contains(d, secret) {
				t.Errorf("notify data %q holds %q", d, secret)
			}
		}
	}
}
