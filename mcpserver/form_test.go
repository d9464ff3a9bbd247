package mcpserver

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func parse(t testing.TB, s string) *contract.Request {
	t.Helper()
	q, _, err := contract.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// every holds each kind, defaults of each shape, descriptions and
// previews, and ids and field names chosen to collide with naive property
// names.
const every = `{"header":"Release plan","questions":[
{"id":"q2_note","title":"Database","prompt":"Where the data lives.","options":[{"label":"Postgres","description":"the default","preview":"# Postgres\nfull SQL"},{"label":"SQLite"}],"default":"Postgres"},
{"id":"q1.x","title":"Targets","kind":"multi","options":[{"label":"linux"},{"label":"mac"}],"default":"BSD"},
{"title":"Name","kind":"input","default":"demo"},
{"title":"Tests?","kind":"bool","default":false},
{"id":"q5","title":"Form","kind":"simple-form","fields":[
 {"name":"x","label":"Text","kind":"input","required":true,"default":" t "},
 {"name":"note","label":"Pick","kind":"single","options":[{"label":"a"},{"label":"b"}],"default":"b"},
 {"name":"m","label":"Many","kind":"multi","required":true,"options":[{"label":"a"},{"label":"b"}],"default":["a","b"]},
 {"name":"f","label":"Flag","kind":"bool","default":true}]}]}`

func TestElicitSchemaGolden(t *testing.T) {
	for name, req := range map[string]string{"every": every, "strict": `{"allowFreeText":false,"questions":[{"title":"Pick","options":[{"label":"A"},{"label":"B"}],"default":"B"},{"title":"Many","kind":"multi","options":[{"label":"A"}]}]}`} {
		t.Run(name, func(t *testing.T) {
			p := elicitParams(parse(t, req), 90*time.Second)
			got, err := json.MarshalIndent(p, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			testkit.Golden(t, filepath.Join("testdata", t.Name()+".golden"), string(got), *update)
		})
	}
}

// Property names are distinct whatever ids and field names say.
func TestPropertyNamesDistinct(t *testing.T) {
	p := elicitParams(parse(t, every), 0)
	s := p.RequestedSchema.(*formSchema)
	seen := map[string]bool{}
	for _, n := range s.names {
		if seen[n] {
			t.Errorf("property %q twice", n)
		}
		seen[n] = true
	}
	if len(s.names) != 10 {
		t.Errorf("got %d properties %v; want 10", len(s.names), s.names)
	}
}

func TestFormAnswersErrors(t *testing.T) {
	q := parse(t, every)
	tests := []struct {
		name, content, want string
	}{
		{"unknown property", `{"q9":"x"}`, `properties it does not have: "q9"`},
		{"not an option", `{"q1":"MySQL"}`, `"MySQL" is not one of the options`},
		{"wrong type", `{"q4":"yes"}`, `property "q4" must be a boolean, not a string`},
		{"label twice", `{"q2":["linux","linux"]}`, `"linux" is chosen twice`},
		{"array item type", `{"q2":[1]}`, `property "q2[0]" must be an option label, not a number`},
		{"field type", `{"q5.f":"true"}`, `property "q5.f" must be a boolean`},
		{"field label", `{"q5.note":"c"}`, `"c" is not one of the options`},
		{"note type", `{"q1_note":false}`, `property "q1_note" must be a string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal([]byte(tt.content), &m); err != nil {
				t.Fatal(err)
			}
			_, err := formAnswers(q, m)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v; want an error holding %q", err, tt.want)
			}
		})
	}
}

func TestFormAnswersChecked(t *testing.T) {
	q := parse(t, every)
	content := map[string]any{
		"q1": "Postgres", "q2_note": "BSD", "q3": "demo", "q4": false,
		"q5.x": "t", "q5.note": "b", "q5.m": []any{"b", "a"}, "q5.f": true,
	}
	answers, err := formAnswers(q, content)
	if err != nil {
		t.Fatal(err)
	}
	if err := contract.CheckAnswers(q, answers); err != nil {
		t.Fatalf("answers break the contract: %v", err)
	}
	var used []bool
	for _, a := range answers {
		used = append(used, a.UsedDefault)
	}
	if diff := cmp.Diff([]bool{true, true, true, true, true}, used); diff != "" {
		t.Errorf("usedDefault (-want +got):\n%s", diff)
	}
}

func TestTimeLeft(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{time.Millisecond, "1 s"},
		{59500 * time.Millisecond, "60 s"},
		{120 * time.Second, "120 s"},
		{121 * time.Second, "3 min"},
		{5 * time.Minute, "5 min"},
	}
	for _, tt := range tests {
		if got := timeLeft(tt.d); got != tt.want {
			t.Errorf("timeLeft(%v) = %q; want %q", tt.d, got, tt.want)
		}
	}
}

func testStates(t testing.TB) *states {
	t.Helper()
	s, err := newStates([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A request state is sealed, bound to its session, questionnaire and
// call, accepted once and only while it is its call's last, and expires a
// day after the deadline (or after the form went out, for none).
func TestRequestState(t *testing.T) {
	s := testStates(t)
	other, err := newStates([]byte("fedcba9876543210fedcba9876543210"))
	if err != nil {
		t.Fatal(err)
	}
	q := parse(t, every)
	now := time.Unix(1000, 0)
	issue := func(s *states, total time.Duration) string {
		t.Helper()
		st, _, err := s.issue("sess", q, total, now)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	st := issue(s, mustTotal(t, 60000, len(q.Questions)))
	got, err := s.open(st, "sess", q, now)
	if err != nil {
		t.Fatal(err)
	}
	if want := now.Add(5 * time.Minute).UnixMilli(); got.Deadline != want {
		t.Errorf("deadline %d; want %d", got.Deadline, want)
	}
	end := now.Add(5*time.Minute + stateLifetime)
	if got.expired(end.Add(-time.Millisecond)) || !got.expired(end) {
		t.Error("the expiry is not a day after the deadline")
	}
	if got.left(now.Add(6*time.Minute)) != 0 || got.left(now.Add(4*time.Minute)) != time.Minute {
		t.Error("the time left is not what remains of the deadline, and none after it")
	}
	none := issue(s, 0)
	if st, _ := s.open(none, "sess", q, now); st.expired(now.Add(stateLifetime-time.Millisecond)) || !st.expired(now.Add(stateLifetime)) {
		t.Error("a questionnaire without a deadline does not expire a day after its form went out")
	}

	tampered := func(st string) string {
		b, _ := base64.RawURLEncoding.DecodeString(st)
		b[len(b)/2] ^= 1
		return base64.RawURLEncoding.EncodeToString(b)
	}
	tests := []struct {
		name    string
		state   func() string
		session string
		q       *contract.Request
		want    string
	}{
		{"other key", func() string { return issue(other, time.Minute) }, "sess", q, "not issued by this server"},
		{"tampered", func() string { return tampered(issue(s, time.Minute)) }, "sess", q, "not issued by this server"},
		{"cut short", func() string { return issue(s, time.Minute)[:20] }, "sess", q, "not issued by this server"},
		{"other questionnaire", func() string { return issue(s, time.Minute) }, "sess", parse(t, `{"questions":[{"title":"x"}]}`), "another questionnaire"},
		{"foreign session", func() string { return issue(s, time.Minute) }, "other", q, "another client session"},
		{"replayed", func() string {
			st := issue(s, time.Minute)
			if _, err := s.open(st, "sess", q, now); err != nil {
				t.Fatal(err)
			}
			return st
		}, "sess", q, "used already"},
		{"an earlier round after a later one", func() string {
			first := issue(s, time.Minute)
			prev, err := s.open(first, "sess", q, now)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.next(prev, round{n: 2}, nil, now); err != nil {
				t.Fatal(err)
			}
			return first
		}, "sess", q, "a later form of the call replaced it"},
		{"empty", func() string { return "" }, "sess", q, "no request state"},
		{"long", func() string { return strings.Repeat("a", maxStateLen+1) }, "sess", q, "the limit is"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := s.open(tt.state(), tt.session, tt.q, now); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v; want an error holding %q", err, tt.want)
			}
		})
	}

	t.Run("expired", func(t *testing.T) {
		st := issue(s, time.Minute)
		got, err := s.open(st, "sess", q, now.Add(time.Minute+stateLifetime))
		if err != nil || !got.expired(now.Add(time.Minute+stateLifetime)) {
			t.Errorf("got %+v, %v; want the state, expired", got, err)
		}
	})
	t.Run("too many waiting", func(t *testing.T) {
		s := testStates(t)
		for range maxLiveStates {
			if _, _, err := s.issue("sess", q, time.Minute, now); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := s.issue("sess", q, time.Minute, now); err == nil || !strings.Contains(err.Error(), "4096 forms are waiting for an answer already") {
			t.Errorf("got %v; want the form refused", err)
		}
		// Expired states make room.
		if _, _, err := s.issue("sess", q, time.Minute, now.Add(time.Minute+stateLifetime)); err != nil {
			t.Errorf("after the others expired: %v", err)
		}
	})
	t.Run("a lost session's states", func(t *testing.T) {
		st := issue(s, time.Minute)
		s.forget("sess")
		if _, err := s.open(st, "sess", q, now); !errors.Is(err, errStateReplayed) {
			t.Errorf("got %v; want %v", err, errStateReplayed)
		}
	})
}

// What a state carries cannot be read from it: neither the answers kept
// nor the questionnaire's words.
func TestRequestStateSealed(t *testing.T) {
	s := testStates(t)
	q := parse(t, every)
	now := time.Unix(1000, 0)
	first, _, err := s.issue("sess", q, time.Minute, now)
	if err != nil {
		t.Fatal(err)
	}
	prev, err := s.open(first, "sess", q, now)
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.next(prev, round{n: 2, kept: map[string]any{"q3": "secret-answer-value"}, bad: problems{"q4": "hidden-problem"}}, nil, now)
	if err != nil {
		t.Fatal(err)
	}
	b, err := base64.RawURLEncoding.DecodeString(st)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{st, string(b)} {
		for _, w := range []string{"secret-answer-value", "hidden-problem", "Release plan"} {
			if strings.Contains(s, w) {
				t.Errorf("the state shows %q: %q", w, s)
			}
		}
	}
}

// A state for a later form keeps the session, call, questionnaire,
// deadline and expiry of the first, and carries its round, the answers
// kept and when it was sent.
func TestRequestStateNext(t *testing.T) {
	s := testStates(t)
	q := parse(t, every)
	start := time.Unix(1000, 0)
	first, _, err := s.issue("sess", q, mustTotal(t, 60000, len(q.Questions)), start)
	if err != nil {
		t.Fatal(err)
	}
	prev, err := s.open(first, "sess", q, start)
	if err != nil {
		t.Fatal(err)
	}
	if got := prev.round(); got.n != 1 || got.kept != nil {
		t.Errorf("first round %+v; want round 1 with nothing kept", got)
	}
	later := start.Add(40 * time.Second)
	r := round{n: 2, kept: map[string]any{"q4": true, "q3": "x"}, bad: problems{"q1": "the form sent a number where it needs one of the options"}}
	next, err := s.next(prev, r, nil, later)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.open(next, "sess", q, later)
	if err != nil {
		t.Fatal(err)
	}
	if got.Deadline != prev.Deadline || got.Expires != prev.Expires || got.Call != prev.Call || got.Session != prev.Session ||
		got.sentAgo(later.Add(time.Second)) != time.Second || got.ID == prev.ID {
		t.Errorf("next state %+v after %+v; want the same call, deadline and expiry, sent at %v, a new id", got, prev, later)
	}
	if diff := cmp.Diff(r, got.round(), cmp.AllowUnexported(round{})); diff != "" {
		t.Errorf("round (-want +got):\n%s", diff)
	}
	huge := round{n: 2, kept: map[string]any{"q3": strings.Repeat("x", maxStateLen)}}
	if _, err := s.next(prev, huge, nil, later); err == nil || !strings.Contains(err.Error(), "too many to carry") {
		t.Errorf("a state too long to echo: %v; want an error", err)
	}
}

// FuzzFormAnswers maps the content of a form response to answers: it
// never panics or spins, and what comes back is either an error or
// answers of the right shape.
func FuzzFormAnswers(f *testing.F) {
	for _, c := range []string{
		`{}`, `{"q1":"Postgres","q5.m":["a"]}`, `{"q2":["linux","mac"],"q2_note":"x"}`, `{"q5.f":null}`, `{"q1":1}`,
		"{\"q1\":\"Post\xffgres\"}", `{"q1":"\ud800"}`, `{"q1":"Postgres","q1":"SQLite"}`,
		`{"q1":1e400}`, `{"q4":-0}`, `{"q4":1.0}`, `{"q4":1e-400}`, `{"q4":123456789012345678901234567890}`,
		`{"q5.n":1.5e308}`, `{"q2":[` + strings.Repeat(`"linux",`, 100) + `"mac"]}`,
		`{"q1":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`, "{\"q1\":\"a\u0000b\"}",
	} {
		f.Add(c)
	}
	for _, n := range testkit.FuzzNumbers() {
		for _, c := range []string{`{"q1":` + n + `}`, `{"q4":` + n + `}`, `{"q5.f":` + n + `}`, `{"q2":[` + n + `]}`} {
			f.Add(c)
		}
	}
	q := parse(f, every)
	f.Fuzz(func(t *testing.T, content string) {
		testkit.FuzzBound(t, content, func() {
			var m map[string]any
			if json.Unmarshal([]byte(content), &m) != nil {
				return
			}
			// What screen leaves is read without an error, but for a
			// property the form does not have.
			usable, _ := screen(q, m)
			if _, err := formAnswers(q, usable); err != nil && !strings.Contains(err.Error(), "properties it does not have") {
				t.Fatalf("content %s, screened to %v: %v", content, usable, err)
			}
			answers, err := formAnswers(q, m)
			if err != nil {
				return
			}
			// Whatever comes back is either a valid answer or empty, never
			// malformed.
			if err := contract.CheckAnswers(q, answers); err != nil && !strings.Contains(err.Error(), "no selection") &&
				!strings.Contains(err.Error(), "needs") && !strings.Contains(err.Error(), "required field") {
				t.Fatalf("content %s gave malformed answers: %v", content, err)
			}
		})
	})
}

func FuzzRequestState(f *testing.F) {
	s := testStates(f)
	q := parse(f, every)
	now := time.Unix(0, 0)
	good, _, _ := s.issue("sess", q, time.Second, now)
	for _, c := range []string{good, "", ".", "a.b", good + "x", good[:len(good)-1]} {
		f.Add(c)
	}
	// Sealed states, so that the fuzzer reaches the decoding of their
	// numbers.
	h, err := requestHash(q)
	if err != nil {
		f.Fatal(err)
	}
	seal := func(body string) string {
		n := s.aead.NonceSize()
		b := s.aead.Seal(make([]byte, n), make([]byte, n), []byte(body), nil)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	for _, n := range testkit.FuzzNumbers() {
		for _, body := range []string{`{"c":"sess","i":"x","n":"y","r":"` + h + `","e":` + n + `}`, `{"c":"sess","i":"x","n":"y","r":"` + h + `","k":` + n + `,"e":1}`} {
			f.Add(seal(body))
		}
	}
	f.Fuzz(func(t *testing.T, state string) {
		testkit.FuzzBound(t, state, func() {
			st, err := s.open(state, "sess", q, now)
			if err == nil && state != good && !st.expired(now) {
				t.Fatalf("accepted %q as %+v", state, st)
			}
		})
	})
}

// TestFormTextIsSafe: the model's words reach the client's form, which many
// clients draw on a terminal, with every control character neutralized;
// the labels sent back stay the model's own, so the answer maps exactly.
func TestFormTextIsSafe(t *testing.T) {
	q := parse(t, `{"header":"H\u001b[2J","questions":[
		{"title":"Pick\u001b]52;c;eA==\u0007","prompt":"p\u009b6n","options":[{"label":"a\u001b[31m","description":"d\u0007"},{"label":"b"}]},
		{"title":"Form","kind":"simple-form","fields":[{"name":"f","label":"L\u001b[1m","kind":"multi","options":[{"label":"x\u0008"},{"label":"y"}]}]}]}`)
	p := elicitParams(q, 0)
	raw, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var shown []string
	var walk func(v any, key string)
	walk = func(v any, key string) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(x, k)
			}
		case []any:
			for _, x := range v {
				walk(x, key)
			}
		case string:
			if key == "title" || key == "description" || key == "message" {
				shown = append(shown, v)
			}
		}
	}
	var tree any
	if err := json.Unmarshal(raw, &tree); err != nil {
		t.Fatal(err)
	}
	walk(tree, "")
	if len(shown) < 8 {
		t.Fatalf("found only %d shown texts in %s", len(shown), raw)
	}
	for _, s := range shown {
		for _, r := range s {
			if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f {
				t.Errorf("shown text %q holds control character %U", s, r)
			}
		}
	}
	answers, err := formAnswers(q, map[string]any{"q1": "a\x1b[31m", "q1_note": "", "q2.f": []any{"x\b"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a\x1b[31m"}, answers[0].Selections); diff != "" {
		t.Errorf("selections (-want +got):\n%s", diff)
	}
}

// A client need not prefill defaults: an absent property takes its
// question's or field's default, as an empty reply does in the dialog.
func TestFormAnswersAbsentDefaults(t *testing.T) {
	tests := []struct {
		name, req, content, want string
	}{
		{"every default", every, `{}`, `[` +
			`{"index":0,"id":"q2_note","title":"Database","kind":"single","selections":["Postgres"],"usedDefault":true},` +
			`{"index":1,"id":"q1.x","title":"Targets","kind":"multi","selections":[],"freeText":"BSD","usedDefault":true},` +
			`{"index":2,"id":"q3","title":"Name","kind":"input","selections":[],"freeText":"demo","usedDefault":true},` +
			`{"index":3,"id":"q4","title":"Tests?","kind":"bool","selections":[],"usedDefault":true,"value":false},` +
			`{"index":4,"id":"q5","title":"Form","kind":"simple-form","selections":[],"usedDefault":true,"value":{"x":"t","note":"b","m":["a","b"],"f":true}}]`},
		{"null is absent", `{"questions":[{"title":"Name","kind":"input","default":"demo"}]}`, `{"q1":null}`,
			`[{"index":0,"id":"q1","title":"Name","kind":"input","selections":[],"freeText":"demo","usedDefault":true}]`},
		{"a note is an answer", `{"questions":[{"title":"Pick","options":[{"label":"A"}],"default":"A"}]}`, `{"q1_note":"mine"}`,
			`[{"index":0,"id":"q1","title":"Pick","kind":"single","selections":[],"freeText":"mine","usedDefault":false}]`},
		{"no default stays empty", `{"questions":[{"title":"Pick","options":[{"label":"A"}]},{"title":"Name","kind":"input"},{"title":"Ok?","kind":"bool"}]}`, `{}`, `[` +
			`{"index":0,"id":"q1","title":"Pick","kind":"single","selections":[],"usedDefault":false},` +
			`{"index":1,"id":"q2","title":"Name","kind":"input","selections":[],"usedDefault":false},` +
			`{"index":2,"id":"q3","title":"Ok?","kind":"bool","selections":[],"usedDefault":false}]`},
		{"a field left blank is not absent", `{"questions":[{"title":"F","kind":"simple-form","fields":[{"name":"x","label":"X","kind":"input","default":"d"}]}]}`, `{"q1.x":" "}`,
			`[{"index":0,"id":"q1","title":"F","kind":"simple-form","selections":[],"usedDefault":false,"value":{}}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal([]byte(tt.content), &m); err != nil {
				t.Fatal(err)
			}
			answers, err := formAnswers(parse(t, tt.req), m)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(answers)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
		})
	}
}

// Text defaults reach the client neutralized, and an answer that keeps
// one maps back to the model's default.
func TestFormTextDefaults(t *testing.T) {
	q := parse(t, `{"questions":[
		{"title":"Name","kind":"input","default":"red\u001b[2Jx"},
		{"title":"Pick","options":[{"label":"a"}],"default":"other\u0007"},
		{"title":"Form","kind":"simple-form","fields":[{"name":"f","label":"F","kind":"input","default":"t\u001b]52;c;eA==\u0007"}]}]}`)
	props := elicitParams(q, 0).RequestedSchema.(*formSchema).props
	content := map[string]any{}
	for _, name := range []string{"q1", "q2_note", "q3.f"} {
		var d string
		if err := json.Unmarshal(props[name].Default, &d); err != nil {
			t.Fatalf("%s: default %s: %v", name, props[name].Default, err)
		}
		for _, r := range d {
			if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f {
				t.Errorf("%s: default %q holds control character %U", name, d, r)
			}
		}
		content[name] = d // the user keeps what the form showed
	}
	answers, err := formAnswers(q, content)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"red\x1b[2Jx", "other\a", `{"f":"t\u001b]52;c;eA==\u0007"}`}
	got := []string{answers[0].FreeText, answers[1].FreeText}
	form, err := json.Marshal(answers[2].Value)
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, string(form))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	for i, a := range answers {
		if !a.UsedDefault {
			t.Errorf("answer %d: usedDefault false; the user kept the default", i)
		}
	}
}

// mustTotal is ask.TotalTimeout of a valid timeout.
func mustTotal(t *testing.T, perQuestionMs int64, questions int) time.Duration {
	t.Helper()
	d, err := ask.TotalTimeout(perQuestionMs, questions)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
