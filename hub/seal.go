package hub

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/askuser/askuser/internal/seal"
)

// Sealed is content sealed end to end: a questionnaire, sealed to the
// person's recipient keys, or an answer, sealed back to the key of the
// question it answers (see package internal/seal: X25519, HKDF-SHA256,
// AES-256-GCM). Its From is, for a question, a key made for that
// question alone, which its answer is sealed back to; for an answer, the
// recipient key that answered. The NATS server that stores it sees its
// size only.
type Sealed = seal.Box

// sealer seals what a client of a remote hub stores, and opens what it
// reads (see Client.store and Client.read); a client of the hub of one
// machine has none, and stores in the clear, in its user's private
// store. Only DialRemote makes one, so that the programs that never
// reach a remote hub carry none of its cryptography.
type sealer interface {
	// prepare readies q, about to be published, for sealing.
	prepare(q *Question) error
	// store is v, a Question or an Answer to q, as it is stored.
	store(q *Question, v any) ([]byte, error)
	// read decodes data into v, a *Question or an *Answer to q.
	read(q *Question, data []byte, v any) error
}

// store is v, a Question or an Answer to q, as the hub stores it: sealed
// on a remote hub.
func (c *Client) store(q *Question, v any) ([]byte, error) {
	if c.seal != nil {
		return c.seal.store(q, v)
	}
	return json.Marshal(v)
}

// read decodes data, as the hub stores it, into v, a *Question or an
// *Answer to q: opened, from a remote hub, and refused when it should
// have been sealed and was not.
func (c *Client) read(q *Question, data []byte, v any) error {
	if c.seal != nil {
		return c.seal.read(q, data, v)
	}
	return json.Unmarshal(data, v)
}

// sealedQuestion and sealedAnswer are a question and an answer as a
// remote hub stores them: the request or the result in Sealed, and
// nothing in their own member.
type (
	sealedQuestion struct {
		Question
		Sealed *Sealed `json:"sealed,omitempty"`
	}
	sealedAnswer struct {
		Answer
		Sealed *Sealed `json:"sealed,omitempty"`
	}
)

// questionSeal is what a sealing knows of one question (Question.sealed).
type questionSeal struct {
	key      *seal.Key // the asker's key for the question, which answers are sealed to
	from     string    // its public key
	openedBy string    // the recipient key that opened the question
}

// sealing is what a client of a remote hub seals to and opens with.
type sealing struct {
	// recipients are the keys questions are sealed to.
	recipients []string
	// keys open the questions sealed to them: the person's hub key.
	keys []*seal.Key
}

func state(q *Question) *questionSeal {
	st, _ := q.sealed.(*questionSeal)
	return st
}

func (s *sealing) store(q *Question, v any) ([]byte, error) {
	if a, ok := v.(Answer); ok {
		return s.answerData(q, a)
	}
	return s.questionData(v.(Question))
}

func (s *sealing) read(q *Question, data []byte, v any) error {
	if a, ok := v.(*Answer); ok {
		return s.readAnswer(q, data, a)
	}
	return s.readQuestion(data, v.(*Question))
}

// prepare makes q's own key, which its answer is sealed back to.
func (s *sealing) prepare(q *Question) error {
	if state(q) != nil {
		return nil
	}
	k, err := seal.NewKey()
	if err != nil {
		return err
	}
	q.sealed = &questionSeal{key: k, from: k.Public()}
	return nil
}

// questionData returns q as it is stored: its request sealed to the
// recipients, from q's own key.
func (s *sealing) questionData(q Question) ([]byte, error) {
	st := state(&q)
	if st == nil || st.key == nil {
		return nil, errors.New("the question has no key to seal with")
	}
	sealed, err := seal.Seal(st.key, s.recipients, q.Request)
	if err != nil {
		return nil, fmt.Errorf("seal the question: %w", err)
	}
	q.Request = nil
	return json.Marshal(sealedQuestion{q, sealed})
}

// readQuestion decodes a stored question, opening its request. A
// question sealed to other keys is seal.ErrNotFor, one not sealed at
// all an error: a remote hub holds only sealed questions.
func (s *sealing) readQuestion(data []byte, q *Question) error {
	var sq sealedQuestion
	if err := json.Unmarshal(data, &sq); err != nil {
		return err
	}
	if sq.Sealed == nil {
		return errors.New("the question is not sealed")
	}
	req, pub, err := sq.Sealed.Open(s.keys)
	if err != nil {
		return err
	}
	*q = sq.Question
	q.Request, q.sealed = req, &questionSeal{from: sq.Sealed.From, openedBy: pub}
	return nil
}

// answerData returns a as it is stored: an answer or a dismissal is
// sealed back to the key of q, from the key that opened q, its result
// (null for a dismissal) in the box.
func (s *sealing) answerData(q *Question, a Answer) ([]byte, error) {
	var st *questionSeal
	if q != nil {
		st = state(q)
	}
	if st == nil || !settles(a.Status) {
		return json.Marshal(a)
	}
	if a.Result == nil {
		a.Result = json.RawMessage("null")
	}
	i := slices.IndexFunc(s.keys, func(k *seal.Key) bool { return k.Public() == st.openedBy })
	if i < 0 {
		return nil, fmt.Errorf("seal the answer to %s: %w", a.ID, seal.ErrNotFor)
	}
	sealed, err := seal.Seal(s.keys[i], []string{st.from}, a.Result)
	if err != nil {
		return nil, fmt.Errorf("seal the answer to %s: %w", a.ID, err)
	}
	a.Result = nil
	return json.Marshal(sealedAnswer{a, sealed})
}

// readAnswer decodes a stored answer to the question q: to a question
// this process asked, it takes only an answer or dismissal sealed back
// by one of the recipients, so that no one but the person answers it,
// the server's operator included.
func (s *sealing) readAnswer(q *Question, data []byte, a *Answer) error {
	var sa sealedAnswer
	if err := json.Unmarshal(data, &sa); err != nil {
		return err
	}
	*a = sa.Answer
	var st *questionSeal
	if q != nil {
		st = state(q)
	}
	if !settles(a.Status) || st == nil || st.key == nil {
		return nil
	}
	if sa.Sealed == nil || !slices.Contains(s.recipients, sa.Sealed.From) {
		return errors.New("the answer is not sealed by a recipient of the question")
	}
	res, _, err := sa.Sealed.Open([]*seal.Key{st.key})
	if err != nil {
		return err
	}
	a.Result = res
	if a.Status == StatusDismissed {
		a.Result = nil
	}
	return nil
}

// settles reports whether an answer of status settles its question for
// its asker: an answer or a dismissal, not a closing note.
func settles(status string) bool { return status == StatusAnswered || status == StatusDismissed }

// MakeKey makes the person's key at path, readable by its owner only,
// unless a key is there already, and returns its public recipient key
// (askuser-pub-…), which agents on other machines seal their questions
// to.
func MakeKey(path string) (string, error) {
	if k, err := readKey(path); err == nil {
		return k.Public(), nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	k, err := seal.NewKey()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("make the hub's key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return "", fmt.Errorf("make the hub's key: %w", err)
	}
	_, err = f.WriteString(k.Private() + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", fmt.Errorf("make the hub's key: %w", err)
	}
	return k.Public(), nil
}

// readKey reads the person's key at path. A missing file is an error
// wrapping os.ErrNotExist; a file others may read is refused.
func readKey(path string) (*seal.Key, error) {
	data, err := readPrivate(path, "the hub's key")
	if err != nil {
		return nil, err
	}
	k, err := seal.ParseKey(strings.TrimSpace(string(data)))
	if err != nil {
		return nil, fmt.Errorf("the hub's key %s: %w", path, err)
	}
	return k, nil
}

// readPrivate reads a small file that only its owner may read, what
// names it in errors.
func readPrivate(path, what string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if !st.Mode().IsRegular() || st.Size() > maxInfoSize {
		return nil, fmt.Errorf("%s %s: not a small regular file", what, path)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s %s can be read by others (mode %v): chmod 600 %s", what, path, st.Mode().Perm(), path)
	}
	return os.ReadFile(path)
}
