package tui

import (
	"encoding/json"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/dialog"
)

// inboxDialog is the dialog of one contract's questionnaire, as the inbox
// drives it.
type inboxDialog interface {
	SetSize(w, h int)
	// Update handles k and returns what the dialog did, with the answer,
	// in the contract's result JSON, of a submission.
	Update(k dialog.Key) (kind dialog.EffectKind, answer func() ([]byte, error))
	View(w, h int) dialog.Frame
}

// inboxDialogs opens the dialog of a stored request of each contract the
// inbox shows, by the contract's name: one line a contract.
var inboxDialogs = map[string]func(request []byte, o dialog.Options) (inboxDialog, error){
	ask.ToolAskUser:         openAskUser,
	ask.ToolAskUserQuestion: openQuestions,
}

// askUserDialog is the dialog of an ask_user questionnaire.
type askUserDialog struct{ *dialog.Model }

func openAskUser(request []byte, o dialog.Options) (inboxDialog, error) {
	req, _, err := contract.Parse(request)
	if err != nil {
		return nil, err
	}
	o.Overlay, o.Title = true, "askuser"
	return askUserDialog{dialog.New(req, &o)}, nil
}

func (d askUserDialog) Update(k dialog.Key) (dialog.EffectKind, func() ([]byte, error)) {
	eff := d.Model.Update(k)
	return eff.Kind, func() ([]byte, error) {
		return json.Marshal(struct {
			Status  contract.Status   `json:"status"`
			Answers []contract.Answer `json:"answers"`
		}{contract.StatusAnswered, eff.Answer})
	}
}

// questionsDialog is the dialog of an AskUserQuestion questionnaire.
type questionsDialog struct{ *dialog.Questions }

func openQuestions(request []byte, o dialog.Options) (inboxDialog, error) {
	req, err := auq.Parse(request)
	if err != nil {
		return nil, err
	}
	return questionsDialog{dialog.NewQuestions(req, &o)}, nil
}

func (d questionsDialog) Update(k dialog.Key) (dialog.EffectKind, func() ([]byte, error)) {
	eff := d.Questions.Update(k)
	return eff.Kind, func() ([]byte, error) {
		res := eff.Answer
		res.Cancelled = false
		return json.Marshal(res)
	}
}
