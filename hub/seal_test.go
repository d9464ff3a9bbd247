package hub

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

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

// TestSealRoundTrip follows a question from its asker, sealed to two
// recipients, to each recipient and its answer back, and what each
// party refuses on the way.
func TestSealRoundTrip(t *testing.T) {
	phone, phonePub := curveKey(t)
	laptop, laptopPub := curveKey(t)
	stranger, _ := curveKey(t)
	asker := &sealing{recipients: []string{phonePub, laptopPub}}
	request := json.RawMessage(`{"questions":[{"title":"Ship it?","options":[{"label":"yes"},{"label":"no"}]}]}`)
	q := Question{ID: "abcdefghjkmn", Status: "waiting", Tag: Tag{Agent: "ci", Contract: ContractAskUser, Questions: 1}, Request: request}
	if err := asker.prepare(&q); err != nil {
		t.Fatal(err)
	}
	data, err := asker.questionData(q)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"Ship it?", "yes"} {
		if bytes.Contains(data, []byte(secret)) {
			t.Fatalf("the stored question holds %q: %s", secret, data)
		}
	}
	if !bytes.Contains(data, []byte(`"agent":"ci"`)) {
		t.Fatalf("the stored question lost its tag: %s", data)
	}
	plainData, _ := json.Marshal(q)

	tests := []struct {
		name    string
		keys    []*seal.Key
		data    []byte
		wantErr bool
	}{
		{"phone", []*seal.Key{phone}, data, false},
		{"laptop after a stranger's key", []*seal.Key{stranger, laptop}, data, false},
		{"stranger", []*seal.Key{stranger}, data, true},
		{"no keys", nil, data, true},
		{"changed on the way", []*seal.Key{phone}, bytes.Replace(data, []byte(`"box":"`), []byte(`"box":"AA`), 1), true},
		{"not sealed", []*seal.Key{phone}, plainData, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readQ(&sealing{keys: tt.keys}, tt.data)
			if (err != nil) != tt.wantErr {
				t.Fatalf("readQuestion: err = %v, want error %v", err, tt.wantErr)
			}
			if err == nil && !bytes.Equal(got.Request, request) {
				t.Fatalf("request = %s, want %s", got.Request, request)
			}
		})
	}

	// The phone answers; the answer goes back sealed to the question's
	// key, and only an answer from a recipient is taken.
	person := &sealing{keys: []*seal.Key{phone}}
	opened, err := readQ(person, data)
	if err != nil {
		t.Fatal(err)
	}
	result := json.RawMessage(`{"status":"answered","answers":[{"selections":["yes"]}]}`)
	adata, err := person.answerData(&opened, Answer{ID: q.ID, Status: StatusAnswered, By: "phone", Result: result})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(adata, []byte("yes")) {
		t.Fatalf("the stored answer holds its choice: %s", adata)
	}
	got, err := readA(asker, &q, adata)
	if err != nil || !bytes.Equal(got.Result, result) {
		t.Fatalf("readAnswer = %s, %v; want %s", got.Result, err, result)
	}
	forger := &sealing{keys: []*seal.Key{stranger}}
	forged := opened
	forged.sealed = &questionSeal{from: state(&opened).from, openedBy: stranger.Public()}
	fdata, err := forger.answerData(&forged, Answer{ID: q.ID, Status: StatusAnswered, By: "phone", Result: result})
	if err != nil {
		t.Fatal(err)
	}
	clearAnswer, _ := json.Marshal(Answer{ID: q.ID, Status: StatusAnswered, By: "phone", Result: result})
	clearDismissal, _ := json.Marshal(Answer{ID: q.ID, Status: StatusDismissed, By: "phone"})
	for name, b := range map[string][]byte{"sealed by a stranger": fdata, "in the clear": clearAnswer, "dismissed in the clear": clearDismissal} {
		if _, err := readA(asker, &q, b); err == nil {
			t.Errorf("an answer %s was taken", name)
		}
	}
	ddata, err := person.answerData(&opened, Answer{ID: q.ID, Status: StatusDismissed, By: "phone"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := readA(asker, &q, ddata); err != nil || got.Status != StatusDismissed || got.Result != nil {
		t.Fatalf("dismissal = %+v, %v", got, err)
	}
	closing, _ := json.Marshal(Answer{ID: q.ID, Status: StatusClosed, By: "the terminal", Note: "timed out"})
	if _, err := readA(asker, &q, closing); err != nil {
		t.Fatalf("a closing note was refused: %v", err)
	}
}

func TestKeyFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hub", "key")
	if _, err := readKey(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("readKey of no file: %v", err)
	}
	pub, err := MakeKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := seal.ParsePublic(pub); err != nil {
		t.Fatalf("MakeKey = %q: %v", pub, err)
	}
	again, err := MakeKey(path)
	if err != nil || again != pub {
		t.Fatalf("MakeKey again = %q, %v; want the same key %q", again, err, pub)
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v", st.Mode().Perm())
	}
	os.Chmod(path, 0o644)
	if _, err := readKey(path); err == nil {
		t.Fatal("a key others may read was taken")
	}
}

// FuzzReadQuestion feeds stored questions, sealed or not, to the reader
// of a remote hub's client: it never panics, and what it opens is what
// was sealed.
func FuzzReadQuestion(f *testing.F) {
	k, pub := curveKey(f)
	s := &sealing{recipients: []string{pub}, keys: []*seal.Key{k}}
	q := Question{ID: "abcdefghjkmn", Request: json.RawMessage(`{"questions":[]}`)}
	_ = s.prepare(&q)
	data, _ := s.questionData(q)
	f.Add(data)
	f.Add([]byte(`{"id":"x","sealed":{"from":"x","to":{},"box":""}}`))
	f.Add([]byte(`{"sealed":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := readQ(s, data)
		if err == nil && (state(&got) == nil || state(&got).openedBy != pub) {
			t.Fatalf("opened, but not by %s: %+v", pub, got)
		}
	})
}
