package auq

import (
	"strings"

	"github.com/askuser/askuser/contract"
)

// InvalidRequestMessage explains err, an error from Parse or Validate, to
// the model that made the call: one line per problem. It is the message
// of an invalid_request outcome.
func InvalidRequestMessage(err error) string {
	var b strings.Builder
	b.WriteString("the request is invalid and was not shown to the user:")
	ps := Problems(err)
	if ps == nil && err != nil {
		ps = []Problem{{Message: err.Error()}}
	}
	for _, p := range ps {
		b.WriteString("\n- ")
		b.WriteString(p.String())
	}
	return b.String()
}

// InvalidRequestOutcome returns the outcome of a call whose request
// Parse or Validate refused with err: StatusError with the code
// invalid_request and InvalidRequestMessage as its message. No route ran.
func InvalidRequestOutcome(err error) Outcome {
	return Outcome{Status: StatusError, Error: &Error{
		Code:    string(contract.ErrInvalidRequest),
		Message: InvalidRequestMessage(err),
	}}
}
