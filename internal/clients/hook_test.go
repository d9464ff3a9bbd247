package clients

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/hub"
)

// The tests in this file run Claude Code's TUI with askuser hook as its
// PreToolUse hook for its own AskUserQuestion tool, which the scripted
// model calls: the questions are asked in askuser's popup and on the
// hub, and the model gets the answer as Claude Code's own dialog would
// have handed it over.

// hookQuestion is the scripted model's call of Claude Code's own
// AskUserQuestion tool.
const hookQuestion = `{"questions":[{"question":"Which database should we use?","header":"Database","options":[{"label":"SQLite","description":"A file beside the code"},{"label":"Postgres","description":"A server of its own"}],"multiSelect":false}]}`

// claudeHookTUI starts Claude Code's TUI with askuser hook registered
// for AskUserQuestion in its user settings, with setup, if not nil, run
// on its sandbox first.
func claudeHookTUI(t *testing.T, setup func(*sandbox)) (*tui, *model, *sandbox) {
	return claudeHookTUIWith(t, "PreToolUse", "AskUserQuestion", "AskUserQuestion", hookQuestion, setup, "--model", claudeModel)
}

// hookFlags are flags of askuser hook in the settings claudeHookTUIWith
// writes, each followed by a space; a test that changes it restores it.
var hookFlags = ""

// claudeHookTUIWith starts Claude Code's TUI with askuser hook
// registered for event on the tools matcher matches, and a model that
// calls tool with args, with Claude Code's arguments args.
func claudeHookTUIWith(t *testing.T, event, matcher, tool, args string, setup func(*sandbox), claudeArgs ...string) (*tui, *model, *sandbox) {
	s := newSandbox(t)
	m := newModel(t, anthropic{}, tool, args)
	claudeHome(s, m)
	// What the hook says goes to a file, shown when the test fails.
	log := s.write("hook.log", "")
	t.Cleanup(func() {
		if data, err := os.ReadFile(log); t.Failed() && err == nil {
			t.Logf("askuser hook said:\n%s", data)
		}
	})
	hook := shellQuote(askuserBin) + " hook --no-config " + hookFlags + "claude-code 2>>" + shellQuote(log)
	s.write("home/.claude/settings.json", mustJSON(map[string]any{"hooks": map[string]any{
		event: []any{map[string]any{"matcher": matcher, "hooks": []any{
			map[string]any{"type": "command", "command": hook, "timeout": 600},
		}}},
	}}))
	if setup != nil {
		setup(s)
	}
	u := s.startTUI("claude", claudeArgs...)
	return u, m, s
}

// questionsPopupHints is a piece of the key hints of askuser's
// AskUserQuestion dialog in its popup.
const questionsPopupHints = "esc esc dismiss · ctrl+shift+q hide"

// answeredAs is what Claude Code 2.1.332 tells the model when its own
// dialog was answered with label.
func answeredAs(label string) string {
	return `Your questions have been answered: "Which database should we use?"="` + label + `". You can now continue with these answers in mind.`
}

func TestClaudeHookQuestions(t *testing.T) {
	start := func(t *testing.T, setup func(*sandbox)) (*tui, *model, *sandbox) {
		u, m, s := claudeHookTUI(t, setup)
		u.waitText("⏵⏵ auto mode on")
		return u, m, s
	}
	t.Run("popup", func(t *testing.T) {
		u, m, _ := start(t, nil)
		u.ask(m)
		u.waitText("Which database should we use?", questionsPopupHints)
		u.keys("Down")
		u.keys("Enter") // one question: Enter submits
		// Claude Code appends a reminder of its own after the answer.
		if got, want := u.result(m), answeredAs("Postgres"); !strings.HasPrefix(got, want) {
			t.Errorf("the model received %q, want it to begin %q", got, want)
		}
		u.waitText(finalText)
		u.until("no popup left", func() bool { return len(popups()) == 0 })
	})
	// No answer by the hook's deadline: the hook decides nothing, and
	// Claude Code's own dialog asks, where the person answers.
	t.Run("deadline", func(t *testing.T) {
		hookFlags = "--timeout 3s "
		defer func() { hookFlags = "" }()
		u, m, _ := start(t, nil)
		u.ask(m)
		u.waitText("Which database should we use?", questionsPopupHints)
		u.waitText("Enter to select · ↑/↓ to navigate")
		u.until("no popup left", func() bool { return len(popups()) == 0 })
		u.keys("Down")
		u.keys("Enter")
		if got, want := u.result(m), answeredAs("Postgres"); !strings.HasPrefix(got, want) {
			t.Errorf("the model received %q, want it to begin %q", got, want)
		}
	})
	t.Run("hub", func(t *testing.T) {
		var c *hub.Client
		u, m, s := start(t, func(s *sandbox) { c = startSandboxHub(s) })
		u.ask(m)
		u.waitText("Which database should we use?", questionsPopupHints)
		var q hub.Question
		u.until("the question waiting on the hub", func() bool {
			qs, err := c.Pending(context.Background())
			if err != nil || len(qs) != 1 {
				return false
			}
			q = qs[0]
			return true
		})
		if q.Tag.Agent != "claude-code" || q.Tag.Project != s.work {
			t.Errorf("the question is tagged %+v, want claude-code in %s", q.Tag, s.work)
		}
		answer := exec.Command(askuserBin, "answer", q.ID, "1=SQLite", "1.note=  file it under <b>ops</b>  ")
		answer.Env = s.env
		if out, err := answer.CombinedOutput(); err != nil {
			t.Fatalf("askuser answer: %v\n%s", err, out)
		}
		// A note makes Claude Code ask the model to read the answer with
		// care, as its own dialog does.
		want := `The user answered: "Which database should we use?"="SQLite" notes: file it under <b>ops</b>. Read the answers carefully`
		if got := u.result(m); !strings.HasPrefix(got, want) {
			t.Errorf("the model received %q, want it to begin %q", got, want)
		}
		u.waitText(finalText)
		u.until("the popup closed by the hub's answer", func() bool { return len(popups()) == 0 })
	})
}

// codex exec with a command that asks for more than its sandbox allows:
// under --approve-for-me, Codex 0.171 asks (its approval policy is
// on-request, where plain exec runs with never and rejects the command
// at once), and its PermissionRequest hook, askuser hook codex, puts the
// approval on the hub; the answer given there decides whether the
// command runs, and a denial's reason reaches the model.
func TestCodexHookApproval(t *testing.T) {
	tests := []struct {
		name, option, note string
		ran                bool
		result             string // a piece of the command's result, as the model gets it
	}{
		{"allow", "allow", "", true, "Process exited with code 0"},
		{"deny", "deny", "not in this repository", false, "not in this repository"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t)
			c := startSandboxHub(s)
			m := newModel(t, responses{}, "exec_command", `{"cmd":"touch ran.txt","sandbox_permissions":"require_escalated","justification":"It writes <a> file."}`)
			codexHome(s, m, "")
			log := s.write("hook.log", "")
			cfg, err := os.ReadFile(filepath.Join(s.home, ".codex/config.toml"))
			if err != nil {
				t.Fatal(err)
			}
			s.write("home/.codex/config.toml", string(cfg)+`
[[hooks.PermissionRequest]]
[[hooks.PermissionRequest.hooks]]
type = "command"
command = `+mustJSON(shellQuote(askuserBin)+" hook --no-config --hub on codex 2>>"+shellQuote(log))+`
timeout = 600
`)
			answered := make(chan error, 1)
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), clientWait)
				defer cancel()
				for ctx.Err() == nil {
					qs, err := c.Pending(ctx)
					if err != nil || len(qs) == 0 {
						time.Sleep(50 * time.Millisecond)
						continue
					}
					q := qs[0]
					var req auq.Request
					if err := json.Unmarshal(q.Request, &req); err != nil {
						answered <- err
						return
					}
					if q.Tag.Agent != "codex" || q.Tag.Kind != "approval" || !strings.Contains(req.Questions[0].Options[0].Preview, "touch ran.txt") {
						answered <- fmt.Errorf("the approval on the hub is %+v: %s", q.Tag, q.Request)
						return
					}
					res := auq.Result{Answers: map[string]auq.Answer{"approval": {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: tt.option, Label: tt.option}}}}
					for _, o := range req.Questions[0].Options {
						if o.ID == tt.option {
							ann := auq.Annotations{SelectedPreview: o.Preview}
							if tt.note != "" {
								ann.OptionNotes = map[string]string{o.ID: tt.note}
							}
							res.Answers["approval"] = auq.Answer{Kind: auq.KindSingle, Choice: auq.Choice{OptionID: o.ID, Label: o.Label}}
							res.Annotations = map[string]auq.Annotations{"approval": ann}
						}
					}
					data, err := json.Marshal(res)
					if err == nil {
						_, err = c.Answer(ctx, q.ID, data, "a test")
					}
					answered <- err
					return
				}
				answered <- ctx.Err()
			}()
			s.headless("codex", "exec", "--skip-git-repo-check", "--approve-for-me", "--dangerously-bypass-hook-trust", prompt)
			if err := <-answered; err != nil {
				data, _ := os.ReadFile(log)
				t.Fatalf("answering on the hub: %v\naskuser hook said:\n%s", err, data)
			}
			_, err = os.Stat(filepath.Join(s.work, "ran.txt"))
			if ran := err == nil; ran != tt.ran {
				t.Errorf("the command ran: %v, want %v", ran, tt.ran)
			}
			if got := oneResult(t, m); !strings.Contains(got, tt.result) {
				t.Errorf("the model received %q, want it to hold %q", got, tt.result)
			}
		})
	}
}

// Claude Code's permission prompt for a Bash command, with askuser hook
// as its PermissionRequest hook: the approval in askuser's popup, Allow
// once, and the command runs.
func TestClaudeHookPermission(t *testing.T) {
	u, m, s := claudeHookTUIWith(t, "PermissionRequest", "*", "Bash", `{"command":"touch ran.txt","description":"Make a file"}`, nil,
		"--model", claudeModel, "--permission-mode", "default")
	u.waitText("? for shortcuts")
	u.ask(m)
	u.waitText("claude-code wants to run a command. Allow it?", "touch ran.txt", questionsPopupHints)
	u.keys("Down", "Enter") // Deny has the focus; Allow once is next
	got := u.result(m)
	if _, err := os.Stat(filepath.Join(s.work, "ran.txt")); err != nil {
		t.Errorf("the command did not run (%v); the model received %q", err, got)
	}
	u.waitText(finalText)
}
