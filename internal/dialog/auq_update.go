package dialog

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/auq"
)

// Update handles one key and returns what the host should do. Keys are
// looked up in the keymap; a letter may come as typed text ("j", "N",
// "?") or as a chord naming it ("shift+n"). Typed or pasted text goes
// into the open input; elsewhere, text that is not a bound letter does
// nothing, as do unbound keys.
//
// HideKey returns EffectToggleHide and changes nothing, and Ctrl+C
// dismisses at once, in every view. Any other key closes the help
// screen, and does nothing more.
//
// Enter answers a single-select question with the focused option, and
// confirms a multi-select one, whose ticks (Space) count as its answer
// at once; Space does nothing on a single-select question. Enter on an
// empty multi-select warns first and answers with no option the second
// time in a row. Enter on Other, or o anywhere, opens the Other input;
// saving it answers a single-select question with the text and ticks
// Other on a multi-select one.
func (m *Questions) Update(k Key) Effect[auq.Result] {
	eff := m.update(k)
	m.relayout()
	return eff
}

// SetSize tells the model the size it is drawn at, as a host learns it.
// Keeping the focus in view works at this size; View may still be asked
// for another one, and draws it without changing the model. Sizes over
// MaxWidth or MaxRows count as those.
func (m *Questions) SetSize(width, rows int) {
	m.width, m.rows = fitSize(width, rows)
	m.relayout()
}

// keyName turns k into the name the keymap uses: a chord, or the letter
// it types. It returns "" for text that is no single character.
func keyName(k Key) string {
	switch k.Name {
	case "":
		if k.Text == " " {
			return "space"
		}
		if utf8.RuneCountInString(k.Text) == 1 {
			return k.Text
		}
		return ""
	case "shift+n":
		return "N"
	case "shift+/":
		return "?"
	}
	return k.Name
}

func (m *Questions) update(k Key) Effect[auq.Result] {
	name := keyName(k)
	v := m.mode()
	switch questionsKeymap.lookup(name, v) {
	case actHide:
		return Effect[auq.Result]{Kind: EffectToggleHide}
	case actDismiss:
		return m.dismiss()
	}
	m.msg = ""
	if v != modeReview && v != modeHelp {
		m.ver++
	}
	escArmed, emptyArmed := m.escArmed, m.emptyArmed
	m.escArmed, m.emptyArmed = false, -1
	switch v {
	case modeHelp:
		m.help = false
		return Effect[auq.Result]{}
	case modeInput:
		return m.updateInput(k, name)
	}
	act := questionsKeymap.lookup(name, v)
	if v == modeReview {
		return m.updateReview(act, escArmed)
	}
	q := m.qs[m.cur]
	switch act {
	case actUp:
		q.focus = max(q.focus-1, 0)
	case actDown:
		q.focus = min(q.focus+1, q.n)
	case actPrevTab:
		m.goTo(m.cur - 1)
	case actNextTab:
		m.goTo(m.cur + 1)
	case actSelect:
		if !q.multi {
			break
		}
		if q.focus == q.n && q.other == "" {
			m.openInput(targetOther, q.n)
			break
		}
		was := q.answered()
		q.sel[q.focus] = !q.sel[q.focus]
		q.emptyOK = false
		if !was && q.answered() {
			return Effect[auq.Result]{Milestones: []Milestone{MilestoneQuestionAnswered}}
		}
	case actEnter:
		switch {
		case q.focus == q.n:
			m.openInput(targetOther, q.n)
		case !q.multi:
			q.chosen = q.focus
			return m.answered([]Milestone{MilestoneQuestionAnswered})
		case anyTrue(q.sel) || q.emptyOK:
			// Space, or the first confirmation, reported the answer.
			return m.answered(nil)
		case emptyArmed == m.cur:
			q.emptyOK = true
			return m.answered([]Milestone{MilestoneQuestionAnswered})
		default:
			m.emptyArmed = m.cur
			m.msg = "Nothing is selected: press Enter again to answer with no option"
		}
	case actOther:
		q.focus = q.n
		m.openInput(targetOther, q.n)
	case actNote:
		m.openInput(targetOptionNote, q.focus)
	case actQuestionNote:
		m.openInput(targetQuestionNote, 0)
	case actHelp:
		m.help = true
	case actPageUp:
		q.pscroll -= max(q.pageH-1, 1)
	case actPageDown:
		q.pscroll += max(q.pageH-1, 1)
	case actEsc:
		return m.esc(escArmed)
	}
	return Effect[auq.Result]{}
}

func (m *Questions) esc(armed bool) Effect[auq.Result] {
	if armed {
		return m.dismiss()
	}
	m.escArmed = true
	m.msg = "Press Esc again to dismiss"
	return Effect[auq.Result]{}
}

func (m *Questions) dismiss() Effect[auq.Result] {
	return Effect[auq.Result]{Kind: EffectDismiss, Milestones: []Milestone{MilestoneDismissed}}
}

// goTo shows question i, or the review for len(qs), wrapping around. With
// one question there is nothing to go to.
func (m *Questions) goTo(i int) {
	if !m.several() {
		return
	}
	n := len(m.qs) + 1
	m.cur = (i%n + n) % n
	if m.inReview() {
		m.pick = 0
	}
}

// answered moves on after the current question got its answer, with ms
// the milestones this key reached so far: a lone question is submitted,
// and otherwise the review opens once every required question is
// answered, or else the next unanswered question is shown.
func (m *Questions) answered(ms []Milestone) Effect[auq.Result] {
	if !m.several() {
		return m.submit(ms)
	}
	if len(m.missing()) == 0 {
		m.cur, m.pick = len(m.qs), 0
		return Effect[auq.Result]{Milestones: append(ms, MilestoneReviewReady)}
	}
	for d := 1; d < len(m.qs); d++ {
		i := (m.cur + d) % len(m.qs)
		if !m.qs[i].answered() {
			m.cur = i
			break
		}
	}
	return Effect[auq.Result]{Milestones: ms}
}

func (m *Questions) updateReview(act action, escArmed bool) Effect[auq.Result] {
	switch act {
	case actUp:
		m.pick = max(m.pick-1, 0)
	case actDown:
		m.pick = min(m.pick+1, len(m.qs))
	case actNextTab:
		m.goTo(m.cur + 1)
	case actPrevTab:
		m.goTo(m.cur - 1)
	case actEnter:
		if m.pick > 0 {
			m.cur = m.pick - 1
			return Effect[auq.Result]{}
		}
		return m.submit(nil)
	case actHelp:
		m.help = true
	case actEsc:
		return m.esc(escArmed)
	}
	return Effect[auq.Result]{}
}

// submit ends the questionnaire with its answers, unless a required
// question has none: then it says which, and the first of them opens.
func (m *Questions) submit(ms []Milestone) Effect[auq.Result] {
	if miss := m.missing(); len(miss) > 0 {
		names := make([]string, len(miss))
		for i, qi := range miss {
			names[i] = "“" + m.qs[qi].header.s + "”"
		}
		m.msg = "Answer " + strings.Join(names, ", ") + " first"
		if m.inReview() {
			m.pick = miss[0] + 1
		}
		return Effect[auq.Result]{Milestones: ms}
	}
	return Effect[auq.Result]{Kind: EffectSubmit, Answer: m.result(), Milestones: append(ms, MilestoneSubmitted)}
}

// openInput opens the one-line input for t on the current question,
// starting from the saved text.
func (m *Questions) openInput(t target, opt int) {
	q := m.qs[m.cur]
	e := &editing{q: m.cur, target: t, opt: opt}
	switch t {
	case targetOther:
		e.text = newTextInput(q.other, questionsInput)
	case targetOptionNote:
		e.text = newTextInput(q.notes[opt], questionsInput)
	case targetQuestionNote:
		e.text = newTextInput(q.qnote, questionsInput)
	}
	m.input = e
}

func (m *Questions) updateInput(k Key, name string) Effect[auq.Result] {
	e := m.input
	in := &e.text
	if k.Name == "" {
		in.Insert(k.Text)
		return Effect[auq.Result]{}
	}
	act := questionsKeymap.lookup(name, modeInput)
	if act == actNone && utf8.RuneCountInString(name) == 1 {
		in.Insert(name)
		return Effect[auq.Result]{}
	}
	switch act {
	case actSave:
		return m.save()
	case actCancel:
		m.input = nil
	default:
		edit(act, in)
	}
	return Effect[auq.Result]{}
}

// questionsInput are the options of the dialog's inputs: a word ends at
// an ASCII space, and since no key yanks, deletions keep nothing.
var questionsInput = inputOptions{SpaceWords: true, NoYank: true}

// save stores the open input's text, trimmed, refusing one that is blank
// or longer than the contract allows. Saving the
// Other text answers a single-select question with it, and ticks Other on
// a multi-select one.
func (m *Questions) save() Effect[auq.Result] {
	e := m.input
	s := strings.TrimSpace(e.text.Value())
	if s == "" {
		m.msg = "Type some text first, or press Esc to keep what was saved"
		return Effect[auq.Result]{}
	}
	what, limit := "A note", auq.MaxNoteLen
	if e.target == targetOther {
		what, limit = "The "+auq.OtherLabel+" answer", auq.MaxOtherTextLen
	}
	if n := utf8.RuneCountInString(s); n > limit {
		m.msg = what + " can have at most " + strconv.Itoa(limit) + " characters; this one has " + strconv.Itoa(n)
		return Effect[auq.Result]{}
	}
	m.input = nil
	q := m.qs[e.q]
	if m.lay != nil && e.q < len(m.lay.qs) {
		m.lay.qs[e.q] = nil
	}
	switch e.target {
	case targetOptionNote:
		q.notes[e.opt] = s
	case targetQuestionNote:
		q.qnote = s
	case targetOther:
		q.other = s
		q.focus = q.n
		if !q.multi {
			q.chosen = q.n
			return m.answered([]Milestone{MilestoneQuestionAnswered})
		}
		was := q.answered()
		q.sel[q.n] = true
		q.emptyOK = false
		if !was {
			return Effect[auq.Result]{Milestones: []Milestone{MilestoneQuestionAnswered}}
		}
	}
	return Effect[auq.Result]{}
}

// result is the questionnaire's answers and notes as the model gets them.
func (m *Questions) result() auq.Result {
	res := auq.Result{}
	for _, q := range m.qs {
		id := q.q.ID
		if q.answered() {
			if res.Answers == nil {
				res.Answers = map[string]auq.Answer{}
			}
			res.Answers[id] = q.answer()
		}
		var ann auq.Annotations
		ann.QuestionNotes = q.qnote
		for i, n := range q.notes {
			if n == "" {
				continue
			}
			if ann.OptionNotes == nil {
				ann.OptionNotes = map[string]string{}
			}
			ann.OptionNotes[q.optionKey(i)] = n
		}
		if !q.multi && q.chosen >= 0 && q.chosen < q.n {
			ann.SelectedPreview = q.q.Options[q.chosen].Preview
		}
		if ann.QuestionNotes != "" || ann.OptionNotes != nil || ann.SelectedPreview != "" {
			if res.Annotations == nil {
				res.Annotations = map[string]auq.Annotations{}
			}
			res.Annotations[id] = ann
		}
	}
	res.Metadata = m.req.ResultMetadata()
	return res
}

// optionKey is option i's key in Annotations.OptionNotes.
func (q *question) optionKey(i int) string {
	if i == q.n {
		return auq.OtherNoteKey
	}
	return q.q.Options[i].ID
}

// answer is the question's answer; it must have one.
func (q *question) answer() auq.Answer { return q.q.AnswerOf(q.chosen, q.sel, q.other) }
