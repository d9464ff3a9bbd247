// Package auqdialog is the AskUserQuestion dialog as a pure component:
// normalized keys and a size go in, lines and a cursor position come out,
// with the same Key, Frame, Cursor, Countdown and Theme types as package
// dialog, so that every host of the ask_user dialog can host this one too.
//
// One question is answered and submitted in one step. Several questions
// are shown as tabs, one per header; once every required question has an
// answer, a review lists the answers and notes and offers Submit or a way
// back to any question. Every question has an automatic Other answer, a
// note per option and a note for the question, each typed in a one-line
// input. Single-select questions may show a preview of the focused
// option, as plain text.
//
// The Model keeps every answer, note, draft, focus and review choice, so a
// host that hides the dialog (EffectToggleHide) and shows it again keeps
// all of it simply by keeping the Model. A Model is not safe for
// concurrent use.
package auqdialog

import (
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/dialog"
)

// HideKey is the chord, in keyid's canonical form, that asks the host to
// hide the dialog or show it again. It works in every view.
const HideKey = "ctrl+shift+q"

// EffectKind says what a key asked the host to do.
type EffectKind int

// The effects of a key.
const (
	// EffectNone: nothing beyond redrawing.
	EffectNone EffectKind = iota
	// EffectSubmit: the questionnaire is answered; Effect.Result holds the
	// answers and notes.
	EffectSubmit
	// EffectDismiss: the user dismissed the questionnaire; the host ends
	// the call as cancelled.
	EffectDismiss
	// EffectToggleHide: the user pressed HideKey. The host hides the
	// dialog if it is shown and shows it again if it is hidden; the model
	// is unchanged.
	EffectToggleHide
)

// Milestone is a content-free progress mark (auq.Milestone) a host
// passes on to its progress channel.
type Milestone = auq.Milestone

// The milestones, as package auq names them. Update never returns
// MilestoneDialogOpened: the host reports it when it draws the first
// frame.
const (
	MilestoneDialogOpened     = auq.MilestoneDialogOpened
	MilestoneQuestionAnswered = auq.MilestoneQuestionAnswered
	MilestoneReviewReady      = auq.MilestoneReviewReady
	MilestoneSubmitted        = auq.MilestoneSubmitted
	MilestoneDismissed        = auq.MilestoneDismissed
)

// Effect is the result of handling one key. Result is set only for
// EffectSubmit. Milestones lists what the key reached, in order, and is
// nil when it reached none.
type Effect struct {
	Kind       EffectKind
	Result     auq.Result
	Milestones []Milestone
}

// Options configures a Model. A nil *Options means the defaults:
// dialog.DefaultTheme() and no deadline. In a non-nil Options the zero
// Theme is dialog.PlainTheme().
type Options struct {
	// Theme supplies every colour the dialog draws with.
	Theme dialog.Theme
	// Countdown reports the time left; nil, or one that reports no
	// deadline, means no countdown line. The dialog never reads a clock:
	// the host redraws every second.
	Countdown dialog.Countdown
}
