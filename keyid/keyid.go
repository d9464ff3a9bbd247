// Package keyid parses key chords such as "alt+o" or "ctrl+shift+tab" and
// writes them in one canonical form, so that keys from a terminal, from Pi
// and from a config file compare equal.
//
// The canonical form is bubbletea's Keystroke: modifiers in the order ctrl,
// alt, shift, meta, hyper, super, then a lowercase base name such as "a",
// "enter", "esc", "space", "pgup" or "f5".
package keyid
