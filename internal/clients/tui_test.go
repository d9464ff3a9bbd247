package clients

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/askuser/askuser/contract"
)

// The tests in this file run each client's TUI in tmux, with a tmux
// client attached: the popup opens, is answered by keys and the model
// gets the answer; Claude Code and Codex also show the questions as
// their own form; Esc in the client, with the popup hidden, cancels the
// call and closes the popup.

// tuiQuestion is question with a timeout long enough for any machine.
const tuiQuestion = `{"timeoutPerQuestionMs":600000,"questions":[{"title":"Pick a colour","prompt":"For the theme.","options":[{"label":"red"},{"label":"green"}]}]}`

// greenAnswered is the guidance for green chosen, with a note if it is
// not empty.
func greenAnswered(note string) string {
	also := ""
	if note != "" {
		also = `   Also wrote: "` + note + `"
`
	}
	return `The user answered:

1. Pick a colour
   Selected: "green"
` + also + `
These are the user's own answers. Act on them as given; do not invent answers to anything the user was not asked.
`
}

// popupHints is a piece of the popup's key hints, which only the popup
// shows.
const popupHints = "alt+o hide · esc dismiss"

// green checks that res, received by the model with its guidance, is
// green chosen on route, with note.
func green(t *testing.T, res contract.Result, guidance string, route contract.Route, note string) {
	t.Helper()
	if res.Status != contract.StatusAnswered || res.Route != route || len(res.Answers) != 1 ||
		strings.Join(res.Answers[0].Selections, ",") != "green" || res.Answers[0].FreeText != note {
		t.Errorf("the model received %+v; want green chosen on the %s route, with the note %q", res, route, note)
	}
	sameGuidance(t, guidance, greenAnswered(note))
}

// answerPopup has the model ask, chooses green in the popup by keys, and
// returns what the model received.
func answerPopup(u *tui, m *model) string {
	u.t.Helper()
	u.ask(m)
	u.waitText("Pick a colour", popupHints)
	u.keys("Down")
	u.keys("Enter") // one question: Enter submits
	raw := u.result(m)
	u.waitText(finalText)
	u.until("no popup left", func() bool { return len(popups()) == 0 })
	u.waitGone(popupHints)
	return raw
}

// escWhileHidden has the model ask, hides the popup, presses Esc in the
// client and waits until the popup's helper has ended and the key that
// brings it back is unbound. again, if not empty, is what the client
// shows when it wants Esc a second time.
func escWhileHidden(u *tui, m *model, again string) {
	u.t.Helper()
	u.ask(m)
	u.waitText("Pick a colour", popupHints)
	u.keys("M-o")
	u.waitGone(popupHints)
	u.until("alt+o bound to bring the popup back", func() bool { return strings.Contains(u.binding("M-o"), "--socket") })
	u.keys("Escape")
	if again != "" {
		u.waitText(again)
		u.keys("Escape")
	}
	u.until("the call cancelled: no popup helper left and alt+o unbound", func() bool {
		return len(popups()) == 0 && !strings.Contains(u.binding("M-o"), "--socket")
	})
	if _, _, results := m.state(); len(results) != 0 {
		u.t.Errorf("the model received a result after Esc: %q", results)
	}
}

// claudeTUI starts Claude Code's TUI with askuser mcp in mode, with
// setup, if not nil, run on its sandbox first.
func claudeTUI(t *testing.T, mode string, setup func(*sandbox)) (*tui, *model) {
	s := newSandbox(t)
	m := newModel(t, anthropic{}, "mcp__askuser__ask_user", tuiQuestion)
	claudeHome(s, m)
	if setup != nil {
		setup(s)
	}
	cfg := s.write("mcp.json", claudeMCP(mode))
	u := s.startTUI("claude", "--mcp-config", cfg, "--strict-mcp-config", "--allowedTools", "mcp__askuser__ask_user", "--model", claudeModel)
	// Its idle status line: auto mode is the default.
	u.waitText("⏵⏵ auto mode on")
	return u, m
}

// claudeModel is the model the Claude Code tests name: one that Claude
// Code 2.1.332 does not list as retired by today's date. With a retired
// one it starts in manual mode, with a warning, and its calls fail.
const claudeModel = "claude-sonnet-4-6"

func TestClaudeTUI(t *testing.T) {
	t.Run("popup", func(t *testing.T) {
		u, m := claudeTUI(t, "custom", nil)
		res, guidance := structuredResult(t, answerPopup(u, m))
		green(t, res, guidance, contract.RouteCustom, "")
	})
	t.Run("form", func(t *testing.T) {
		u, m := claudeTUI(t, "native", nil)
		u.ask(m)
		// → opens the choice list, ↓ and Enter pick green and move the
		// focus to the note, and ↓ Enter is Accept.
		u.waitText("requests your input", "Pick a colour: ▸ not set")
		u.keys("Right")
		u.waitText("◯ green")
		u.keys("Down")
		u.waitText("❯ ◯ green")
		u.keys("Enter")
		u.waitText("✔ Pick a colour: green")
		u.keys("Down")
		u.waitText("❯ Accept")
		u.pressUntilGone("Enter", "requests your input")
		res, guidance := structuredResult(t, u.result(m))
		green(t, res, guidance, contract.RouteNative, "")
		u.waitText(finalText)
	})
	t.Run("esc", func(t *testing.T) {
		u, m := claudeTUI(t, "custom", nil)
		escWhileHidden(u, m, "")
	})
	// Claude Code moves an MCP call still running after
	// CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS (120 s by default) to the
	// background: the model is told so at once, and the answer given
	// later reaches it as a notification that no person wrote.
	t.Run("background", func(t *testing.T) {
		u, m := claudeTUI(t, "custom", inBackgroundSoon)
		u.ask(m)
		u.waitText("Pick a colour", popupHints)
		backgrounded(t, u.result(m))
		u.keys("Down")
		u.keys("Enter")
		u.until("the answer sent to the model as a notification", func() bool {
			return m.sent("SYSTEM NOTIFICATION - NOT USER INPUT") && m.sent(`\"selections\":[\"green\"]`)
		})
	})
	// Esc in the popup still dismisses a call in the background: the model
	// is told there is no answer.
	t.Run("background dismiss", func(t *testing.T) {
		u, m := claudeTUI(t, "custom", inBackgroundSoon)
		u.ask(m)
		u.waitText("Pick a colour", popupHints)
		backgrounded(t, u.result(m))
		u.keys("Escape")
		u.until("no popup helper left and alt+o unbound", func() bool {
			return len(popups()) == 0 && !strings.Contains(u.binding("M-o"), "--socket")
		})
		u.until("the dismissal sent to the model as a notification", func() bool {
			return m.sent("SYSTEM NOTIFICATION - NOT USER INPUT") && m.sent(`\"cancelledReason\":\"user\"`)
		})
	})
	// Esc in the client leaves a call in the background running, and its
	// popup with it; stopping the task in the client's task list cancels
	// the call and closes the popup.
	t.Run("background stop", func(t *testing.T) {
		u, m := claudeTUI(t, "custom", inBackgroundSoon)
		u.ask(m)
		u.waitText("Pick a colour", popupHints)
		backgrounded(t, u.result(m))
		u.waitText(finalText)
		u.keys("M-o")
		u.waitGone(popupHints)
		u.until("alt+o bound to bring the popup back", func() bool { return strings.Contains(u.binding("M-o"), "--socket") })
		u.keys("Escape")
		u.waitText("1 MCP task", "↓ to manage")
		u.keys("Down")
		u.waitText("enter to view tasks")
		u.keys("Enter")
		u.waitText("askuser/ask_user", "waiting for the user", "x to stop")
		u.keys("x")
		u.until("the call cancelled: no popup helper left and alt+o unbound", func() bool {
			return len(popups()) == 0 && !strings.Contains(u.binding("M-o"), "--socket")
		})
		if m.sent(`\"status\":\"answered\"`) {
			t.Errorf("the model received an answer from a call the user stopped")
		}
	})
	// With the variable at 0 in Claude Code's settings, the call stays in
	// the foreground past the time it would have been moved, and the
	// answer reaches the model as the call's result.
	t.Run("held", func(t *testing.T) {
		u, m := claudeTUI(t, "custom", func(s *sandbox) {
			inBackgroundSoon(s)
			s.write("home/.claude/settings.json", mustJSON(map[string]any{"env": map[string]string{"CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS": "0"}}))
		})
		u.ask(m)
		u.waitText("Pick a colour", popupHints)
		u.until("the call running for twice the background time", func() bool { return u.calling() >= 2*backgroundSec })
		if _, _, results := m.state(); len(results) != 0 {
			t.Fatalf("the model received a result before the answer: %q", results)
		}
		u.keys("Down")
		u.keys("Enter")
		res, guidance := structuredResult(t, u.result(m))
		green(t, res, guidance, contract.RouteCustom, "")
		u.waitText(finalText)
	})
}

// inBackgroundSoon has Claude Code move a call to the background after
// backgroundMs.
func inBackgroundSoon(s *sandbox) { s.setenv("CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS=" + backgroundMs) }

// backgrounded fails the test unless got, the call's result as the model
// received it, says the call was moved to the background.
func backgrounded(t *testing.T, got string) {
	t.Helper()
	if !strings.Contains(got, "It was moved to the background as task") {
		t.Fatalf("the model received %q; want the call moved to the background", got)
	}
}

// backgroundMs is the CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS the background
// tests start Claude Code with, backgroundSec the same in seconds.
const (
	backgroundMs  = "3000"
	backgroundSec = 3
)

// callingFor is Claude Code's line for a tool call in progress, with
// the seconds it has run.
var callingFor = regexp.MustCompile(`Calling askuser · (?:(\d+)m )?(\d+)s`)

// calling returns the seconds Claude Code shows the askuser call has
// run, read from the client's own pane, which the popup does not cover;
// 0 when it shows no call.
func (u *tui) calling() int {
	u.t.Helper()
	m := callingFor.FindStringSubmatch(u.tmuxIn(nil, "capture-pane", "-p", "-t", "0"))
	if m == nil {
		return 0
	}
	min, _ := strconv.Atoi(m[1])
	sec, _ := strconv.Atoi(m[2])
	return 60*min + sec
}

// codexTUI starts Codex's TUI with askuser mcp in mode.
func codexTUI(t *testing.T, mode string) (*tui, *model) {
	s := newSandbox(t)
	m := newModel(t, responses{}, "mcp__askuser.ask_user", tuiQuestion)
	codexHome(s, m, mode)
	u := s.startTUI("codex")
	u.waitText("? for shortcuts")
	return u, m
}

func TestCodexTUI(t *testing.T) {
	t.Run("popup", func(t *testing.T) {
		u, m := codexTUI(t, "custom")
		res, guidance := structuredResult(t, fromCodex(t, answerPopup(u, m)))
		green(t, res, guidance, contract.RouteCustom, "")
	})
	t.Run("form", func(t *testing.T) {
		u, m := codexTUI(t, "native")
		u.ask(m)
		// One field at a time: ↓ and Enter pick green; Enter on the
		// optional note does nothing while it is empty, so it gets one.
		// Codex may drop a key that comes while it draws the form.
		u.waitText("Field 1/2", "2. green")
		u.pressUntilGone("Down", "› 1. red")
		u.waitText("› 2. green")
		u.keys("Enter")
		u.waitText("Field 2/2")
		u.text("bright")
		u.waitText("› bright")
		u.keys("Enter")
		res, guidance := structuredResult(t, fromCodex(t, u.result(m)))
		green(t, res, guidance, contract.RouteNative, "bright")
		u.waitText(finalText)
	})
	t.Run("esc", func(t *testing.T) {
		u, m := codexTUI(t, "custom")
		escWhileHidden(u, m, "")
	})
}

// geminiTUI starts Gemini CLI's TUI with env added to the server's.
func geminiTUI(t *testing.T, env map[string]string) (*tui, *model) {
	s := newSandbox(t)
	m := newModel(t, gemini{}, "mcp_askuser_ask_user", tuiQuestion)
	geminiHome(s, m, "", env)
	u := s.startTUI("gemini", "-m", "gemini-2.5-flash")
	u.waitText("Type your message")
	return u, m
}

// fromGemini returns the text of askuser's tool, named tool in the
// server, inside what Gemini CLI gives the model: for a result, a JSON
// object whose output wraps the text in untrusted_context; for an error
// result, one whose error is a sentence that ends with the result as
// JSON: its content, and for ask_user its structured content, whose two
// texts must agree.
func fromGemini(t *testing.T, tool, raw string) string {
	t.Helper()
	var r struct {
		Output *string `json:"output"`
		Error  *string `json:"error"`
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil || (r.Output == nil) == (r.Error == nil) {
		t.Fatalf("Gemini CLI gave the model neither an output nor an error (%v):\n%s", err, raw)
	}
	if r.Error != nil {
		return fromGeminiError(t, tool, *r.Error)
	}
	text, ok := strings.CutPrefix(*r.Output, "<untrusted_context>\n")
	if ok {
		text, ok = strings.CutSuffix(text, "\n</untrusted_context>")
	}
	if !ok {
		t.Fatalf("Gemini CLI gave the model an output not wrapped in untrusted_context:\n%s", *r.Output)
	}
	return text
}

func fromGeminiError(t *testing.T, tool, msg string) string {
	t.Helper()
	lead, mid := "MCP tool '"+tool+"' reported tool error for function call: ", " with response: "
	rest, ok := strings.CutPrefix(msg, lead)
	at := strings.Index(rest, mid)
	if !ok || at < 0 {
		t.Fatalf("Gemini CLI's error for the model does not have the expected sentence:\n%s", msg)
	}
	var resp []struct {
		FunctionResponse struct {
			Response struct {
				Content []struct {
					Type string `json:"type"`
					Text string `json:"text"`
				} `json:"content"`
				StructuredContent *struct {
					Guidance string `json:"guidance"`
				} `json:"structuredContent"`
			} `json:"response"`
		} `json:"functionResponse"`
	}
	if err := json.Unmarshal([]byte(rest[at+len(mid):]), &resp); err != nil || len(resp) != 1 || len(resp[0].FunctionResponse.Response.Content) != 1 {
		t.Fatalf("the result in Gemini CLI's error for the model is not one text (%v):\n%s", err, msg)
	}
	r := resp[0].FunctionResponse.Response
	// askuser gives the error results of both tools structured content,
	// whose guidance is the text.
	if r.StructuredContent == nil {
		t.Fatalf("the error result of %s the model received has no structured content", tool)
	}
	if r.Content[0].Text != r.StructuredContent.Guidance {
		t.Errorf("the text and the guidance the model received differ:\n%s\n---\n%s", r.Content[0].Text, r.StructuredContent.Guidance)
	}
	return r.Content[0].Text
}

// Gemini CLI declares no elicitation: its route is the popup, and with
// no popup the model is told to ask in text.
func TestGeminiTUI(t *testing.T) {
	t.Run("popup", func(t *testing.T) {
		u, m := geminiTUI(t, nil)
		sameGuidance(t, fromGemini(t, "ask_user", answerPopup(u, m)), greenAnswered(""))
	})
	t.Run("no popup", func(t *testing.T) {
		u, m := geminiTUI(t, map[string]string{"TMUX": ""})
		u.ask(m)
		sameGuidance(t, fromGemini(t, "ask_user", u.result(m)), noRoute)
		u.waitText(finalText)
	})
	// Esc in Gemini CLI 0.61.0 cancels the call for the model but sends
	// the server no notifications/cancelled: the call goes on, and the
	// hidden popup can be brought back, until the user closes it.
	t.Run("esc", func(t *testing.T) {
		u, m := geminiTUI(t, nil)
		u.ask(m)
		u.waitText("Pick a colour", popupHints)
		u.keys("M-o")
		u.waitGone(popupHints)
		u.until("alt+o bound to bring the popup back", func() bool { return strings.Contains(u.binding("M-o"), "--socket") })
		u.keys("Escape")
		u.waitText("Request cancelled")
		u.keys("M-o")
		u.waitText("Pick a colour", popupHints)
		u.keys("Escape")
		u.until("no popup helper left and alt+o unbound", func() bool {
			return len(popups()) == 0 && !strings.Contains(u.binding("M-o"), "--socket")
		})
	})
}

// opencodeTUI starts OpenCode's TUI.
func opencodeTUI(t *testing.T) (*tui, *model) {
	s := newSandbox(t)
	m := newModel(t, chat{}, "askuser_ask_user", tuiQuestion)
	opencodeHome(s, m, "")
	u := s.startTUI("opencode")
	// The status line counts the MCP servers connected.
	u.waitText("Ask anything", "1 MCP")
	return u, m
}

// OpenCode declares no elicitation: its route is the popup.
func TestOpenCodeTUI(t *testing.T) {
	t.Run("popup", func(t *testing.T) {
		u, m := opencodeTUI(t)
		sameGuidance(t, answerPopup(u, m), greenAnswered(""))
	})
	t.Run("esc", func(t *testing.T) {
		u, m := opencodeTUI(t)
		escWhileHidden(u, m, "again to interrupt")
	})
}
