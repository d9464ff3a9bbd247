package cli_test

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/host/cli"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/testkit"
)

// askuser hook stopped with SIGTERM while its approval waits on the hub,
// as a client that gives up on its hook stops it: nothing on stdout,
// which is no decision and never an allow, status 0, and the question
// closed on the hub, saying it was handed back to the client's prompt.
func TestHookSIGTERM(t *testing.T) {
	bin, err := testkit.Build("github.com/askuser/askuser/cmd/askuser")
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	getenv := func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Patience(t))
	defer cancel()
	info, stop, err := hubserver.Start(ctx, &hubserver.Options{Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	c, err := hub.Dial(ctx, &hub.DialOptions{Info: &info})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	cmd := exec.Command(bin, "hook", "--no-config", "--hub", "on", "codex")
	cmd.Env = []string{"XDG_STATE_HOME=" + state, "HOME=" + t.TempDir(), "PATH=/usr/bin:/bin"}
	cmd.Stdin = strings.NewReader(`{"session_id":"s","turn_id":"1","cwd":"/work/p","model":"m","permission_mode":"default","transcript_path":null,` +
		`"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var id string
	for id == "" {
		qs, err := c.Pending(ctx)
		if err != nil || ctx.Err() != nil {
			cmd.Process.Kill()
			t.Fatalf("the approval never reached the hub: %v\n%s", err, stderr.String())
		}
		if len(qs) == 1 {
			id = qs[0].ID
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("askuser hook ended with %v, want status 0; stderr:\n%s", err, stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("askuser hook printed %q after SIGTERM; want nothing, no decision", stdout.String())
	}
	if !strings.Contains(stderr.String(), "no decision") {
		t.Errorf("stderr %q does not say there is no decision", stderr.String())
	}
	_, a, err := c.Question(ctx, id)
	if err != nil || a == nil {
		t.Fatalf("the question's closing: %v, %v", a, err)
	}
	if a.Status != hub.StatusClosed || a.Note != "handed back to codex's own prompt" {
		t.Errorf("the question was closed with %+v; want closed, handed back to codex's own prompt", a)
	}
}

// Events askuser hook cannot ask, hostile or huge among them, decide
// nothing: status 0, nothing on stdout, and why on stderr with the
// model's text escaped.
func TestHookNoDecision(t *testing.T) {
	t.Parallel()
	mb := strings.Repeat("\x1b[2J\u202e<b>", 1<<20/10)
	quote := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			switch {
			case r == '"' || r == '\\':
				b.WriteString(`\` + string(r))
			case r < 0x20:
				b.WriteString(`\u001b`)
			default:
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	tests := []struct {
		name, client, event, why string
	}{
		{"a megabyte of command", "codex",
			`{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"` + quote(mb) + `"}}`, "cannot be asked as an approval"},
		{"a megabyte of question", "claude-code",
			`{"hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_input":{"questions":[{"question":"` + quote(mb) + `?","header":"H","options":[{"label":"a","description":"x"},{"label":"b","description":"y"}]}]}}`, "no hub runs"},
		{"an event over the limit", "claude-code", `{"hook_event_name":"PreToolUse","x":"` + strings.Repeat("x", 9<<20) + `"}`, "over"},
		{"an event of another client", "claude-code", `{"hook_event_name":"Notification","message":"` + quote("\x1b]0;pwned\a") + `"}`, `not "Notification"`},
		{"no event", "codex", ``, "not valid JSON"},
		{"an event that is not UTF-8", "claude-code", "{\"hook_event_name\":\"PermissionRequest\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm \xff\"}}", "UTF-8"},
		{"a duplicate command", "codex", `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls","command":"rm -rf /"}}`, "duplicate"},
		{"a tool input nested too deep", "claude-code",
			`{"hook_event_name":"PermissionRequest","tool_name":"mcp__x__y","tool_input":{"a":` + strings.Repeat("[", 500) + strings.Repeat("]", 500) + `}}`, "deeper"},
		{"a tool name in two cases", "codex", `{"hook_event_name":"PermissionRequest","tool_name":"Read","TOOL_NAME":"Bash","tool_input":{"command":"ls"}}`, "TOOL_NAME"},
		{"a tool input that is a list", "claude-code", `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":["rm -rf /"]}`, "no tool input object"},
		{"a PreToolUse of another tool", "claude-code", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, "AskUserQuestion only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state := t.TempDir()
			var stdout, stderr bytes.Buffer
			env := &cli.Env{Stdin: strings.NewReader(tt.event), Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string {
				if k == "XDG_STATE_HOME" {
					return state
				}
				return ""
			}}
			if code := cli.Run(context.Background(), []string{"hook", "--no-config", tt.client}, env); code != 0 {
				t.Errorf("status %d, want 0", code)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout holds %d bytes, want none", stdout.Len())
			}
			if !strings.Contains(stderr.String(), tt.why) || !strings.Contains(stderr.String(), "no decision") {
				t.Errorf("stderr %.300q does not say %q and no decision", stderr.String(), tt.why)
			}
			if strings.ContainsAny(stderr.String(), "\x1b\a\u202e") {
				t.Errorf("stderr holds the model's text raw: %.300q", stderr.String())
			}
		})
	}
}
