package ask

import (
	"errors"

	"github.com/askuser/askuser/contract"
)

// checkAnswers checks a renderer's answers against the contract and
// classifies a failure: empty_answer when the offending answer carries
// nothing at all, internal for any other malformed answer.
func checkAnswers(req *contract.Request, answers []contract.Answer) (contract.ErrorCode, error) {
	err := contract.CheckAnswers(req, answers)
	if err == nil {
		return "", nil
	}
	var ae *contract.AnswerError
	if errors.As(err, &ae) && ae.Index >= 0 && ae.Index < len(answers) {
		if empty, _ := req.Questions[ae.Index].Unanswered(&answers[ae.Index]); empty {
			return contract.ErrEmptyAnswer, err
		}
	}
	return contract.ErrInternal, err
}
