package dialog

import (
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/contract"
)

// Update handles one key and returns what the host should do. Keys are
// looked up in the keymap; typed or pasted text goes into the focused
// text input, or into the supplemental text row of a choice question when
// an option has focus. Unknown keys do nothing.
//
// Esc and Ctrl+C dismiss. Alt+Q asks the host to cancel the countdown
// once; after that the header says "No timeout". Ctrl+Enter, Enter on a
// one-question questionnaire, and Submit validate every answer: a
// required question left unanswered blocks submission, takes focus, and
// is named in a message.
func (m *Model) Update(k Key) Effect[[]contract.Answer] {
	eff := m.update(k)
	m.relayout()
	return eff
}

// SetSize tells the model the size it is drawn at, as a host learns it
// (a terminal's resize). Paging and keeping the focus in view work in
// this size; View may still be asked for another one, and draws it
// without changing the model. A size over MaxWidth or MaxRows counts as
// MaxWidth or MaxRows.
func (m *Model) SetSize(width, rows int) {
	m.width, m.rows = fitSize(width, rows)
	m.relayout()
}

// relayout lays the current tab out at the size SetSize gave, and keeps
// where its body and preview are scrolled to, which paging reads.
func (m *Model) relayout() {
	m.planned = nil
	if m.width <= 0 || m.rows <= 0 {
		return
	}
	p := m.plan(m.cache.forWidth(m.width), m.width, m.rows, true)
	t := p.t
	t.scroll, t.pscroll, t.bodyH, t.ctrlTop = p.scroll, p.pscroll, p.g.body, p.ctrlTop
	m.planned = p
}

func (m *Model) update(k Key) Effect[[]contract.Answer] {
	m.msg = ""
	t := m.tab()
	text := t.text() != nil
	name := k.Name
	if name == "" && k.Text == " " && !text {
		name = "space"
	}
	if name == "" || (utf8.RuneCountInString(name) == 1 && k.Text == "") {
		s := k.Text
		if s == "" {
			s = name
		}
		m.typeText(s)
		return Effect[[]contract.Answer]{}
	}
	in := scopeNav
	if text {
		in = scopeText
	}
	switch act := keymap.lookup(name, in); act {
	case actUp:
		m.move(-1)
	case actDown:
		m.move(1)
	case actLeft:
		m.move(-1)
	case actRight:
		m.move(1)
	case actFirst:
		t.enter(0)
	case actLast:
		t.enter(len(t.ctrls) - 1)
	case actSelect:
		return m.activate(false)
	case actEnter:
		return m.activate(true)
	case actNextTab:
		m.switchTab(m.cur + 1)
	case actPrevTab:
		m.switchTab(m.cur - 1)
	case actSubmit:
		return m.submit()
	case actPageUp:
		m.page(-1)
	case actPageDown:
		m.page(1)
	case actStopTimer:
		if m.counting() {
			m.noTimeout = true
			return Effect[[]contract.Answer]{Kind: EffectCancelCountdown}
		}
	case actDismiss:
		return Effect[[]contract.Answer]{Kind: EffectDismiss}
	default:
		if text {
			edit(act, t.text())
		}
	}
	return Effect[[]contract.Answer]{}
}

// typeText puts typed or pasted text into the focused input. On a choice
// question with a supplemental row, typing anywhere starts that row.
func (m *Model) typeText(s string) {
	t := m.tab()
	in := t.text()
	if in == nil {
		for ci, c := range t.ctrls {
			if c.kind == ctrlFree {
				t.enter(ci)
				in = t.text()
				break
			}
		}
	}
	if in != nil {
		in.Insert(s)
	}
}

// move moves focus to the previous (-1) or next (+1) focus stop, for
// Up/Down everywhere and Left/Right outside text inputs. The two sides of
// a bool are stops of their own, True before False, so the arrows reach
// both answers whichever way a person reads "↑↓ navigate". Focus stops
// at the ends.
func (m *Model) move(d int) {
	t := m.tab()
	if t.ctrl().kind == ctrlBool {
		if d > 0 && t.side == 0 {
			t.side = 1
			return
		}
		if d < 0 && t.side == 1 {
			t.side = 0
			return
		}
	}
	n := t.focus + d
	if n < 0 || n >= len(t.ctrls) {
		return
	}
	t.enter(n)
	if t.ctrl().kind == ctrlBool {
		// Coming from below, the next stop up is False.
		t.side = 0
		if d < 0 {
			t.side = 1
		}
	}
}

func (m *Model) switchTab(i int) {
	if i < 0 || i >= len(m.tabs) {
		return
	}
	m.cur = i
}

// activate handles Space (cont false) and Enter (cont true) on the focused
// control.
func (m *Model) activate(cont bool) Effect[[]contract.Answer] {
	t := m.tab()
	c := t.ctrl()
	switch c.kind {
	case ctrlOption:
		f := t.fields[c.field]
		if f.kind == "multi" {
			f.sel[c.opt] = !f.sel[c.opt]
			return Effect[[]contract.Answer]{}
		}
		for i := range f.sel {
			f.sel[i] = i == c.opt
		}
	case ctrlBool:
		f := t.fields[c.field]
		f.boolSet, f.boolVal = true, t.side == 0
	case ctrlItem:
		if cont {
			m.switchTab(c.field)
		}
		return Effect[[]contract.Answer]{}
	case ctrlFree, ctrlText:
		if !cont {
			return Effect[[]contract.Answer]{}
		}
	case ctrlButton:
		return m.next()
	}
	if !cont {
		return Effect[[]contract.Answer]{}
	}
	if t.form {
		// Move on to the next field, or the button.
		for ci := t.focus + 1; ci < len(t.ctrls); ci++ {
			if t.ctrls[ci].field != c.field {
				t.enter(ci)
				break
			}
		}
		return Effect[[]contract.Answer]{}
	}
	return m.next()
}

// next continues from the current question: to the next tab, or, in a
// one-question questionnaire and on the review tab, to submission.
func (m *Model) next() Effect[[]contract.Answer] {
	if len(m.tabs) == 1 || m.tab().index < 0 {
		return m.submit()
	}
	m.switchTab(m.cur + 1)
	return Effect[[]contract.Answer]{}
}

// submit validates every answer. If one is missing it takes focus and the
// message names it; otherwise the answers are the effect.
func (m *Model) submit() Effect[[]contract.Answer] {
	answers, bad := m.answers()
	if bad != nil {
		m.cur = bad.tab
		t := m.tab()
		t.enter(bad.ctrl)
		m.msg = bad.msg
		return Effect[[]contract.Answer]{}
	}
	return Effect[[]contract.Answer]{Kind: EffectSubmit, Answer: answers}
}

// page scrolls the body (or the preview, when the tab has one) by a page.
// When the focused control would scroll out of view, focus moves to the
// first control in view, so the focused control always stays visible.
func (m *Model) page(d int) {
	t := m.tab()
	h := max(t.bodyH-1, 1)
	if t.preview {
		t.pscroll = max(t.pscroll+d*h, 0)
		return
	}
	t.scroll = max(t.scroll+d*h, 0)
	if len(t.ctrlTop) != len(t.ctrls) || len(t.ctrls) == 0 {
		return
	}
	top, bottom := t.scroll, t.scroll+max(t.bodyH, 1)
	if at := t.ctrlTop[t.focus]; at >= top && at < bottom {
		return
	}
	if d > 0 {
		for ci := range t.ctrls {
			if t.ctrlTop[ci] >= top {
				t.enter(ci)
				return
			}
		}
		t.enter(len(t.ctrls) - 1)
		return
	}
	for ci := len(t.ctrls) - 1; ci >= 0; ci-- {
		if t.ctrlTop[ci] < bottom {
			t.enter(ci)
			return
		}
	}
	t.enter(0)
}

func trimSpace(s string) string { return strings.TrimSpace(s) }
