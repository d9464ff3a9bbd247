package dialog

import "github.com/askuser/askuser/auq"

// questionsKeymap is the AskUserQuestion dialog's one table of keys: Update looks keys up in it,
// and the hints and the help screen are drawn from it, so the three
// cannot disagree. Chords are in the canonical form of config.ParseKey; letters are the
// text they type. The first row that matches wins.
var questionsKeymap = keyTable{
	{keys: []string{"left", "ctrl+b"}, in: modeInput, act: actCursorLeft, label: "←→", hint: "navigate", prio: 0},
	{keys: []string{"enter"}, in: modeInput, act: actSave, label: "enter", hint: "save", prio: 1},
	{keys: []string{"esc"}, in: modeInput, act: actCancel, label: "esc", hint: "back to select", prio: 2},
	{keys: []string{"right", "ctrl+f"}, in: modeInput, act: actCursorRight},
	{keys: []string{"home", "ctrl+a"}, in: modeInput, act: actLineStart},
	{keys: []string{"end", "ctrl+e"}, in: modeInput, act: actLineEnd},
	{keys: []string{"backspace"}, in: modeInput, act: actBackspace},
	{keys: []string{"delete", "ctrl+d"}, in: modeInput, act: actDeleteForward},
	{keys: []string{"alt+backspace", "ctrl+backspace", "ctrl+w"}, in: modeInput, act: actDeleteWord},
	{keys: []string{"ctrl+u"}, in: modeInput, act: actDeleteToStart},
	{keys: []string{"ctrl+k"}, in: modeInput, act: actDeleteToEnd},
	{keys: []string{"space"}, in: modeInput, act: actInsertSpace},

	{keys: []string{"up", "k"}, in: modeList, act: actUp, label: "↑↓", hint: "navigate", prio: 0,
		helpKeys: "↑ ↓  j k", help: "navigate the options"},
	{keys: []string{"down", "j"}, in: modeList, act: actDown},
	{keys: []string{"up", "k", "left"}, in: modeReview, act: actUp, label: "↑↓←→", hint: "navigate", prio: 0},
	{keys: []string{"down", "j", "right"}, in: modeReview, act: actDown},
	{keys: []string{"space"}, in: modeList, act: actSelect, label: "space", hint: "select", when: isMulti, prio: 1,
		helpKeys: "space", help: "select or clear the focused option (multiple choice)"},
	{keys: []string{"enter"}, in: modeList, act: actEnter, label: "enter", hint: "select", when: isSingle, prio: 1,
		helpKeys: "enter", help: "select the focused option; confirm a multiple choice"},
	{keys: []string{"enter"}, in: modeList, act: actEnter, label: "enter", hint: "confirm", when: isMulti, prio: 2},
	{keys: []string{"enter"}, in: modeReview, act: actEnter, label: "enter", hint: "select", prio: 1},
	{keys: []string{"tab"}, in: modeList | modeReview, act: actNextTab, label: "tab", hint: "next question", when: several, prio: 5,
		helpKeys: "tab  shift+tab", help: "next and previous question, and the review"},
	{keys: []string{"shift+tab"}, in: modeList | modeReview, act: actPrevTab},
	{keys: []string{"left"}, in: modeList, act: actPrevTab,
		helpKeys: "← →", help: "previous and next question; move the picker in the review"},
	{keys: []string{"right"}, in: modeList, act: actNextTab},
	{keys: []string{"o"}, in: modeList, act: actOther, label: "o", hint: "other", prio: 4,
		helpKeys: "o", help: "answer in your own words (" + auq.OtherLabel + ")"},
	{keys: []string{"n"}, in: modeList, act: actNote, label: "n/N", hint: "note", prio: 6,
		helpKeys: "n", help: "write a note on the focused option"},
	{keys: []string{"N"}, in: modeList, act: actQuestionNote,
		helpKeys: "N", help: "write a note on the question"},
	{keys: []string{"pgup"}, in: modeList, act: actPageUp, label: "pgup/pgdn", hint: "scroll preview", when: scrollable, prio: 8,
		helpKeys: "pgup pgdn", help: "scroll a long preview"},
	{keys: []string{"pgdown"}, in: modeList, act: actPageDown},
	{keys: []string{"?"}, in: modeList | modeReview, act: actHelp, label: "?", hint: "help", prio: 3,
		helpKeys: "?", help: "this help; any key closes it"},
	{keys: []string{"esc"}, in: modeList | modeReview, act: actEsc, label: "esc esc", hint: dismissHint, prio: 7,
		helpKeys: "esc esc", help: "dismiss: the first esc asks, the second dismisses"},
	// The keys of every view. No earlier row binds them.
	{keys: []string{HideKey}, in: modeList | modeReview | modeInput | modeHelp, act: actHide, label: "ctrl+shift+q", hint: "hide", prio: 9,
		helpKeys: "ctrl+shift+q", help: "hide the dialog to read the conversation, and show it again"},
	{keys: []string{"ctrl+c"}, in: modeList | modeReview | modeInput | modeHelp, act: actDismiss,
		helpKeys: "ctrl+c", help: "dismiss at once"},
}

// QuestionsKeys returns every key the AskUserQuestion dialog (Questions)
// handles, each once: chords in the canonical form of config.ParseKey, and the letters
// it reads as keys outside an input. Hosts use it to keep their own keys
// apart from the dialog's.
func QuestionsKeys() []string { return questionsKeymap.names() }

// allHints holds, per view and condition, the hints that apply, in keymap
// order and measured once.
var allHints = func() map[[2]uint8][]hintItem {
	out := map[[2]uint8][]hintItem{}
	measured := questionsKeymap.hintItems()
	for _, v := range []mode{modeList, modeReview, modeInput} {
		for _, multi := range []bool{false, true} {
			for _, many := range []bool{false, true} {
				for _, scroll := range []bool{false, true} {
					var items []hintItem
					for i := range questionsKeymap {
						b := &questionsKeymap[i]
						st := hintState{several: many, scrollable: scroll, multi: multi}
						if b.hint == "" || b.in&v == 0 || !b.when.holds(st) {
							continue
						}
						items = append(items, measured[i])
					}
					out[hintKey(v, multi, many, scroll)] = items
				}
			}
		}
	}
	return out
}()

func hintKey(v mode, multi, many, scroll bool) [2]uint8 {
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
		for _, b := range questionsKeymap {
			if b.help != "" && (b.act == actHide || b.act == actDismiss) == global {
				out = append(out, [2]string{b.helpKeys, b.help})
			}
		}
	}
	return out
}()
