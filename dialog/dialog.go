// Package dialog is the custom questionnaire dialog as a pure component:
// normalized keys and a size go in, lines and a cursor position come out.
//
// It knows nothing of terminals or of any program loop, so the same Model
// runs under Bubble Tea on a real terminal, inside Pi's TUI through the
// bridge, and in tests. A Model is not safe for concurrent use.
package dialog

import (
	"time"

	"github.com/askuser/askuser/contract"
)

// Key is one input event. Name is a chord in keyid's canonical form
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
	// EffectSubmit: the questionnaire is answered; Effect.Answers holds
	// one answer per question.
	EffectSubmit
	// EffectDismiss: the user dismissed the questionnaire.
	EffectDismiss
	// EffectCancelCountdown: the user asked to stop the countdown. The host
	// cancels the call's countdown and redraws.
	EffectCancelCountdown
)

// Effect is the result of handling one key.
type Effect struct {
	Kind    EffectKind
	Answers []contract.Answer
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
