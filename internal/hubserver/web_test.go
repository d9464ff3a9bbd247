package hubserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/google/go-cmp/cmp"
	"github.com/nats-io/nats.go/jetstream"
)

const deployReq = `{"questions": [{"title": "Deploy where?", "options": [{"label": "staging"}, {"label": "prod"}]}]}`

const deployAnswer = `{"status":"answered","answers":[{"index":0,"id":"q1","title":"Deploy where?","kind":"single","selections":["prod"],"usedDefault":false}]}`

// TestRefusals sends requests the page must refuse: each gets its status
// and a plain message, and the question keeps waiting.
func TestRefusals(t *testing.T) {
	f := newFixture(t)
	results, q := f.askUser(t, deployReq)
	answer := "/api/answer?id=" + q.ID
	tests := []struct {
		name, method, path, body string
		hdr                      map[string]string
		status                   int
		msg                      string
	}{
		{"events without token", "GET", "/api/events", "", map[string]string{"Authorization": ""}, 401, "no device token"},
		{"question without token", "GET", "/api/question?id=" + q.ID, "", map[string]string{"Authorization": ""}, 401, "no device token"},
		{"token in a cookie", "GET", "/api/question?id=" + q.ID, "", map[string]string{"Authorization": "", "Cookie": "askuser_token=" + f.token}, 401, "no device token"},
		{"token in the address", "GET", "/api/question?id=" + q.ID + "&token=" + f.token, "", map[string]string{"Authorization": ""}, 401, "no device token"},
		{"another scheme", "GET", "/api/question?id=" + q.ID, "", map[string]string{"Authorization": "Basic " + f.token}, 401, "no device token"},
		{"wrong token", "GET", "/api/events", "", map[string]string{"Authorization": "Bearer " + strings.Repeat("0", 64)}, 401, "not paired with the hub"},
		{"answer without token", "POST", answer, deployAnswer, map[string]string{"Authorization": ""}, 401, "no device token"},
		{"foreign host", "GET", "/", "", map[string]string{"Host": "evil.example:80"}, 421, "not this machine's loopback"},
		{"rebound host", "POST", answer, deployAnswer, map[string]string{"Host": "attacker.test"}, 421, "not this machine's loopback"},
		{"no origin", "POST", answer, deployAnswer, map[string]string{"Origin": ""}, 403, "names no origin"},
		{"wrong origin", "POST", answer, deployAnswer, map[string]string{"Origin": "http://evil.example"}, 403, `origin "http://evil.example"`},
		{"another port of this host", "POST", answer, deployAnswer, map[string]string{"Origin": "http://127.0.0.1:1", "Sec-Fetch-Site": "same-site"}, 403, `origin "http://127.0.0.1:1"`},
		{"pairing from another site", "POST", "/api/pair", `{"code": "00"}`, map[string]string{"Origin": "http://evil.example"}, 403, `origin "http://evil.example"`},
		{"stop without origin", "POST", "/api/stop?id=" + q.ID, "", map[string]string{"Origin": ""}, 403, "names no origin"},
		{"no answer token", "POST", answer, deployAnswer, map[string]string{"X-Askuser-Answer": ""}, 403, "no answer token of this question"},
		{"another question's answer token", "POST", answer, deployAnswer, map[string]string{"X-Askuser-Answer": answerToken(f.token, "local", "zzzzzzzzzzzz")}, 403, "no answer token of this question"},
		{"dismiss with another question's answer token", "POST", "/api/dismiss?id=" + q.ID, "", map[string]string{"X-Askuser-Answer": answerToken(f.token, "local", "zzzzzzzzzzzz")}, 403, "no answer token of this question"},
		{"pairing over plain HTTP", "POST", "/api/pair", `{"code": "00"}`, nil, 403, "pairs devices over HTTPS only"},
		{"not JSON", "POST", answer, deployAnswer, map[string]string{"Content-Type": "text/plain"}, 415, "application/json"},
		{"invalid answer", "POST", answer, strings.Replace(deployAnswer, "prod", "moon", 1), nil, 422, `"moon" is not an option label`},
		{"control character", "POST", answer, strings.Replace(deployAnswer, `"usedDefault"`, `"freeText":"a\u0007b","usedDefault"`, 1), nil, 422, "U+0007"},
		{"unknown id", "POST", "/api/answer?id=zzzzzzzzzzzz", deployAnswer, nil, 404, "no question zzzzzzzzzzzz"},
		{"not an id", "POST", "/api/answer?id=a.*", deployAnswer, nil, 404, "is not a question id"},
		{"answer by GET", "GET", answer, "", nil, 405, "Method Not Allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, body := f.do(t, tt.method, tt.path, tt.body, tt.hdr)
			if st != tt.status || !strings.Contains(body, tt.msg) {
				t.Errorf("%s %s = %d %q, want %d and %q", tt.method, tt.path, st, body, tt.status, tt.msg)
			}
			still, ans, err := f.client.Question(context.Background(), q.ID)
			if err != nil || still == nil || ans != nil {
				t.Errorf("after the refusal, the question is %v, %v, %v; want it waiting", still, ans, err)
			}
		})
	}
	st, body := f.do(t, "POST", answer, deployAnswer, nil)
	if st != 200 || !strings.Contains(body, "answered by the web page") {
		t.Fatalf("answer = %d %q", st, body)
	}
	st, body = f.do(t, "POST", answer, deployAnswer, nil)
	if st != 409 || !strings.Contains(body, "already answered by the web page") {
		t.Errorf("second answer = %d %q, want 409 saying it was answered", st, body)
	}
	if res := receive(t, results); res.Status != contract.StatusAnswered || res.Answers[0].Selections[0] != "prod" {
		t.Errorf("the asker got %+v", res)
	}
}

// TestHeaders checks the headers every response carries, and that the
// page, which any browser may load, sets no cookie and holds no secret.
func TestHeaders(t *testing.T) {
	f := newFixture(t)
	resp, err := http.Get(f.base + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || len(resp.Cookies()) != 0 || strings.Contains(string(page), f.token) {
		t.Errorf("GET / = %d with cookies %v:\n%s", resp.StatusCode, resp.Cookies(), page)
	}
	want := map[string]string{
		"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "no-referrer",
		"X-Frame-Options":         "DENY",
	}
	for k, v := range want {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
}

// TestAnswers answers every kind of both contracts as the page sends
// them, and checks what the asker gets.
func TestAnswers(t *testing.T) {
	f := newFixture(t)
	t.Run("ask_user", func(t *testing.T) {
		req := `{"header": "Release", "questions": [
 {"title": "Deploy where?", "options": [{"label": "staging", "description": "smoke"}, {"label": "prod", "preview": "# Prod\n\n*careful*"}]},
 {"title": "Which checks?", "kind": "multi", "options": [{"label": "unit"}, {"label": "integration"}, {"label": "e2e"}]},
 {"title": "Note", "kind": "input", "default": "none"},
 {"title": "Proceed?", "kind": "bool"},
 {"title": "Settings", "kind": "simple-form", "fields": [
  {"name": "confirmed", "label": "Confirm", "kind": "bool", "required": true},
  {"name": "target", "label": "Target", "kind": "single", "options": [{"label": "eu"}, {"label": "us"}], "required": true},
  {"name": "extras", "label": "Extras", "kind": "multi", "options": [{"label": "a"}, {"label": "b"}]},
  {"name": "comment", "label": "Comment", "kind": "input"}]}]}`
		results, q := f.askUser(t, req)
		body := `{"status":"answered","answers":[
 {"index":0,"id":"q1","title":"Deploy where?","kind":"single","selections":["prod"],"usedDefault":false},
 {"index":1,"id":"q2","title":"Which checks?","kind":"multi","selections":["unit","e2e"],"freeText":"lint too","usedDefault":false},
 {"index":2,"id":"q3","title":"Note","kind":"input","selections":[],"freeText":"ship it","usedDefault":false},
 {"index":3,"id":"q4","title":"Proceed?","kind":"bool","selections":[],"usedDefault":false,"value":true},
 {"index":4,"id":"q5","title":"Settings","kind":"simple-form","selections":[],"usedDefault":false,"value":{"confirmed":false,"target":"us","extras":["b"]}}]}`
		st, msg := f.do(t, "POST", "/api/answer?id="+q.ID, body, nil)
		if st != 200 {
			t.Fatalf("answer = %d %q", st, msg)
		}
		res := receive(t, results)
		got, _ := json.Marshal(res.Answers)
		var want, gotV any
		json.Unmarshal([]byte(body), &want)
		json.Unmarshal(got, &gotV)
		if diff := cmp.Diff(want.(map[string]any)["answers"], gotV); diff != "" {
			t.Errorf("answers (-want +got):\n%s", diff)
		}
	})
	t.Run("AskUserQuestion", func(t *testing.T) {
		req := `{"questions": [
 {"id": "db", "question": "Which database?", "header": "Database", "options": [
  {"id": "pg", "label": "Postgres", "description": "d", "recommended": true, "preview": "SELECT 1"},
  {"id": "lite", "label": "SQLite", "description": "d"}]},
 {"id": "feat", "question": "Which features?", "header": "Features", "multiSelect": true, "options": [
  {"id": "a", "label": "Auth", "description": "d"}, {"id": "b", "label": "Billing", "description": "d"}]},
 {"id": "name", "question": "Name?", "header": "Name", "required": false, "options": [
  {"id": "x", "label": "X", "description": "d"}, {"id": "y", "label": "Y", "description": "d"}]}],
 "metadata": {"source": "test"}}`
		results, q := f.askQuestions(t, req)
		body := `{"cancelled":false,"answers":{
 "db":{"kind":"single","optionId":"pg","label":"Postgres"},
 "feat":{"kind":"multi","selections":[{"optionId":"b","label":"Billing"},{"label":"Other","other":true,"text":"Search"}],"empty":false}},
 "annotations":{"db":{"questionNotes":"for now","optionNotes":{"lite":"too small","$other":"none"},"selectedPreview":"SELECT 1"}},
 "metadata":{"source":"test"}}`
		st, msg := f.do(t, "POST", "/api/answer?id="+q.ID, body, nil)
		if st != 200 {
			t.Fatalf("answer = %d %q", st, msg)
		}
		out := receive(t, results)
		if out.Status != auq.StatusSubmitted {
			t.Fatalf("outcome = %+v", out)
		}
		got, _ := json.Marshal(out.Result)
		var want, gotV any
		json.Unmarshal([]byte(body), &want)
		json.Unmarshal(got, &gotV)
		if diff := cmp.Diff(want, gotV); diff != "" {
			t.Errorf("result (-want +got):\n%s", diff)
		}
	})
}

// TestDismissAndStop dismisses a question and stops another's countdown
// from the page.
func TestDismissAndStop(t *testing.T) {
	f := newFixture(t)
	results, q := f.askUser(t, `{"questions": [{"title": "Go?", "kind": "bool"}], "timeoutPerQuestionMs": 600000}`)
	if q.Tag.Deadline == nil {
		t.Fatal("the question has no deadline")
	}
	st, msg := f.do(t, "POST", "/api/stop?id="+q.ID, "", nil)
	if st != 200 || !strings.Contains(msg, "countdown is stopped") {
		t.Fatalf("stop = %d %q", st, msg)
	}
	got, _, err := f.client.Question(context.Background(), q.ID)
	if err != nil || got.Tag.Deadline != nil || !strings.HasPrefix(got.StoppedBy, "the web page") {
		t.Errorf("after the stop, the question is %+v, %v; want no deadline, stopped by the web page", got, err)
	}
	st, msg = f.do(t, "POST", "/api/dismiss?id="+q.ID, "", nil)
	if st != 200 || !strings.HasPrefix(msg, "dismissed by the web page") {
		t.Fatalf("dismiss = %d %q", st, msg)
	}
	res := receive(t, results)
	if res.Status != contract.StatusAborted || res.CancelledReason != contract.CancelUser {
		t.Errorf("the asker got %+v, want aborted by the user", res)
	}
	st, msg = f.do(t, "POST", "/api/dismiss?id="+q.ID, "", nil)
	if st != 409 || !strings.Contains(msg, "already dismissed") {
		t.Errorf("second dismissal = %d %q, want 409", st, msg)
	}
}

// sse reads the page's event stream.
type sse struct {
	r    *bufio.Reader
	body interface{ Close() error }
}

func (f *fixture) stream(t testing.TB) *sse {
	t.Helper()
	req, _ := http.NewRequest("GET", f.base+"/api/events", nil)
	req.Header.Set("Authorization", "Bearer "+f.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	t.Cleanup(func() { resp.Body.Close() })
	return &sse{r: bufio.NewReader(resp.Body), body: resp.Body}
}

// next returns the next event's name and data.
func (s *sse) next(t testing.TB) (string, string) {
	t.Helper()
	name, data, err := s.read()
	if err != nil {
		t.Fatalf("the event stream ended: %v", err)
	}
	return name, data
}

// live opens the stream, reads its snapshot, and passes on each event
// after, until the stream ends.
func (f *fixture) live(t testing.TB) <-chan [2]string {
	s := f.stream(t)
	s.next(t)
	s.next(t)
	out := make(chan [2]string, 64)
	go func() {
		defer close(out)
		for {
			name, data, err := s.read()
			if err != nil {
				return
			}
			out <- [2]string{name, data}
		}
	}()
	return out
}

// read returns the next event's name and data, or why there is none.
func (s *sse) read() (string, string, error) {
	var name, data string
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return "", "", err
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "" && name != "":
			return name, data, nil
		case strings.HasPrefix(line, "event: "):
			name = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			data = line[len("data: "):]
		}
	}
}

// TestEvents follows the list: a question arrives, is shown with its
// tag, and leaves when a program answers it, saying where.
func TestEvents(t *testing.T) {
	f := newFixture(t)
	s := f.stream(t)
	if name, data := s.next(t); name != "snapshot" || !strings.Contains(data, `"total":0,"questions":[]`) {
		t.Fatalf("first event = %s %s", name, data)
	}
	if name, data := s.next(t); name != "rest" || data != `{"questions":[]}` {
		t.Fatalf("second event = %s %s", name, data)
	}
	results, q := f.askUser(t, deployReq)
	name, data := s.next(t)
	var sum hubserver.Summary
	if name != "waiting" || json.Unmarshal([]byte(data), &sum) != nil {
		t.Fatalf("event = %s %s, want waiting", name, data)
	}
	want := hubserver.Summary{ID: q.ID, Agent: "test agent", Project: "/src/project", Machine: "testbox", Contract: "ask_user", Questions: 1, Title: "Deploy where?"}
	if diff := cmp.Diff(want, sum, cmpIgnoreTimes); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if _, err := f.client.Answer(context.Background(), q.ID, []byte(deployAnswer), "askuser answer on testbox"); err != nil {
		t.Fatal(err)
	}
	name, data = s.next(t)
	if name != "closed" || !strings.Contains(data, `"where":"answered by askuser answer on testbox"`) {
		t.Errorf("event = %s %s, want closed, answered by askuser answer", name, data)
	}
	receive(t, results)
	st, msg := f.do(t, "GET", "/api/question?id="+q.ID, "", nil)
	if st != 410 || !strings.Contains(msg, "answered by askuser answer on testbox") {
		t.Errorf("the answered question = %d %q, want 410 saying where", st, msg)
	}
}

var cmpIgnoreTimes = cmp.FilterPath(func(p cmp.Path) bool {
	n := p.Last().String()
	return n == ".Created" || n == ".Deadline"
}, cmp.Ignore())

// TestQuestionPreviews serves a question with its previews as trees.
func TestQuestionPreviews(t *testing.T) {
	f := newFixture(t)
	_, q := f.askQuestions(t, `{"questions": [{"id": "db", "question": "Which?", "header": "DB", "options": [
 {"id": "pg", "label": "Postgres", "description": "d", "preview": "**bold** <script>alert(1)</script> [x](javascript:alert(1))"},
 {"id": "lite", "label": "SQLite", "description": "d"}]}]}`)
	st, body := f.do(t, "GET", "/api/question?id="+q.ID, "", nil)
	if st != 200 {
		t.Fatalf("question = %d %s", st, body)
	}
	var d hubserver.Detail
	if err := json.Unmarshal([]byte(body), &d); err != nil {
		t.Fatal(err)
	}
	want := []hubserver.Node{{T: "p", C: []hubserver.Node{
		{T: "strong", C: []hubserver.Node{{Text: "bold"}}}, {Text: " "}, {Text: "<script>"}, {Text: "alert(1)"}, {Text: "</script>"}, {Text: " "},
		{Text: "x"}, {Text: " (javascript:alert(1))"}}}}
	if diff := cmp.Diff(want, d.Previews["0.0"]); diff != "" {
		t.Errorf("preview (-want +got):\n%s", diff)
	}
	if d.Contract != hub.ContractAskUserQuestion || d.Title != "Which?" {
		t.Errorf("detail = %+v", d.Summary)
	}
}

func TestCheckAddr(t *testing.T) {
	tests := []struct {
		addr       string
		secure, ok bool
	}{
		{"127.0.0.1:7373", false, true}, {"localhost:80", false, true}, {"[::1]:7373", false, true}, {"127.0.0.2:1", false, true},
		{"0.0.0.0:7373", false, false}, {":7373", false, false}, {"192.168.1.2:7373", false, false}, {"example.com:80", false, false}, {"127.0.0.1", false, false},
		{"0.0.0.0:7373", true, true}, {"192.168.1.2:7373", true, true}, {":7373", true, true}, {"127.0.0.1:1", true, true}, {"192.168.1.2", true, false},
	}
	for _, tt := range tests {
		err := hubserver.CheckAddr(tt.addr, tt.secure)
		if (err == nil) != tt.ok {
			t.Errorf("CheckAddr(%q, %t) = %v, want ok %t", tt.addr, tt.secure, err, tt.ok)
		}
	}
}

// TestAssetsSize keeps the page's own assets within 100 KB.
func TestAssetsSize(t *testing.T) {
	total := 0
	err := filepath.WalkDir("assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		total += int(fi.Size())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the page's assets: %d bytes", total)
	if total > 100_000 {
		t.Errorf("the page's assets are %d bytes, over 100 KB", total)
	}
}

// TestNoMarkupSinks keeps the page's script away from every API that
// parses a string as markup or code.
func TestNoMarkupSinks(t *testing.T) {
	js, err := os.ReadFile("assets/app.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, sink := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "setTimeout('", "srcdoc", ".style.", "createContextualFragment", "DOMParser"} {
		if strings.Contains(string(js), sink) {
			t.Errorf("app.js uses %s", sink)
		}
	}
}

// TestFirstPage sends the first page of a long list first, and the rest
// after it, newest first throughout.
func TestFirstPage(t *testing.T) {
	f := newFixture(t)
	const n = 60
	for i := range n {
		req := fmt.Sprintf(`{"questions": [{"title": "Question %d?", "options": [{"label": "yes"}, {"label": "no"}]}]}`, i)
		go ask.AskJSON(f.ctx, f.asker, ask.AskUser, []byte(req), nil)
	}
	for range n {
		f.waiting(t)
	}
	var first, rest struct {
		Total     int
		Questions []hubserver.Summary
	}
	// The page's server follows the hub with a watch of its own, which
	// may be a moment behind the test's: a page opened before it has
	// all sixty is opened again.
	var s *sse
	for deadline := testkit.PatienceDeadline(t); ; {
		s = f.stream(t)
		name, data := s.next(t)
		if name != "snapshot" || json.Unmarshal([]byte(data), &first) != nil {
			t.Fatalf("first event = %s %s", name, data)
		}
		if first.Total == n || time.Now().After(deadline) {
			break
		}
		s.body.Close()
		time.Sleep(20 * time.Millisecond)
	}
	name, data := s.next(t)
	if name != "rest" || json.Unmarshal([]byte(data), &rest) != nil {
		t.Fatalf("second event = %s %s", name, data)
	}
	all := append(first.Questions, rest.Questions...)
	if first.Total != n || len(first.Questions) != 50 || len(all) != n {
		t.Fatalf("total %d, first %d, in all %d; want %d, 50, %d", first.Total, len(first.Questions), len(all), n, n)
	}
	for i := 1; i < n; i++ {
		if all[i].Created.After(all[i-1].Created) {
			t.Errorf("question %d is newer than question %d", i, i-1)
		}
	}
}

// TestPreviewOverLimit serves a question whose preview another machine's
// hub stored over its contract's limit, nested: the page refuses it with
// the reason, rendering nothing.
func TestPreviewOverLimit(t *testing.T) {
	f := newFixture(t)
	_, q := f.askUser(t, deployReq)
	events := f.live(t)
	nc := natsConn(t, f.info)
	hostile := hostileMarkdown["indented lists"](20_000)
	testkit.UpdateEntry(t, nc, hubstore.QuestionsBucket, q.ID, func(v map[string]any) {
		opt := v["request"].(map[string]any)["questions"].([]any)[0].(map[string]any)["options"].([]any)[1].(map[string]any)
		opt["preview"] = hostile
	})
	// The page may tell of the question as first asked, then as changed.
	var st int
	var body string
	for st != http.StatusUnprocessableEntity {
		select {
		case e := <-events:
			if e[0] == "waiting" && strings.Contains(e[1], q.ID) {
				st, body = f.do(t, "GET", "/api/question?id="+q.ID, "", nil)
			}
		case <-time.After(testkit.Patience(t)):
			t.Fatalf("the page told of no change of the question; it serves it as %d %.300q", st, body)
		}
	}
	if st != http.StatusUnprocessableEntity || !strings.Contains(body, "breaks the rules of its contract") || !strings.Contains(body, "16000") || len(body) > 3000 {
		t.Errorf("the question with a preview of %d characters = %d %.300q, want 422 saying what is wrong", len(hostile), st, body)
	}
}

// TestBucketsMadeAgain deletes the hub's buckets behind its back and
// makes them again, as a person clearing the store would: the page takes
// the question that was in them off its list, and shows the questions
// asked after. That question has no asker to ask it again: a copy of
// another's entry, as a hub of another machine may have stored.
func TestBucketsMadeAgain(t *testing.T) {
	f := newFixture(t)
	_, q := f.askUser(t, deployReq)
	events := f.live(t)
	nc := natsConn(t, f.info)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Patience(t))
	defer cancel()
	kv, err := js.KeyValue(ctx, hubstore.QuestionsBucket)
	if err != nil {
		t.Fatal(err)
	}
	e, err := kv.Get(ctx, q.ID)
	if err != nil {
		t.Fatal(err)
	}
	const old = "zzzzzzzzzzzz"
	if _, err := kv.Put(ctx, old, []byte(strings.Replace(string(e.Value()), q.ID, old, 1))); err != nil {
		t.Fatal(err)
	}
	for shown := false; !shown; {
		select {
		case e := <-events:
			shown = e[0] == "waiting" && strings.Contains(e[1], old)
		case <-ctx.Done():
			t.Fatal("the page did not show the question stored behind the hub's back")
		}
	}
	for _, b := range []string{hubstore.QuestionsBucket, hubstore.AnswersBucket} {
		if err := js.DeleteKeyValue(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := hubstore.Buckets(ctx, js); err != nil {
		t.Fatal(err)
	}
	asker := f.newAsker(t, "second agent", "/src/other", "testbox")
	go ask.AskJSON(ctx, asker, ask.AskUser, []byte(`{"questions": [{"title": "Asked after?", "options": [{"label": "yes"}, {"label": "no"}]}]}`), nil)
	closed, asked := false, false
	for !closed || !asked {
		select {
		case e := <-events:
			closed = closed || (e[0] == "closed" && strings.Contains(e[1], old))
			asked = asked || (e[0] == "waiting" && strings.Contains(e[1], "Asked after?"))
		case <-ctx.Done():
			t.Fatalf("after the buckets were made again, the page told: the old question closed %t, the new one waiting %t", closed, asked)
		}
	}
	st, body := f.do(t, "GET", "/api/question?id="+old, "", nil)
	if st != http.StatusGone {
		t.Errorf("the question of the deleted bucket = %d %q, want 410", st, body)
	}
}

// TestApproval serves an approval: its summary marks it and says who
// wants to do what, and its previews are the command as it is, its
// controls shown as the terminal shows them, never read as Markdown.
func TestApproval(t *testing.T) {
	f := newFixture(t)
	s := f.stream(t)
	s.next(t) // the snapshot
	s.next(t) // the rest
	const command = "rm -rf *build* \x1b]52;c;eA==\x07 <script>alert(1)</script> [x](javascript:alert(2))"
	results, q := f.askApproval(t, f.asker, "claude-code", command)
	name, data := s.next(t)
	var sum hubserver.Summary
	if name != "waiting" || json.Unmarshal([]byte(data), &sum) != nil {
		t.Fatalf("event = %s %s, want waiting", name, data)
	}
	want := hubserver.Summary{ID: q.ID, Agent: "test agent", Project: "/src/project", Machine: "testbox", Contract: hub.ContractAskUserQuestion,
		Kind: hub.KindApproval, Questions: 1, Title: "test agent in /src/project wants to run a command"}
	if diff := cmp.Diff(want, sum, cmpIgnoreTimes); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	st, body := f.do(t, "GET", "/api/question?id="+q.ID, "", nil)
	if st != 200 {
		t.Fatalf("question = %d %s", st, body)
	}
	var d hubserver.Detail
	if err := json.Unmarshal([]byte(body), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Previews) != 2 {
		t.Errorf("%d previews, want one for Allow once and one for Deny", len(d.Previews))
	}
	for k, p := range d.Previews {
		shown := "Command:\nrm -rf *build* ␛]52;c;eA==␇ <script>alert(1)</script> [x](javascript:alert(2))\n\nTool:\nBash"
		if diff := cmp.Diff([]hubserver.Node{{T: "pre", Text: shown}}, p); diff != "" {
			t.Errorf("preview %s (-want +got):\n%s", k, diff)
		}
	}
	if d.Kind != hub.KindApproval {
		t.Errorf("the detail's kind is %q", d.Kind)
	}
	if _, err := f.client.Dismiss(context.Background(), q.ID, "test"); err != nil {
		t.Fatal(err)
	}
	if out := receive(t, results); out.Allowed() {
		t.Errorf("a dismissed approval = %+v", out)
	}
}

// TestUnknownKind serves a question whose kind another machine's hub
// stored as one askuser does not know: the page refuses it, saying why.
func TestUnknownKind(t *testing.T) {
	f := newFixture(t)
	outcomes, q := f.askQuestions(t, `{"questions": [{"id": "db", "question": "Which?", "header": "DB", "options": [
 {"id": "pg", "label": "Postgres", "description": "d"}, {"id": "lite", "label": "SQLite", "description": "d"}]}]}`)
	defer func() {
		f.client.Dismiss(context.Background(), q.ID, "test")
		receive(t, outcomes)
	}()
	events := f.live(t)
	testkit.UpdateEntry(t, natsConn(t, f.info), hubstore.QuestionsBucket, q.ID, func(v map[string]any) {
		v["tag"].(map[string]any)["kind"] = "payment"
	})
	var st int
	var body string
	for st != http.StatusUnprocessableEntity {
		select {
		case e := <-events:
			if e[0] == "waiting" && strings.Contains(e[1], q.ID) {
				st, body = f.do(t, "GET", "/api/question?id="+q.ID, "", nil)
			}
		case <-time.After(testkit.Patience(t)):
			t.Fatalf("the page told of no change of the question; it serves it as %d %.300q", st, body)
		}
	}
	if !strings.Contains(body, `its kind "payment" is not one askuser knows`) {
		t.Errorf("the question of an unknown kind = %d %.300q, want 422 saying why", st, body)
	}
}
