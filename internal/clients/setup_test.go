package clients

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/approval"
)

// setup runs askuser setup with args in the sandbox's environment and
// returns what it printed; it must succeed.
func (s *sandbox) setup(args ...string) string {
	s.t.Helper()
	cmd := exec.Command(askuserBin, append([]string{"setup"}, args...)...)
	cmd.Env = s.env
	cmd.Dir = s.work
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("askuser setup %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// read returns a file under the sandbox's root, or "<none>".
func (s *sandbox) read(rel string) string {
	s.t.Helper()
	b, err := os.ReadFile(filepath.Join(s.root, rel))
	if os.IsNotExist(err) {
		return "<none>"
	}
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}

// TestSetupHooks runs askuser setup on a fresh home, starts the client
// and checks that it loaded askuser's hooks, or for a client setup gives
// no hooks that askuser's tool is offered and answers; then --undo puts
// the files back byte for byte, whatever the client wrote into them
// meanwhile.
func TestSetupHooks(t *testing.T) {
	t.Run("claude-code", func(t *testing.T) {
		s := newSandbox(t)
		m := newModel(t, anthropic{}, "mcp__askuser__ask_user", tuiQuestion)
		claudeHome(s, m)
		files := []string{"home/.claude.json", "home/.claude/settings.json"}
		before := []string{s.read(files[0]), s.read(files[1])}
		s.setup("--yes", "claude-code")
		if again := s.setup("--yes", "claude-code"); !strings.Contains(again, "already set up") {
			t.Errorf("second setup: %q, want already set up", again)
		}
		u := s.startTUI("claude", "--model", claudeModel)
		u.waitText("⏵⏵ auto mode on")
		u.text("/hooks")
		u.waitText("/hooks")
		u.keys("Enter")
		u.waitText("2 hooks on 2 events", "[User] ", "AskUserQuestion · command", "when a permission dialog is displayed")
		u.keys("Escape")
		s.setup("--yes", "--undo", "claude-code")
		for i, f := range files {
			if got := s.read(f); got != before[i] {
				t.Errorf("%s after --undo:\n%s\nwant:\n%s", f, got, before[i])
			}
		}
	})
	t.Run("codex", func(t *testing.T) {
		s := newSandbox(t)
		m := newModel(t, responses{}, "mcp__askuser.ask_user", tuiQuestion)
		const file = "home/.codex/config.toml"
		before := `model = "test-model"
model_provider = "scripted"
check_for_update_on_startup = false

[model_providers.scripted]
name = "scripted"
base_url = "` + m.url() + `/v1"
wire_api = "responses"
env_key = "SCRIPTED_API_KEY"
`
		s.write(file, before)
		s.setenv("CODEX_HOME="+s.home+"/.codex", "SCRIPTED_API_KEY=test")
		if out := s.setup("--yes", "codex"); !strings.Contains(out, "Hooks need review") {
			t.Errorf("setup codex says nothing of Codex's hook review:\n%s", out)
		}
		u := s.startTUI("codex")
		// A hook of the user's config runs once trusted.
		u.waitText("Hooks need review", "1 hook is new or changed", "Trust all and continue")
		u.pressUntilGone("Down", "› 1. Review hooks")
		u.waitText("› 2. Trust all and continue")
		u.keys("Enter")
		u.waitText("? for shortcuts")
		key := `[hooks.state."` + filepath.Join(s.root, file) + `:permission_request:0:0"]`
		u.until("Codex recorded its trust in the hook", func() bool { return strings.Contains(s.read(file), key) })
		if again := s.setup("--yes", "codex"); !strings.Contains(again, "already set up") {
			t.Errorf("setup after Codex trusted the hook: %q, want already set up", again)
		}
		s.setup("--yes", "--undo", "codex")
		if got := s.read(file); got != before {
			t.Errorf("config.toml after --undo:\n%s\nwant:\n%s", got, before)
		}
	})
	t.Run("gemini", func(t *testing.T) {
		s := newSandbox(t)
		m := newModel(t, gemini{}, "mcp_askuser_ask_user", tuiQuestion)
		geminiSettings(s, m, nil)
		const file = "home/.gemini/settings.json"
		before := s.read(file)
		s.setup("--yes", "gemini")
		if again := s.setup("--yes", "gemini"); !strings.Contains(again, "already set up") {
			t.Errorf("second setup: %q, want already set up", again)
		}
		u := s.startTUI("gemini", "-m", "gemini-2.5-flash")
		u.waitText("Type your message")
		sameGuidance(t, fromGemini(t, "ask_user", answerPopup(u, m)), greenAnswered(""))
		s.setup("--yes", "--undo", "gemini")
		if got := s.read(file); got != before {
			t.Errorf("settings.json after --undo:\n%s\nwant:\n%s", got, before)
		}
	})
	// Kilo CLI 7.7.7's TUI inside tmux, with askuser's plugin: the
	// model's bash call, which the project's config makes ask, waits in
	// Kilo's own prompt and on the hub; allowed once on the hub, the
	// command runs. Kilo offered the model askuser's tool beside it.
	t.Run("kilo", func(t *testing.T) {
		s := newSandbox(t)
		c := startSandboxHub(s)
		ran := filepath.Join(s.work, "ran")
		m := newModel(t, chat{}, "bash", mustJSON(map[string]string{"command": "touch " + ran, "description": "Create the file ran"}))
		kiloHome(s, m)
		s.write("project/kilo.json", mustJSON(map[string]any{"permission": map[string]any{"bash": "ask"}}))
		const file = "home/.config/kilo/kilo.json"
		before := s.read(file)
		s.setup("--yes", "kilo")
		if again := s.setup("--yes", "kilo"); !strings.Contains(again, "already set up") {
			t.Errorf("second setup: %q, want already set up", again)
		}
		u := s.startTUI("kilo")
		u.waitText("Ask anything")
		q := askBash(u, m, c, ran)
		answerApproval(t, s, q.ID, approval.QuestionID+"=Allow once")
		got := u.result(m)
		if !exists(ran) {
			t.Errorf("the command did not run; the model received:\n%s", got)
		}
		if !m.sent(`"name":"askuser_ask_user"`) {
			t.Error("Kilo did not offer the model askuser's tool askuser_ask_user")
		}
		u.waitText(finalText)
		s.setup("--yes", "--undo", "kilo")
		if got := s.read(file); got != before {
			t.Errorf("kilo.json after --undo:\n%s\nwant:\n%s", got, before)
		}
		if got := s.read("home/.config/kilo/plugin/askuser.js"); got != "<none>" {
			t.Errorf("the plugin is left after --undo")
		}
	})
	// Continue CLI fires no hooks: askuser's tool is offered and called in
	// cn -p (with --auto, which lets it call a tool without asking), which
	// reads ~/.continue/config.yaml and declares no elicitation, outside
	// tmux.
	t.Run("continue", func(t *testing.T) {
		s := newSandbox(t)
		m := newModel(t, chat{}, "ask_user", question)
		continueHome(s, m)
		const file = "home/.continue/config.yaml"
		before := s.read(file)
		s.setup("--yes", "continue")
		if again := s.setup("--yes", "continue"); !strings.Contains(again, "already set up") {
			t.Errorf("second setup: %q, want already set up", again)
		}
		out := s.headless("node", clientBin(t, "cn"), "-p", prompt, "--auto")
		// Continue gives the model the result's content blocks as JSON.
		text, err := contentText(json.RawMessage(oneResult(t, m)))
		if err != nil {
			t.Fatal(err)
		}
		sameGuidance(t, text, noRoute)
		finished(t, out)
		s.setup("--yes", "--undo", "continue")
		if got := s.read(file); got != before {
			t.Errorf("config.yaml after --undo:\n%s\nwant:\n%s", got, before)
		}
	})
}
