package notify_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/prefs"
)

// The question the tests ask: nothing of it may reach a push.
const (
	request  = `{"questions": [{"title": "Deploy where secretly?", "options": [{"label": "staging-optionA"}, {"label": "prod-optionB"}]}]}`
	ntfyTok  = "tk_secret_ntfy_token"
	topic    = "askuser-test-topic"
	pageLink = "https://laptop.example:8443/"
)

// recorder is an ntfy server on 127.0.0.1 that records every request.
type recorder struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []pushed
}

type pushed struct {
	at     time.Time
	path   string
	body   string
	header http.Header
}

func newRecorder(t *testing.T) *recorder { return newRecorderTB(t) }

func newRecorderTB(t testing.TB) *recorder {
	r := &recorder{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, pushed{at: time.Now(), path: req.URL.Path, body: string(b), header: req.Header.Clone()})
		r.mu.Unlock()
		w.Write([]byte(`{"id":"x"}`))
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *recorder) pushes() []pushed {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]pushed(nil), r.got...)
}

// waitPushes waits until n pushes came, and fails if more did. That no
// other follows later is checked by stopHub, once the hub sent all it
// was going to.
func (r *recorder) waitPushes(t *testing.T, n int) []pushed {
	t.Helper()
	for end := testkit.PatienceDeadline(t); len(r.pushes()) < n && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	got := r.pushes()
	if len(got) != n {
		t.Fatalf("%d pushes, want %d: %+v", len(got), n, got)
	}
	return got
}

// stopHub stops the hub with stop, which returns once the hub's pushes
// are sent, and fails unless n pushes came in all: none followed the
// ones the test waited for.
func (r *recorder) stopHub(t *testing.T, stop func() error, n int) {
	t.Helper()
	if err := stop(); err != nil {
		t.Errorf("stop the hub: %v", err)
	}
	if got := r.pushes(); len(got) != n {
		t.Errorf("%d pushes in all, want %d: %+v", len(got), n, got)
	}
}

// env is the environment of a test's hub and askers: its state in
// state, the user's home as it is.
func env(state string) func(string) string {
	home := os.Getenv("HOME")
	return func(k string) string {
		switch k {
		case "HOME":
			return home
		case "XDG_STATE_HOME":
			return state
		}
		return ""
	}
}

// testHub runs a real hub with its state in state and the hub config
// file body.
func testHub(t *testing.T, state, config string) (hub.Info, func() error) {
	return testHubTB(t, state, config)
}

func testHubTB(t testing.TB, state, config string) (hub.Info, func() error) {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "hub.json")
	if err := os.WriteFile(cfg, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithDeadline(context.Background(), testkit.PatienceDeadline(t))
	defer cancel()
	info, stop, err := hubserver.Start(ctx, &hubserver.Options{ConfigFile: cfg, Getenv: env(state)})
	if err != nil {
		t.Fatal(err)
	}
	return info, stop
}

func pushConfig(server string, delayMs int) string {
	return `{"push": {"delayMs": ` + itoa(delayMs) + `, "ntfy": {"server": "` + server + `", "topic": "` + topic +
		`", "token": "` + ntfyTok + `", "link": "` + pageLink + `"}}}`
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// asker asks request through the hub alone, the one of state, with
// timeoutMs per question, and returns the channel its result comes on.
func asker(t *testing.T, state string, timeoutMs int64) (*hub.Link, chan contract.Result) {
	return askerTB(t, state, timeoutMs)
}

func askerTB(t testing.TB, state string, timeoutMs int64) (*hub.Link, chan contract.Result) {
	t.Helper()
	l := hub.NewLink(&hub.LinkOptions{
		Dial: func(ctx context.Context) (*hub.Client, error) {
			return hub.Dial(ctx, &hub.DialOptions{Getenv: env(state)})
		},
		Agent:   "claude-code",
		Project: filepath.Join(os.Getenv("HOME"), "src", "api"),
	})
	a := ask.NewAsker(ask.NewHost(l.Join(ask.Capabilities{}), &ask.HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: &timeoutMs}}), nil)
	res := make(chan contract.Result, 1)
	ctx, cancel := context.WithCancel(context.Background())
	calls.Store(l, cancel)
	go func() { res <- ask.AskJSON(ctx, a, ask.AskUser, []byte(request), nil) }()
	return l, res
}

// calls holds the cancel function of the call each link of askerTB
// makes, by link: closeLink ends a call still waiting, so that the link
// closes at once rather than wait for it.
var calls sync.Map

func closeLink(l *hub.Link) {
	if cancel, ok := calls.LoadAndDelete(l); ok {
		cancel.(context.CancelFunc)()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l.Close(ctx)
}

func pending(t *testing.T, c *hub.Client, n int) []hub.Question {
	t.Helper()
	for end := testkit.PatienceDeadline(t); ; time.Sleep(10 * time.Millisecond) {
		qs, err := c.Pending(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(qs) == n {
			return qs
		}
		if time.Now().After(end) {
			t.Fatalf("%d questions wait, want %d", len(qs), n)
		}
	}
}

// checkClean fails if a push carries any of the question's text or a
// token.
func checkClean(t *testing.T, p pushed, hubToken string) {
	t.Helper()
	all := p.path + "\n" + p.body
	for k, vs := range p.header {
		if k == "Authorization" {
			continue // the ntfy token, where it belongs
		}
		all += "\n" + k + ": " + strings.Join(vs, ",")
	}
	for _, secret := range []string{"Deploy where secretly", "staging-optionA", "prod-optionB", ntfyTok, hubToken} {
		if strings.Contains(all, secret) {
			t.Errorf("a push carries %q:\n%s", secret, all)
		}
	}
}

// TestEscalation: a question answered within the delay is never pushed;
// one still waiting after it is pushed once, Delay after it was asked,
// saying who asks and how long is left, and opening the question on the
// page; the push says nothing of the question itself.
func TestEscalation(t *testing.T) {
	rec := newRecorder(t)
	state := t.TempDir()
	info, stop := testHub(t, state, pushConfig(rec.srv.URL, 700))
	defer rec.stopHub(t, stop, 1)
	c, err := hub.Dial(context.Background(), &hub.DialOptions{Info: &info})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	// Answered in time: no push.
	l1, res1 := asker(t, state, 600000)
	q1 := pending(t, c, 1)[0]
	answer := `{"status":"answered","answers":[{"index":0,"id":"q1","title":"Deploy where secretly?","kind":"single","selections":["prod-optionB"],"usedDefault":false}]}`
	if _, err := c.Answer(context.Background(), q1.ID, []byte(answer), "program"); err != nil {
		t.Fatal(err)
	}
	<-res1
	closeLink(l1)

	// Left waiting: one push.
	l2, res2 := asker(t, state, 600000)
	defer closeLink(l2)
	q2 := pending(t, c, 1)[0]
	got := rec.waitPushes(t, 1)
	p := got[0]
	lag := p.at.Sub(q2.Created.Add(700 * time.Millisecond))
	t.Logf("pushed %v after the delay", lag)
	// Never before the delay; after it, however late a loaded machine
	// runs, but not as late as the default delay would have been.
	if lag < 0 || lag >= notify.DefaultPushDelay-700*time.Millisecond {
		t.Errorf("pushed %v after the delay, want at or after it, and before the default delay", lag)
	}
	if p.path != "/"+topic {
		t.Errorf("pushed to %q, want /%s", p.path, topic)
	}
	if want := "claude-code in ~/src/api waits: 1 question, 10m left"; p.body != want {
		t.Errorf("body %q, want %q", p.body, want)
	}
	if got, want := p.header.Get("Click"), pageLink+"#q="+q2.ID; got != want {
		t.Errorf("Click %q, want %q", got, want)
	}
	if got := p.header.Get("Authorization"); got != "Bearer "+ntfyTok {
		t.Errorf("Authorization %q, want the ntfy token", got)
	}
	checkClean(t, p, info.Token)
	if _, err := c.Dismiss(context.Background(), q2.ID, "test"); err != nil {
		t.Fatal(err)
	}
	<-res2
}

// TestReminder: with no delay, a question of a 22 s deadline is pushed
// at once, and again as the reminder 11 s before its deadline.
func TestReminder(t *testing.T) {
	rec := newRecorder(t)
	state := t.TempDir()
	info, stop := testHub(t, state, pushConfig(rec.srv.URL, 0))
	defer rec.stopHub(t, stop, 2)
	asked := time.Now()
	l, res := asker(t, state, 22000)
	defer closeLink(l)
	leftIn := func(body string) int {
		if m := regexp.MustCompile(`waits: 1 question, (\d+)s left$`).FindStringSubmatch(body); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
		return -1
	}
	got := rec.waitPushes(t, 1)
	// The deadline counts from the call; the push says what was left when
	// the hub sent it, after the question reached the hub, which a loaded
	// machine may take seconds: at most 22s, at least what was left when
	// the push came.
	least := int((22*time.Second - got[0].at.Sub(asked)) / time.Second)
	if left := leftIn(got[0].body); left < least || left > 22 {
		t.Errorf("first push %q, %v after the call; want between %ds and 22s left", got[0].body, got[0].at.Sub(asked).Round(time.Millisecond), least)
	}
	got = rec.waitPushes(t, 2)
	// The reminder is due when half the time is left: never before, and
	// before the deadline however late a loaded machine runs it.
	after := got[1].at.Sub(asked)
	if after < 10*time.Second {
		t.Errorf("the reminder came %v after the call, want about 11s", after)
	}
	t.Logf("the reminder came %v after the call, %v after the first push", after, got[1].at.Sub(got[0].at))
	if left := leftIn(got[1].body); left < 1 || left > 11 {
		t.Errorf("reminder %q, want one with at most 11s left", got[1].body)
	}
	for _, p := range got {
		checkClean(t, p, info.Token)
	}
	// Dismissed rather than left to its deadline, which the test has no
	// need to wait for.
	c, err := hub.Dial(context.Background(), &hub.DialOptions{Info: &info})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Dismiss(context.Background(), pending(t, c, 1)[0].ID, "test"); err != nil {
		t.Fatal(err)
	}
	<-res
}

// TestRestartPushesOnce: a hub that restarts on the same store does not
// push again what it pushed before.
func TestRestartPushesOnce(t *testing.T) {
	rec := newRecorder(t)
	state := t.TempDir()
	info, stop := testHub(t, state, pushConfig(rec.srv.URL, 0))
	c, err := hub.Dial(context.Background(), &hub.DialOptions{Info: &info})
	if err != nil {
		t.Fatal(err)
	}
	l, res := asker(t, state, 600000)
	q := pending(t, c, 1)[0]
	c.Close()
	rec.waitPushes(t, 1)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	info, stop = testHub(t, state, pushConfig(rec.srv.URL, 0))
	c, err = hub.Dial(context.Background(), &hub.DialOptions{Info: &info})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got := pending(t, c, 1)[0]; got.ID != q.ID {
		t.Fatalf("after the restart %s waits, want %s", got.ID, q.ID)
	}
	// The restarted hub comes to the old question before a new one asked
	// after it: once the new one is pushed, the old one was passed over.
	l2, res2 := asker(t, state, 600000)
	var q2 hub.Question
	for _, w := range pending(t, c, 2) {
		if w.ID != q.ID {
			q2 = w
		}
	}
	got := rec.waitPushes(t, 2)
	if click := got[1].header.Get("Click"); click != pageLink+"#q="+q2.ID {
		t.Errorf("after the restart the hub pushed %q, want only the new question %s", click, q2.ID)
	}
	for _, w := range []hub.Question{q, q2} {
		if _, err := c.Dismiss(context.Background(), w.ID, "test"); err != nil {
			t.Fatal(err)
		}
	}
	<-res
	<-res2
	closeLink(l)
	closeLink(l2)
	rec.stopHub(t, stop, 2)
}

// TestConfigRefused: a hub whose config is wrong does not start, and
// says what is wrong and where.
func TestConfigRefused(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		mode         os.FileMode
		says         string
	}{
		{"http elsewhere", `{"push": {"ntfy": {"server": "http://ntfy.example", "topic": "t"}}}`, 0o600, "push.ntfy.server: must use https"},
		{"not a server", `{"push": {"ntfy": {"server": "https://ntfy.sh/mytopic", "topic": "t"}}}`, 0o600, "push.ntfy.server: must be the server's address alone"},
		{"bad topic", `{"push": {"ntfy": {"server": "https://ntfy.sh", "topic": "a/b"}}}`, 0o600, "push.ntfy.topic: must be 1 to 64 letters"},
		{"no topic", `{"push": {"ntfy": {"server": "https://ntfy.sh"}}}`, 0o600, "push.ntfy: has no topic"},
		{"empty server", `{"push": {"ntfy": {"server": "", "topic": "t"}}}`, 0o600, "push.ntfy.server: must not be empty"},
		{"no ntfy", `{"push": {"delayMs": 5}}`, 0o600, "push: names no ntfy server"},
		{"negative delay", `{"push": {"delayMs": -1, "ntfy": {"server": "https://ntfy.sh", "topic": "t"}}}`, 0o600, "push.delayMs:"},
		{"unknown member", `{"push": {"ntfy": {"server": "https://ntfy.sh", "topic": "t", "tokn": "x"}}}`, 0o600, "push.ntfy:"},
		{"duplicate", `{"push": {"ntfy": {"server": "https://ntfy.sh", "topic": "t"}}, "push": {}}`, 0o600, "duplicate"},
		{"link with a query", `{"push": {"ntfy": {"server": "https://ntfy.sh", "topic": "t", "link": "https://x/?token=1"}}}`, 0o600, "push.ntfy.link:"},
		{"token others read", `{"push": {"ntfy": {"server": "https://ntfy.sh", "topic": "t", "token": "tk"}}}`, 0o644, "others may read it (mode 0644)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := filepath.Join(dir, "config.json")
			if err := os.WriteFile(cfg, []byte(tc.config), tc.mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(cfg, tc.mode); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			hd := filepath.Join(dir, "hub")
			err := hubserver.Run(ctx, &hubserver.Options{ConfigFile: cfg, Paths: hub.Paths{
				Dir: hd, Info: filepath.Join(hd, "hub.json"), Lock: filepath.Join(hd, "hub.lock"), Store: filepath.Join(hd, "jetstream"),
			}})
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("err = %v, want one saying %q", err, tc.says)
			}
			if strings.Contains(tc.config, `"token": "tk"`) && strings.Contains(err.Error(), `"tk"`) {
				t.Errorf("the error shows the token: %v", err)
			}
		})
	}
}

// TestText checks what a push says, from an agent's tag alone.
func TestText(t *testing.T) {
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	in := func(d time.Duration) *time.Time { t := now.Add(d); return &t }
	for _, tc := range []struct {
		name string
		tag  hub.Tag
		want string
	}{
		{"one", hub.Tag{Agent: "claude-code", Project: "/home/me/api", Questions: 1, Deadline: in(4 * time.Minute)}, "claude-code in ~/api waits: 1 question, 4m left"},
		{"two, no deadline", hub.Tag{Agent: "Pi", Project: "/srv/x", Questions: 2}, "Pi in /srv/x waits: 2 questions"},
		{"deep project", hub.Tag{Agent: "codex", Project: "/home/me/src/work/shop/api", Questions: 3}, "codex in …/shop/api waits: 3 questions"},
		{"no agent, no project", hub.Tag{Questions: 1}, "an agent waits: 1 question"},
		{"controls", hub.Tag{Agent: "evil\x1b]0;pwned\a\u202eagent", Project: "/home/me/a\nb", Questions: 1}, "evil␛]0,pwned␇<U+202E>agent in ~/a␊b waits: 1 question"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := notify.PushText(&hub.Question{Tag: tc.tag}, now, "/home/me"); got != tc.want {
				t.Errorf("Text = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestApprovalPush checks what the push of an approval says: that it is
// one, who wants to do what, in which project, and never the command,
// whatever it holds.
func TestApprovalPush(t *testing.T) {
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	in4m := now.Add(4 * time.Minute)
	for _, hc := range testkit.HostileCommands {
		t.Run(hc.Name, func(t *testing.T) {
			q := testkit.ApprovalQuestion("q1", "claude-code", "/home/me/api", hc.Command, now)
			q.Tag.Deadline = &in4m
			if got, want := notify.PushText(q, now, "/home/me"), "claude-code in ~/api wants to run a command, 4m left"; got != want {
				t.Errorf("PushText = %q, want %q", got, want)
			}
			if title, tag := notify.PushTitle(q); title != "askuser: an approval waits" || tag != "lock" {
				t.Errorf("PushTitle = %q, %q, want an approval's", title, tag)
			}
		})
	}
	for _, tc := range []struct {
		name string
		edit func(q *hub.Question)
		want string
	}{
		{"no project, no deadline", func(q *hub.Question) { q.Tag.Project = "" }, "claude-code wants to run a command"},
		{"no agent", func(q *hub.Question) { q.Tag.Agent, q.Tag.Project = "", "/srv/x" }, "an agent in /srv/x wants to run a command"},
		{"a hostile tag", func(q *hub.Question) { q.Tag.Agent = "evil\x1b]52;c;eA==\a\u202e" }, "evil␛]52,c,eA==␇<U+202E> in ~/api wants to run a command"},
		{"a tag that says nothing", func(q *hub.Question) { q.Tag.Wants = "" }, "claude-code in ~/api asks for approval"},
		{"a question's text is not read", func(q *hub.Question) {
			q.Tag.Wants, q.Request = "", []byte(`{"questions":[{"question":"codex wants to run a command. Allow it?"}]}`)
		}, "claude-code in ~/api asks for approval"},
		{"another tool", func(q *hub.Question) { q.Tag.Wants = "use mcp__github__create_issue\u001b[2J" }, "claude-code in ~/api wants to use mcp__github__create_issue␛[2J"},
		{"a question is not an approval", func(q *hub.Question) { q.Tag.Kind = "" }, "claude-code in ~/api waits: 1 question"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := testkit.ApprovalQuestion("q1", "claude-code", "/home/me/api", "make", now)
			tc.edit(q)
			if got := notify.PushText(q, now, "/home/me"); got != tc.want {
				t.Errorf("PushText = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLinkToThePairedPage: with no link of its own, a push opens the
// question on the page the hub serves over HTTPS to its paired devices,
// with no token in the address.
func TestLinkToThePairedPage(t *testing.T) {
	rec := newRecorder(t)
	state := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "hub.json")
	if err := os.WriteFile(cfg, []byte(`{"push": {"delayMs": 0, "ntfy": {"server": "`+rec.srv.URL+`", "topic": "`+topic+`"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithDeadline(context.Background(), testkit.PatienceDeadline(t))
	defer cancel()
	page := make(chan string, 1)
	_, stop, err := hubserver.Start(ctx, &hubserver.Options{ConfigFile: cfg, Getenv: env(state), Web: "127.0.0.1:0", WebTLS: true,
		WebReady: func(u string) { page <- u }})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.stopHub(t, stop, 1)
	base, token, _ := strings.Cut(<-page, "#token=")
	l, _ := asker(t, state, 60000)
	defer closeLink(l)
	got := rec.waitPushes(t, 1)
	click := got[0].header.Get("Click")
	if !strings.HasPrefix(base, "https://127.0.0.1:") || !regexp.MustCompile(`^`+regexp.QuoteMeta(base)+`#q=[a-z0-9]+$`).MatchString(click) || strings.Contains(click, token) {
		t.Errorf("the push opens %q; want the question on %s, with no token", click, base)
	}
}

// TestRedirectNotFollowed: an ntfy server that answers a push with a
// redirect to another address does not get the push posted there, over
// http or at all; the hub's log says why the push failed.
func TestRedirectNotFollowed(t *testing.T) {
	elsewhere := newRecorder(t)
	var asked atomic.Int32
	ntfy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		asked.Add(1)
		target := strings.Replace(elsewhere.srv.URL, "127.0.0.1", "localhost", 1) + req.URL.Path
		http.Redirect(w, req, target, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(ntfy.Close)
	state := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "hub.json")
	if err := os.WriteFile(cfg, []byte(pushConfig(ntfy.URL, 0)), 0o600); err != nil {
		t.Fatal(err)
	}
	var log testkit.Buffer
	ctx, cancel := context.WithDeadline(context.Background(), testkit.PatienceDeadline(t))
	defer cancel()
	_, stop, err := hubserver.Start(ctx, &hubserver.Options{ConfigFile: cfg, Getenv: env(state), Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	l, _ := asker(t, state, 600000)
	defer closeLink(l)
	const want = "answered 307 Temporary Redirect, which a push does not follow"
	for !strings.Contains(log.String(), want) {
		select {
		case <-ctx.Done():
			t.Fatalf("the hub's log does not say %q:\n%s", want, log.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("the ntfy server was asked %d times, want once", n)
	}
	if got := elsewhere.pushes(); len(got) != 0 {
		t.Errorf("the push followed the redirect to another address: %+v", got)
	}
	for _, secret := range []string{topic, ntfyTok} {
		if strings.Contains(log.String(), secret) {
			t.Errorf("the hub's log holds %q:\n%s", secret, log.String())
		}
	}
}
