package tui

import (
	"context"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/internal/dialog"
)

// auqPopup is the dialog of an AskUserQuestion request in a Popup.
// Ctrl+Shift+Q (dialog.HideKey) ends Show with ErrHidden when the host
// can bring the dialog back, which it says by the session's ToggleKey
// not being "".
type auqPopup struct {
	popupBase[*auq.Request]
	m *qmodel
}

// newAUQPopup returns the AskUserQuestion dialog of a Popup for s.
func newAUQPopup(s *ask.Session[*auq.Request], opts *Options) *auqPopup {
	p := &auqPopup{popupBase: newPopupBase(s, opts)}
	p.m = newQModel(p.s, p.theme())
	p.m.popup, p.m.hideable = true, s.ToggleKey != ""
	return p
}

// Show implements popupDialog. The first Show reports dialog_opened when
// it draws, and the dialog's milestones follow through the session.
func (p *auqPopup) Show(ctx context.Context, t Terminal) (ask.Outcome[auq.Result], error) {
	return showPopup[auq.Result](ctx, p.m, t, p.opts)
}

// Fit implements popupDialog: the whole width, as the dialog spans the
// terminal's, and the height of its tallest question and focus at that
// width. Fit does not change the dialog.
func (p *auqPopup) Fit(maxW, maxH int) (w, h int) {
	if maxW < minBoxWidth || maxH < minBoxHeight {
		return maxW, maxH
	}
	const chrome = borderColumns + 1
	innerW := min(maxW, dialog.MaxWidth+chrome) - chrome
	d := dialog.NewQuestions(p.s.Request, &dialog.Options{Theme: p.theme(), Countdown: countdownOf(p.s.Countdown)})
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
