package hub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/safetext"
	"github.com/askuser/askuser/internal/strictjson"
)

// MaxAnswerBytes is the size limit of an answer given to the hub: the
// request limit of both contracts, since an answer cannot hold more text
// than its questionnaire offers plus the person's own.
const MaxAnswerBytes = contract.MaxRequestBytes

// Refusal says why the hub refused an answer.
type Refusal string

// The reasons an answer is refused.
const (
	// RefusedInvalid: the answer breaks its contract's rules; the
	// question stays open.
	RefusedInvalid Refusal = "invalid"
	// RefusedLate: the question's deadline has passed.
	RefusedLate Refusal = "late"
	// RefusedUnknown: no question has this id, or it expired and left
	// the store.
	RefusedUnknown Refusal = "unknown"
	// RefusedAnswered: the question was answered or closed before.
	RefusedAnswered Refusal = "answered"
)

// RefusedError is the error Answer returns when the hub refuses an
// answer: why, and a message for the person or program that gave it.
type RefusedError struct {
	Reason  Refusal
	Message string

	// prior is the answer that came first, for RefusedAnswered.
	prior *Answer
}

// Error returns the message.
func (e *RefusedError) Error() string { return e.Message }

func refused(r Refusal, format string, args ...any) error {
	return &RefusedError{Reason: r, Message: fmt.Sprintf(format, args...)}
}

// CheckAnswer checks an answer to q by the rules the dialog's answers
// obey and returns it in its contract's result JSON, ready to store. The
// answer is the result JSON askuser ask prints for q's contract, for a
// submitted questionnaire: {"status":"answered","answers":[…]} for
// ask_user (a route and warnings, which askuser ask prints too, are
// allowed and dropped), an AskUserQuestion result with cancelled false
// for AskUserQuestion. A refusal is a *RefusedError with reason
// RefusedInvalid whose message says what is wrong.
func CheckAnswer(q *Question, data []byte) (json.RawMessage, error) {
	out, err := checkAnswer(q, data)
	if err != nil {
		return nil, refused(RefusedInvalid, "the answer is refused: %v", err)
	}
	return out, nil
}

func checkAnswer(q *Question, data []byte) (json.RawMessage, error) {
	if len(data) > MaxAnswerBytes {
		return nil, fmt.Errorf("it is %d bytes, over the limit of %d", len(data), MaxAnswerBytes)
	}
	if err := strictjson.Check(data, nil); err != nil {
		return nil, err
	}
	if err := checkText(q.Request, data); err != nil {
		return nil, err
	}
	c, ok := ask.Lookup(q.Tag.Contract)
	if !ok {
		return nil, fmt.Errorf("the question's contract %q is not one askuser knows", q.Tag.Contract)
	}
	return c.CheckAnswer(q.Request, data)
}

// checkText refuses a string in data that holds a rune the dialog's text
// input never lets in (a control character, a bidi override), unless it
// is text of the questionnaire itself, such as a title the answer
// repeats: a person typing in the dialog cannot give one, so no other
// surface may.
func checkText(request, data []byte) error {
	var own map[string]bool
	for s := range stringsOf(data) {
		i := strings.IndexFunc(s, safetext.Dropped)
		if i < 0 {
			continue
		}
		if own == nil {
			own = map[string]bool{}
			for t := range stringsOf(request) {
				own[t] = true
			}
		}
		if !own[s] {
			r, _ := utf8.DecodeRuneInString(s[i:])
			return fmt.Errorf("the text %q holds the control or formatting character %U, which no answer may", s, r)
		}
	}
	return nil
}

// stringsOf yields the strings of a JSON text, member names included.
func stringsOf(data []byte) iter.Seq[string] {
	return func(yield func(string) bool) {
		dec := json.NewDecoder(bytes.NewReader(data))
		for {
			tok, err := dec.Token()
			if err != nil {
				return
			}
			if s, ok := tok.(string); ok && !yield(s) {
				return
			}
		}
	}
}
