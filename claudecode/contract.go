package claudecode

import (
	"encoding/json"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
)

// QuestionsOutcome is how Claude Code's questions, asked through
// askuser, ended: Answers when the person submitted them, with Status
// auq.StatusSubmitted; otherwise no answers, and Error for
// auq.StatusError. Only a submitted outcome answers Claude Code; every
// other one leaves the questions to its own dialog.
type QuestionsOutcome struct {
	Status  auq.Status `json:"status"`
	Answers *Answers   `json:"answers,omitempty"`
	Error   *auq.Error `json:"error,omitempty"`
}

// QuestionContract is the contract of Claude Code's own questions (its
// AskUserQuestion tool's input): its renderers report Answers, and a
// call returns a QuestionsOutcome. A host has no renderer of its own for
// it: BindQuestions shows it through the host's AskUserQuestion
// renderers.
var QuestionContract ask.Contract[*Questions, Answers, QuestionsOutcome] = questionContract{}

// QuestionView shows Claude Code's questions as an AskUserQuestion
// questionnaire (Questions.Show) and reads the answers from its result
// (Questions.Read).
var QuestionView ask.View[*Questions, Answers, *auq.Request, auq.Result] = questionView{}

// BindQuestions binds the contract of Claude Code's questions on every
// route where caps has an AskUserQuestion renderer, through QuestionView.
func BindQuestions(caps ask.Capabilities) ask.Capabilities {
	return ask.BindView(caps, QuestionContract, ask.AskUserQuestion, QuestionView)
}

type questionContract struct{}

func (questionContract) Tool() string { return "claude-code " + QuestionTool }

func (c questionContract) Parse(data []byte) (*Questions, []string, error) {
	q, err := DecodeQuestions(data)
	if err != nil {
		return nil, nil, err
	}
	return c.Check(q)
}

func (questionContract) Check(q *Questions) (*Questions, []string, error) {
	if q == nil {
		return nil, nil, errMissing
	}
	return q, nil, q.check()
}

func (questionContract) Brief(q *Questions) ask.Brief { return ask.Brief{Questions: len(q.Questions)} }

func (questionContract) Verify(q *Questions, a Answers) (Answers, contract.ErrorCode, error) {
	return a, contract.ErrInternal, q.CheckAnswers(a)
}

func (questionContract) DecodeAnswer(result []byte) (Answers, error) {
	var a Answers
	err := json.Unmarshal(result, &a)
	return a, err
}

func (questionContract) Result(_ *Questions, end ask.End[Answers]) QuestionsOutcome {
	switch end.How {
	case ask.EndAnswered:
		a := end.Answer
		return QuestionsOutcome{Status: auq.StatusSubmitted, Answers: &a}
	case ask.EndDismissed:
		return QuestionsOutcome{Status: auq.StatusDismissed}
	case ask.EndTimeout:
		return QuestionsOutcome{Status: auq.StatusTimeout}
	case ask.EndAborted:
		return QuestionsOutcome{Status: auq.StatusAborted}
	}
	return QuestionsOutcome{Status: auq.StatusError, Error: &auq.Error{Code: string(end.Code), Message: end.Message}}
}

type questionView struct{ ask.QuestionView[*Questions] }

func (questionView) Show(q *Questions) (*auq.Request, error) { return q.Show() }

func (questionView) Read(q *Questions, shown *auq.Request, res auq.Result) (Answers, error) {
	return q.Read(shown, res)
}
