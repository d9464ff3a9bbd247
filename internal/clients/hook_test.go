package clients

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

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
	s := newSandbox(t)
	m := newModel(t, anthropic{}, "AskUserQuestion", hookQuestion)
	claudeHome(s, m)
	// What the hook says goes to a file, shown when the test fails.
	log := s.write("hook.log", "")
	t.Cleanup(func() {
		if data, err := os.ReadFile(log); t.Failed() && err == nil {
			t.Logf("askuser hook said:\n%s", data)
		}
	})
	hook := shellQuote(askuserBin) + " hook --no-config claude-code 2>>" + shellQuote(log)
	s.write("home/.claude/settings.json", mustJSON(map[string]any{"hooks": map[string]any{
		"PreToolUse": []any{map[string]any{"matcher": "AskUserQuestion", "hooks": []any{
			map[string]any{"type": "command", "command": hook, "timeout": 600},
		}}},
	}}))
	if setup != nil {
		setup(s)
	}
	u := s.startTUI("claude", "--model", claudeModel)
	u.waitText("⏵⏵ auto mode on")
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
	t.Run("popup", func(t *testing.T) {
		u, m, _ := claudeHookTUI(t, nil)
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
	t.Run("hub", func(t *testing.T) {
		var c *hub.Client
		u, m, s := claudeHookTUI(t, func(s *sandbox) { c = startSandboxHub(s) })
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
