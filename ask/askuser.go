package ask

import (
	"encoding/json"
	"errors"

	"github.com/askuser/askuser/contract"
)

// AskUser is the contract of the ask_user tool: its renderers report one
// answer per question, in question order, and a call returns a
// contract.Result, with the warnings of the request's normalization.
//
// A request that contract.Normalize refuses is invalid_request. A
// dismissal is aborted with cancelledReason user, an abort aborted with
// cancelledReason abort. Answers that break the contract are never
// passed on: they are empty_answer when a question was left unanswered,
// else internal.
var AskUser Contract[*contract.Request, []contract.Answer, contract.Result] = askUser{}

type askUser struct{}

func (askUser) Tool() string { return ToolAskUser }

func (askUser) Parse(data []byte) (*contract.Request, []string, error) { return contract.Parse(data) }

func (askUser) Check(req *contract.Request) (*contract.Request, []string, error) {
	if req == nil {
		return nil, nil, errors.New("the request is missing")
	}
	return contract.Normalize(req)
}

func (askUser) Brief(req *contract.Request) Brief {
	return Brief{Header: req.Header, Questions: len(req.Questions), Display: req.DisplayMode, TimeoutPerQuestionMs: req.TimeoutPerQuestionMs}
}

func (askUser) Verify(req *contract.Request, answers []contract.Answer) ([]contract.Answer, contract.ErrorCode, error) {
	code, err := checkAnswers(req, answers)
	return answers, code, err
}

func (askUser) DecodeAnswer(result []byte) ([]contract.Answer, error) {
	var r struct {
		Answers []contract.Answer `json:"answers"`
	}
	err := json.Unmarshal(result, &r)
	return r.Answers, err
}

func (askUser) Result(_ *contract.Request, end End[[]contract.Answer]) contract.Result {
	var res contract.Result
	switch end.How {
	case EndAnswered:
		res = contract.Result{Status: contract.StatusAnswered, Answers: end.Answer}
	case EndDismissed:
		res = contract.Result{Status: contract.StatusAborted, Answers: []contract.Answer{}, CancelledReason: contract.CancelUser}
	case EndAborted:
		res = contract.Result{Status: contract.StatusAborted, Answers: []contract.Answer{}, CancelledReason: contract.CancelAbort}
	case EndTimeout:
		res = contract.Result{Status: contract.StatusTimeout, Answers: []contract.Answer{}}
	default:
		if end.Code == contract.ErrInvalidRequest && end.Err != nil {
			return contract.InvalidRequestResult(end.Err)
		}
		res = contract.ErrorResult(end.Code, end.Message)
	}
	res.Route = end.Route
	if len(end.Warnings) > 0 {
		res.Warnings = end.Warnings
	}
	return res
}
