package tui

import (
	"context"
	"errors"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/dialog"
)

// QuestionPopup is Popup for an AskUserQuestion request: its dialog in a
// box that fills a terminal made to hold it. Ctrl+Shift+Q ends Show
// with ErrHidden when the host can bring the dialog back; the next Show
// carries on with every answer, note, draft and focus as they were. A
// QuestionPopup is used by one goroutine at a time.
type QuestionPopup struct {
	s    *ask.Session[*auq.Request]
	m    *qmodel
	opts Options
}

// NewQuestionPopup returns a QuestionPopup for s, whose display mode it
// ignores: a popup is always an overlay. hideable says whether the host
// can show the dialog again once the user hid it; when it cannot, the
// hide key does nothing.
func NewQuestionPopup(s *ask.Session[*auq.Request], hideable bool, opts *Options) *QuestionPopup {
	ov := *s
	ov.Display = contract.DisplayOverlay
	p := &QuestionPopup{s: &ov}
	if opts != nil {
		p.opts = *opts
	}
	p.m = newQModel(p.s, p.theme())
	p.m.popup, p.m.hideable = true, hideable
	return p
}

func (p *QuestionPopup) theme() dialog.Theme {
	if p.opts.Theme != nil {
		return *p.opts.Theme
	}
	return dialog.DefaultTheme()
}

// Show draws the dialog on t until the user submits or dismisses it,
// which gives the outcome, or hides it (ErrHidden), or ctx is done
// (context.Cause(ctx)). The first Show reports dialog_opened when it
// draws, and the dialog's milestones follow through the session.
func (p *QuestionPopup) Show(ctx context.Context, t Terminal) (ask.Outcome[auq.Result], error) {
	if err := ctx.Err(); err != nil {
		return ask.Outcome[auq.Result]{}, context.Cause(ctx)
	}
	m := p.m
	m.hid = false
	m.reshow()
	final, err := runProgram(ctx, m, t.File, t.File, t.options(p.opts), t.Resize)
	if fm, ok := final.(*qmodel); ok {
		m = fm
	}
	switch {
	case err != nil:
		return ask.Outcome[auq.Result]{}, err
	case m.hid:
		return ask.Outcome[auq.Result]{}, ErrHidden
	case !m.finished:
		return ask.Outcome[auq.Result]{}, errors.New("tui: the dialog ended without an answer")
	}
	return m.outcome, nil
}

// Fit returns the size of a popup, border included, for the dialog
// within maxW×maxH cells: the whole width, as the dialog spans the
// terminal's, and the height of its tallest question and focus at that
// width. Fit does not change the dialog.
func (p *QuestionPopup) Fit(maxW, maxH int) (w, h int) {
	if maxW < minBoxWidth || maxH < minBoxHeight {
		return maxW, maxH
	}
	const chrome = borderColumns + 1
	innerW := min(maxW, dialog.MaxWidth+chrome) - chrome
	var cd dialog.Countdown
	if p.s.Countdown != nil {
		cd = p.s.Countdown
	}
	d := dialog.NewQuestions(p.s.Request, &dialog.Options{Theme: p.theme(), Countdown: cd})
	d.SetSize(innerW, measureRows)
	rows := 0
	qs := p.s.Request.Questions
	for _, q := range qs {
		for range len(q.Options) + 1 {
			rows = max(rows, len(d.View(innerW, measureRows).Lines))
			d.Update(dialog.Key{Name: "down"})
		}
		d.Update(dialog.Key{Name: "tab"})
	}
	if len(qs) > 1 {
		// Tab from the last question is the review.
		rows = max(rows, len(d.View(innerW, measureRows).Lines))
	}
	return innerW + chrome, min(rows+2, maxH)
}
