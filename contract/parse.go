package contract

import (
	"errors"

	"github.com/askuser/askuser/internal/strictjson"
)

// RequestError is the error Parse and Normalize return for a bad request.
// It lists every problem found, question by question: first those of the
// request itself, then those of each question in order, each question's
// own before those of its options and fields. At most 50 problems are
// listed; a last problem with an empty path then says how many more there
// were.
type RequestError struct {
	Problems []Problem
}

// Error joins the problems as "path: message; path: message".
func (e *RequestError) Error() string { return strictjson.Join(e.Problems) }

// Problems returns the problems of err when it is or wraps a
// *RequestError, and nil otherwise.
func Problems(err error) []Problem {
	if e, ok := errors.AsType[*RequestError](err); ok {
		return e.Problems
	}
	return nil
}

// InvalidRequestMessage explains err, an error from Parse or Normalize,
// to the model that made the call: one line per problem, then what to do.
// It is the message of an invalid_request result.
func InvalidRequestMessage(err error) string {
	ps := Problems(err)
	tail := "Fix these and call ask_user again."
	if len(ps) == 1 || ps == nil && err != nil {
		tail = "Fix this and call ask_user again."
	}
	return strictjson.Explain("the questionnaire is invalid and was not shown to the user:", ps, err, tail)
}

// InvalidRequestResult returns the invalid_request result for err, an
// error from Parse or Normalize, with InvalidRequestMessage as its
// message.
func InvalidRequestResult(err error) Result {
	return ErrorResult(ErrInvalidRequest, InvalidRequestMessage(err))
}

// Parse decodes an ask_user request strictly and normalizes it. It returns
// the normalized request and its warnings, or a *RequestError listing every
// problem.
//
// Decoding is exact: member names match only in their own case, a member
// may appear once, unknown members, values of the wrong type, text that is
// not UTF-8 (including unpaired surrogate escapes) and data after the
// object are all problems, and timeoutPerQuestionMs must be a whole number
// from 0 to 2⁵³−1. Invalid JSON is reported alone, with its byte offset,
// since nothing after it can be read. A request longer than
// MaxRequestBytes is refused before it is read. The rules applied after
// decoding are those of Normalize.
func Parse(data []byte) (*Request, []string, error) {
	if len(data) > MaxRequestBytes {
		// A caller may have read only one byte past the limit, so the
		// message does not claim to know the length.
		return nil, nil, &RequestError{Problems: []Problem{{Message: strictjson.TooLarge(-1, MaxRequestBytes, sizeAdvice)}}}
	}
	var segs [8]strictjson.Seg
	d := decoder{Decoder: strictjson.Decoder{Scanner: strictjson.NewScanner(data), Segs: segs[:0]}}
	r := new(Request)
	var m reqMeta
	if !d.decode(r, &m) {
		return finish(nil, &checker{probs: d.Problems})
	}
	c := checker{meta: &m, probs: d.Problems}
	c.request(r)
	return finish(r, &c)
}

// Normalize checks a typed request against every rule of the contract and
// returns a normalized copy and its warnings, or a *RequestError. It never
// modifies r.
//
// In a typed request, a member is absent when it holds its zero value: an
// empty ID asks for a generated id and an empty Kind for an inferred one,
// while a nil Options, Fields or Default is not sent and a non-nil empty
// Options or Fields is sent empty. Every string must be valid UTF-8.
//
// The rules, each reported with the JSON path of the member it concerns:
//
//   - 1 to MaxQuestions questions, each with a non-blank title.
//   - kind is single, multi, input, bool or simple-form. When it is left
//     out it is single if the question has options and input otherwise;
//     bool and simple-form are never inferred.
//   - single and multi need 1 to MaxOptions options, each with a
//     non-blank label. bool and simple-form take no options. An input
//     question's options are checked, then dropped with a warning.
//     Options repeating an earlier label are dropped with a warning.
//   - default is a boolean for bool and a string for single, multi and
//     input; simple-form takes none. When allowFreeText is false a choice
//     default must be an option label.
//   - A simple-form needs 1 to MaxFormFields fields, and only a
//     simple-form has fields. A field has a unique name of 1 to 64 ASCII
//     letters, digits, '_' or '-', starting with a letter or '_', and not
//     __proto__, constructor or prototype; a non-blank label; and a kind
//     of bool, single, multi or input (forms are flat). single and multi
//     fields need options, bool and input fields take none. A field's
//     default is a boolean, a label, an array of distinct labels or text,
//     by kind, and labels must exist.
//   - An explicit id is not blank and unique. A question without one gets
//     "q" and its 1-based position ("q2"), or, when an explicit id is
//     already that, the first free of "q2-2", "q2-3", ….
//   - displayMode is overlay or inline; timeoutPerQuestionMs is from 0 to
//     2⁵³−1, where 0 means no deadline.
//   - Text is limited in characters (code points): id 64, header, title
//     and field label 200, prompt 2000, option label 120, description
//     500, preview 16000, text default 2000.
//
// In the normalized copy every question has its kind and id, duplicate
// options are gone and so are an input question's options. No text is
// trimmed or otherwise rewritten.
func Normalize(r *Request) (*Request, []string, error) {
	if r == nil {
		return nil, nil, &RequestError{Problems: []Problem{{Message: "the request is missing"}}}
	}
	if err := checkSize(r); err != nil {
		return nil, nil, err
	}
	out := clone(r)
	var c checker
	c.request(out)
	return finish(out, &c)
}

// checkSize applies MaxRequestBytes to a typed request, measured as its
// JSON encoding, as Parse applies it to the bytes it is given. The text
// alone is counted first, so only a request near the limit is encoded.
func checkSize(r *Request) error {
	n := len(r.Header)
	for _, q := range r.Questions {
		n += len(q.ID) + len(q.Title) + len(q.Prompt)
		for _, o := range q.Options {
			n += len(o.Label) + len(o.Description) + len(o.Preview)
		}
		for _, f := range q.Fields {
			n += len(f.Name) + len(f.Label)
			for _, o := range f.Options {
				n += len(o.Label) + len(o.Description) + len(o.Preview)
			}
		}
	}
	if msg := strictjson.SizeProblem(r, n, MaxRequestBytes, sizeAdvice); msg != "" {
		return &RequestError{Problems: []Problem{{Message: msg}}}
	}
	return nil
}

// sizeAdvice says how to bring a request under MaxRequestBytes.
const sizeAdvice = "shorten the previews or split the questionnaire"

// finish returns r and the warnings when c found no problem, and
// otherwise the RequestError of its problems.
func finish(r *Request, c *checker) (*Request, []string, error) {
	if ps := strictjson.Ordered[Problem](c.probs); ps != nil {
		return nil, nil, &RequestError{Problems: ps}
	}
	return r, c.warnings, nil
}
