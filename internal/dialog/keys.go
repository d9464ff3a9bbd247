package dialog

// action is what a binding does.
type action uint8

const (
	actNone action = iota
	actUp
	actDown
	actLeft
	actRight
	actFirst
	actLast
	actSelect
	actEnter
	actNextTab
	actPrevTab
	actSubmit
	actPageUp
	actPageDown
	actStopTimer
	actOther
	actNote
	actQuestionNote
	actHelp
	actEsc
	actHide
	actDismiss

	// Actions of a text input.
	actSave
	actCancel
	actCursorLeft
	actCursorRight
	actLineStart
	actLineEnd
	actBackspace
	actDeleteForward
	actDeleteWord
	actDeleteToStart
	actDeleteToEnd
	actDeleteWordForward
	actWordLeft
	actWordRight
	actYank
	actInsertSpace
)

// mode is what has the keys, as a bit so that a binding can apply in
// several.
type mode uint8

const (
	modeList   mode = 1 << iota // options, or any control that is no text input
	modeReview                  // the AskUserQuestion review and its picker
	modeInput                   // a text input
	modeHelp                    // the AskUserQuestion help screen
)

// hintCond says when a binding's hint applies.
type hintCond uint8

const (
	always     hintCond = iota
	several             // more than one question
	scrollable          // a body or preview longer than its room
	counting            // a countdown that Alt+Q can stop
	isSingle            // a single-select question
	isMulti             // a multi-select question
)

// hintState is what the conditions of hints depend on.
type hintState struct {
	several, scrollable, counting, multi bool
}

// holds reports whether a hint with condition c applies in st.
func (c hintCond) holds(st hintState) bool {
	switch c {
	case several:
		return st.several
	case scrollable:
		return st.scrollable
	case counting:
		return st.counting
	case isSingle:
		return !st.multi
	case isMulti:
		return st.multi
	}
	return true
}

// binding is one row of a keymap: the chords, where they apply, what they
// do, the hint shown for them and the line of a help screen. A row with
// an empty hint has no hint of its own, usually because another row's
// label already names its keys; one with an empty help has no line on a
// help screen.
type binding struct {
	keys  []string
	in    mode
	act   action
	label string // the keys as the hint names them
	hint  string
	when  hintCond
	// prio orders hints for dropping when there is no room: lower
	// numbers stay longer.
	prio     int
	helpKeys string
	help     string
}

// keyTable is one dialog's table of keys. It drives both the handling of
// keys and the hints, so that the two cannot disagree. Chords are in
// the canonical form of config.ParseKey. The first row that matches wins, so rows that
// override others come first.
type keyTable []binding

// lookup returns the action bound to name in mode in.
func (kt keyTable) lookup(name string, in mode) action {
	for i := range kt {
		b := &kt[i]
		if b.in&in == 0 {
			continue
		}
		for _, k := range b.keys {
			if k == name {
				return b.act
			}
		}
	}
	return actNone
}

// names returns every key of the table, each once, in table order.
func (kt keyTable) names() []string {
	seen := map[string]bool{}
	var out []string
	for _, b := range kt {
		for _, k := range b.keys {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// hintItems returns each row's hint, measured once, with an empty label
// for a row without one: a frame lays the hints out every time.
func (kt keyTable) hintItems() []hintItem {
	out := make([]hintItem, len(kt))
	for i, b := range kt {
		if b.hint != "" {
			out[i] = newHintItem(b.label, b.hint, textWidth(b.label), b.prio)
		}
	}
	return out
}

// edit applies a text input's editing action to in.
func edit(act action, in *textInput) {
	switch act {
	case actCursorLeft:
		in.Left()
	case actCursorRight:
		in.Right()
	case actLineStart:
		in.Home()
	case actLineEnd:
		in.End()
	case actBackspace:
		in.Backspace()
	case actDeleteForward:
		in.DeleteForward()
	case actDeleteWord:
		in.DeleteWord()
	case actDeleteWordForward:
		in.DeleteWordForward()
	case actDeleteToStart:
		in.DeleteToStart()
	case actDeleteToEnd:
		in.DeleteToEnd()
	case actWordLeft:
		in.WordLeft()
	case actWordRight:
		in.WordRight()
	case actYank:
		in.Yank()
	case actInsertSpace:
		in.Insert(" ")
	}
}
