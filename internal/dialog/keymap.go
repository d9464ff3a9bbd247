package dialog

import "sync"

// Scopes of the ask_user dialog's bindings: outside a text input, inside
// one, or both.
const (
	scopeNav  = modeList
	scopeText = modeInput
	scopeAll  = modeList | modeInput
)

// keymap is the ask_user dialog's one table of keys. Text-scope rows come
// before the rows they override.
var keymap = keyTable{
	{keys: []string{"left", "ctrl+b"}, act: actCursorLeft, in: scopeText, label: "←→", hint: "move", prio: 9},
	{keys: []string{"right", "ctrl+f"}, act: actCursorRight, in: scopeText},
	{keys: []string{"home", "ctrl+a"}, act: actLineStart, in: scopeText},
	{keys: []string{"end", "ctrl+e"}, act: actLineEnd, in: scopeText},
	{keys: []string{"backspace"}, act: actBackspace, in: scopeText},
	{keys: []string{"delete", "ctrl+d"}, act: actDeleteForward, in: scopeText},
	{keys: []string{"alt+backspace", "ctrl+backspace", "ctrl+w"}, act: actDeleteWord, in: scopeText},
	{keys: []string{"alt+d", "alt+delete", "ctrl+delete"}, act: actDeleteWordForward, in: scopeText},
	{keys: []string{"ctrl+u"}, act: actDeleteToStart, in: scopeText},
	{keys: []string{"ctrl+k"}, act: actDeleteToEnd, in: scopeText},
	{keys: []string{"alt+b", "alt+left"}, act: actWordLeft, in: scopeText},
	{keys: []string{"alt+f", "alt+right"}, act: actWordRight, in: scopeText},
	{keys: []string{"ctrl+y"}, act: actYank, in: scopeText},
	{keys: []string{"space"}, act: actInsertSpace, in: scopeText},

	{keys: []string{"up", "ctrl+p"}, act: actUp, in: scopeAll, label: "↑↓", hint: "navigate", prio: 0},
	{keys: []string{"down", "ctrl+n"}, act: actDown, in: scopeAll},
	{keys: []string{"left"}, act: actLeft, in: scopeNav},
	{keys: []string{"right"}, act: actRight, in: scopeNav},
	{keys: []string{"home"}, act: actFirst, in: scopeNav},
	{keys: []string{"end"}, act: actLast, in: scopeNav},
	{keys: []string{"space"}, act: actSelect, in: scopeNav, label: "space", hint: "select", prio: 1},
	{keys: []string{"enter"}, act: actEnter, in: scopeAll, label: "enter", hint: "confirm", prio: 2},
	{keys: []string{"tab", "ctrl+right"}, act: actNextTab, in: scopeAll, label: "tab", hint: "next", when: several, prio: 5},
	{keys: []string{"shift+tab", "ctrl+left"}, act: actPrevTab, in: scopeAll},
	{keys: []string{"ctrl+enter"}, act: actSubmit, in: scopeAll, label: "ctrl+enter", hint: "submit", prio: 4},
	{keys: []string{"pgup"}, act: actPageUp, in: scopeAll, label: "pgup/pgdn", hint: "scroll", when: scrollable, prio: 8},
	{keys: []string{"pgdown"}, act: actPageDown, in: scopeAll},
	{keys: []string{"alt+q"}, act: actStopTimer, in: scopeAll, label: "alt+q", hint: "no timeout", when: counting, prio: 6},
	// Ctrl+C dismisses like Esc: inside Pi no one else interrupts a custom
	// component, and a user who presses it wants out.
	{keys: []string{"esc", "ctrl+c"}, act: actDismiss, in: scopeAll, label: "esc", hint: dismissHint, prio: 3},
}

// Keys returns every chord the ask_user dialog (Model) handles, in the
// canonical form of config.ParseKey, each once. Hosts use it to keep their own keys, such
// as the overlay toggle, apart from the dialog's.
func Keys() []string { return keymap.names() }

// keymapHints are keymap's hints, measured once.
var keymapHints = sync.OnceValue(keymap.hintItems)

// hints lists the hints that apply, in keymap order. The overlay toggle is
// the host's key, so it is added here rather than bound in the keymap.
func (m *Model) hints(text, canScroll bool) []hintItem {
	in := scopeNav
	if text {
		in = scopeText
	}
	all := withDismissHint(keymapHints(), m.dismissHint)
	st := hintState{several: len(m.tabs) > 1, scrollable: canScroll, counting: m.counting()}
	var out []hintItem
	for i := range keymap {
		b := &keymap[i]
		if b.hint == "" || b.in&in == 0 || !b.when.holds(st) {
			continue
		}
		if b.act == actDismiss && m.overlay && m.toggleKey != "" {
			out = append(out, newHintItem(m.toggleKey, "hide", textWidth(m.toggleKey), 7))
		}
		out = append(out, all[i])
	}
	return out
}
