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
	if errors.As(err, &ae) && ae.Index >= 0 && ae.Index < len(answers) && empty(&req.Questions[ae.Index], &answers[ae.Index]) {
		return contract.ErrEmptyAnswer, err
	}
	return contract.ErrInternal, err
}

// empty reports whether a carries no answer to q: no selection and no
// text, no boolean, or a form missing a required field.
func empty(q *contract.Question, a *contract.Answer) bool {
	switch q.Kind {
	case contract.KindBool:
		return a.Value == nil
	case contract.KindForm:
		if a.Value == nil {
			return true
		}
		for _, f := range q.Fields {
			if !f.Required {
				continue
			}
			v, ok := a.Value.Field(f.Name)
			if !ok || blank(v) {
				return true
			}
		}
		return false
	}
	return len(a.Selections) == 0 && a.FreeText == "" && a.Value == nil
}

func blank(v contract.Value) bool {
	switch v.Kind() {
	case contract.ValueString:
		s, _ := v.String()
		return s == ""
	case contract.ValueStrings:
		list, _ := v.Strings()
		return len(list) == 0
	case contract.ValueNone:
		return true
	}
	return false
}
