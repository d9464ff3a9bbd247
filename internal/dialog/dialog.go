// Package dialog is askuser's questionnaire dialog as a pure component:
// normalized keys and a size go in, lines and a cursor position come out.
// It serves both contracts: Model draws and drives an ask_user
// questionnaire (package contract), and Questions an AskUserQuestion
// request (package auq). The two share everything but their model: the
// layout, wrapping and scrolling, the key hints, the key tables, the text
// input, the theme and the Markdown previews of options (markdown*.go, on
// goldmark, with every piece of the model's text made safe).
//
// It knows nothing of terminals or of any program loop, so the same
// dialog runs under Bubble Tea on a real terminal (package tui), inside
// Pi's TUI through the bridge, in a popup beside an MCP client, and in
// tests. The package is internal: its shape (Key, Frame, Effect, the key
// tables) follows what these hosts need from one release to the next, and
// making it public would freeze the drawing with it. A Go program shows
// the dialog through package tui, on any terminal it hands over as a
// reader and a writer, or asks through package ask with a renderer of its
// own.
//
// Neither model is safe for concurrent use, except that View may be
// called from several goroutines at once while nothing calls Update or
// SetSize: View only reads the model.
package dialog

import (
	"slices"
	"time"
)

// Key is one input event. Name is a chord in the canonical form of config.ParseKey
// ("down", "shift+tab", "ctrl+enter", "alt+q"); Text is typed or pasted
// text, and then Name is empty.
type Key struct {
	Name string
	Text string
}

// EffectKind says what a key asked the host to do.
type EffectKind int

// The effects of a key.
const (
	// EffectNone: nothing beyond redrawing.
	EffectNone EffectKind = iota
	// EffectSubmit: the questionnaire is answered. Effect.Answer holds
	// one answer per question of a Model, and the answers and notes of
	// Questions.
	EffectSubmit
	// EffectDismiss: the user dismissed the questionnaire; the host ends
	// the call as the contract says.
	EffectDismiss
	// EffectCancelCountdown (Model only): the user asked to stop the
	// countdown. The host cancels the call's countdown and redraws.
	EffectCancelCountdown
	// EffectToggleHide (Questions only): the user pressed HideKey. The
	// host hides the dialog if it is shown and shows it again if it is
	// hidden; the model is unchanged.
	EffectToggleHide
)

// Effect is the result of handling one key, with A the answer of the
// dialog's contract: a Model's Update gives Effect[[]contract.Answer],
// one of Questions Effect[auq.Result]. Answer is set only for
// EffectSubmit. Milestones lists what a key to Questions reached, in
// order, and is nil when it reached none; a Model reports none.
type Effect[A any] struct {
	Kind       EffectKind
	Answer     A
	Milestones []Milestone
}

// Cursor is a position in a Frame, in cells from the top-left corner.
type Cursor struct {
	Row, Col int
}

// Frame is one rendering of the dialog. No line is wider than the width it
// was rendered for, and there are never more lines than rows. Cursor is
// set when a text input has focus, at its insertion point. Hints is how
// many of the last lines are key hints, so that a host padding the frame
// to a steady height can keep them at the bottom.
type Frame struct {
	Lines  []string
	Cursor *Cursor
	Hints  int
	// Widths, when the dialog sets it, holds the width in cells of each
	// line, so that a host need not measure them again; nil otherwise.
	Widths []int
}

// Countdown tells the dialog how long is left. ok is false when there is
// no deadline, and the header then says "No timeout".
type Countdown interface {
	Remaining() (left time.Duration, ok bool)
}

// Options configures a Model or Questions. A nil *Options means the
// defaults: DefaultTheme() and no countdown. In a non-nil Options the
// zero Theme is PlainTheme().
type Options struct {
	// Theme supplies every colour the dialog draws with.
	Theme Theme
	// Countdown reports the time left; nil, or one that reports no
	// deadline, means no deadline. The dialog never reads a clock itself:
	// the host redraws every second.
	Countdown Countdown
	// ToggleKey (Model only) is the overlay show/hide chord in the canonical
	// form of config.ParseKey. It is the host's key: the dialog only names it in
	// the hints, and only when Overlay is true. Questions has its own,
	// HideKey.
	ToggleKey string
	// Overlay (Model only) tells the dialog it is drawn as an overlay.
	Overlay bool
	// Title (Model only) names the dialog in its header when the request
	// has no header of its own.
	Title string
	// DismissHint is what the hints say the dismissing key does, for a
	// host where dismissing means something else, such as going back to
	// a list; "" means "dismiss".
	DismissHint string
}

// dismissHint is the hint of the dismissing key in the keymaps.
const dismissHint = "dismiss"

// withDismissHint returns hints with the dismissing key's hint said as
// hint instead; hints itself when hint is "". hints is not changed.
func withDismissHint(hints []hintItem, hint string) []hintItem {
	if hint == "" {
		return hints
	}
	out := slices.Clone(hints)
	for i, it := range out {
		if it.hint == dismissHint {
			out[i] = newHintItem(it.label, hint, it.labelW, it.prio)
		}
	}
	return out
}

// themeOf returns the theme and countdown opts gives.
func themeOf(opts *Options) (Theme, Countdown) {
	if opts == nil {
		return DefaultTheme(), nil
	}
	return opts.Theme, opts.Countdown
}
