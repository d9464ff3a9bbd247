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

type stateSigner struct{ key []byte }

// requestHash identifies a normalized questionnaire, independent of how
// the client spelled its JSON.
func requestHash(q *contract.Request) (string, error) {
	b, err := json.Marshal(q)
	if err != nil {
		return "", fmt.Errorf("hashing the questionnaire: %w", err)
	}
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(sum[:]), nil
}

// totalMs is the questionnaire's deadline as the core computes it.
func totalMs(perQuestionMs int64, questions int) int64 {
	if perQuestionMs <= 0 {
		return 0
	}
	questions = max(questions, 1)
	if perQuestionMs > contract.MaxSafeTimeoutMs/int64(questions) {
		return contract.MaxSafeTimeoutMs
	}
	return perQuestionMs * int64(questions)
}

// issue returns the signed state of a form for q sent at now.
func (s *stateSigner) issue(q *contract.Request, perQuestionMs int64, now time.Time) (string, error) {
	h, err := requestHash(q)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, 12)
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("making a nonce: %w", err)
	}
	st := requestState{V: 1, Request: h, Sent: now.UnixMilli(), Nonce: base64.RawURLEncoding.EncodeToString(nonce)}
	if ms := totalMs(perQuestionMs, len(q.Questions)); ms > 0 {
		st.Deadline = now.Add(time.Duration(ms) * time.Millisecond).UnixMilli()
	}
	return s.sign(st)
}

// next returns the signed state of the form of round r, sent at now, that
// follows the form of prev: the same questionnaire and deadline.
func (s *stateSigner) next(prev requestState, r round, now time.Time) (string, error) {
	nonce := make([]byte, 12)
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("making a nonce: %w", err)
	}
	st := requestState{V: 1, Request: prev.Request, Deadline: prev.Deadline, Sent: now.UnixMilli(),
		Round: r.n, Kept: r.kept, Nonce: base64.RawURLEncoding.EncodeToString(nonce)}
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
func (s *stateSigner) verify(state string, q *contract.Request) (requestState, error) {
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

// expired reports whether the deadline of st has passed at now.
func (st requestState) expired(now time.Time) bool {
	return st.Deadline > 0 && now.UnixMilli() >= st.Deadline
}
