package hub

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/internal/seal"
)

// readQ and readA read stored data as a client sealing with s does.
func readQ(s *sealing, data []byte) (Question, error) {
	var q Question
	err := s.readQuestion(data, &q)
	return q, err
}

func readA(s *sealing, q *Question, data []byte) (Answer, error) {
	var a Answer
	err := s.readAnswer(q, data, &a)
	return a, err
}

func curveKey(t testing.TB) (*seal.Key, string) {
	t.Helper()
	k, err := seal.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	return k, k.Public()
}

// sealers returns the sealing of an agent machine asking the two
// recipients, and of each recipient, which keeps the machines it knows
// in a file of its own.
func sealers(t *testing.T) (asker, phone, laptop *sealing) {
	t.Helper()
	pk, ppub := curveKey(t)
	lk, lpub := curveKey(t)
	ak, _ := curveKey(t)
	recipients := []string{ppub, lpub}
	known := func() *machines { return &machines{path: filepath.Join(t.TempDir(), machinesFile)} }
	return &sealing{recipients: recipients, key: ak},
		&sealing{recipients: recipients, key: pk, machines: known()},
		&sealing{recipients: recipients, key: lk, machines: known()}
}

var sealRequest = json.RawMessage(`{"questions":[{"title":"Ship it?","options":[{"label":"yes, ship it"},{"label":"no"}]}]}`)

// askSealed is a question asked by s, and as it is stored.
func askSealed(t *testing.T, s *sealing, id string, tag Tag) (Question, []byte) {
	t.Helper()
	q := Question{ID: id, Status: "waiting", Tag: tag, Created: time.Date(2026, 12, 7, 1, 0, 0, 0, time.UTC), Request: sealRequest}
	if err := s.prepare(&q); err != nil {
		t.Fatal(err)
	}
	data, err := s.questionData(q)
	if err != nil {
		t.Fatal(err)
	}
	return q, data
}

// edit changes the stored record data, as the server's operator can.
func edit(t *testing.T, data []byte, f func(map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSealRoundTrip follows a question from its asker, sealed to two
// recipients, to each recipient and its answer back, and what each
// party refuses on the way, with the reason.
func TestSealRoundTrip(t *testing.T) {
	asker, phone, laptop := sealers(t)
	stranger, _ := curveKey(t)
	deadline := time.Date(2026, 12, 7, 2, 0, 0, 0, time.UTC)
	tag := Tag{Agent: "ci", Project: "~/billing", Machine: "prod-db", Contract: ContractAskUser, Questions: 1, Deadline: &deadline}
	q, data := askSealed(t, asker, "abcdefghjkmn", tag)
	// Each secret holds a character that base64 never writes, so sealed
	// bytes cannot hold it by chance.
	for _, secret := range []string{"Ship it?", "yes, ship it"} {
		if bytes.Contains(data, []byte(secret)) {
			t.Fatalf("the stored question holds %q: %s", secret, data)
		}
	}
	if !bytes.Contains(data, []byte(`"agent":"ci"`)) {
		t.Fatalf("the stored question lost its tag: %s", data)
	}
	plainData, _ := json.Marshal(q)
	other, otherData := askSealed(t, asker, "bbbbbbbbbbbb", tag)
	// A stopped countdown removes the deadline from the stored tag.
	stopped := edit(t, data, func(m map[string]any) { delete(m["tag"].(map[string]any), "deadline"); m["stopped_by"] = "phone" })

	// An operator, who holds the cluster's credentials and the
	// recipients' public keys, asks in the agent's name under a key of
	// its own.
	operator := &sealing{recipients: asker.recipients, key: stranger}
	_, forged := askSealed(t, operator, "cccccccccccc", tag)

	tests := []struct {
		name string
		s    *sealing
		data []byte
		want string // a part of the error; "" opens
	}{
		{"phone", phone, data, ""},
		{"laptop", laptop, data, ""},
		{"stopped countdown", laptop, stopped, ""},
		{"stranger", &sealing{key: stranger}, data, "sealed to other keys"},
		{"box changed on the way", phone, edit(t, data, func(m map[string]any) { m["sealed"].(map[string]any)["box"] = "AAAA" }), "signature does not verify"},
		{"not sealed", phone, plainData, "not sealed"},
		{"box moved to another question", phone, edit(t, data, func(m map[string]any) { m["sealed"] = mustMap(t, otherData)["sealed"] }), "signature does not verify"},
		{"box and head moved to another question", phone, edit(t, otherData, func(m map[string]any) {
			d := mustMap(t, data)
			m["sealed"], m["head"], m["sig"] = d["sealed"], d["head"], d["sig"]
		}), "it was signed as question abcdefghjkmn"},
		{"re-tagged", phone, edit(t, data, func(m map[string]any) { m["tag"].(map[string]any)["project"] = "~/payroll" }), "its tag or time is not the one it was signed with"},
		{"other deadline", phone, edit(t, data, func(m map[string]any) { m["tag"].(map[string]any)["deadline"] = "2027-01-01T00:00:00Z" }), "its tag or time"},
		{"re-dated", phone, edit(t, data, func(m map[string]any) { m["created"] = "2027-01-01T00:00:00Z" }), "its tag or time"},
		{"signed by another key", phone, edit(t, data, func(m map[string]any) { m["signer"] = stranger.Public() }), "signature does not verify"},
		{"older format", phone, edit(t, data, func(m map[string]any) { delete(m["sealed"].(map[string]any), "v") }), "another format"},
		{"known name, other key", laptop, forged, `names the machine "prod-db", which this hub knows by the key`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readQ(tt.s, tt.data)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Request, sealRequest) {
					t.Fatalf("request = %s, want %s", got.Request, sealRequest)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("readQuestion: err = %v, want one saying %q", err, tt.want)
			}
		})
	}
	sealedAnswers(t, asker, phone, stranger, q, data, other, otherData)
}

// sealedAnswers follows the answers to q, stored as data, from the
// phone back to its asker, and what the asker refuses on the way: an
// answer sealed by stranger, one replayed from other, stored as
// otherData, and ones changed on the way.
func sealedAnswers(t *testing.T, asker, phone *sealing, stranger *seal.Key, q Question, data []byte, other Question, otherData []byte) {
	// The phone answers; the answer goes back sealed to the asking
	// machine, and only an answer from a recipient, to this question,
	// that says what it was given as, is taken.
	tag := q.Tag
	opened, err := readQ(phone, data)
	if err != nil {
		t.Fatal(err)
	}
	result := json.RawMessage(`{"status":"answered","answers":[{"selections":["yes, ship it"]}]}`)
	adata, err := phone.answerData(&opened, Answer{ID: q.ID, Status: StatusAnswered, By: "phone", Result: result})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(adata, []byte("yes, ship it")) {
		t.Fatalf("the stored answer holds its choice: %s", adata)
	}
	got, err := readA(asker, &q, adata)
	if err != nil || !bytes.Equal(got.Result, result) {
		t.Fatalf("readAnswer = %s, %v; want %s", got.Result, err, result)
	}
	otherOpened, err := readQ(phone, otherData)
	if err != nil {
		t.Fatal(err)
	}
	otherAnswer, err := phone.answerData(&otherOpened, Answer{ID: other.ID, Status: StatusAnswered, By: "phone", Result: result})
	if err != nil {
		t.Fatal(err)
	}
	// The operator opens nothing, but seals an answer of its own to the
	// asking machine's public key.
	forger := &sealing{key: stranger}
	forgedQ := opened
	forgedQ.sealed = &questionSeal{asker: asker.key.Public(), tag: tag, hashes: state(&opened).hashes, opener: stranger}
	fdata, err := forger.answerData(&forgedQ, Answer{ID: q.ID, Status: StatusAnswered, By: "phone", Result: result})
	if err != nil {
		t.Fatal(err)
	}
	ddata, err := phone.answerData(&opened, Answer{ID: q.ID, Status: StatusDismissed, By: "phone"})
	if err != nil {
		t.Fatal(err)
	}
	clearAnswer, _ := json.Marshal(Answer{ID: q.ID, Status: StatusAnswered, By: "phone", Result: result})
	clearDismissal, _ := json.Marshal(Answer{ID: q.ID, Status: StatusDismissed, By: "phone"})
	refusals := []struct {
		name string
		data []byte
		want string
	}{
		{"signed by a stranger", fdata, "not signed by a recipient"},
		{"in the clear", clearAnswer, "not signed by a recipient"},
		{"dismissed in the clear", clearDismissal, "not signed by a recipient"},
		{"replayed from another question", edit(t, otherAnswer, func(m map[string]any) { m["id"] = q.ID }), "given to another question, bbbbbbbbbbbb"},
		{"an answer made a dismissal", edit(t, adata, func(m map[string]any) { m["status"] = StatusDismissed }), "says dismissed"},
		{"given by someone else", edit(t, adata, func(m map[string]any) { m["by"] = "ci-policy" }), `by "ci-policy", but was given as answered by "phone"`},
		{"a note added", edit(t, ddata, func(m map[string]any) { m["note"] = "timed out" }), "says dismissed"},
		{"box changed", edit(t, adata, func(m map[string]any) { m["sealed"].(map[string]any)["box"] = "AAAA" }), "signature does not verify"},
		{"older format", edit(t, adata, func(m map[string]any) { delete(m["sealed"].(map[string]any), "v") }), "another format"},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := readA(asker, &q, tt.data); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("readAnswer: err = %v, want one saying %q", err, tt.want)
			}
		})
	}
	// The asker restarted: a question of the same id and key, and the
	// stored one adopted, takes the answer again.
	again := Question{ID: q.ID, Tag: tag, Request: sealRequest}
	if err := asker.prepare(&again); err != nil {
		t.Fatal(err)
	}
	if _, err := readA(asker, &again, adata); err == nil {
		t.Fatal("an answer to a question not adopted was taken")
	}
	if err := asker.adopt(&again, data); err != nil {
		t.Fatal(err)
	}
	if got, err := readA(asker, &again, adata); err != nil || !bytes.Equal(got.Result, result) {
		t.Fatalf("after adopting, readAnswer = %s, %v", got.Result, err)
	}
	// The asker restarted and published the question again, as a new
	// version, after the answer removed the one answered from the remote
	// hub: the answer carries that version as its asker signed it.
	restarted := Question{ID: q.ID, Tag: tag, Created: q.Created, Request: sealRequest}
	if err := asker.prepare(&restarted); err != nil {
		t.Fatal(err)
	}
	if _, err := asker.questionData(restarted); err != nil {
		t.Fatal(err)
	}
	republished := []struct {
		name string
		data []byte
		want string // a part of the error; "" takes it
	}{
		{"as given", adata, ""},
		{"without the version it answers", edit(t, adata, func(m map[string]any) { delete(m, "asked") }), "under its id"},
		{"without its asker's signature", edit(t, adata, func(m map[string]any) { delete(m, "askedSig") }), "under its id"},
		{"with another question's version", edit(t, adata, func(m map[string]any) {
			o := mustMap(t, otherAnswer)
			m["asked"], m["askedSig"] = o["asked"], o["askedSig"]
		}), "under its id"},
		{"with a signature of another version", edit(t, adata, func(m map[string]any) { m["askedSig"] = mustMap(t, otherAnswer)["askedSig"] }), "under its id"},
		{"naming another question its asker signed", answerNaming(t, phone, opened, otherOpened, result), "under its id"},
	}
	for _, tt := range republished {
		t.Run("republished "+tt.name, func(t *testing.T) {
			got, err := readA(asker, &restarted, tt.data)
			switch {
			case tt.want == "" && (err != nil || !bytes.Equal(got.Result, result)):
				t.Fatalf("readAnswer = %s, %v; want %s", got.Result, err, result)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("readAnswer: err = %v, want one saying %q", err, tt.want)
			}
		})
	}
	if got, err := readA(asker, &q, ddata); err != nil || got.Status != StatusDismissed || got.Result != nil {
		t.Fatalf("dismissal = %+v, %v", got, err)
	}
	closing, _ := json.Marshal(Answer{ID: q.ID, Status: StatusClosed, By: "the terminal", Note: "timed out"})
	if _, err := readA(asker, &q, closing); err != nil {
		t.Fatalf("a closing note was refused: %v", err)
	}
}

// TestMachinesFirstUse shows a new machine's first question with its
// key's fingerprint, keeps it, and refuses its name under another key
// after a restart too.
func TestMachinesFirstUse(t *testing.T) {
	asker, phone, _ := sealers(t)
	tag := Tag{Agent: "ci", Machine: "prod-db", Contract: ContractAskUser, Questions: 1}
	_, data := askSealed(t, asker, "abcdefghjkmn", tag)
	_, second := askSealed(t, asker, "bbbbbbbbbbbb", tag)
	var logged []string
	phone.machines.log = func(s string) { logged = append(logged, s) }
	fp := seal.Fingerprint(asker.key.Public())
	for i, want := range []string{"prod-db (new to this hub: key " + fp + ")", "prod-db (new to this hub: key " + fp + ")"} {
		got, err := readQ(phone, data)
		if err != nil || got.Tag.Machine != want {
			t.Fatalf("read %d: machine %q, %v; want %q", i, got.Tag.Machine, err, want)
		}
	}
	if got, err := readQ(phone, second); err != nil || got.Tag.Machine != "prod-db" {
		t.Fatalf("second question: machine %q, %v", got.Tag.Machine, err)
	}
	if len(logged) != 1 || !strings.Contains(logged[0], fp) {
		t.Fatalf("logged %q, want one line naming %s", logged, fp)
	}
	st, err := os.Stat(phone.machines.path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("machines file: %v, %v", st, err)
	}
	newKey, _ := curveKey(t)
	_, renamed := askSealed(t, &sealing{recipients: asker.recipients, key: newKey}, "cccccccccccc", tag)
	restarted := &sealing{recipients: phone.recipients, key: phone.key, machines: &machines{path: phone.machines.path}}
	if _, err := readQ(restarted, renamed); err == nil || !strings.Contains(err.Error(), "signed by another key, "+seal.Fingerprint(newKey.Public())) {
		t.Fatalf("a known name under a new key: %v", err)
	}
}

// TestMachinesRemoved: a name the person removes from the machines file
// of a running hub is new again at the next question under it, and the
// next new machine's entry does not put it back.
func TestMachinesRemoved(t *testing.T) {
	m := &machines{path: filepath.Join(t.TempDir(), machinesFile)}
	_, oldKey := curveKey(t)
	_, newKey := curveKey(t)
	_, otherKey := curveKey(t)
	if first, err := m.check("aaaaaaaaaaaa", "prod-db", oldKey); !first || err != nil {
		t.Fatalf("the first question of prod-db: first %v, %v", first, err)
	}
	if _, err := m.check("bbbbbbbbbbbb", "prod-db", newKey); err == nil {
		t.Fatal("prod-db under a new key was shown")
	}
	// The person removes prod-db, as the refusal says.
	if err := os.WriteFile(m.path, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if first, err := m.check("cccccccccccc", "build-42", otherKey); !first || err != nil {
		t.Fatalf("the first question of build-42: first %v, %v", first, err)
	}
	data, err := os.ReadFile(m.path)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for name := range mustMap(t, data) {
		names = append(names, name)
	}
	if d := cmp.Diff([]string{"build-42"}, names); d != "" {
		t.Errorf("the machines file after a new machine (-want +got):\n%s", d)
	}
	if first, err := m.check("bbbbbbbbbbbb", "prod-db", newKey); !first || err != nil {
		t.Errorf("prod-db under its new key, once removed: first %v, %v", first, err)
	}
}

// answerNaming is the phone's answer to opened that names, as the
// version it answers, the version of other that its asker signed, and
// carries that version and signature.
func answerNaming(t *testing.T, phone *sealing, opened, other Question, result json.RawMessage) []byte {
	t.Helper()
	st, ost := *state(&opened), state(&other)
	st.hashes, st.asked, st.sig = []string{hashOf(ost.asked)}, ost.asked, ost.sig
	opened.sealed = &st
	data, err := phone.answerData(&opened, Answer{ID: opened.ID, Status: StatusAnswered, By: "phone", Result: result})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func mustMap(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// FuzzReadQuestion feeds stored questions, sealed or not, to the reader
// of a remote hub's client: it never panics, and what it opens is what
// was sealed.
func FuzzReadQuestion(f *testing.F) {
	k, pub := curveKey(f)
	s := &sealing{recipients: []string{pub}, key: k}
	q := Question{ID: "abcdefghjkmn", Request: json.RawMessage(`{"questions":[]}`)}
	_ = s.prepare(&q)
	data, _ := s.questionData(q)
	f.Add(data)
	f.Add([]byte(`{"id":"x","sealed":{"from":"x","to":{},"box":""}}`))
	f.Add([]byte(`{"sealed":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := readQ(s, data)
		if err == nil && (state(&got) == nil || state(&got).opener != k || !bytes.Equal(got.Request, q.Request)) {
			t.Fatalf("opened, but not what was sealed: %+v", got)
		}
	})
}
