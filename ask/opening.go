package ask

import (
	"time"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/prefs"
)

// The tools an Opening names: the same names as the preferences' Tool.
const (
	ToolAskUser         = prefs.ToolAskUser
	ToolAskUserQuestion = prefs.ToolAskUserQuestion
)

// Opening describes a questionnaire as its wait opens, for hosts that
// tell the user that a question is waiting. It holds nothing of the
// questions' content.
type Opening struct {
	// CallID is the call's correlation id, "" for none.
	CallID string
	// Tool is ToolAskUser or ToolAskUserQuestion.
	Tool string
	// Route is the route the questionnaire is shown on.
	Route contract.Route
	// Header is the ask_user questionnaire's header as the model wrote
	// it (untrusted text), "" for none; AskUserQuestion requests have
	// none.
	Header string
	// Questions is the number of questions.
	Questions int
	// Deadline is when the call times out, the zero time for none.
	Deadline time.Time
}

// opened hands o to the Asker's OnOpen; a panicking hook cannot break
// the call.
func (a *Asker) opened(o Opening) {
	if a.onOpen == nil {
		return
	}
	defer func() { _ = recover() }()
	a.onOpen(o)
}
