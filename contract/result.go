package contract

import "github.com/askuser/askuser/internal/strictjson"

// Status is the outcome of an ask_user call.
type Status string

// The four outcomes.
const (
	StatusAnswered Status = "answered"
	StatusAborted  Status = "aborted"
	StatusTimeout  Status = "timeout"
	StatusError    Status = "error"
)

// CancelReason tells a user dismissal from a caller abort.
type CancelReason string

// The reasons a questionnaire was aborted.
const (
	CancelUser  CancelReason = "user"
	CancelAbort CancelReason = "abort"
)

// ErrorCode classifies a StatusError result.
type ErrorCode string

// The error codes: the contract's closed set. A host that refuses a call
// for a limit of its own (the Pi bridge's MaxCalls) uses ErrInternal, with
// a message that names the limit.
const (
	ErrEmptyAnswer     ErrorCode = "empty_answer"
	ErrInvalidRequest  ErrorCode = "invalid_request"
	ErrCustomUIFailed  ErrorCode = "custom_ui_failed"
	ErrNativeUIFailed  ErrorCode = "native_ui_failed"
	ErrInvalidConfig   ErrorCode = "invalid_config"
	ErrUnsupportedMode ErrorCode = "unsupported_mode"
	ErrNotInitialized  ErrorCode = "not_initialized"
	ErrInternal        ErrorCode = "internal"
)

// Result is what an ask_user call returns, whatever its outcome.
//
// Answers is never nil, so it always marshals as an array. Route is set
// only when a route ran, or, for a refused configured mode, names the mode
// that was asked for.
type Result struct {
	Status          Status       `json:"status"`
	Route           Route        `json:"route,omitempty"`
	Answers         []Answer     `json:"answers"`
	CancelledReason CancelReason `json:"cancelledReason,omitempty"`
	Warnings        []string     `json:"warnings,omitempty"`
	Error           *Error       `json:"error,omitempty"`
}

// Answer is the answer to one question.
//
// Selections holds chosen option labels (never nil). FreeText holds the
// trimmed supplemental or input text, if any. Value is set for bool and
// simple-form questions.
type Answer struct {
	Index       int          `json:"index"`
	ID          string       `json:"id"`
	Title       string       `json:"title"`
	Kind        Kind         `json:"kind"`
	Selections  []string     `json:"selections"`
	FreeText    string       `json:"freeText,omitempty"`
	UsedDefault bool         `json:"usedDefault"`
	Value       *AnswerValue `json:"value,omitempty"`
}

// Error describes why a call ended with StatusError.
type Error struct {
	Code    ErrorCode `json:"code"`
	Message string    `json:"message"`
}

// Problem is one thing wrong with a request or a config file: where it is,
// as a JSON path such as questions[1].fields[2].default (empty for the
// whole request or file), and what to do. Both contracts share the type:
// auq.Problem is the same.
type Problem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// String formats p as "path: message", or as the message alone when the
// path is empty.
func (p Problem) String() string { return strictjson.Problem(p).String() }

// ErrorResult returns a StatusError result with the given code and message,
// and an empty answer list.
func ErrorResult(code ErrorCode, msg string) Result {
	return Result{Status: StatusError, Answers: []Answer{}, Error: &Error{Code: code, Message: msg}}
}
