package mcpserver

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
)

// The request state of a form sent as InputRequests. The client echoes it
// in its retry; the server trusts nothing in it unless its MAC, made with a
// key that lives only in this process, checks out. It binds the answer to
// the questionnaire it was asked for and carries the call's deadline,
// which holds while the client shows the form, the time the form was
// sent, which tells a person's answer from a client's, and for a form
// that asks again for what is missing, its round and the answers kept
// from the forms before.
type requestState struct {
	V        int            `json:"v"`
	Request  string         `json:"r"`           // hash of the normalized questionnaire
	Deadline int64          `json:"d"`           // Unix milliseconds; 0 means none
	Sent     int64          `json:"s"`           // Unix milliseconds
	Round    int            `json:"k,omitempty"` // 0 means 1
	Kept     map[string]any `json:"a,omitempty"`
	Nonce    string         `json:"n"`
}

// maxStateLen bounds the request state a client may echo. The answers
// kept between rounds travel in it, so it holds as much as a request.
const maxStateLen = contract.MaxRequestBytes * 2

// round returns the round of the form st was issued with.
func (st requestState) round() round {
	return round{n: max(st.Round, 1), kept: st.Kept}
}

// qround returns the round of the AskUserQuestion form st was issued
// with, for req: what it asks again follows from the answers kept, as it
// did when the form was made.
func (st requestState) qround(req *auq.Request) (qround, error) {
	r := qround{n: max(st.Round, 1), kept: st.Kept}
	if r.n > 1 {
		_, g, err := questionsAnswers(req, r.kept)
		if err != nil {
			return qround{}, fmt.Errorf("the answers kept from the forms before: %w", err)
		}
		r.asks = g
	}
	return r, nil
}

type stateSigner struct{ key []byte }

// requestHash identifies a normalized questionnaire (a *contract.Request
// or an *auq.Request), independent of how the client spelled its JSON.
func requestHash(q any) (string, error) {
	b, err := json.Marshal(q)
	if err != nil {
		return "", fmt.Errorf("hashing the questionnaire: %w", err)
	}
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(sum[:]), nil
}

// totalTime is the deadline of a questionnaire of that many questions as
// the core computes it; 0 means none.
func totalTime(perQuestionMs int64, questions int) time.Duration {
	if perQuestionMs <= 0 {
		return 0
	}
	questions = max(questions, 1)
	ms := int64(contract.MaxSafeTimeoutMs)
	if perQuestionMs <= contract.MaxSafeTimeoutMs/int64(questions) {
		ms = perQuestionMs * int64(questions)
	}
	return time.Duration(ms) * time.Millisecond
}

// issue returns the signed state of a form for q sent at now, whose
// deadline is total from now (none for 0).
func (s *stateSigner) issue(q any, total time.Duration, now time.Time) (string, error) {
	h, err := requestHash(q)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, 12)
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("making a nonce: %w", err)
	}
	st := requestState{V: 1, Request: h, Sent: now.UnixMilli(), Nonce: base64.RawURLEncoding.EncodeToString(nonce)}
	if total > 0 {
		st.Deadline = now.Add(total).UnixMilli()
	}
	return s.sign(st)
}

// next returns the signed state of the form of round n, sent at now, that
// follows the form of prev: the same questionnaire and deadline, and the
// answers kept so far.
func (s *stateSigner) next(prev requestState, n int, kept map[string]any, now time.Time) (string, error) {
	nonce := make([]byte, 12)
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("making a nonce: %w", err)
	}
	st := requestState{V: 1, Request: prev.Request, Deadline: prev.Deadline, Sent: now.UnixMilli(),
		Round: n, Kept: kept, Nonce: base64.RawURLEncoding.EncodeToString(nonce)}
	return s.sign(st)
}

func (s *stateSigner) sign(st requestState) (string, error) {
	body, err := json.Marshal(st)
	if err != nil {
		return "", fmt.Errorf("encoding the request state: %w", err)
	}
	p := base64.RawURLEncoding.EncodeToString(body)
	if len(p)+44 > maxStateLen {
		return "", fmt.Errorf("the answers so far take %d bytes, too many to carry into another form", len(body))
	}
	return p + "." + s.mac(p), nil
}

// sentAgo is how long before now the form of st was sent.
func (st requestState) sentAgo(now time.Time) time.Duration {
	return now.Sub(time.UnixMilli(st.Sent))
}

func (s *stateSigner) mac(payload string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// verify checks a state echoed by a client for q and returns it.
func (s *stateSigner) verify(state string, q any) (requestState, error) {
	st, err := s.decode(state)
	if err != nil {
		return requestState{}, err
	}
	h, err := requestHash(q)
	if err != nil {
		return requestState{}, err
	}
	if !hmac.Equal([]byte(h), []byte(st.Request)) {
		return requestState{}, errors.New("the request state belongs to another questionnaire")
	}
	return st, nil
}

// decode checks the MAC of state and decodes it.
func (s *stateSigner) decode(state string) (requestState, error) {
	if state == "" {
		return requestState{}, errors.New("the retry carries input responses but no request state")
	}
	if len(state) > maxStateLen {
		return requestState{}, fmt.Errorf("the request state is %d bytes long; the limit is %d", len(state), maxStateLen)
	}
	payload, sig, ok := strings.Cut(state, ".")
	if !ok || !hmac.Equal([]byte(sig), []byte(s.mac(payload))) {
		return requestState{}, errors.New("the request state was not issued by this server")
	}
	body, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return requestState{}, fmt.Errorf("the request state is malformed: %w", err)
	}
	var st requestState
	if err := json.Unmarshal(body, &st); err != nil || st.V != 1 {
		return requestState{}, errors.New("the request state is malformed")
	}
	return st, nil
}

// left is the time left at now to answer the form of st, at least a
// millisecond; 0 means no deadline.
func (st requestState) left(now time.Time) time.Duration {
	if st.Deadline == 0 {
		return 0
	}
	return max(time.UnixMilli(st.Deadline).Sub(now), time.Millisecond)
}

// expired reports whether the deadline of st has passed at now.
func (st requestState) expired(now time.Time) bool {
	return st.Deadline > 0 && now.UnixMilli() >= st.Deadline
}
