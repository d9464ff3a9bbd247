package auq

// Milestone is a content-free mark of a call's progress, for the host's
// progress channel (Pi's onUpdate, MCP progress notifications). It never
// carries question, answer or note text.
type Milestone string

// The milestones, in the order a call usually meets them.
const (
	// MilestoneDialogOpened: the questions are on screen.
	MilestoneDialogOpened Milestone = "dialog_opened"
	// MilestoneQuestionAnswered: a question got an answer.
	MilestoneQuestionAnswered Milestone = "question_answered"
	// MilestoneReviewReady: every required question is answered and the
	// review opened.
	MilestoneReviewReady Milestone = "review_ready"
	// MilestoneSubmitted: the answers were submitted.
	MilestoneSubmitted Milestone = "submitted"
	// MilestoneDismissed: the user dismissed the questions.
	MilestoneDismissed Milestone = "dismissed"
)
