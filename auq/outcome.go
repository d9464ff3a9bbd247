package auq

import (
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/strictjson"
)

// InvalidRequestMessage explains err, an error from Parse or Validate, to
// the model that made the call: one line per problem. It is the message
// of an invalid_request outcome.
func InvalidRequestMessage(err error) string {
	return strictjson.Explain("the request is invalid and was not shown to the user:", Problems(err), err, "")
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
