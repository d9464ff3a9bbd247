package dialog

import (
	"sync"

	"github.com/charmbracelet/x/ansi"
)

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
	actDismiss

	// Text input editing.
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

// scope says where a binding applies.
type scope uint8

const (
	// scopeAll applies whatever has focus.
	scopeAll scope = iota
	// scopeNav applies when focus is not on a text input.
	scopeNav
	// scopeText applies when focus is on a text input.
	scopeText
)

// hintCond says when a binding's hint is worth showing.
type hintCond uint8

const (
	always hintCond = iota
	hasTabs
	canScroll
	counting
)

// binding is one row of the keymap: the chords, what they do, and the
// hint shown for them. A binding with an empty label has no hint of its
// own, usually because another row's label already names its keys.
type binding struct {
	keys  []string
	act   action
	scope scope
	label string
	help  string
	when  hintCond
	// prio orders hints for dropping when the row is too narrow: lower
	// numbers survive longer.
	prio int
}

// keymap is the dialog's one table of keys. It drives both Update and the
// hints row, so the two cannot disagree. Chords are in keyid's canonical
// form. Text-scope rows come before the rows they override.
var keymap = []binding{
	{keys: []string{"left", "ctrl+b"}, act: actCursorLeft, scope: scopeText, label: "←→", help: "move", prio: 9},
	{keys: []string{"right", "ctrl+f"}, act: actCursorRight, scope: scopeText},
	{keys: []string{"home", "ctrl+a"}, act: actLineStart, scope: scopeText},
	{keys: []string{"end", "ctrl+e"}, act: actLineEnd, scope: scopeText},
	{keys: []string{"backspace"}, act: actBackspace, scope: scopeText},
	{keys: []string{"delete", "ctrl+d"}, act: actDeleteForward, scope: scopeText},
	{keys: []string{"alt+backspace", "ctrl+backspace", "ctrl+w"}, act: actDeleteWord, scope: scopeText},
	{keys: []string{"alt+d", "alt+delete", "ctrl+delete"}, act: actDeleteWordForward, scope: scopeText},
	{keys: []string{"ctrl+u"}, act: actDeleteToStart, scope: scopeText},
	{keys: []string{"ctrl+k"}, act: actDeleteToEnd, scope: scopeText},
	{keys: []string{"alt+b", "alt+left"}, act: actWordLeft, scope: scopeText},
	{keys: []string{"alt+f", "alt+right"}, act: actWordRight, scope: scopeText},
	{keys: []string{"ctrl+y"}, act: actYank, scope: scopeText},
	{keys: []string{"space"}, act: actInsertSpace, scope: scopeText},

	{keys: []string{"up", "ctrl+p"}, act: actUp, label: "↑↓", help: "navigate", prio: 0},
	{keys: []string{"down", "ctrl+n"}, act: actDown},
	{keys: []string{"left"}, act: actLeft, scope: scopeNav},
	{keys: []string{"right"}, act: actRight, scope: scopeNav},
	{keys: []string{"home"}, act: actFirst, scope: scopeNav},
	{keys: []string{"end"}, act: actLast, scope: scopeNav},
	{keys: []string{"space"}, act: actSelect, scope: scopeNav, label: "space", help: "select", prio: 1},
	{keys: []string{"enter"}, act: actEnter, label: "enter", help: "confirm", prio: 2},
	{keys: []string{"tab", "ctrl+right"}, act: actNextTab, label: "tab", help: "next", when: hasTabs, prio: 5},
	{keys: []string{"shift+tab", "ctrl+left"}, act: actPrevTab},
	{keys: []string{"ctrl+enter"}, act: actSubmit, label: "ctrl+enter", help: "submit", prio: 4},
	{keys: []string{"pgup"}, act: actPageUp, label: "pgup/pgdn", help: "scroll", when: canScroll, prio: 8},
	{keys: []string{"pgdown"}, act: actPageDown},
	{keys: []string{"alt+q"}, act: actStopTimer, label: "alt+q", help: "no timeout", when: counting, prio: 6},
	// Ctrl+C dismisses like Esc: inside Pi no one else interrupts a custom
	// component, and a user who presses it wants out.
	{keys: []string{"esc", "ctrl+c"}, act: actDismiss, label: "esc", help: "dismiss", prio: 3},
}

// Keys returns every chord the dialog handles, in keyid's canonical form,
// each once. Hosts use it to keep their own keys, such as the overlay
// toggle, apart from the dialog's.
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

// lookup returns the action bound to name where focus is (text or not).
func lookup(name string, text bool) action {
	for i := range keymap {
		b := &keymap[i]
		if b.scope != scopeAll && (b.scope == scopeText) != text {
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

// hintItem is one "key help" pair of the hints row.
type hintItem struct {
	label, help string
	labelW      int // the label's width in cells
	prio        int
}

func (h hintItem) cells() int      { return h.labelW + 1 + len(h.help) }
func (h hintItem) importance() int { return h.prio }

// keymapLabelW is the width of each keymap label, measured once: the
// hints row is laid out on every frame.
var keymapLabelW = sync.OnceValue(func() []int {
	w := make([]int, len(keymap))
	for i, b := range keymap {
		w[i] = ansi.StringWidth(b.label)
	}
	return w
})

// hints lists the hints that apply, in keymap order. The overlay toggle is
// the host's key, so it is added here rather than bound in the keymap.
func (m *Model) hints(text bool, scrollable bool) []hintItem {
	var out []hintItem
	for i := range keymap {
		b := &keymap[i]
		if b.label == "" || b.scope == scopeText && !text || b.scope == scopeNav && text {
			continue
		}
		switch b.when {
		case hasTabs:
			if len(m.tabs) < 2 {
				continue
			}
		case canScroll:
			if !scrollable {
				continue
			}
		case counting:
			if !m.counting() {
				continue
			}
		}
		if b.act == actDismiss && m.overlay && m.toggleKey != "" {
			out = append(out, hintItem{label: m.toggleKey, labelW: ansi.StringWidth(m.toggleKey), help: "hide", prio: 7})
		}
		out = append(out, hintItem{label: b.label, labelW: keymapLabelW()[i], help: b.help, prio: b.prio})
	}
	return out
}
