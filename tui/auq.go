package tui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/dialog"
	"github.com/askuser/askuser/internal/notify"
)

// RenderQuestions shows s's AskUserQuestion request in the
// AskUserQuestion dialog, as Render shows an ask_user questionnaire:
// inline or as an overlay, as s.Display says, redrawn every second while
// a deadline runs and at every resize. The overlay spans the terminal's
// width. Ctrl+Shift+Q hides the dialog in either display, leaving a
// one-line reminder of how to bring it back, and shows it again with
// every answer, note, draft and focus as they were; hidden, the dialog
// takes no keys but Ctrl+C, which dismisses it.
//
// The first frame drawn is reported as auq.MilestoneDialogOpened, and the
// dialog's milestones follow, through s.Progress. When ctx is done it
// stops the program at once, leaves the terminal as it found it (with
// the summary line inline) and returns context.Cause(ctx).
func (r *Renderer) RenderQuestions(ctx context.Context, s *ask.Session[*auq.Request]) (ask.Outcome[auq.Result], error) {
	return renderOn(ctx, r, s, notify.QuestionsSubject(s.Kind, s.Summary), func() dialogModel[auq.Result] { return newQModel(s, r.theme()) })
}

// qmodel is the Bubble Tea model around one dialog.Questions: model's
// counterpart for the AskUserQuestion contract.
type qmodel struct {
	screen
	d *dialog.Questions
	s *ask.Session[*auq.Request]
	// opened is set once the first frame is drawn.
	opened bool
	// In a popup (screen.popup) the hide key quits the program with hid
	// set, when the host can bring the dialog back (hideable).
	hideable bool
	ending[auq.Result]
}

func newQModel(s *ask.Session[*auq.Request], th dialog.Theme) *qmodel {
	return &qmodel{
		screen: screen{th: th, countdown: s.Countdown, overlay: s.Display != contract.DisplayInline},
		d:      dialog.NewQuestions(s.Request, &dialog.Options{Theme: th, Countdown: countdownOf(s.Countdown)}),
		s:      s,
	}
}

// Init starts the countdown's redraws.
func (m *qmodel) Init() tea.Cmd { return tickFor(m.countdown) }

// Update handles one message.
func (m *qmodel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if cmd, ok := m.handle(msg, func() { m.d.SetSize(m.dialogSize()) }); ok {
		return m, cmd
	}
	k, repeat, ok := m.input(msg)
	if !ok || repeat && k.Name == dialog.HideKey {
		// Only a fresh press of the hide key toggles, so one press
		// cannot hide and show again.
		return m, nil
	}
	if !m.hidden {
		return m.key(k)
	}
	switch k.Name {
	case dialog.HideKey:
		return m, m.flip()
	case "ctrl+c":
		// Hidden, the dialog takes no keys, so nothing changes out of
		// sight; but Ctrl+C still ends it.
		m.s.Progress(auq.MilestoneDismissed)
		return m.finish(ask.Outcome[auq.Result]{Dismissed: true})
	}
	return m, nil
}

// key passes k to the dialog, reports its milestones and acts on its
// effect.
func (m *qmodel) key(k dialog.Key) (tea.Model, tea.Cmd) {
	eff := m.d.Update(k)
	for _, ms := range eff.Milestones {
		m.s.Progress(ms)
	}
	switch eff.Kind {
	case dialog.EffectSubmit:
		return m.finish(ask.Outcome[auq.Result]{Answer: eff.Answer})
	case dialog.EffectDismiss:
		return m.finish(ask.Outcome[auq.Result]{Dismissed: true})
	case dialog.EffectToggleHide:
		switch {
		case !m.popup:
			return m, m.flip()
		case m.hideable:
			m.hid, m.done = true, true
			return m, tea.Quit
		}
	}
	return m, nil
}

func (m *qmodel) finish(o ask.Outcome[auq.Result]) (tea.Model, tea.Cmd) {
	m.outcome, m.finished, m.done = o, true, true
	return m, tea.Quit
}

// dialogSize is the size the dialog is drawn at on this screen.
func (m *qmodel) dialogSize() (int, int) {
	if m.overlay {
		_, w, h, _ := boxIn(m.width, m.height, m.popup, m.width)
		return w, h
	}
	return m.width, m.height
}

// View draws the current state, and reports the first frame drawn.
func (m *qmodel) View() tea.View {
	if v, ok := m.offView(m.summary, m.hiddenLine); ok {
		return v
	}
	if !m.opened && m.width > 0 && m.height > 0 {
		m.opened = true
		m.s.Progress(auq.MilestoneDialogOpened)
	}
	if !m.overlay {
		f := m.d.View(m.width, m.height)
		steady(&f, &m.frameH)
		return frameView(f, 0, 0)
	}
	// The box spans the screen.
	return m.boxed(m.d.View, m.width)
}

// hiddenLine is what a hidden dialog leaves: one line saying how to
// bring it back, and the time left.
func (m *qmodel) hiddenLine() string {
	return m.notice("askuser is hidden: " + dialog.HideKey + " shows it, ctrl+c dismisses it")
}

// summary is the one line an inline dialog leaves behind.
func (m *qmodel) summary() string {
	what := ""
	if m.finished && !m.outcome.Dismissed {
		what = resultText(m.s.Request, m.outcome.Answer)
	}
	title := auq.ToolName
	if qs := m.s.Request.Questions; len(qs) == 1 {
		title = qs[0].Header
	}
	return m.summaryLine(m.finished, m.outcome.Dismissed, title, what)
}

// resultText reads a submitted result in a few words: the answer itself
// for one question, a count for several.
func resultText(req *auq.Request, res auq.Result) string {
	if len(req.Questions) != 1 {
		return fmt.Sprintf("%d of %d answered", len(res.Answers), len(req.Questions))
	}
	a, ok := res.Answers[req.Questions[0].ID]
	if !ok {
		return "no answer"
	}
	choices := a.Selections
	if a.Kind == auq.KindSingle {
		choices = []auq.Choice{a.Choice}
	}
	if len(choices) == 0 {
		return "none"
	}
	parts := make([]string, len(choices))
	for i, c := range choices {
		parts[i] = c.Label
		if c.Other {
			parts[i] = c.Text
		}
	}
	return strings.Join(parts, ", ")
}
