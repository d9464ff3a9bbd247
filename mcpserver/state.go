package mcpserver

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/askuser/askuser/contract"
)

// The request state of a form sent as InputRequests. The client echoes it
// in its retry, and the server trusts it only as far as it can check it:
//
//   - it is sealed with AES-256-GCM under a key that lives only in this
//     process, so that the client can neither read the answers it carries
//     nor change anything in it;
//   - it is bound to the client session it was issued to, to the
//     questionnaire, by a hash, and to the call, by an id that every form
//     of the call shares;
//   - it is accepted once: the server remembers the one state of each
//     call that may come back, the last issued, and forgets it when it
//     does, so that neither a replay nor an earlier round's state after a
//     later one gets through;
//   - it expires: stateLifetime after the call's deadline, or after its
//     first form went out when it has none.
//
// It carries the call's deadline, the time the form was sent, which tells
// a person's answer from a client's, and for a form that asks again for
// what is missing, its round, the answers kept from the forms before and
// what could not be used of them.
type requestState struct {
	Session  string         `json:"c"`           // the id of the session it was issued to
	Call     string         `json:"i"`           // the id of the call, shared by its forms
	ID       string         `json:"n"`           // the id of this state
	Request  string         `json:"r"`           // hash of the normalized questionnaire
	Deadline int64          `json:"d"`           // Unix milliseconds; 0 means none
	Sent     int64          `json:"s"`           // Unix milliseconds
	Expires  int64          `json:"e"`           // Unix milliseconds
	Round    int            `json:"k,omitempty"` // 0 means 1
	Kept     map[string]any `json:"a,omitempty"`
	Bad      problems       `json:"b,omitempty"` // ask_user's values that could not be used
	Asks     qgaps          `json:"q,omitempty"` // what AskUserQuestion's form asks again
}

// stateLifetime is how long past a call's deadline (or past its first
// form, when it has none) its state is accepted. On the InputRequests
// path nothing reaches the model while the client shows the form, and
// askuser cannot take the form off the screen at the deadline; so an
// answer to a form still on screen counts, late or not, as long as its
// state lives (see modernRound). A day is longer than anyone leaves a
// form they mean to answer.
const stateLifetime = 24 * time.Hour

// maxLiveStates bounds the states that may come back at one time, each
// a form waiting for its answer.
const maxLiveStates = 4096

// maxStateLen bounds the request state a client may echo. The answers
// kept between rounds travel in it, so it holds as much as a request.
const maxStateLen = contract.MaxRequestBytes * 2

// errStateReplayed refuses a state that was already answered, or whose
// call has sent a later form since.
var errStateReplayed = errors.New("the request state was used already, or a later form of the call replaced it")

// round returns the round of the form st was issued with.
func (st requestState) round() round {
	return round{n: max(st.Round, 1), kept: st.Kept, bad: st.Bad}
}

// qround returns the round of the AskUserQuestion form st was issued
// with.
func (st requestState) qround() qround {
	return qround{n: max(st.Round, 1), kept: st.Kept, asks: st.Asks}
}

// states issues and checks the request states of one server. It is safe
// for concurrent use.
type states struct {
	aead cipher.AEAD

	mu   sync.Mutex
	live map[string]liveState // by call id: the state that may come back
}

type liveState struct {
	id      string
	session string
	expires int64 // Unix milliseconds
}

// newStates returns the states of a server, sealed with key, 32 bytes.
func newStates(key []byte) (*states, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &states{aead: aead, live: map[string]liveState{}}, nil
}

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

func randomID() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("making an id: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// issue returns the state of the first form of a call of session for q,
// sent at now, whose deadline is total from now (none for 0).
func (s *states) issue(session string, q any, total time.Duration, now time.Time) (sealed, call string, err error) {
	h, err := requestHash(q)
	if err != nil {
		return "", "", err
	}
	if call, err = randomID(); err != nil {
		return "", "", err
	}
	st := requestState{Session: session, Call: call, Request: h, Sent: now.UnixMilli()}
	end := now
	if total > 0 {
		end = now.Add(total)
		st.Deadline = end.UnixMilli()
	}
	st.Expires = end.Add(stateLifetime).UnixMilli()
	sealed, err = s.seal(st, now)
	return sealed, call, err
}

// next returns the state of the form of r, sent at now, that follows the
// form of prev: the same session, call, questionnaire, deadline and
// expiry, with r's round and what it keeps. The state of prev can no
// longer come back.
func (s *states) next(prev requestState, r round, asks qgaps, now time.Time) (string, error) {
	st := prev
	st.Sent, st.Round, st.Kept, st.Bad, st.Asks = now.UnixMilli(), r.n, r.kept, r.bad, asks
	return s.seal(st, now)
}

// seal gives st an id of its own, makes it the state of its call that
// may come back, and returns it sealed.
func (s *states) seal(st requestState, now time.Time) (string, error) {
	id, err := randomID()
	if err != nil {
		return "", err
	}
	st.ID = id
	body, err := json.Marshal(st)
	if err != nil {
		return "", fmt.Errorf("encoding the request state: %w", err)
	}
	n := s.aead.NonceSize()
	sealed := make([]byte, n, n+len(body)+s.aead.Overhead())
	if _, err := rand.Read(sealed); err != nil {
		return "", fmt.Errorf("making a nonce: %w", err)
	}
	sealed = s.aead.Seal(sealed, sealed[:n], body, nil)
	state := base64.RawURLEncoding.EncodeToString(sealed)
	if len(state) > maxStateLen {
		return "", fmt.Errorf("the answers so far take %d bytes, too many to carry into another form", len(body))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for call, l := range s.live {
		if now.UnixMilli() >= l.expires {
			delete(s.live, call)
		}
	}
	if _, ok := s.live[st.Call]; !ok && len(s.live) >= maxLiveStates {
		return "", fmt.Errorf("%d forms are waiting for an answer already; answer or dismiss some first", len(s.live))
	}
	s.live[st.Call] = liveState{id: st.ID, session: st.Session, expires: st.Expires}
	return state, nil
}

// open checks a state echoed by a client of session, at now, for q, and
// returns it. A state whose lifetime is over is returned for the caller
// to end the call with a timeout (see expired); any other state is
// accepted once, and only while it is the last its call was given.
func (s *states) open(state, session string, q any, now time.Time) (requestState, error) {
	if state == "" {
		return requestState{}, errors.New("the retry carries input responses but no request state")
	}
	if len(state) > maxStateLen {
		return requestState{}, fmt.Errorf("the request state is %d bytes long; the limit is %d", len(state), maxStateLen)
	}
	sealed, err := base64.RawURLEncoding.DecodeString(state)
	n := s.aead.NonceSize()
	if err != nil || len(sealed) < n+s.aead.Overhead() {
		return requestState{}, errors.New("the request state was not issued by this server")
	}
	body, err := s.aead.Open(nil, sealed[:n], sealed[n:], nil)
	if err != nil {
		return requestState{}, errors.New("the request state was not issued by this server")
	}
	var st requestState
	if err := json.Unmarshal(body, &st); err != nil || st.Call == "" || st.ID == "" {
		return requestState{}, errors.New("the request state is malformed")
	}
	h, err := requestHash(q)
	if err != nil {
		return requestState{}, err
	}
	if !hmac.Equal([]byte(h), []byte(st.Request)) {
		return requestState{}, errors.New("the request state belongs to another questionnaire")
	}
	if st.Session != session {
		return requestState{}, errors.New("the request state was issued to another client session")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.live[st.Call]
	if st.expired(now) {
		if ok && l.id == st.ID {
			delete(s.live, st.Call)
		}
		return st, nil
	}
	if !ok || l.id != st.ID {
		return requestState{}, errStateReplayed
	}
	delete(s.live, st.Call)
	return st, nil
}

// forget drops the states of session, whose client has gone.
func (s *states) forget(session string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for call, l := range s.live {
		if l.session == session {
			delete(s.live, call)
		}
	}
}

// sentAgo is how long before now the form of st was sent.
func (st requestState) sentAgo(now time.Time) time.Duration {
	return now.Sub(time.UnixMilli(st.Sent))
}

// left is the time left at now to answer the form of st, or 0 when it has
// no deadline or the deadline has passed: a form sent again after the
// deadline says nothing of time.
func (st requestState) left(now time.Time) time.Duration {
	if st.Deadline == 0 {
		return 0
	}
	d := time.UnixMilli(st.Deadline).Sub(now)
	if d <= 0 {
		return 0
	}
	return max(d, time.Millisecond)
}

// expired reports whether the lifetime of st is over at now.
func (st requestState) expired(now time.Time) bool {
	return now.UnixMilli() >= st.Expires
}
