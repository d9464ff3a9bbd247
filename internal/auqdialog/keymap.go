package auqdialog

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/askuser/askuser/auq"
)

// action is what a binding does.
type action uint8

const (
	actNone action = iota
	actUp
	actDown
	actPrevQ
	actNextQ
	actToggle
	actEnter
	actOther
	actNote
	actQuestionNote
	actHelp
	actPageUp
	actPageDown
	actEsc
	actDismiss
	actHide

	// Actions of the one-line input.
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
	actInsertSpace
)

// view is one of the dialog's screens, as a bit so that a binding can
// apply to several.
type view uint8

const (
	viewList   view = 1 << iota // a question's options
	viewReview                  // the review and its picker
	viewInput                   // the Other or note input
	viewHelp                    // the help screen
)

// hintCond says when a binding's hint applies.
type hintCond uint8

const (
	always     hintCond = iota
	several             // more than one question
	isSingle            // a single-select question
	isMulti             // a multi-select question
	scrollable          // a preview longer than its room
)

// binding is one row of the keymap: the chords, where they apply, what
// they do, the hint shown for them and the line of the help screen. A
// row with an empty hint has no hint of its own; one with an empty help
// has no line on the help screen.
type binding struct {
	keys  []string
	in    view
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

// keymap is the dialog's one table of keys: Update looks keys up in it,
// and the hints and the help screen are drawn from it, so the three
// cannot disagree. Chords are in keyid's canonical form; letters are the
// text they type. The first row that matches wins.
var keymap = []binding{

	{keys: []string{"left", "ctrl+b"}, in: viewInput, act: actCursorLeft, label: "←→", hint: "navigate", prio: 0},
	{keys: []string{"enter"}, in: viewInput, act: actSave, label: "enter", hint: "save", prio: 1},
	{keys: []string{"esc"}, in: viewInput, act: actCancel, label: "esc", hint: "back to select", prio: 2},
	{keys: []string{"right", "ctrl+f"}, in: viewInput, act: actCursorRight},
	{keys: []string{"home", "ctrl+a"}, in: viewInput, act: actLineStart},
	{keys: []string{"end", "ctrl+e"}, in: viewInput, act: actLineEnd},
	{keys: []string{"backspace"}, in: viewInput, act: actBackspace},
	{keys: []string{"delete", "ctrl+d"}, in: viewInput, act: actDeleteForward},
	{keys: []string{"alt+backspace", "ctrl+backspace", "ctrl+w"}, in: viewInput, act: actDeleteWord},
	{keys: []string{"ctrl+u"}, in: viewInput, act: actDeleteToStart},
	{keys: []string{"ctrl+k"}, in: viewInput, act: actDeleteToEnd},
	{keys: []string{"space"}, in: viewInput, act: actInsertSpace},

	{keys: []string{"up", "k"}, in: viewList, act: actUp, label: "↑↓", hint: "navigate", prio: 0,
		helpKeys: "↑ ↓  j k", help: "navigate the options"},
	{keys: []string{"down", "j"}, in: viewList, act: actDown},
	{keys: []string{"up", "k", "left"}, in: viewReview, act: actUp, label: "↑↓←→", hint: "navigate", prio: 0},
	{keys: []string{"down", "j", "right"}, in: viewReview, act: actDown},
	{keys: []string{"space"}, in: viewList, act: actToggle, label: "space", hint: "select", when: isMulti, prio: 1,
		helpKeys: "space", help: "select or clear the focused option (multiple choice)"},
	{keys: []string{"enter"}, in: viewList, act: actEnter, label: "enter", hint: "select", when: isSingle, prio: 1,
		helpKeys: "enter", help: "select the focused option; confirm a multiple choice"},
	{keys: []string{"enter"}, in: viewList, act: actEnter, label: "enter", hint: "confirm", when: isMulti, prio: 2},
	{keys: []string{"enter"}, in: viewReview, act: actEnter, label: "enter", hint: "select", prio: 1},
	{keys: []string{"tab"}, in: viewList | viewReview, act: actNextQ, label: "tab", hint: "next question", when: several, prio: 5,
		helpKeys: "tab  shift+tab", help: "next and previous question, and the review"},
	{keys: []string{"shift+tab"}, in: viewList | viewReview, act: actPrevQ},
	{keys: []string{"left"}, in: viewList, act: actPrevQ,
		helpKeys: "← →", help: "previous and next question; move the picker in the review"},
	{keys: []string{"right"}, in: viewList, act: actNextQ},
	{keys: []string{"o"}, in: viewList, act: actOther, label: "o", hint: "other", prio: 4,
		helpKeys: "o", help: "answer in your own words (" + auq.OtherLabel + ")"},
	{keys: []string{"n"}, in: viewList, act: actNote, label: "n/N", hint: "note", prio: 6,
		helpKeys: "n", help: "write a note on the focused option"},
	{keys: []string{"N"}, in: viewList, act: actQuestionNote,
		helpKeys: "N", help: "write a note on the question"},
	{keys: []string{"pgup"}, in: viewList, act: actPageUp, label: "pgup/pgdn", hint: "scroll preview", when: scrollable, prio: 8,
		helpKeys: "pgup pgdn", help: "scroll a long preview"},
	{keys: []string{"pgdown"}, in: viewList, act: actPageDown},
	{keys: []string{"?"}, in: viewList | viewReview, act: actHelp, label: "?", hint: "help", prio: 3,
		helpKeys: "?", help: "this help; any key closes it"},
	{keys: []string{"esc"}, in: viewList | viewReview, act: actEsc, label: "esc esc", hint: "dismiss", prio: 7,
		helpKeys: "esc esc", help: "dismiss: the first esc asks, the second dismisses"},
	// The keys of every view. No earlier row binds them.
	{keys: []string{HideKey}, in: viewList | viewReview | viewInput | viewHelp, act: actHide, label: "ctrl+shift+q", hint: "hide", prio: 9,
		helpKeys: "ctrl+shift+q", help: "hide the dialog to read the conversation, and show it again"},
	{keys: []string{"ctrl+c"}, in: viewList | viewReview | viewInput | viewHelp, act: actDismiss,
		helpKeys: "ctrl+c", help: "dismiss at once"},
}

// Keys returns every key the dialog handles, each once: chords in keyid's
// canonical form, and the letters it reads as keys outside an input.
// Hosts use it to keep their own keys apart from the dialog's.
func Keys() []string {
	seen := map[string]bool{}
	var out []string
	for _, b := range keymap {
		for _, k := range b.keys {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// lookup returns the action bound to name in view v.
func lookup(name string, v view) action {
	for i := range keymap {
		b := &keymap[i]
		if b.in&v == 0 {
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

// hintItem is one "key hint" pair of the hints row.
type hintItem struct {
	label, hint   string
	labelW, hintW int
	w             int // the width of label, a space and hint
	prio          int
}

func (h hintItem) cells() int      { return h.w }
func (h hintItem) importance() int { return h.prio }

// allHints holds, per view and condition, the hints that apply, in keymap
// order and measured once.
var allHints = func() map[[2]uint8][]hintItem {
	out := map[[2]uint8][]hintItem{}
	for _, v := range []view{viewList, viewReview, viewInput} {
		for _, multi := range []bool{false, true} {
			for _, many := range []bool{false, true} {
				for _, scroll := range []bool{false, true} {
					var items []hintItem
					for i := range keymap {
						b := &keymap[i]
						if b.hint == "" || b.in&v == 0 {
							continue
						}
						switch b.when {
						case scrollable:
							if !scroll {
								continue
							}
						case several:
							if !many {
								continue
							}
						case isSingle:
							if multi {
								continue
							}
						case isMulti:
							if !multi {
								continue
							}
						}
						lw, hw := ansi.StringWidth(b.label), ansi.StringWidth(b.hint)
						items = append(items, hintItem{label: b.label, hint: b.hint, prio: b.prio, labelW: lw, hintW: hw, w: lw + 1 + hw})
					}
					out[hintKey(v, multi, many, scroll)] = items
				}
			}
		}
	}
	return out
}()

func hintKey(v view, multi, many, scroll bool) [2]uint8 {
	k := [2]uint8{uint8(v), 0}
	if scroll {
		k[1] |= 4
	}
	if multi {
		k[1] |= 1
	}
	if many {
		k[1] |= 2
	}
	return k
}

// helpRows are the lines of the help screen: the keys and what they do,
// with the keys that work in every view last.
var helpRows = func() [][2]string {
	var out [][2]string
	for _, global := range []bool{false, true} {
		for _, b := range keymap {
			if b.help != "" && (b.act == actHide || b.act == actDismiss) == global {
				out = append(out, [2]string{b.helpKeys, b.help})
			}
		}
	}
	return out
}()
