package contract

import (
	"errors"
	"strings"
)

// RequestError is the error Parse and Normalize return for a bad request.
// It lists every problem found, in document order.
type RequestError struct {
	Problems []Problem
}

// Error joins the problems as "path: message; path: message".
func (e *RequestError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		if p.Path != "" {
			b.WriteString(p.Path)
			b.WriteString(": ")
		}
		b.WriteString(p.Message)
	}
	return b.String()
}

// Parse decodes an ask_user request strictly and normalizes it. It returns
// the normalized request and its warnings, or a *RequestError listing every
// problem.
func Parse(data []byte) (*Request, []string, error) {
	return nil, nil, errors.New("contract: Parse not implemented yet")
}

// Normalize checks a typed request against every rule of the contract and
// returns a normalized copy and its warnings, or a *RequestError. It never
// modifies r.
func Normalize(r *Request) (*Request, []string, error) {
	return nil, nil, errors.New("contract: Normalize not implemented yet")
}
