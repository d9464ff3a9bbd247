package clients

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/claudecode"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/testkit"
)

// The tests in this file run Claude Code 2.1.332 as
// claude -p --permission-prompt-tool mcp__askuser__approve, with
// askuser mcp --approve-tool as its MCP server, in the default
// permission mode: the scripted model calls Bash to touch a file, which
// needs the person's permission, and Claude Code asks the approve tool.

// claudeApprove runs Claude Code headless with askuser's approve tool,
// askuser mcp given extra, while answer (when not nil) runs beside it.
// The model's call is Bash touching the file it returns the path of.
func claudeApprove(t *testing.T, s *sandbox, answer func(), extra ...string) (m *model, ran string, out string) {
	t.Helper()
	ran = filepath.Join(s.work, "ran")
	m = newModel(t, anthropic{}, "Bash", mustJSON(map[string]string{"command": "touch " + ran, "description": "Create the file ran"}))
	claudeHome(s, m)
	cfg := s.write("mcp.json", mustJSON(map[string]any{"mcpServers": map[string]any{"askuser": map[string]any{
		"command": askuserBin, "args": askuserArgs("", append([]string{"--approve-tool"}, extra...)...)}}}))
	done := make(chan struct{})
	if answer != nil {
		go func() {
			defer close(done)
			answer()
		}()
	} else {
		close(done)
	}
	out = s.headless("claude", "-p", "Create the file ran.", "--mcp-config", cfg, "--strict-mcp-config",
		"--permission-mode", "default", "--permission-prompt-tool", "mcp__askuser__approve", "--model", claudeModel)
	<-done
	return m, ran, out
}

// waitApproval returns the approval waiting on the hub c, checked to be
// marked as one and to show the command.
func waitApproval(t *testing.T, c *hub.Client, command string) hub.Question {
	t.Helper()
	deadline := testkit.PatienceDeadline(t)
	for time.Now().Before(deadline) {
		qs, err := c.Pending(context.Background())
		if err == nil && len(qs) == 1 {
			q := qs[0]
			if q.Tag.Kind != hub.KindApproval || q.Tag.Contract != hub.ContractAskUserQuestion {
				t.Errorf("the question on the hub is tagged %+v; want an approval shown as AskUserQuestion", q.Tag)
			}
			if !strings.Contains(string(q.Request), command) {
				t.Errorf("the approval does not show the command %q:\n%s", command, q.Request)
			}
			return q
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Error("no approval waited on the hub")
	return hub.Question{}
}

// answerApproval answers the approval id with askuser answer, as a
// person would at a terminal (only there may it allow), with the short
// answer args.
func answerApproval(t *testing.T, s *sandbox, id string, args ...string) {
	t.Helper()
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptm.Close()
	defer tty.Close()
	cmd := exec.Command(askuserBin, append([]string{"answer", id}, args...)...)
	cmd.Env = s.env
	cmd.Dir = s.work
	cmd.Stdin = tty
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("askuser answer %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Allow once, given on the hub: the command runs, and the model gets
// Bash's result.
func TestClaudeApproveAllow(t *testing.T) {
	s := newSandbox(t)
	c := startSandboxHub(s)
	m, ran, out := claudeApprove(t, s, func() {
		q := waitApproval(t, c, "touch "+filepath.Join(s.work, "ran"))
		answerApproval(t, s, q.ID, approval.QuestionID+"=Allow once")
	})
	got := oneResult(t, m)
	t.Logf("the model received: %s", got)
	if !exists(ran) {
		t.Errorf("the command did not run; the model received:\n%s", got)
	}
	if strings.Contains(got, "denied") {
		t.Errorf("the model received a denial:\n%s", got)
	}
	// Claude Code keeps its permission-prompt tool from the model, and
	// offers the server's other tool.
	if m.sent("mcp__askuser__approve") || !m.sent("mcp__askuser__ask_user") {
		t.Errorf("the model was offered approve %v, ask_user %v; want ask_user alone", m.sent("mcp__askuser__approve"), m.sent("mcp__askuser__ask_user"))
	}
	finished(t, out)
}

// Deny with a reason: the command does not run, and the model gets the
// reason.
func TestClaudeApproveDeny(t *testing.T) {
	s := newSandbox(t)
	c := startSandboxHub(s)
	const reason = "Not in this project, please."
	m, ran, out := claudeApprove(t, s, func() {
		q := waitApproval(t, c, "touch ")
		answerApproval(t, s, q.ID, approval.QuestionID+"=deny", approval.QuestionID+".note.deny="+reason)
	})
	got := oneResult(t, m)
	t.Logf("the model received: %s", got)
	if exists(ran) {
		t.Error("the command ran after a denial")
	}
	if !strings.Contains(got, "The person denied this call: "+reason) {
		t.Errorf("the model did not receive the reason:\n%s", got)
	}
	finished(t, out)
}

// An approval nobody answers is denied at its deadline; an answer the
// approval cannot take, given first, changes nothing.
func TestClaudeApproveTimeout(t *testing.T) {
	s := newSandbox(t)
	c := startSandboxHub(s)
	m, ran, out := claudeApprove(t, s, func() {
		q := waitApproval(t, c, "touch ")
		bad := mustJSON(auq.Result{Answers: map[string]auq.Answer{approval.QuestionID: {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: "always1", Label: "Always allow"}}}})
		if _, err := c.Answer(context.Background(), q.ID, json.RawMessage(bad), "test"); err == nil {
			t.Error("the hub took an option the approval does not offer")
		}
	}, "--timeout-per-question", "3000")
	got := oneResult(t, m)
	t.Logf("the model received: %s", got)
	if exists(ran) {
		t.Error("the command ran though nobody allowed it")
	}
	if !strings.Contains(got, "Nobody answered the approval in time, so the call is denied.") {
		t.Errorf("the model was not told the approval timed out:\n%s", got)
	}
	finished(t, out)
}

// With no hub and no tmux the approval has no route: the call is denied
// at once, saying so.
func TestClaudeApproveNoRoute(t *testing.T) {
	s := newSandbox(t)
	m, ran, out := claudeApprove(t, s, nil)
	got := oneResult(t, m)
	t.Logf("the model received: %s", got)
	if exists(ran) {
		t.Error("the command ran with no way to ask")
	}
	if !strings.Contains(got, "The approval could not be asked (unsupported_mode: ") || !strings.Contains(got, "no hub was reached") {
		t.Errorf("the model was not told the approval could not be asked:\n%s", got)
	}
	finished(t, out)
}

// claudeHook runs Claude Code headless, without a permission-prompt
// tool, with a PermissionRequest hook for Bash that saves its input and
// prints the file hook-out.json (nothing when it is empty). It returns
// the hook's input.
func claudeHook(t *testing.T, s *sandbox, m *model, output []byte) (in []byte, out string) {
	t.Helper()
	save, reply := filepath.Join(s.root, "hook-in.json"), s.write("hook-out.json", string(output))
	os.Remove(save)
	script := s.write("hook.sh", "#!/bin/sh\ncat > '"+save+"'\ncat '"+reply+"'\n")
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	s.write("project/.claude/settings.json", mustJSON(map[string]any{"hooks": map[string]any{"PermissionRequest": []any{
		map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": script}}}}}}))
	out = s.headless("claude", "-p", "Create the file ran.", "--permission-mode", "default", "--model", claudeModel)
	in, err := os.ReadFile(save)
	if err != nil {
		t.Fatalf("the hook did not run: %v\n%s", err, out)
	}
	return in, out
}

// Claude Code's PermissionRequest hook gets what package claudecode
// decodes, and takes what it prints: no decision (nothing printed)
// leaves the call to Claude Code, which in -p denies it; an allow that
// takes a permission suggestion runs the command and keeps the rule;
// a denial gives the model its message. Claude Code 2.1.332 suggests
// directories and the acceptEdits mode for a command that writes a
// file, and a rule kept in the project's local settings for others.
func TestClaudePermissionRequestHook(t *testing.T) {
	s := newSandbox(t)
	ran := filepath.Join(s.work, "ran")
	m := newModel(t, anthropic{}, "Bash", mustJSON(map[string]string{"command": "touch " + ran, "description": "Create the file ran"}))
	claudeHome(s, m)

	in, _ := claudeHook(t, s, m, nil)
	req, err := claudecode.DecodePermissionRequest(in)
	if err != nil {
		t.Fatalf("%v:\n%s", err, in)
	}
	p, err := req.Prompt()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the hook's input: %s\nits approval: %+v", in, p.Request)
	if p.Request.Command != "touch "+ran || p.Request.Detail != "Create the file ran" {
		t.Errorf("the approval of %s is %+v", in, p.Request)
	}
	if got := oneResult(t, m); exists(ran) {
		t.Fatalf("the command ran with no decision; the model received:\n%s", got)
	} else {
		t.Logf("with no decision the model received: %s", got)
	}
	if len(p.Request.Always) == 0 {
		t.Fatalf("Claude Code suggested no standing permission: %s", in)
	}

	// A denial: the model is told why.
	m2 := newModel(t, anthropic{}, "Bash", m.args)
	claudeHome(s, m2)
	claudeHook(t, s, m2, p.HookOutput(approval.Outcome{Status: approval.StatusDecided, Decision: &approval.Decision{Reason: "not now"}}))
	if got := oneResult(t, m2); !strings.Contains(got, "The person denied this call: not now") || exists(ran) {
		t.Errorf("after a denial the file exists: %v; the model received:\n%s", exists(ran), got)
	}

	// An allow that takes the first suggestion.
	m3 := newModel(t, anthropic{}, "Bash", m.args)
	claudeHome(s, m3)
	claudeHook(t, s, m3, p.HookOutput(approval.Outcome{Status: approval.StatusDecided, Decision: &approval.Decision{Allow: true, Always: 1}}))
	got := oneResult(t, m3)
	if !exists(ran) {
		t.Errorf("after an allow the command did not run; the model received:\n%s", got)
	}
	if !strings.Contains(got, "Additional working directories added") {
		t.Errorf("the standing choice %q was not applied; the model received:\n%s", p.Request.Always[0], got)
	}

	// A rule in this project's settings, which Claude Code keeps there.
	const command = "python3 -c 'print(1)'"
	m4 := newModel(t, anthropic{}, "Bash", mustJSON(map[string]string{"command": command}))
	claudeHome(s, m4)
	in, _ = claudeHook(t, s, m4, nil)
	req, err = claudecode.DecodePermissionRequest(in)
	if err != nil {
		t.Fatal(err)
	}
	if p, err = req.Prompt(); err != nil {
		t.Fatal(err)
	}
	if want := "always allow Bash(" + command + ") in this project"; len(p.Request.Always) != 1 || p.Request.Always[0] != want {
		t.Fatalf("the standing choices are %q, want %q, for %s", p.Request.Always, want, in)
	}
	m5 := newModel(t, anthropic{}, "Bash", m4.args)
	claudeHome(s, m5)
	claudeHook(t, s, m5, p.HookOutput(approval.Outcome{Status: approval.StatusDecided, Decision: &approval.Decision{Allow: true, Always: 1}}))
	oneResult(t, m5)
	kept, err := os.ReadFile(filepath.Join(s.work, ".claude/settings.local.json"))
	// Claude Code escapes the parentheses inside a rule's content.
	if err != nil || !strings.Contains(string(kept), `"Bash(python3 -c 'print\\(1\\)')"`) {
		t.Errorf("Claude Code did not keep the rule in .claude/settings.local.json (%v): %s", err, kept)
	}
}
