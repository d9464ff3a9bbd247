package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/dialog"
)

// ErrHidden is returned by Popup.Show when the user pressed the toggle
// key: the host should close the popup and may show the dialog again.
var ErrHidden = errors.New("tui: the user hid the dialog")

// Popup is one request's dialog for terminals made to hold it, such as
// tmux popups, which cover what is under them: Fit says how large such a
// terminal should be, and Show draws the dialog in a box that fills it.
// The session's toggle key (Session.ToggleKey; "" when the host cannot
// bring the dialog back) ends Show instead of hiding the box in place, so
// that the host can close the terminal and uncover the screen under it;
// the next Show, on the same terminal or another, carries on with every
// answer, note, focus and tab as they were. The deadline is the
// session's and keeps running in between. A Popup is used by one
// goroutine at a time.
type Popup[Req, Ans any] struct {
	d popupDialog[Ans]
}

// popupDialog is the dialog of one contract in a Popup.
type popupDialog[Ans any] interface {
	Show(ctx context.Context, t Terminal) (ask.Outcome[Ans], error)
	Fit(maxW, maxH int) (w, h int)
}

// NewPopup returns a Popup for s, a session of contract c, whose display
// mode it ignores: a popup is always an overlay. opts.Width and
// opts.Height are the size to assume when the terminal's own cannot be
// read. It fails for a contract that has no dialog in this package.
func NewPopup[Req, Ans, Res any](c ask.Contract[Req, Ans, Res], s *ask.Session[Req], opts *Options) (*Popup[Req, Ans], error) {
	var d any
	switch s := any(s).(type) {
	case *ask.Session[*contract.Request]:
		d = newAskUserPopup(s, opts)
	case *ask.Session[*auq.Request]:
		d = newAUQPopup(s, opts)
	}
	pd, ok := d.(popupDialog[Ans])
	if !ok {
		return nil, fmt.Errorf("tui: %s has no dialog", c.Tool())
	}
	return &Popup[Req, Ans]{d: pd}, nil
}

// Show draws the dialog on t until the user answers or dismisses it,
// which gives the outcome, or hides it (ErrHidden), or ctx is done
// (context.Cause(ctx)). Show leaves the terminal as it found it, but for
// what it drew on the alternate screen, and does not close it.
func (p *Popup[Req, Ans]) Show(ctx context.Context, t Terminal) (ask.Outcome[Ans], error) {
	return p.d.Show(ctx, t)
}

// Fit returns the size of a popup, border included, that holds the
// dialog without cutting or wrapping any of it but the key hints, and no
// larger, within maxW×maxH cells. Fit does not change the dialog.
func (p *Popup[Req, Ans]) Fit(maxW, maxH int) (w, h int) { return p.d.Fit(maxW, maxH) }

// popupBase is what the dialog of every contract in a Popup holds: its
// session, as an overlay, and the options.
type popupBase[Req any] struct {
	s    *ask.Session[Req]
	opts Options
}

// newPopupBase returns the base of a Popup's dialog for s: a popup is
// always an overlay, whatever s's display mode.
func newPopupBase[Req any](s *ask.Session[Req], opts *Options) popupBase[Req] {
	ov := *s
	ov.Display = contract.DisplayOverlay
	b := popupBase[Req]{s: &ov}
	if opts != nil {
		b.opts = *opts
	}
	return b
}

func (p *popupBase[Req]) theme() dialog.Theme {
	return dialogTheme(p.opts.Theme)
}

// askUserPopup is the dialog of an ask_user request in a Popup.
type askUserPopup struct {
	popupBase[*contract.Request]
	m *model
}

// newAskUserPopup returns the ask_user dialog of a Popup for s.
func newAskUserPopup(s *ask.Session[*contract.Request], opts *Options) *askUserPopup {
	p := &askUserPopup{popupBase: newPopupBase(s, opts)}
	p.m = p.newModel()
	return p
}

func (p *askUserPopup) newModel() *model {
	m := newModel(p.s, p.theme())
	m.popup = true
	return m
}

// Terminal is a terminal a Popup is shown on.
type Terminal struct {
	// File is the terminal, for reading keys and drawing.
	File *os.File
	// Environ is the environment of the terminal's own programs, which
	// says what it can show (TERM, COLORTERM); nil means the process's.
	Environ []string
	// Resize receives a value when File's size may have changed: a
	// popup's resizes signal the popup's process, not this one.
	Resize <-chan struct{}
}

// options are o with the environment of t's programs, if it has one.
func (t Terminal) options(o Options) Options {
	if t.Environ != nil {
		o.Environ = t.Environ
	}
	return o
}

// Show implements popupDialog.
func (p *askUserPopup) Show(ctx context.Context, t Terminal) (ask.Outcome[[]contract.Answer], error) {
	return showPopup[[]contract.Answer](ctx, p.m, t, p.opts)
}

// showPopup is a Popup's Show for the model m of its dialog, with the
// options o.
func showPopup[Ans any](ctx context.Context, m dialogModel[Ans], t Terminal, o Options) (ask.Outcome[Ans], error) {
	if err := ctx.Err(); err != nil {
		return ask.Outcome[Ans]{}, context.Cause(ctx)
	}
	m.ended().hid = false
	m.reshow()
	out, err := run(ctx, m, t.File, t.File, t.options(o), t.Resize)
	if errors.Is(err, errHiddenQuit) {
		return ask.Outcome[Ans]{}, ErrHidden
	}
	return out, err
}

// Fit implements popupDialog. The width is the widest text the
// questionnaire has, up to the widest box an overlay draws, and never
// less than the key hints need on two rows, or, with previews, than
// draws them beside the options; the height is that of the tallest tab
// and focus at that width. Fit
// does not change the dialog.
func (p *askUserPopup) Fit(maxW, maxH int) (w, h int) {
	if maxW < minBoxWidth || maxH < minBoxHeight {
		return maxW, maxH
	}
	const chrome = borderColumns + 1 // the borders and the right margin
	boxMax := min(maxW, maxBoxWidth)
	innerMax := boxMax - chrome
	rowsMax := maxH - 2

	preview := false
	for _, q := range p.s.Request.Questions {
		for _, o := range q.Options {
			preview = preview || o.Preview != ""
		}
	}
	natural := minFitWidth
	if preview {
		// The narrowest width that draws previews beside the options.
		natural = dialog.SideBySideWidth
	}
	wide := p.frames(innerMax, measureRows)
	for _, f := range wide {
		natural = max(natural, textWidth(f))
	}
	natural = min(natural, innerMax)
	// The narrowest width from there at which every state keeps all its
	// hints on their two rows: packed as the dialog packs them, then
	// checked by drawing, and searched for if the check fails. A wider
	// dialog never drops more of them.
	innerW := natural
	for _, f := range wide {
		innerW = max(innerW, hintsWidth(hintItems(f)))
	}
	innerW = min(innerW, innerMax)
	keepsHints := func(fs []dialog.Frame) bool {
		for i, f := range fs {
			if !slices.Equal(hintItems(f), hintItems(wide[i])) {
				return false
			}
		}
		return true
	}
	at := p.frames(innerW, measureRows)
	if !keepsHints(at) {
		lo, hi := innerW+1, innerMax
		for lo < hi {
			if mid := (lo + hi) / 2; keepsHints(p.frames(mid, measureRows)) {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		innerW = lo
		at = p.frames(innerW, measureRows)
	}
	// Text that wraps even in the widest box gets the widest box, where
	// it wraps least.
	for i, f := range at {
		if len(f.Lines)-f.Hints > len(wide[i].Lines)-wide[i].Hints {
			innerW = innerMax
			break
		}
	}
	rows := 0
	for _, f := range p.frames(innerW, rowsMax) {
		rows = max(rows, len(f.Lines))
	}
	return innerW + chrome, min(rows+2, maxH)
}

// measureRows is the height Fit measures widths at: more than any
// screen has, so that no part of the dialog is dropped for want of rows,
// yet not so many that each frame costs much.
const measureRows = 512

// minFitWidth is the narrowest dialog Fit makes: the header's title and
// clock need some room.
const minFitWidth = 40

// frames draws a scratch dialog at width×rows in every state that can
// change its size: each tab, with the focus on each of its controls. The
// same walk at another size gives the same states in the same order.
func (p *askUserPopup) frames(width, rows int) []dialog.Frame {
	d := newDialog(p.s, p.theme())
	d.SetSize(width, rows)
	var out []dialog.Frame
	tabs := len(p.s.Request.Questions)
	if tabs > 1 {
		tabs++ // the review tab
	}
	for ti := range tabs {
		// The review tab has one row per question and a Submit button.
		steps := len(p.s.Request.Questions) + 2
		if ti < len(p.s.Request.Questions) {
			q := p.s.Request.Questions[ti]
			steps = len(q.Options) + len(q.Fields) + 2
		}
		for range min(steps, 64) {
			out = append(out, d.View(width, rows))
			d.Update(dialog.Key{Name: "down"})
		}
		d.Update(dialog.Key{Name: "tab"})
	}
	return out
}

// textWidth is the width f's text needs: its widest line but for the key
// hints, which wrap, rules, which span any width, and the gap between the
// header's title and its clock.
func textWidth(f dialog.Frame) int {
	lines := f.Lines[:len(f.Lines)-f.Hints]
	w := 0
	for i, l := range lines {
		s := strings.TrimRight(ansi.Strip(l), " ")
		if strings.Trim(s, "─ ") == "" {
			continue
		}
		if i == 0 {
			// " title   clock": the title, three cells, the clock.
			if at := strings.LastIndex(s, "   "); at >= 0 {
				s = strings.TrimRight(s[:at], " ") + "   " + strings.TrimLeft(s[at:], " ")
			}
		}
		w = max(w, ansi.StringWidth(s)+1)
	}
	return w
}

// hintsWidth is the narrowest dialog that puts items on two rows, as
// the dialog lays out its hints.
func hintsWidth(items []string) int {
	ws := make([]int, len(items))
	for i, it := range items {
		ws[i] = ansi.StringWidth(it)
	}
	for w := 1; ; w++ {
		if dialog.HintRows(ws, w) <= 2 || w >= dialog.MaxWidth {
			return w
		}
	}
}

// hintItems lists the key hints of f, however they are split into rows.
func hintItems(f dialog.Frame) []string {
	var items []string
	for _, l := range f.Lines[len(f.Lines)-f.Hints:] {
		for _, it := range strings.Split(strings.TrimSpace(ansi.Strip(l)), dialog.HintSep) {
			items = append(items, strings.TrimSpace(it))
		}
	}
	return items
}
