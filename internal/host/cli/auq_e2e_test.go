package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The tests in this file run askuser ask --tool AskUserQuestion, the real
// binary, in a real terminal: a tmux pane for the dialog, a pty for the
// line prompts.

const auqRequest = `{"questions":[
 {"id":"db","question":"Which database?","header":"Database","options":[
   {"id":"pg","label":"Postgres","description":"Relational","preview":"SELECT 1;","recommended":true},
   {"id":"lite","label":"SQLite","description":"Embedded"}]},
 {"id":"extras","question":"Which extras?","header":"Extras","multiSelect":true,"required":false,"options":[
   {"id":"cache","label":"Cache","description":"Redis"},{"id":"queue","label":"Queue","description":"NATS"}]}],
 "metadata":{"source":"e2e","flowId":"f-7","tags":["t"]}}`

// auqCancelled is the result of every call that ends without answers.
const auqCancelled = `{"cancelled":true,"metadata":{"source":"e2e","flowId":"f-7"}}`

// ctrlShiftQ is Ctrl+Shift+Q as a terminal with the kitty keyboard
// protocol sends it, in hex for tmux send-keys -H.
var ctrlShiftQ = []string{"-H", "1b", "5b", "31", "31", "33", "3b", "36", "75"}

// newAUQPane is newPane with the AskUserQuestion request in q.json.
func newAUQPane(t *testing.T) *pane {
	t.Helper()
	p := newPane(t, buildAskuser(t))
	if err := os.WriteFile(filepath.Join(p.dir, "q.json"), []byte(auqRequest), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// sameJSON checks that got is one clean line of JSON equal to want.
func sameJSON(t *testing.T, got, want string) {
	t.Helper()
	if strings.Count(got, "\n") != 1 || !strings.HasSuffix(got, "\n") || strings.ContainsRune(got, '\x1b') {
		t.Errorf("standard output is not one clean line of JSON: %q", got)
	}
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("standard output is not JSON: %v: %q", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
}

// auqEnds waits for askuser to exit and checks its status, its result,
// and the screen it left: what was there before, plus left.
func (p *pane) auqEnds(wantCode int, want, left string) {
	p.t.Helper()
	p.endsWith(wantCode, func(out string) { sameJSON(p.t, out, want) }, left)
}

func TestQuestionsDialogOnTerminal(t *testing.T) {
	t.Parallel()
	tool := []string{"--tool", "AskUserQuestion", "--no-config"}

	t.Run("overlay answers, hides and shows with everything kept", func(t *testing.T) {
		p := newAUQPane(t)
		p.start(tool...)
		s := p.waitText("╭", "[Database]", "▸ ( ) Postgres (recommended)", "SELECT 1;", "ctrl+shift+q hide")
		// The box spans the terminal's width, but for its margins.
		if !strings.Contains(s, "  ╭"+strings.Repeat("─", 100-6)+"╮") {
			t.Errorf("the box does not span the width of the terminal:\n%s", s)
		}
		p.keys("n")
		p.text("fast")
		p.keys("Enter")
		p.waitText("✎ fast")
		p.keys("Down")
		p.waitText("▸ ( ) SQLite")
		p.keys(ctrlShiftQ...)
		s = p.waitText("askuser is hidden: ctrl+shift+q shows it, ctrl+c dismisses it")
		if !strings.HasPrefix(s, p.before+"\n") || strings.Contains(s, "╭") {
			t.Errorf("hiding does not show the normal screen:\n%s", s)
		}
		// Hidden, the dialog takes no keys.
		p.keys("Enter")
		p.keys(ctrlShiftQ...)
		p.waitText("╭", "✎ fast", "▸ ( ) SQLite")
		p.keys("Up", "Enter")
		p.waitText("Review")
		// Shift+Tab goes from the review back to the last question.
		p.keys("BTab")
		p.waitText("Which extras?", "▸ [ ] Cache")
		p.keys("Space", "Enter")
		p.waitText("Submit")
		p.keys("Enter")
		p.auqEnds(0, `{"cancelled":false,
			"answers":{"db":{"kind":"single","optionId":"pg","label":"Postgres"},
			           "extras":{"kind":"multi","selections":[{"optionId":"cache","label":"Cache"}],"empty":false}},
			"annotations":{"db":{"optionNotes":{"pg":"fast"},"selectedPreview":"SELECT 1;"}},
			"metadata":{"source":"e2e","flowId":"f-7"}}`, "")
	})

	t.Run("inline esc twice dismisses", func(t *testing.T) {
		p := newAUQPane(t)
		p.start(append(tool, "--display", "inline")...)
		s := p.waitText("Which database?", "esc esc dismiss")
		if strings.Contains(s, "╭") || !strings.HasPrefix(s, p.before+"\n") {
			t.Errorf("the inline dialog is not drawn below the prompt:\n%s", s)
		}
		p.keys("Escape")
		p.waitText("Press Esc again to dismiss")
		p.keys("Escape")
		p.auqEnds(1, auqCancelled, "✗ AskUserQuestion: dismissed")
	})

	t.Run("inline hides and ctrl+c dismisses hidden", func(t *testing.T) {
		p := newAUQPane(t)
		p.start(append(tool, "--display", "inline")...)
		p.waitText("Which database?")
		p.keys(ctrlShiftQ...)
		s := p.waitText("askuser is hidden")
		if strings.Contains(s, "Which database?") {
			t.Errorf("the hidden inline dialog is still drawn:\n%s", s)
		}
		p.keys("C-c")
		p.auqEnds(1, auqCancelled, "✗ AskUserQuestion: dismissed")
	})

	for _, display := range []string{"overlay", "inline"} {
		t.Run(display+" times out", func(t *testing.T) {
			p := newAUQPane(t)
			p.start(append(tool, "--display", display, "--timeout-per-question", "300")...)
			left := ""
			if display == "inline" {
				left = "⏱ AskUserQuestion: timed out"
			}
			p.auqEnds(124, auqCancelled, left)
		})
	}
}

// TestQuestionsNativeOnPty answers through the line prompts of askuser ask
// --tool AskUserQuestion --mode native on a real pseudo-terminal: an
// option with an option note and a question note, Other by its number
// with its text, a wrong reply asked again, and the review.
func TestQuestionsNativeOnPty(t *testing.T) {
	file := filepath.Join(t.TempDir(), "q.json")
	if err := os.WriteFile(file, []byte(auqRequest), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Run("answers", func(t *testing.T) {
		s := startOnPty(t, "ask", "--tool", "AskUserQuestion", "--mode", "native", "--no-config", file)
		s.answer([]ptyStep{
			{"Question 1 of 2 · Database\r\nWhich database?\r\n  1. Postgres (recommended) — Relational\r\n     │ SELECT 1;\r\n  2. SQLite — Embedded\r\n  3. Other — type your own answer", "7\r"},
			{"Not accepted: there is no option 7; type a number from 1 to 3", "2\r"},
			{"Notes on Database", "2: small\r"},
			{"Notes on Database", "why not\r"},
			{"Notes on Database", "\r"},
			{"Question 2 of 2 · Extras (optional) · choose any", "1 3\r"},
			{"Your answer for Other", "Kafka\r"},
			{"Notes on Extras", "\r"},
			{"Review your answers:\r\n  1. Database: SQLite; note on SQLite: \"small\"; note: \"why not\"\r\n  2. Extras: Cache, Other: \"Kafka\"", "\r"},
		})
		code, out := s.exit()
		if code != 0 {
			t.Fatalf("exit status %d, want 0; output:\n%s", code, out)
		}
		sameJSON(t, out, `{"cancelled":false,
			"answers":{"db":{"kind":"single","optionId":"lite","label":"SQLite"},
			           "extras":{"kind":"multi","selections":[{"optionId":"cache","label":"Cache"},{"label":"Other","other":true,"text":"Kafka"}],"empty":false}},
			"annotations":{"db":{"questionNotes":"why not","optionNotes":{"lite":"small"}}},
			"metadata":{"source":"e2e","flowId":"f-7"}}`)
	})
	t.Run("skips an optional question and changes an answer in the review", func(t *testing.T) {
		s := startOnPty(t, "ask", "--tool", "AskUserQuestion", "--mode", "native", "--no-config", file)
		s.answer([]ptyStep{
			{"Question 1 of 2", "-\r"},
			{"Not accepted: this question needs an answer", "Mongo\r"},
			{"Notes on Database", "\r"},
			{"Question 2 of 2", "-\r"},
			{"Notes on Extras", "\r"},
			{"2. Extras: not answered", "1\r"},
			{"Now: Other: \"Mongo\"", "1\r"},
			{"Notes on Database", "\r"},
			{"1. Database: Postgres", "\r"},
		})
		code, out := s.exit()
		if code != 0 {
			t.Fatalf("exit status %d, want 0; output:\n%s", code, out)
		}
		sameJSON(t, out, `{"cancelled":false,
			"answers":{"db":{"kind":"single","optionId":"pg","label":"Postgres"}},
			"annotations":{"db":{"selectedPreview":"SELECT 1;"}},
			"metadata":{"source":"e2e","flowId":"f-7"}}`)
	})
	t.Run("esc dismisses", func(t *testing.T) {
		s := startOnPty(t, "ask", "--tool", "AskUserQuestion", "--mode", "native", "--no-config", file)
		s.expect("left]: ")
		s.send("\x1b\r")
		code, out := s.exit()
		if code != 1 {
			t.Errorf("exit status %d, want 1", code)
		}
		sameJSON(t, out, auqCancelled)
	})
}

// TestQuestionsOnPtyEnds stops askuser ask --tool AskUserQuestion with
// SIGTERM on either route, which ends it at once with a cancelled result
// and status 1, and checks that the model's text reaches the terminal
// without its control sequences.
func TestQuestionsOnPtyEnds(t *testing.T) {
	const hostile = `{"questions":[{"id":"db","question":"Which \u001b]0;PWN\u0007database?","header":"D\u001b[31mb",
	 "options":[{"id":"pg","label":"Post\u001b[2Jgres","description":"Rel\u009bational"},{"id":"lite","label":"SQLite","description":"Embedded"}]}],
	 "metadata":{"source":"e2e"}}`
	file := filepath.Join(t.TempDir(), "q.json")
	if err := os.WriteFile(file, []byte(hostile), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"custom", "native"} {
		t.Run(mode, func(t *testing.T) {
			s := startOnPty(t, "ask", "--tool", "AskUserQuestion", "--mode", mode, "--no-config", file)
			s.expect("SQLite")
			if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			code, out := s.exit()
			if code != 1 {
				t.Errorf("exit status %d, want 1; output:\n%s", code, out)
			}
			sameJSON(t, out, `{"cancelled":true,"metadata":{"source":"e2e"}}`)
			s.drained()
			s.mu.Lock()
			drawn := s.screen.String()
			s.mu.Unlock()
			for _, bad := range []string{"\x1b]0;PWN", "\x1b[31mb", "\x1b[2Jgres", "\u009b"} {
				if strings.Contains(drawn, bad) {
					t.Errorf("the terminal got the model's %q", bad)
				}
			}
		})
	}
}
