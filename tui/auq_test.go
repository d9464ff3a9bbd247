package tui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/dialog"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/prefs"
)

const auqTwo = `{"questions":[
 {"id":"db","question":"Which database?","header":"Database","options":[
   {"id":"pg","label":"Postgres","description":"Relational","recommended":true},
   {"id":"lite","label":"SQLite","description":"Embedded"}]},
 {"id":"ci","question":"Which CI?","header":"CI","options":[
   {"id":"gh","label":"Actions","description":"GitHub"},
   {"id":"gl","label":"GitLab","description":"Runners"}]}]}`

func qsession(t *testing.T, display contract.DisplayMode) *ask.Session[*auq.Request] {
	t.Helper()
	r, err := auq.Parse([]byte(auqTwo))
	if err != nil {
		t.Fatal(err)
	}
	return &ask.Session[*auq.Request]{Request: r, Display: display}
}

func qsend(m *qmodel, msgs ...tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	for _, msg := range msgs {
		_, cmd = m.Update(msg)
	}
	return cmd
}

var hideKey = tea.KeyPressMsg{Code: 'q', Mod: tea.ModCtrl | tea.ModShift}

// TestQuestionsHide hides the dialog in both displays and brings it back
// with the focus and notes as they were; hidden, it takes no keys but
// Ctrl+C.
func TestQuestionsHide(t *testing.T) {
	for _, display := range []contract.DisplayMode{contract.DisplayOverlay, contract.DisplayInline} {
		t.Run(string(display), func(t *testing.T) {
			m := newQModel(qsession(t, display), dialog.PlainTheme())
			qsend(m, tea.WindowSizeMsg{Width: 100, Height: 30}, press("down"), press("n"), press("x"), press("enter"))
			before := ansi.Strip(m.View().Content)
			if !strings.Contains(before, "▸ ( ) SQLite") || !strings.Contains(before, "✎ x") {
				t.Fatalf("the dialog before hiding:\n%s", before)
			}
			qsend(m, hideKey)
			v := m.View()
			if got := ansi.Strip(v.Content); got != "askuser is hidden: ctrl+shift+q shows it, ctrl+c dismisses it" || v.AltScreen {
				t.Errorf("hidden, the view is %q (alternate screen %v)", got, v.AltScreen)
			}
			// A repeat of the key, and other keys, change nothing.
			repeat := hideKey
			repeat.IsRepeat = true
			qsend(m, repeat, press("enter"), press("esc"), press("up"))
			if !m.hidden || m.done {
				t.Fatal("a key while hidden showed or ended the dialog")
			}
			cmd := qsend(m, hideKey)
			if cmd == nil {
				t.Fatal("showing again schedules no redraw")
			}
			qsend(m, cmd())
			if got := ansi.Strip(m.View().Content); got != before {
				t.Errorf("shown again, the dialog is:\n%s\nwant it as it was:\n%s", got, before)
			}
			qsend(m, hideKey)
			if cmd := qsend(m, press("ctrl+c")); !isQuit(cmd) || !m.outcome.Dismissed {
				t.Errorf("ctrl+c while hidden does not dismiss")
			}
		})
	}
}

// TestQuestionsBox spans the terminal's width, but for the margins.
func TestQuestionsBox(t *testing.T) {
	for _, w := range []int{60, 160, 240} {
		m := newQModel(qsession(t, contract.DisplayOverlay), dialog.PlainTheme())
		qsend(m, tea.WindowSizeMsg{Width: w, Height: 30})
		v := m.View()
		if !v.AltScreen {
			t.Errorf("%d: the overlay is not on the alternate screen", w)
		}
		lines := strings.Split(ansi.Strip(v.Content), "\n")
		top := ""
		for _, l := range lines {
			if strings.Contains(l, "╭") {
				top = l
			}
		}
		if want := "  ╭" + strings.Repeat("─", w-6) + "╮"; top != want {
			t.Errorf("%d columns: the box's top is %q, want %q", w, top, want)
		}
		checkBounds(t, v, w, 30)
	}
}

// TestQuestionsSummary is the line an inline dialog leaves, with model
// text made safe.
func TestQuestionsSummary(t *testing.T) {
	r, err := auq.Parse([]byte(`{"questions":[{"id":"db","question":"Which?","header":"DB\u001b[31m","options":[
	 {"id":"pg","label":"Postgres","description":"d"},{"id":"lite","label":"SQLite","description":"d"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	m := newQModel(&ask.Session[*auq.Request]{Request: r, Display: contract.DisplayInline}, dialog.PlainTheme())
	qsend(m, tea.WindowSizeMsg{Width: 80, Height: 20})
	if !isQuit(qsend(m, press("enter"))) {
		t.Fatal("enter on the one question does not submit")
	}
	got := m.View().Content
	if strings.Contains(got, "\x1b[31m") || !strings.HasPrefix(ansi.Strip(got), "✓ DB") || !strings.Contains(got, ": Postgres") {
		t.Errorf("the summary is %q", got)
	}
}

// TestRenderQuestions runs the renderer on a pipe through the engine and
// checks the result and the milestones, dialog_opened first.
func TestRenderQuestions(t *testing.T) {
	r, pw := pipeRenderer(t)
	defer closeWithin(t, r)
	zero := int64(0)
	host := ask.NewHost(ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUserQuestion, ask.RendererFunc[*auq.Request, auq.Result](r.RenderQuestions)), &ask.HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: &zero}})
	req, err := auq.Parse([]byte(auqTwo))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var ms []auq.Milestone
	opened := make(chan struct{})
	done := make(chan auq.Outcome, 1)
	go func() {
		done <- ask.Ask(context.Background(), ask.NewAsker(host, nil), ask.AskUserQuestion, req, &ask.Call{Progress: func(m auq.Milestone) {
			mu.Lock()
			defer mu.Unlock()
			ms = append(ms, m)
			if m == auq.MilestoneDialogOpened {
				close(opened)
			}
		}})
	}()
	select {
	case <-opened:
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the dialog never reported dialog_opened")
	}
	// Postgres, then GitLab; the review opens; Enter submits.
	for _, k := range []string{"\r", "\x1b[B", "\r", "\r"} {
		if _, err := pw.Write([]byte(k)); err != nil {
			t.Fatal(err)
		}
	}
	var o auq.Outcome
	select {
	case o = <-done:
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the call did not end")
	}
	want := auq.Result{Answers: map[string]auq.Answer{
		"db": {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: "pg", Label: "Postgres"}},
		"ci": {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: "gl", Label: "GitLab"}},
	}}
	if o.Status != auq.StatusSubmitted || o.Route != string(contract.RouteCustom) {
		t.Errorf("status %s on %q, want submitted on custom; error %+v", o.Status, o.Route, o.Error)
	}
	if diff := cmp.Diff(want, o.Result); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	mu.Lock()
	defer mu.Unlock()
	wantMs := []auq.Milestone{auq.MilestoneDialogOpened, auq.MilestoneQuestionAnswered, auq.MilestoneQuestionAnswered, auq.MilestoneReviewReady, auq.MilestoneSubmitted}
	if diff := cmp.Diff(wantMs, ms); diff != "" {
		t.Errorf("milestones (-want +got):\n%s", diff)
	}
}

// TestQuestionPopup fits the popup to the whole width and the tallest
// question, and quits on the hide key only when the host can bring the
// dialog back.
func TestQuestionPopup(t *testing.T) {
	s := qsession(t, contract.DisplayInline)
	s.ToggleKey = dialog.HideKey
	p, err := NewPopup(ask.AskUserQuestion, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, h := p.Fit(120, 40)
	if w != 120 || h < 10 || h > 40 {
		t.Errorf("Fit(120, 40) = %d×%d; want the whole width and the dialog's height", w, h)
	}
	if w, h := p.Fit(10, 3); w != 10 || h != 3 {
		t.Errorf("Fit(10, 3) = %d×%d; want all of a tiny screen", w, h)
	}
	for _, hideable := range []bool{true, false} {
		hs := *s
		if !hideable {
			hs.ToggleKey = ""
		}
		m := newAUQPopup(&hs, nil).m
		qsend(m, tea.WindowSizeMsg{Width: 100, Height: 20})
		if !m.View().AltScreen {
			t.Error("the popup's box is not on the alternate screen")
		}
		cmd := qsend(m, hideKey)
		if got := isQuit(cmd) && m.hid; got != hideable {
			t.Errorf("hideable %v: the hide key quit to hide: %v", hideable, got)
		}
		if m.hidden {
			t.Error("a popup hides in place")
		}
	}
}
