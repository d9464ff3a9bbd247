package dialog

import "github.com/askuser/askuser/auq"

// HideKey is the chord, in the canonical form of config.ParseKey, that asks the host to
// hide the dialog or show it again. It works in every view.
const HideKey = "ctrl+shift+q"

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
