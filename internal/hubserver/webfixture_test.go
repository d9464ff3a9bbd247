package hubserver_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/nats-io/nats.go"
)

// fixture is a real hub serving its web page, an asker whose only route
// is the hub, and a client that watches the hub.
type fixture struct {
	base   string          // http://127.0.0.1:port, or https:// with TLS
	state  string          // the hub's XDG_STATE_HOME
	logs   *testkit.Buffer // the hub's log
	http   *http.Client
	token  string
	dir    string
	client *hub.Client
	asker  *ask.Asker
	events <-chan hub.WatchEvent
	seen   map[string]bool // the questions waiting returned
	info   hub.Info
	// ctx is the context of the fixture's calls, which end with the
	// test: its links then close at once, with no call left to wait for.
	ctx    context.Context
	cancel context.CancelFunc
}

func newFixture(t testing.TB) *fixture { return newFixtureWith(t, false) }

// newFixtureWith is newFixture, with the page over HTTPS with the hub's
// own certificate when withTLS.
func newFixtureWith(t testing.TB, withTLS bool) *fixture {
	t.Helper()
	state := t.TempDir()
	paths, err := hub.Locate(func(k string) string { return map[string]string{"XDG_STATE_HOME": state}[k] })
	if err != nil {
		t.Fatal(err)
	}
	dir := paths.Dir
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Patience(t))
	defer cancel()
	urls := make(chan string, 1)
	logs := &testkit.Buffer{}
	info, stop, err := hubserver.Start(ctx, &hubserver.Options{Paths: paths, Log: logs, Web: "127.0.0.1:0", WebTLS: withTLS, WebReady: func(u string) { urls <- u }})
	if err != nil {
		t.Fatalf("hub did not start: %v", err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("hub: %v", err)
		}
	})
	u, err := url.Parse(<-urls)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{base: u.Scheme + "://" + u.Host, state: state, logs: logs, token: strings.TrimPrefix(u.Fragment, "token="), dir: dir, seen: map[string]bool{}, info: info,
		http: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: 10 * time.Second}}
	f.ctx, f.cancel = context.WithCancel(context.Background())
	t.Cleanup(f.cancel)
	if withTLS {
		pem, err := os.ReadFile(filepath.Join(dir, hubserver.CertFile))
		if err != nil {
			t.Fatal(err)
		}
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(pem)
		f.http.Transport = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}
	}
	f.client, err = hub.Dial(context.Background(), &hub.DialOptions{Info: &info})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.client.Close)
	wctx, wcancel := context.WithCancel(context.Background())
	t.Cleanup(wcancel)
	if f.events, err = f.client.Watch(wctx); err != nil {
		t.Fatal(err)
	}
	f.asker = f.newAsker(t, "test agent", "/src/project", "testbox")
	if st, body := f.do(t, "GET", "/api/device", "", nil); st != http.StatusOK {
		t.Fatalf("GET /api/device = %d %s", st, body)
	}
	return f
}

// newAsker returns an asker whose only route is the hub, with its
// questions tagged with agent, project and machine; it asks approvals
// too. Calls made with f.ctx end with the test, before the link closes.
func (f *fixture) newAsker(t testing.TB, agent, project, machine string) *ask.Asker {
	t.Helper()
	info := f.info
	l := hub.NewLink(&hub.LinkOptions{
		Dial:  func(ctx context.Context) (*hub.Client, error) { return hub.Dial(ctx, &hub.DialOptions{Info: &info}) },
		Agent: agent, Project: project, Machine: machine,
	})
	t.Cleanup(func() {
		f.cancel()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		l.Close(ctx)
	})
	return ask.NewAsker(ask.NewHost(ask.BindApproval(l.Join(ask.Capabilities{CustomReason: "none", NativeReason: "none"})), nil), nil)
}

// waiting waits for the next new question that waits on the hub.
func (f *fixture) waiting(t testing.TB) *hub.Question {
	t.Helper()
	timeout := time.After(testkit.Patience(t))
	for {
		select {
		case e := <-f.events:
			if e.Kind == hub.WatchWaiting && !f.seen[e.ID] {
				f.seen[e.ID] = true
				return e.Question
			}
		case <-timeout:
			t.Fatal("no question came to the hub")
		}
	}
}

// askUser asks req through the hub and returns its result, to come, and
// the question.
func (f *fixture) askUser(t testing.TB, req string) (<-chan contract.Result, *hub.Question) {
	t.Helper()
	out := make(chan contract.Result, 1)
	go func() { out <- ask.AskJSON(f.ctx, f.asker, ask.AskUser, []byte(req), nil) }()
	return out, f.waiting(t)
}

// askQuestions asks an AskUserQuestion request through the hub.
func (f *fixture) askQuestions(t testing.TB, req string) (<-chan auq.Outcome, *hub.Question) {
	t.Helper()
	out := make(chan auq.Outcome, 1)
	go func() { out <- ask.AskJSON(f.ctx, f.asker, ask.AskUserQuestion, []byte(req), nil) }()
	return out, f.waiting(t)
}

// askApproval asks the approval of agent to run command through the
// hub, with the asker a.
func (f *fixture) askApproval(t testing.TB, a *ask.Asker, agent, command string) (<-chan approval.Outcome, *hub.Question) {
	t.Helper()
	out := make(chan approval.Outcome, 1)
	req := &approval.Request{Agent: agent, Tool: "Bash", Action: approval.ActionRun, Command: command}
	go func() { out <- ask.Ask(context.Background(), a, ask.Approval, req, nil) }()
	return out, f.waiting(t)
}

// do sends a request with the page's access token in its Authorization
// header, and, for a POST, its origin and answer token, unless hdr says
// otherwise ("" removes one), and returns the answer's status and body.
func (f *fixture) do(t testing.TB, method, path, body string, hdr map[string]string) (int, string) {
	t.Helper()
	resp, b := f.send(t, method, path, body, hdr)
	return resp.StatusCode, b
}

// send is do, returning the whole answer, its body read.
func (f *fixture) send(t testing.TB, method, path, body string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, f.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+f.token)
	if method == "POST" {
		req.Header.Set("Origin", f.base)
		req.Header.Set("X-Askuser-Answer", answerToken(f.token, "local", req.URL.Query().Get("id")))
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		switch {
		case k == "Host":
			req.Host = v
		case v == "":
			req.Header.Del(k)
		default:
			req.Header.Set(k, v)
		}
	}
	resp, err := f.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// answerToken is the answer token of the question id for the device dev
// of the page whose access token is key: what the page's server gives
// with the question.
func answerToken(key, dev, id string) string {
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte("answer\x00" + dev + "\x00" + id))
	return hex.EncodeToString(m.Sum(nil))
}

func receive[T any](t testing.TB, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the asker got nothing")
	}
	panic("unreachable")
}

// supersede rewrites the answer entry of the question id on the hub at
// info as a hub's relay does when the answer given there came second to
// one given on another machine at the same moment: the entry names loser
// as who gave the answer that lost.
func supersede(t *testing.T, info hub.Info, id, loser string) {
	t.Helper()
	testkit.UpdateEntry(t, natsConn(t, info), hubstore.AnswersBucket, id, func(a map[string]any) { a["superseded"] = loser })
}

// natsConn connects to the hub at info as its own clients do, until the
// test ends.
func natsConn(t testing.TB, info hub.Info) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(info.URL, nats.Token(info.Token))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}
