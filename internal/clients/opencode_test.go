package clients

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/opencode"
)

// The tests in this file run OpenCode 1.18.33's TUI with askuser's
// OpenCode plugin, which hands OpenCode's own permission prompts to
// askuser hook opencode, while OpenCode's prompt stays on screen: the
// scripted model calls bash, which OpenCode's config makes ask.

// opencodePermissionTUI starts OpenCode's TUI in a sandbox with a hub,
// with bash set to ask and askuser's plugin installed: by askuser setup
// opencode when cmd is nil, else running cmd. The model's
// call is bash touching the file it returns the path of.
func opencodePermissionTUI(t *testing.T, cmd []string) (u *tui, m *model, s *sandbox, c *hub.Client, ran string) {
	s = newSandbox(t)
	c = startSandboxHub(s)
	ran = filepath.Join(s.work, "ran")
	m = newModel(t, chat{}, "bash", mustJSON(map[string]string{"command": "touch " + ran, "description": "Create the file ran"}))
	opencodeHome(s, m, "")
	opencodeOffline(s)
	s.write("project/opencode.json", mustJSON(map[string]any{"permission": map[string]any{"bash": "ask"}}))
	if cmd == nil {
		// setup leaves the MCP server as the sandbox has it, apart from
		// its arguments, so it starts from a config without it.
		cfg := s.read("home/.config/opencode/opencode.json")
		s.write("home/.config/opencode/opencode.json", strings.Replace(cfg, `"askuser"`, `"other"`, 1))
		s.setup("--yes", "opencode")
	} else {
		plugin, err := opencode.Plugin(cmd)
		if err != nil {
			t.Fatal(err)
		}
		s.write("home/.config/opencode/plugin/"+opencode.PluginFile, string(plugin))
	}
	t.Cleanup(func() {
		if t.Failed() {
			logs, _ := filepath.Glob(filepath.Join(s.home, ".local/share/opencode/log/*.log"))
			for _, l := range logs {
				b, _ := os.ReadFile(l)
				for _, line := range strings.Split(string(b), "\n") {
					if strings.Contains(line, "askuser") {
						t.Logf("OpenCode's log: %s", line)
					}
				}
			}
		}
	})
	u = s.startTUI("opencode")
	u.waitText("Ask anything")
	return u, m, s, c, ran
}

// askBash types the prompt, and waits until the model's bash call waits
// for permission, in OpenCode's own prompt and on the hub; it returns
// the approval on the hub.
func askBash(u *tui, m *model, c *hub.Client, ran string) hub.Question {
	u.t.Helper()
	u.text(prompt)
	u.waitText(prompt)
	u.keys("Enter")
	q := waitApproval(u.t, c, "touch "+ran)
	u.waitText("Permission required")
	return q
}

// opencodeOffline keeps OpenCode from trying, without a network, to
// install its plugin package into its config directory, which it does at
// start when a plugin is there: npm's offline mode fails it at once, where
// its retries would hold the plugins back for a minute.
func opencodeOffline(s *sandbox) { s.write("home/.npmrc", "offline=true\n") }

// outsideTmux runs askuser hook opencode outside tmux, as OpenCode
// started outside it would: the hub is its only route (which --hub on
// takes with no device paired with the hub's page), and OpenCode's prompt
// is free to answer.
func outsideTmux() []string {
	return []string{"env", "-u", "TMUX", "-u", "TMUX_PANE", askuserBin, "hook", "--hub", "on", "opencode"}
}

func TestOpenCodePermission(t *testing.T) {
	// Installed by askuser setup, inside tmux: the approval is shown in
	// askuser's popup and on the hub; allowed once on the hub, the
	// command runs and the popup closes. --undo gives back the files.
	t.Run("allow on the hub", func(t *testing.T) {
		u, m, s, c, ran := opencodePermissionTUI(t, nil)
		before := s.read("home/.config/opencode/opencode.json.askuser-backup")
		q := askBash(u, m, c, ran)
		u.waitText("Allow once")
		answerApproval(t, s, q.ID, approval.QuestionID+"=Allow once")
		got := u.result(m)
		t.Logf("the model received: %s", got)
		if !exists(ran) {
			t.Errorf("the command did not run; the model received:\n%s", got)
		}
		u.waitText(finalText)
		u.until("no popup left", func() bool { return len(popups()) == 0 })
		s.setup("--yes", "--undo", "opencode")
		if got := s.read("home/.config/opencode/opencode.json"); got != before {
			t.Errorf("opencode.json after --undo:\n%s\nwant:\n%s", got, before)
		}
		if got := s.read("home/.config/opencode/plugin/askuser.js"); got != "<none>" {
			t.Errorf("the plugin is left after --undo")
		}
	})
	// Denied with a reason on the hub: the command does not run, and the
	// model gets the reason as the person's feedback.
	t.Run("deny on the hub", func(t *testing.T) {
		u, m, s, c, ran := opencodePermissionTUI(t, outsideTmux())
		q := askBash(u, m, c, ran)
		const reason = "Not in this project, please."
		answerApproval(t, s, q.ID, approval.QuestionID+"=deny", approval.QuestionID+".note.deny="+reason)
		got := u.result(m)
		t.Logf("the model received: %s", got)
		if exists(ran) {
			t.Error("the command ran after a denial")
		}
		if !strings.Contains(got, reason) {
			t.Errorf("the model did not receive the reason:\n%s", got)
		}
	})
	// Answered in OpenCode's own prompt first: the command runs, and the
	// approval on the hub is closed with a note.
	t.Run("allow in OpenCode", func(t *testing.T) {
		u, m, _, c, ran := opencodePermissionTUI(t, outsideTmux())
		q := askBash(u, m, c, ran)
		u.keys("Enter") // OpenCode's prompt starts on "Allow once"
		got := u.result(m)
		if !exists(ran) {
			t.Errorf("the command did not run; the model received:\n%s", got)
		}
		var a *hub.Answer
		u.until("the approval closed on the hub", func() bool {
			_, a, _ = c.Question(context.Background(), q.ID)
			return a != nil
		})
		t.Logf("closed on the hub: %+v", *a)
		if a.Status != hub.StatusClosed || !strings.Contains(a.Note, "handed back to opencode's own prompt") {
			t.Errorf("the approval on the hub ended as %+v; want closed, handed back to opencode's own prompt", *a)
		}
	})
}

// opencodeQuestion is the scripted model's call of OpenCode's own
// question tool.
const opencodeQuestion = `{"questions":[{"question":"Which database should we use?","header":"Database","options":[{"label":"SQLite","description":"A file beside the code"},{"label":"Postgres","description":"A server of its own"}]}]}`

// opencodeQuestionTUI starts OpenCode's TUI with askuser's plugin
// running outside tmux, types the prompt, and returns the questions of
// the model's call of the question tool once they wait on the hub and
// in OpenCode's own prompt.
func opencodeQuestionTUI(t *testing.T) (u *tui, m *model, s *sandbox, c *hub.Client, q hub.Question) {
	return questionTUI(t, "opencode", func(s *sandbox, m *model) {
		opencodeHome(s, m, "")
		opencodeOffline(s)
		plugin, err := opencode.Plugin(outsideTmux())
		if err != nil {
			t.Fatal(err)
		}
		s.write("home/.config/opencode/plugin/"+opencode.PluginFile, string(plugin))
	})
}

// questionTUI starts the TUI of client, OpenCode or Kilo, set up by home
// with askuser's plugin, types the prompt, and returns the questions of
// the model's call of the question tool once they wait on the hub and
// in the client's own prompt.
func questionTUI(t *testing.T, client string, home func(*sandbox, *model)) (u *tui, m *model, s *sandbox, c *hub.Client, q hub.Question) {
	s = newSandbox(t)
	c = startSandboxHub(s)
	m = newModel(t, chat{}, "question", opencodeQuestion)
	home(s, m)
	u = s.startTUI(client)
	u.waitText("Ask anything")
	u.text(prompt)
	u.waitText(prompt)
	u.keys("Enter")
	u.until("the questions on the hub", func() bool {
		qs, err := c.Pending(context.Background())
		if err != nil || len(qs) != 1 {
			return false
		}
		q = qs[0]
		return true
	})
	if q.Tag.Kind == hub.KindApproval || !strings.Contains(string(q.Request), "Which database should we use?") {
		t.Errorf("the question on the hub is tagged %+v and asks:\n%s", q.Tag, q.Request)
	}
	u.waitText("Which database should we use?")
	return u, m, s, c, q
}

// OpenCode's question tool, answered on the hub: the model gets the
// answer as OpenCode's own prompt hands it over. Answered in OpenCode's
// prompt first: the question on the hub is closed.
func TestOpenCodeQuestion(t *testing.T) {
	t.Run("on the hub", func(t *testing.T) {
		answerOnHub(opencodeQuestionTUI(t))
	})
	t.Run("in OpenCode", func(t *testing.T) {
		u, m, _, c, q := opencodeQuestionTUI(t)
		u.keys("Enter") // the first option, SQLite
		got := u.result(m)
		t.Logf("the model received: %s", got)
		if !strings.Contains(got, `"Which database should we use?"="SQLite"`) {
			t.Errorf("the model did not receive the answer SQLite:\n%s", got)
		}
		var a *hub.Answer
		u.until("the question closed on the hub", func() bool {
			_, a, _ = c.Question(context.Background(), q.ID)
			return a != nil
		})
		if a.Status != hub.StatusClosed || !strings.Contains(a.Note, "handed back to opencode's own prompt") {
			t.Errorf("the question on the hub ended as %+v; want closed, handed back to opencode's own prompt", *a)
		}
	})
}

// Kilo's question tool, through the plugin askuser setup installs,
// answered on the hub: the model gets the answer as Kilo's own prompt
// hands it over.
func TestKiloQuestion(t *testing.T) {
	answerOnHub(questionTUI(t, "kilo", func(s *sandbox, m *model) {
		kiloHome(s, m)
		s.setup("--yes", "kilo")
	}))
}

// answerOnHub answers the question q of questionTUI on the hub, and
// checks that the model gets the answer as the client's prompt gives it.
func answerOnHub(u *tui, m *model, s *sandbox, _ *hub.Client, q hub.Question) {
	t := s.t
	t.Helper()
	answerApproval(t, s, q.ID, "q1=Postgres")
	got := u.result(m)
	t.Logf("the model received: %s", got)
	if !strings.Contains(got, `"Which database should we use?"="Postgres"`) {
		t.Errorf("the model did not receive the answer Postgres:\n%s", got)
	}
	u.waitText(finalText)
}
