package clients

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/askuser/askuser/contract"
)

// The tests in this file run each client in its headless mode, where no
// person sees the run: the client offers the tool, the scripted model
// calls it, and what the client hands back to the model must be a UI
// failure with the advice to ask in text, word for word.

// question is the call the scripted model makes.
const question = `{"questions":[{"title":"Pick a colour","prompt":"For the theme.","options":[{"label":"red"},{"label":"green"}]}]}`

// prompt is the user's prompt of every run.
const prompt = "Ask me which colour to use."

// askInText is what every UI failure tells the model after its first
// line, for question.
const askInText = `Do not invent an answer, and do not assume what the user would have chosen.
Ask the user yourself, in ordinary text in your reply, and wait for their answer. These are the questions to ask:

1. Pick a colour
   For the theme.
   Choose one:
   1) red
   2) green
   Or answer in your own words.
`

// formNotShown is the guidance for a form that the client answered with
// action sooner than anyone could read it; N stands for the milliseconds.
func formNotShown(action string) string {
	return `The questions could not be shown to the user through a dialog (native_ui_failed: the native dialog failed: the client answered the form with "` + action + `" N ms after it was sent, too soon for anyone to have read it; most likely it could not show the form). No answer was given.
` + askInText
}

// noRoute is the guidance when the client takes no form and the server
// is not inside tmux.
const noRoute = `The questions could not be shown to the user through a dialog (unsupported_mode: no interactive UI can run here: the custom dialog cannot (the server does not run inside tmux ($TMUX is not set)) and native dialogs cannot (the MCP client does not declare the elicitation capability), so the questions cannot be shown to the user). No answer was given.
` + askInText

var millis = regexp.MustCompile(`"(cancel|decline)" (\d+) ms after`)

// sameGuidance fails the test unless got, what the model received, is
// want word for word, with the milliseconds of a quick answer as N. A
// client may drop the text's final newline.
func sameGuidance(t *testing.T, got, want string) {
	t.Helper()
	got = millis.ReplaceAllString(got, `"$1" N ms after`)
	if strings.TrimRight(got, "\n") != strings.TrimRight(want, "\n") {
		t.Errorf("the model received:\n%s\nwant:\n%s", got, want)
	}
}

// oneResult returns the one tool result the model received, failing the
// test unless the tool was offered, called once and answered once.
func oneResult(t *testing.T, m *model) string {
	t.Helper()
	offered, calls, results := m.state()
	if !offered {
		t.Fatalf("the client never offered %s to the model", m.tool)
	}
	if calls != 1 || len(results) != 1 {
		t.Fatalf("the model called the tool %d times and received %d results, want 1 and 1: %q", calls, len(results), results)
	}
	return results[0]
}

// structuredResult reads the structured content that Claude Code and
// Codex pass to the model instead of the text: the result JSON with the
// text as its guidance.
func structuredResult(t *testing.T, raw string) (contract.Result, string) {
	t.Helper()
	var sc struct {
		contract.Result
		Guidance *string `json:"guidance"`
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sc); err != nil {
		t.Fatalf("the model received no result JSON (%v):\n%s", err, raw)
	}
	if sc.Guidance == nil {
		t.Fatalf("the result JSON the model received has no guidance:\n%s", raw)
	}
	return sc.Result, *sc.Guidance
}

// codexOutput is what Codex puts before a tool's output.
var codexOutput = regexp.MustCompile(`\AWall time: [0-9.]+ seconds\nOutput:\n`)

// fromCodex returns the tool output inside what Codex gives the model.
func fromCodex(t *testing.T, raw string) string {
	t.Helper()
	loc := codexOutput.FindStringIndex(raw)
	if loc == nil {
		t.Fatalf("Codex gave the model a result without its Wall time and Output lines:\n%s", raw)
	}
	return raw[loc[1]:]
}

// finished fails the test unless the client's output ends the turn
// with the model's last words.
func finished(t *testing.T, out string) {
	t.Helper()
	if !strings.Contains(out, finalText) {
		t.Errorf("the client did not show the model's last words %q:\n%s", finalText, out)
	}
}

// Claude Code's -p declares elicitation and cancels the form at once;
// for an error result it gives the model the text.
func TestClaudeHeadless(t *testing.T) {
	s := newSandbox(t)
	m := newModel(t, anthropic{}, "mcp__askuser__ask_user", question)
	claudeHome(s, m)
	cfg := s.write("mcp.json", claudeMCP(""))
	out := s.headless("claude", "-p", prompt, "--mcp-config", cfg, "--strict-mcp-config",
		"--allowedTools", "mcp__askuser__ask_user", "--model", claudeModel)
	sameGuidance(t, oneResult(t, m), formNotShown("cancel"))
	finished(t, out)
}

// codex exec declares form elicitation and declines the form at once;
// it gives the model the structured content.
func TestCodexHeadless(t *testing.T) {
	s := newSandbox(t)
	m := newModel(t, responses{}, "mcp__askuser.ask_user", question)
	codexHome(s, m, "")
	out := s.headless("codex", "exec", "--skip-git-repo-check", prompt)
	res, guidance := structuredResult(t, fromCodex(t, oneResult(t, m)))
	if res.Status != contract.StatusError || res.Route != contract.RouteNative || res.Error == nil || res.Error.Code != contract.ErrNativeUIFailed {
		t.Errorf("the result is %+v; want a native_ui_failed error on the native route", res)
	}
	sameGuidance(t, guidance, formNotShown("decline"))
	finished(t, out)
}

// Gemini CLI's -p never offers the tool: when not interactive it drops
// its own ask_user tool, and with it every MCP tool whose own name is
// ask_user, whatever the policy says (the filter is by that name alone:
// see TestGeminiHeadlessAskUserQuestion). The server is started all the
// same: its instructions reach the model.
func TestGeminiHeadless(t *testing.T) {
	s := newSandbox(t)
	m := newModel(t, gemini{}, "mcp_askuser_ask_user", question)
	geminiHome(s, m, "", nil)
	out := s.headless("gemini", "-p", prompt, "--skip-trust", "-m", "gemini-2.5-flash")
	offered, calls, _ := m.state()
	if offered || calls != 0 {
		t.Errorf("gemini -p offered the tool (%v) and the model called it %d times; it is expected to withhold it", offered, calls)
	}
	if !strings.Contains(m.requests(), "The following are instructions provided by the tool server 'askuser'") {
		t.Errorf("askuser's instructions did not reach the model: the server did not start")
	}
	if !strings.Contains(out, "Noted.") {
		t.Errorf("gemini -p did not show the model's answer:\n%s", out)
	}
}

// auqQuestion is the AskUserQuestion call the scripted model makes.
const auqQuestion = `{"questions":[{"id":"colour","question":"Which colour should the theme use?","header":"Colour",` +
	`"options":[{"id":"red","label":"Red","description":"Warm and loud"},{"id":"green","label":"Green","description":"Calm","recommended":true}]}],` +
	`"metadata":{"flowId":"theme-1"}}`

// auqNoRoute is the text of AskUserQuestion, called with auqQuestion,
// when the client takes no form and the server is not inside tmux.
const auqNoRoute = `The questions could not be shown to the user in a dialog (unsupported_mode: no interactive UI can run here: the custom dialog cannot (the server does not run inside tmux ($TMUX is not set)) and native dialogs cannot (the MCP client does not declare the elicitation capability), so the questions cannot be shown to the user). No answer was given. Do not invent an answer, and do not assume what the user would have chosen.
Ask the user yourself, in ordinary text in your reply, and wait for their answer. These are the questions to ask:

1. "Which colour should the theme use?" (id "colour", header "Colour"; required, choose one):
   - "Red" (id "red"): "Warm and loud"
   - "Green" (id "green"): "Calm" (recommended)
   - or an answer in the user's own words (Other)
`

// Gemini CLI's -p drops only tools named ask_user: AskUserQuestion is
// offered, and with no elicitation and no tmux the model is told to ask
// in text. The text reaches the model inside Gemini CLI's error for the
// call.
func TestGeminiHeadlessAskUserQuestion(t *testing.T) {
	s := newSandbox(t)
	m := newModel(t, gemini{}, "mcp_askuser_AskUserQuestion", auqQuestion)
	geminiHome(s, m, "", nil, "--tool", "AskUserQuestion")
	out := s.headless("gemini", "-p", prompt, "--skip-trust", "-m", "gemini-2.5-flash")
	sameGuidance(t, fromGemini(t, "AskUserQuestion", oneResult(t, m)), auqNoRoute)
	finished(t, out)
}

// opencode run declares no elicitation, and outside tmux there is no
// popup: the model gets the text.
func TestOpenCodeHeadless(t *testing.T) {
	s := newSandbox(t)
	m := newModel(t, chat{}, "askuser_ask_user", question)
	opencodeHome(s, m, "")
	out := s.headless("opencode", "run", prompt)
	sameGuidance(t, oneResult(t, m), noRoute)
	finished(t, out)
}
