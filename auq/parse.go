package auq

import (
	"errors"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/strictjson"
)

// Problem is one thing wrong with a request: where, as a JSON path such
// as questions[1].options[0].id, and what to do about it. It is
// ask_user's problem type, so that a host serving either contract
// reports problems the same way.
type Problem = contract.Problem

// RequestError is the error Parse and Validate return for a bad request.
// It lists every problem found: first those of the request itself and its
// metadata, then those of each question in order, each question's own
// before those of its options. At most 50 problems are listed; a last
// problem with an empty path then says how many more there were.
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

// Parse decodes an AskUserQuestion request strictly and checks it against
// every rule of the contract. It returns the request, or a *RequestError
// listing every problem.
//
// Decoding is exact: member names match only in their own case, a member
// may appear once, unknown members (with a suggestion when one was
// likely meant), values of the wrong type, text that is not UTF-8
// (unpaired surrogate escapes included) and data after the object are all
// problems. Invalid JSON is reported alone, with its byte offset, since
// nothing after it can be read. A request longer than MaxRequestBytes is
// refused before it is read. The rules applied after decoding are those
// of Validate; in JSON, besides, a preview that is sent must not be
// empty, since an empty preview means none.
//
// The request returned shares no memory with data.
func Parse(data []byte) (*Request, error) {
	if len(data) > MaxRequestBytes {
		// A caller may have read only one byte past the limit, so the
		// message does not claim to know the length.
		return nil, &RequestError{Problems: []Problem{{Message: strictjson.TooLarge(-1, MaxRequestBytes, sizeAdvice)}}}
	}
	var segs [8]strictjson.Seg
	d := decoder{Decoder: strictjson.Decoder{Scanner: strictjson.NewScanner(data), Segs: segs[:0], NullHint: nullHint}}
	r := new(Request)
	var m reqMeta
	if !d.decode(r, &m) {
		return finish(nil, d.Problems)
	}
	c := checker{meta: &m, probs: d.Problems}
	c.request(r)
	return finish(r, c.probs)
}

// Validate checks a request built in Go against every rule of the
// contract, as Parse checks a decoded one, and returns nil or a
// *RequestError with the same problems Parse would report for the
// request's JSON encoding, but that a nil Questions or Options, which
// encodes as null, is reported as missing. It never modifies r.
//
// In a typed request a member is absent when it holds its zero value:
// an empty ID, Question, Header, Label or Description is reported as
// missing, and an empty Preview means none. Every string must be valid
// UTF-8.
//
// The rules, each reported with the JSON path of the member it concerns:
//
//   - MinQuestions to MaxQuestions questions, each with MinOptions to
//     MaxOptions options.
//   - Every question has a non-blank id, unique in the request, and
//     every option a non-blank id, unique in its question. An id that
//     begins with "$" or equals OtherID is reserved.
//   - The question text is non-blank and ends with "?", its last
//     character: nothing, not even a space, may follow it.
//   - The header is non-blank and at most MaxHeaderLen characters.
//   - Labels and descriptions are non-blank. Labels are unique in their
//     question, compared without regard to case or surrounding white
//     space, since the user could not tell such labels apart.
//   - No option may be an explicit Other, which the tool adds by itself:
//     a label that is, ignoring case and surrounding white space,
//     "Other", "Other..." or "Other…".
//   - Only a single-select question's options may have a preview, and a
//     preview is not blank.
//   - At most one option of a question is recommended.
//   - askuser's own bounds, in characters (code points): MaxIDLen,
//     MaxQuestionLen, MaxLabelLen, MaxDescriptionLen, MaxPreviewLen,
//     MaxSourceLen, MaxFlowIDLen; at most MaxTags tags of MaxTagLen; and
//     a JSON encoding of at most MaxRequestBytes.
func Validate(r *Request) error {
	if r == nil {
		return &RequestError{Problems: []Problem{{Message: "the request is missing"}}}
	}
	if err := checkSize(r); err != nil {
		return err
	}
	var c checker
	c.request(r)
	_, err := finish(r, c.probs)
	return err
}

// checkSize applies MaxRequestBytes to a typed request, measured as its
// JSON encoding, as Parse applies it to the bytes it is given. The text
// alone is counted first, so only a request near the limit is encoded.
func checkSize(r *Request) error {
	n := 0
	if m := r.Metadata; m != nil {
		if m.Source != nil {
			n += len(*m.Source)
		}
		if m.FlowID != nil {
			n += len(*m.FlowID)
		}
		for _, t := range m.Tags {
			n += len(t)
		}
	}
	for _, q := range r.Questions {
		n += len(q.ID) + len(q.Question) + len(q.Header)
		for _, o := range q.Options {
			n += len(o.ID) + len(o.Label) + len(o.Description) + len(o.Preview)
		}
	}
	if msg := strictjson.SizeProblem(r, n, MaxRequestBytes, sizeAdvice); msg != "" {
		return &RequestError{Problems: []Problem{{Message: msg}}}
	}
	return nil
}

// sizeAdvice says how to bring a request under MaxRequestBytes.
const sizeAdvice = "shorten the previews and descriptions or ask fewer questions"

// finish returns r when probs is empty, and otherwise the RequestError
// of its problems.
func finish(r *Request, probs strictjson.List) (*Request, error) {
	if ps := strictjson.Ordered[Problem](probs); ps != nil {
		return nil, &RequestError{Problems: ps}
	}
	return r, nil
}
