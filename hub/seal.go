package hub

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/internal/seal"
)

// sealer seals what a client of a remote hub stores, and opens what it
// reads (see Client.store and Client.read); a client of the hub of one
// machine has none, and stores in the clear, in its user's private
// store. Only dialRemote makes one, so that the programs that never
// reach a remote hub carry none of its cryptography.
type sealer interface {
	// prepare readies q, about to be published, for sealing.
	prepare(q *Question) error
	// store is v, a Question or an Answer to q, as it is stored.
	store(q *Question, v any) ([]byte, error)
	// read decodes data into v, a *Question or an *Answer to q.
	read(q *Question, data []byte, v any) error
	// adopt takes data, the stored question q that this machine asked
	// before, as a publish meets it: its answers are then taken.
	adopt(q *Question, data []byte) error
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
// remote hub stores them: the request or the result sealed in the
// envelope, and their own member holding nothing.
type (
	sealedQuestion struct {
		Question
		envelope
	}
	sealedAnswer struct {
		Answer
		envelope
		// Asked and AskedSig are the message the asking machine signed
		// when it published the question answered, whose hash the head
		// names, and that signature: an asker that restarted, and finds
		// the question gone from the remote hub, answered before it took
		// it again, knows by them that it published that version.
		Asked    []byte `json:"asked,omitempty"`
		AskedSig []byte `json:"askedSig,omitempty"`
	}
)

// envelope is what a stored record carries besides its clear members.
// Sealed holds the request or the result, sealed end to end: a
// questionnaire to the person's recipient keys, an answer back to the
// key of the machine that asked, each bound as associated data to what
// it belongs to (the question's id, tag and format, and for an answer
// the question's hash, its status, who gave it and its note), so that
// the NATS server that stores it sees its size only. Head is the JSON
// that Sealed is bound to, as the bytes signed, unchanged by whoever
// decodes and encodes the record on the way; and Sig the signature of
// Head and Sealed by Signer, the public key of the machine that stored
// it.
type envelope struct {
	Sealed *seal.Box `json:"sealed,omitempty"`
	Head   []byte    `json:"head,omitempty"`
	Signer string    `json:"signer,omitempty"`
	Sig    []byte    `json:"sig,omitempty"`
}

// verify checks that e, which holds a sealed box, is in this version's
// format and signed by the key it names, and returns the message signed.
func (e *envelope) verify() ([]byte, error) {
	if e.Sealed.Version != seal.Version || e.Head == nil {
		return nil, seal.ErrOldFormat
	}
	pub, err := seal.ParsePublic(e.Signer)
	if err != nil {
		return nil, fmt.Errorf("its signer: %w", err)
	}
	msg, err := signed(e.Head, e.Sealed)
	if err != nil {
		return nil, err
	}
	if !pub.Verify(msg, e.Sig) {
		return nil, errors.New("its signature does not verify: it was changed on the way, or not stored by the key it names")
	}
	return msg, nil
}

// The kinds of head, which tell a question's box from an answer's.
const (
	headQuestion = "askuser question"
	headAnswer   = "askuser answer"
)

// questionHead is what a question's box is bound to and its signature
// covers: the tag as asked, with its deadline, which a stopped countdown
// later removes from the stored tag, and when it was published.
type questionHead struct {
	V       int       `json:"v"`
	Kind    string    `json:"kind"`
	ID      string    `json:"id"`
	Tag     Tag       `json:"tag"`
	Created time.Time `json:"created"`
}

// answerHead is what an answer's box is bound to: the question, by id,
// tag and hash, and what the answer says beside its result.
type answerHead struct {
	V        int    `json:"v"`
	Kind     string `json:"kind"`
	ID       string `json:"id"`
	Tag      Tag    `json:"tag"`
	Question string `json:"question"`
	Status   string `json:"status"`
	By       string `json:"by"`
	Note     string `json:"note,omitempty"`
}

// signed is the message a signature covers: head, and the hash of the
// box as stored.
func signed(head []byte, box *seal.Box) ([]byte, error) {
	b, err := json.Marshal(box)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	return fmt.Appendf(signedPrefix(), "%s\n%x", head, sum), nil
}

// signedPrefix is how a signed message begins.
func signedPrefix() []byte { return fmt.Appendf(nil, "askuser signed v%d\n", seal.Version) }

// hashOf is the hash of a signed message: a question's, which its
// answers name.
func hashOf(msg []byte) string {
	sum := sha256.Sum256(msg)
	return hex.EncodeToString(sum[:])
}

// questionSeal is what a sealing knows of one question (Question.sealed).
type questionSeal struct {
	asker  string    // the asking machine's public key, which answers are sealed to
	tag    Tag       // the tag as asked and signed
	hashes []string  // the question's hashes: those this machine published, or the one it read
	opener *seal.Key // the key that opened it; nil for a question this machine asked
	asked  []byte    // the message its asker signed, of the one read (see sealedAnswer.Asked)
	sig    []byte    // the asker's signature of asked
}

// sealing is what a client of a remote hub seals to and opens with.
type sealing struct {
	// recipients are the keys questions are sealed to, and the only
	// ones whose answers are taken.
	recipients []string
	// key is this machine's: it signs what the client stores, opens the
	// answers to its questions, and the questions sealed to it.
	key *seal.Key
	// machines are the asking machines this one knows (see machines).
	machines *machines
	// log is told why a question is not shown, once per question.
	log func(string)
}

// newSealing makes the sealing of a client of a remote hub, sealing to
// recipients, with this machine's key at the path key, which is
// required: every machine signs what it stores. log is told of the
// questions not shown, and of the machines new to this hub.
func newSealing(recipients []string, key string, log func(string)) (*sealing, error) {
	if key == "" {
		return nil, errors.New("a remote hub needs this machine's key, which signs its questions and answers (see askuser hub recipient)")
	}
	k, err := hubstore.ReadKey(key)
	if err != nil {
		return nil, err
	}
	m := &machines{path: filepath.Join(filepath.Dir(key), machinesFile), log: log}
	return &sealing{recipients: recipients, key: k, machines: m, log: log}, nil
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

// prepare marks q as asked by this machine, which its answer is sealed
// back to.
func (s *sealing) prepare(q *Question) error {
	if state(q) == nil {
		q.sealed = &questionSeal{asker: s.key.Public()}
	}
	return nil
}

// questionData returns q as it is stored: its request sealed to the
// recipients, bound to its head, and signed by this machine. Each hash
// it stores is one its answers may name.
func (s *sealing) questionData(q Question) ([]byte, error) {
	st := state(&q)
	if st == nil || st.opener != nil {
		return nil, errors.New("the question was not asked on this machine")
	}
	head, err := json.Marshal(questionHead{V: seal.Version, Kind: headQuestion, ID: q.ID, Tag: q.Tag, Created: q.Created})
	if err != nil {
		return nil, err
	}
	box, err := seal.Seal(s.recipients, head, q.Request)
	if err != nil {
		return nil, fmt.Errorf("seal the question: %w", err)
	}
	msg, err := signed(head, box)
	if err != nil {
		return nil, err
	}
	st.tag, st.hashes = q.Tag, append(st.hashes, hashOf(msg))
	q.Request = nil
	return json.Marshal(sealedQuestion{q, envelope{box, head, s.key.Public(), s.key.Sign(msg)}})
}

// verifyQuestion checks the signature and head of a stored question and
// returns its head and the message signed, whose hash its answers name;
// the error says what is wrong.
func verifyQuestion(sq *sealedQuestion) (questionHead, []byte, error) {
	var h questionHead
	if sq.Sealed == nil {
		return h, nil, errors.New("the question is not sealed")
	}
	msg, err := sq.verify()
	if err != nil {
		return h, nil, fmt.Errorf("question %s: %w", sq.ID, err)
	}
	if h, err = checkQuestionHead(sq.Head, sq.ID, sq.Created, sq.Tag); err != nil {
		return h, nil, fmt.Errorf("question %s: %w", sq.ID, err)
	}
	return h, msg, nil
}

// checkQuestionHead decodes head, a question's, and checks that it is
// the head of question id, published at created, whose tag as stored is
// tag; the error says what is wrong.
func checkQuestionHead(head []byte, id string, created time.Time, tag Tag) (questionHead, error) {
	var h questionHead
	if err := json.Unmarshal(head, &h); err != nil {
		return h, fmt.Errorf("its head: %w", err)
	}
	switch {
	case h.V != seal.Version || h.Kind != headQuestion:
		return h, fmt.Errorf("its head is of kind %q, version %d, not a question of version %d", h.Kind, h.V, seal.Version)
	case h.ID != id:
		return h, fmt.Errorf("it was signed as question %s", h.ID)
	case !h.Created.Equal(created) || !sameTag(tag, h.Tag):
		return h, errors.New("its tag or time is not the one it was signed with")
	}
	return h, nil
}

// sameTag reports whether the stored tag is the signed one, but for a
// deadline a stopped countdown removed.
func sameTag(stored, signed Tag) bool {
	if stored.Deadline == nil || signed.Deadline == nil {
		if stored.Deadline != nil {
			return false
		}
		stored.Deadline = signed.Deadline
	} else if !stored.Deadline.Equal(*signed.Deadline) {
		return false
	}
	stored.Deadline, signed.Deadline = nil, nil
	return stored == signed
}

// readQuestion decodes a stored question, checks its signature, opens
// its request, and shows it only under the name of a machine known by
// the key that signed it (see machines). A question sealed to other keys
// is seal.ErrNotFor; one not sealed, or sealed in another format, an
// error: a remote hub holds only sealed questions.
func (s *sealing) readQuestion(data []byte, q *Question) error {
	var sq sealedQuestion
	if err := json.Unmarshal(data, &sq); err != nil {
		return err
	}
	if sq.Sealed != nil && sq.Sealed.Version == seal.Version && !sq.Sealed.For(s.key) {
		// Another machine's question, not this one's to check or tell.
		return seal.ErrNotFor
	}
	h, msg, err := verifyQuestion(&sq)
	if err == nil {
		var req []byte
		var by *seal.Key
		if req, by, err = sq.Sealed.Open([]*seal.Key{s.key}, sq.Head); err == nil {
			*q = sq.Question
			q.Request, q.sealed = req, &questionSeal{asker: sq.Signer, tag: h.Tag, hashes: []string{hashOf(msg)}, opener: by, asked: msg, sig: sq.Sig}
			if s.machines != nil {
				var first bool
				if first, err = s.machines.check(sq.ID, h.Tag.Machine, sq.Signer); first {
					q.Tag.Machine = fmt.Sprintf("%s (new to this hub: key %s)", h.Tag.Machine, seal.Fingerprint(sq.Signer))
				}
			}
		}
	}
	if err != nil && !errors.Is(err, seal.ErrNotFor) && s.log != nil && s.machines.tell(sq.ID) {
		s.log(fmt.Sprintf("question %s is not shown: %v", sq.ID, err))
	}
	return err
}

// adopt takes data, the stored question q, as asked by this machine: a
// question this machine published before it restarted, whose answers it
// takes again. A question another machine signed, mirrored here, is
// left as it is: its answers are not this machine's to take.
func (s *sealing) adopt(q *Question, data []byte) error {
	var sq sealedQuestion
	if err := json.Unmarshal(data, &sq); err != nil {
		return err
	}
	if sq.Signer != s.key.Public() {
		return nil
	}
	h, msg, err := verifyQuestion(&sq)
	if err != nil {
		return err
	}
	hash := hashOf(msg)
	st := state(q)
	if st == nil || st.opener != nil {
		return errors.New("the question was not asked on this machine")
	}
	st.tag = h.Tag
	if !slices.Contains(st.hashes, hash) {
		st.hashes = append(st.hashes, hash)
	}
	return nil
}

// answerData returns a as it is stored: an answer or a dismissal is
// sealed back to the machine that asked q, bound to q and to what a
// says, its result (null for a dismissal) in the box, and signed by this
// machine's key, which opened q.
func (s *sealing) answerData(q *Question, a Answer) ([]byte, error) {
	var st *questionSeal
	if q != nil {
		st = state(q)
	}
	if st == nil || !settles(a.Status) {
		return json.Marshal(a)
	}
	if st.opener == nil || len(st.hashes) != 1 {
		return nil, fmt.Errorf("seal the answer to %s: %w", a.ID, seal.ErrNotFor)
	}
	if a.Result == nil {
		a.Result = json.RawMessage("null")
	}
	head, err := json.Marshal(answerHead{V: seal.Version, Kind: headAnswer, ID: a.ID, Tag: st.tag, Question: st.hashes[0], Status: a.Status, By: a.By, Note: a.Note})
	if err != nil {
		return nil, err
	}
	box, err := seal.Seal([]string{st.asker}, head, a.Result)
	if err != nil {
		return nil, fmt.Errorf("seal the answer to %s: %w", a.ID, err)
	}
	msg, err := signed(head, box)
	if err != nil {
		return nil, err
	}
	a.Result = nil
	return json.Marshal(sealedAnswer{a, envelope{box, head, st.opener.Public(), st.opener.Sign(msg)}, st.asked, st.sig})
}

// readAnswer decodes a stored answer to the question q: to a question
// this machine asked, it takes only an answer or dismissal signed by one
// of the recipients, for this very question, that says what its clear
// members say, so that no one but the person answers it, the server's
// operator included.
func (s *sealing) readAnswer(q *Question, data []byte, a *Answer) error {
	err := s.checkAnswer(q, data, a)
	if err != nil && s.log != nil && s.machines.tell("answer "+a.ID) {
		s.log(fmt.Sprintf("not taken: %v", err))
	}
	return err
}

func (s *sealing) checkAnswer(q *Question, data []byte, a *Answer) error {
	var sa sealedAnswer
	if err := json.Unmarshal(data, &sa); err != nil {
		return err
	}
	*a = sa.Answer
	var st *questionSeal
	if q != nil {
		st = state(q)
	}
	if !settles(a.Status) || st == nil || st.opener != nil {
		return nil
	}
	if sa.Sealed == nil || !slices.Contains(s.recipients, sa.Signer) {
		return fmt.Errorf("the answer to %s is not signed by a recipient of the question", a.ID)
	}
	if _, err := sa.verify(); err != nil {
		return fmt.Errorf("the answer to %s: %w", a.ID, err)
	}
	var h answerHead
	if err := json.Unmarshal(sa.Head, &h); err != nil {
		return fmt.Errorf("the answer to %s: its head: %w", a.ID, err)
	}
	switch {
	case h.V != seal.Version || h.Kind != headAnswer || h.ID != q.ID || a.ID != q.ID:
		return fmt.Errorf("the answer to %s was given to another question, %s", q.ID, h.ID)
	case !slices.Contains(st.hashes, h.Question) && !s.published(q, h.Question, h.Tag, sa.Asked, sa.AskedSig) || !sameTag(st.tag, h.Tag):
		return fmt.Errorf("the answer to %s was given to another question under its id", q.ID)
	case h.Status != a.Status || h.By != a.By || h.Note != a.Note:
		return fmt.Errorf("the answer to %s says %s by %q, but was given as %s by %q", q.ID, a.Status, a.By, h.Status, h.By)
	}
	res, _, err := sa.Sealed.Open([]*seal.Key{s.key}, sa.Head)
	if err != nil {
		return fmt.Errorf("the answer to %s: %w", q.ID, err)
	}
	a.Result = res
	if a.Status == StatusDismissed {
		a.Result = nil
	}
	return nil
}

// published reports whether asked, signed by sig, is a version of q that
// this machine signed to publish it, of hash hash and tag tag: so is the version an
// answer names when this machine restarted after publishing it, and the
// answer removed it from the remote hub before the restarted relay took
// it again (see relay.adopt).
func (s *sealing) published(q *Question, hash string, tag Tag, asked, sig []byte) bool {
	if asked == nil || hashOf(asked) != hash {
		return false
	}
	if !s.key.Verify(asked, sig) {
		return false
	}
	rest, ok := bytes.CutPrefix(asked, signedPrefix())
	i := bytes.LastIndexByte(rest, '\n')
	if !ok || i < 0 {
		return false
	}
	_, err := checkQuestionHead(rest[:i], q.ID, q.Created, tag)
	return err == nil
}

// settles reports whether an answer of status settles its question for
// its asker: an answer or a dismissal, not a closing note.
func settles(status string) bool { return status == StatusAnswered || status == StatusDismissed }

// machinesFile is the name of the file, beside the hub's key, that
// holds the machines the hub knows, by name (see machines).
const machinesFile = "machines.json"

// machines are the asking machines a hub knows: each name a question's
// tag gives as its machine, with the key that signed the first question
// under that name. A question is shown under a name only when the key
// that signed it is the one known for that name. The first question
// under a new name makes it known, shows the key's fingerprint beside
// the name, and is logged; a question under a known name signed by
// another key is not shown, and is logged, until the person removes the
// name from the file (as when that machine made a new key). The file is
// read at each check, so that such an edit counts at once. Its methods
// are safe for concurrent use; nil knows nothing and keeps nothing.
type machines struct {
	path string

	mu   sync.Mutex
	told map[string]bool // the questions log was told of
	log  func(string)
}

// knownMachine is one entry of the machines file.
type knownMachine struct {
	// Key is the fingerprint of the machine's public key.
	Key string `json:"key"`
	// Since is when its first question came, First its id.
	Since time.Time `json:"since"`
	First string    `json:"first"`
}

// check reports whether the question id, under the machine name, may be
// shown as signed by pub, and whether it is the first of a machine it
// now knows.
func (m *machines) check(id, name, pub string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	known := map[string]knownMachine{} // by name
	data, err := hubstore.ReadPrivate(m.path, "the known machines")
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return false, err
	default:
		if err := json.Unmarshal(data, &known); err != nil {
			return false, fmt.Errorf("the known machines %s: %w", m.path, err)
		}
	}
	fp := seal.Fingerprint(pub)
	k, ok := known[name]
	switch {
	case ok && k.Key == fp:
		return k.First == id, nil
	case ok:
		return false, fmt.Errorf("it names the machine %q, which this hub knows by the key %s since %s, but it is signed by another key, %s. If that machine made a new key, remove %q from %s; otherwise someone else asks in its name", name, k.Key, k.Since.Format(time.DateTime), fp, name, m.path)
	}
	known[name] = knownMachine{Key: fp, Since: time.Now().UTC(), First: id}
	data, err = json.MarshalIndent(known, "", "  ")
	if err == nil {
		err = hubstore.WritePrivate(m.path, data)
	}
	if err != nil {
		return false, fmt.Errorf("keep the new machine %q: %w", name, err)
	}
	if m.log != nil {
		m.log(fmt.Sprintf("the machine %q is new to this hub: its key is %s; question %s shows with it, and its questions show under that name from now on (see %s)", name, fp, id, m.path))
	}
	return true, nil
}

// tell reports whether the log was not yet told of the question id, and
// marks it told.
func (m *machines) tell(id string) bool {
	if m == nil {
		return true
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.told == nil {
		m.told = map[string]bool{}
	}
	if m.told[id] {
		return false
	}
	m.told[id] = true
	return true
}
