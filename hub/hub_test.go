package hub_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/prefs"
)

const askUserReq = `{"questions": [{"title": "Deploy where?", "options": [{"label": "staging"}, {"label": "prod"}]}]}`
const auqReq = `{"questions": [{"id": "db", "question": "Which database?", "header": "Database",
  "options": [{"id": "pg", "label": "Postgres", "description": "d"}, {"id": "lite", "label": "SQLite", "description": "d"}]}]}`

// startHub runs a real hub, an embedded NATS server with JetStream, in
// a directory of the test's, until the test ends.
func startHub(t *testing.T) hub.Info { return startHubB(t) }

func startHubB(t testing.TB) hub.Info {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Patience(t))
	defer cancel()
	info, stop, err := hubserver.Start(ctx, &hubserver.Options{Paths: pathsIn(t.TempDir())})
	if err != nil {
		t.Fatalf("hub did not start: %v", err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("hub: %v", err)
		}
	})
	return info
}

func pathsIn(dir string) hub.Paths {
	return hub.Paths{Dir: dir, Info: filepath.Join(dir, "hub.json"), Lock: filepath.Join(dir, "hub.lock"), Store: filepath.Join(dir, "jetstream")}
}

func dial(t *testing.T, info hub.Info) *hub.Client {
	t.Helper()
	c, err := hub.Dial(context.Background(), &hub.DialOptions{Info: &info})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// askUserAnswer is the result JSON of an answer choosing label.
func askUserAnswer(t *testing.T, label string) []byte {
	t.Helper()
	req, _, err := contract.Parse([]byte(askUserReq))
	if err != nil {
		t.Fatal(err)
	}
	a := contract.NewAnswer(req, 0)
	a.Selections = []string{label}
	b, err := json.Marshal(contract.Result{Status: contract.StatusAnswered, Route: contract.RouteCustom, Answers: []contract.Answer{a}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func auqAnswer(t *testing.T, id, label string) []byte {
	t.Helper()
	b, err := json.Marshal(auq.Result{Answers: map[string]auq.Answer{"db": {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: id, Label: label}}}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// blockingLocal is a host renderer that shows nothing and returns when
// released, with its outcome, or when its context ends.
type blockingLocal struct {
	release chan ask.Outcome[[]contract.Answer]
	cause   chan error
}

func newBlockingLocal() *blockingLocal {
	return &blockingLocal{release: make(chan ask.Outcome[[]contract.Answer], 1), cause: make(chan error, 1)}
}

func (b *blockingLocal) Render(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
	select {
	case o := <-b.release:
		return o, nil
	case <-ctx.Done():
		b.cause <- context.Cause(ctx)
		return ask.Outcome[[]contract.Answer]{}, ctx.Err()
	}
}

// showingDialog is a dialog that shows each question until its call
// ends elsewhere; it sends the session of each on the channel.
func showingDialog() (ask.RendererFunc[*contract.Request, []contract.Answer], <-chan *ask.Session[*contract.Request]) {
	sessions := make(chan *ask.Session[*contract.Request], 1)
	return func(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
		sessions <- s
		<-ctx.Done()
		return ask.Outcome[[]contract.Answer]{}, ctx.Err()
	}, sessions
}

// waitPending returns the one question waiting on the hub, once there is one.
func waitPending(t *testing.T, c *hub.Client) hub.Question {
	t.Helper()
	deadline := testkit.PatienceDeadline(t)
	for time.Now().Before(deadline) {
		qs, err := c.Pending(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(qs) == 1 {
			return qs[0]
		}
		if len(qs) > 1 {
			t.Fatalf("%d questions wait, want 1", len(qs))
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no question reached the hub")
	return hub.Question{}
}

func newAsker(t *testing.T, l *hub.Link, caps ask.Capabilities, timeoutMs int64) *ask.Asker {
	t.Helper()
	return ask.NewAsker(ask.NewHost(l.Join(caps), &ask.HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: &timeoutMs}}), nil)
}

func TestHubAnswerWins(t *testing.T) {
	info := startHub(t)
	c := dial(t, info)
	local := newBlockingLocal()
	var where atomic.Value
	l := hub.NewLink(&hub.LinkOptions{
		Dial:     func(ctx context.Context) (*hub.Client, error) { return hub.Dial(ctx, &hub.DialOptions{Info: &info}) },
		Agent:    "test agent",
		Local:    "the test's terminal",
		Answered: func(_ string, a hub.Answer) { where.Store(a.Where()) },
	})
	defer closeLink(l)
	a := newAsker(t, l, ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, local), 60000)
	results := make(chan contract.Result, 1)
	go func() { results <- ask.AskJSON(context.Background(), a, ask.AskUser, []byte(askUserReq), nil) }()

	q := waitPending(t, c)
	if q.Tag.Agent != "test agent" || q.Tag.Contract != hub.ContractAskUser || q.Tag.Questions != 1 || q.Tag.Deadline == nil || q.Tag.Machine == "" || q.Tag.Project == "" {
		t.Errorf("tag = %+v", q.Tag)
	}
	// A bad answer is refused with the reason; the question stays open.
	_, err := c.Answer(context.Background(), q.ID, askUserAnswer(t, "moon"), "askuser answer (policy)")
	var re *hub.RefusedError
	if !errors.As(err, &re) || re.Reason != hub.RefusedInvalid || !strings.Contains(re.Message, "moon") {
		t.Fatalf("bad answer: err = %v, want a refusal naming the label", err)
	}
	if got, err := c.Answer(context.Background(), q.ID, askUserAnswer(t, "prod"), "askuser answer (policy)"); err != nil {
		t.Fatalf("good answer refused: %v", err)
	} else if got.Status != hub.StatusAnswered {
		t.Errorf("stored %+v", got)
	}
	res := <-results
	if res.Status != contract.StatusAnswered || len(res.Answers) != 1 || res.Answers[0].Selections[0] != "prod" {
		t.Fatalf("result = %+v", res)
	}
	if cause := <-local.cause; !errors.Is(cause, hub.ErrAnsweredElsewhere) {
		t.Errorf("local renderer stopped by %v, want ErrAnsweredElsewhere", cause)
	}
	if w, _ := where.Load().(string); w != "answered by askuser answer (policy)" {
		t.Errorf("where = %q", w)
	}
	// The same answer again is refused, saying who answered.
	_, err = c.Answer(context.Background(), q.ID, askUserAnswer(t, "prod"), "another")
	if !errors.As(err, &re) || re.Reason != hub.RefusedAnswered || !strings.Contains(re.Message, "askuser answer (policy)") {
		t.Fatalf("second answer: err = %v", err)
	}
	if qs, _ := c.Pending(context.Background()); len(qs) != 0 {
		t.Errorf("%d questions still wait", len(qs))
	}
}

func TestLocalAnswerWins(t *testing.T) {
	info := startHub(t)
	c := dial(t, info)
	local := newBlockingLocal()
	l := hub.NewLink(&hub.LinkOptions{
		Dial:  func(ctx context.Context) (*hub.Client, error) { return hub.Dial(ctx, &hub.DialOptions{Info: &info}) },
		Local: "the test's terminal",
	})
	a := newAsker(t, l, ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, local), 60000)
	results := make(chan contract.Result, 1)
	go func() { results <- ask.AskJSON(context.Background(), a, ask.AskUser, []byte(askUserReq), nil) }()
	q := waitPending(t, c)
	req, _, _ := contract.Parse([]byte(askUserReq))
	ans := contract.NewAnswer(req, 0)
	ans.Selections = []string{"staging"}
	local.release <- ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{ans}}
	if res := <-results; res.Status != contract.StatusAnswered || res.Answers[0].Selections[0] != "staging" {
		t.Fatalf("result = %+v", res)
	}
	l.Close(context.Background())
	_, err := c.Answer(context.Background(), q.ID, askUserAnswer(t, "prod"), "late program")
	var re *hub.RefusedError
	if !errors.As(err, &re) || re.Reason != hub.RefusedAnswered || !strings.Contains(re.Message, "answered in the test's terminal") {
		t.Fatalf("answer after the local one: err = %v", err)
	}
}

func TestHeadlessWaitsForHub(t *testing.T) {
	info := startHub(t)
	c := dial(t, info)
	l := hub.NewLink(&hub.LinkOptions{
		Dial: func(ctx context.Context) (*hub.Client, error) { return hub.Dial(ctx, &hub.DialOptions{Info: &info}) },
	})
	defer closeLink(l)
	if err := l.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	a := newAsker(t, l, ask.Capabilities{CustomReason: "no terminal", NativeReason: "no terminal"}, 60000)
	outs := make(chan auq.Outcome, 1)
	go func() { outs <- ask.AskJSON(context.Background(), a, ask.AskUserQuestion, []byte(auqReq), nil) }()
	q := waitPending(t, c)
	if q.Tag.Contract != hub.ContractAskUserQuestion {
		t.Errorf("contract = %q", q.Tag.Contract)
	}
	// An unknown label, and text with a control character, are refused.
	for _, bad := range [][]byte{auqAnswer(t, "pg", "MySQL"), []byte(`{"cancelled":false,"answers":{"db":{"kind":"single","label":"Other","other":true,"text":"a\u001b[2Jb"}}}`)} {
		if _, err := c.Answer(context.Background(), q.ID, bad, "p"); err == nil {
			t.Fatalf("answer %s accepted", bad)
		}
	}
	if _, err := c.Answer(context.Background(), q.ID, auqAnswer(t, "pg", "Postgres"), "p"); err != nil {
		t.Fatal(err)
	}
	out := <-outs
	if out.Status != auq.StatusSubmitted || out.Result.Answers["db"].Choice.Label != "Postgres" {
		t.Fatalf("outcome = %+v", out)
	}
}

func TestExactlyOnce(t *testing.T) {
	info := startHub(t)
	c := dial(t, info)
	l := hub.NewLink(&hub.LinkOptions{
		Dial: func(ctx context.Context) (*hub.Client, error) { return hub.Dial(ctx, &hub.DialOptions{Info: &info}) },
	})
	defer closeLink(l)
	a := newAsker(t, l, ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, newBlockingLocal()), 60000)
	results := make(chan contract.Result, 1)
	go func() { results <- ask.AskJSON(context.Background(), a, ask.AskUser, []byte(askUserReq), nil) }()
	q := waitPending(t, c)
	const n = 8
	var wg sync.WaitGroup
	var won atomic.Int32
	var lost atomic.Int32
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			cc := dial(t, info)
			<-start
			label := []string{"staging", "prod"}[i%2]
			_, err := cc.Answer(context.Background(), q.ID, askUserAnswer(t, label), "program")
			var re *hub.RefusedError
			switch {
			case err == nil:
				won.Add(1)
			case errors.As(err, &re) && re.Reason == hub.RefusedAnswered:
				lost.Add(1)
			default:
				t.Errorf("answer %d: %v", i, err)
			}
		})
	}
	close(start)
	wg.Wait()
	if won.Load() != 1 || lost.Load() != n-1 {
		t.Fatalf("%d answers won and %d were refused as answered, want 1 and %d", won.Load(), lost.Load(), n-1)
	}
	if res := <-results; res.Status != contract.StatusAnswered {
		t.Fatalf("result = %+v", res)
	}
}

func TestUnreachableHubLeavesLocalRoute(t *testing.T) {
	dead := hub.Info{URL: "nats://127.0.0.1:1", Token: "x"}
	var told atomic.Int32
	l := hub.NewLink(&hub.LinkOptions{
		Dial: func(ctx context.Context) (*hub.Client, error) {
			return hub.Dial(ctx, &hub.DialOptions{Info: &dead, Timeout: 200 * time.Millisecond})
		},
		Unreachable: func(error) { told.Add(1) },
	})
	defer closeLink(l)
	req, _, _ := contract.Parse([]byte(askUserReq))
	ans := contract.NewAnswer(req, 0)
	ans.Selections = []string{"prod"}
	local := ask.RendererFunc[*contract.Request, []contract.Answer](func(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
		return ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{ans}}, nil
	})
	a := newAsker(t, l, ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, local), 60000)
	for range 2 {
		if res := ask.AskJSON(context.Background(), a, ask.AskUser, []byte(askUserReq), nil); res.Status != contract.StatusAnswered {
			t.Fatalf("result = %+v", res)
		}
	}
	l.Close(context.Background())
	if told.Load() != 1 {
		t.Errorf("the person was told %d times, want once", told.Load())
	}
}

func TestLateUnknownAndExpired(t *testing.T) {
	t.Parallel()
	info := startHub(t)
	c := dial(t, info)
	l := hub.NewLink(&hub.LinkOptions{
		Dial: func(ctx context.Context) (*hub.Client, error) { return hub.Dial(ctx, &hub.DialOptions{Info: &info}) },
	})
	a := newAsker(t, l, ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, newBlockingLocal()), 1000)
	results := make(chan contract.Result, 1)
	go func() { results <- ask.AskJSON(context.Background(), a, ask.AskUser, []byte(askUserReq), nil) }()
	q := waitPending(t, c)
	if res := <-results; res.Status != contract.StatusTimeout {
		t.Fatalf("result = %+v", res)
	}
	l.Close(context.Background())
	_, err := c.Answer(context.Background(), q.ID, askUserAnswer(t, "prod"), "p")
	var re *hub.RefusedError
	if !errors.As(err, &re) || re.Reason != hub.RefusedAnswered || !strings.Contains(re.Message, "timed out") {
		t.Fatalf("answer after the timeout: %v", err)
	}
	_, err = c.Answer(context.Background(), "zzzzzzzzzzzz", askUserAnswer(t, "prod"), "p")
	if !errors.As(err, &re) || re.Reason != hub.RefusedUnknown {
		t.Fatalf("unknown id: %v", err)
	}
	_, err = c.Answer(context.Background(), "x.>", askUserAnswer(t, "prod"), "p")
	if !errors.As(err, &re) || re.Reason != hub.RefusedUnknown {
		t.Fatalf("bad id: %v", err)
	}
}

func TestInfoFileIsPrivate(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "hub.json")
	if err := hubserver.WriteInfo(p, hub.Info{URL: "nats://127.0.0.1:4222", Token: "t"}); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600", st.Mode().Perm())
	}
	if _, err := hub.ReadInfo(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := hub.ReadInfo(p); err == nil || !strings.Contains(err.Error(), "read by others") {
		t.Errorf("a readable info file: err = %v", err)
	}
	if _, err := hub.ReadInfo(filepath.Join(dir, "none.json")); !errors.Is(err, hub.ErrNoHub) {
		t.Errorf("missing file: err = %v, want ErrNoHub", err)
	}
}

// closeLink closes l, waiting at most five seconds for its questions.
func closeLink(l *hub.Link) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l.Close(ctx)
}

// TestSameMomentExactlyOnce lets the terminal and a program answer at the
// same moment, many times: each time exactly one wins, the call's result
// is the winner's, and the loser is told.
func TestSameMomentExactlyOnce(t *testing.T) {
	info := startHub(t)
	c := dial(t, info)
	l := hub.NewLink(&hub.LinkOptions{
		Dial:  func(ctx context.Context) (*hub.Client, error) { return hub.Dial(ctx, &hub.DialOptions{Info: &info}) },
		Local: "the test's terminal",
	})
	defer closeLink(l)
	req, _, _ := contract.Parse([]byte(askUserReq))
	local := contract.NewAnswer(req, 0)
	local.Selections = []string{"staging"}
	hubWins := 0
	for i := range 20 {
		r := newBlockingLocal()
		a := newAsker(t, l, ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, r), 60000)
		results := make(chan contract.Result, 1)
		go func() { results <- ask.AskJSON(context.Background(), a, ask.AskUser, []byte(askUserReq), nil) }()
		q := waitPending(t, c)
		answered := make(chan error, 1)
		go func() {
			_, err := c.Answer(context.Background(), q.ID, askUserAnswer(t, "prod"), "program")
			answered <- err
		}()
		r.release <- ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{local}}
		err := <-answered
		res := <-results
		got := res.Answers[0].Selections[0]
		var re *hub.RefusedError
		switch {
		case err == nil:
			hubWins++
			if got != "prod" {
				t.Fatalf("round %d: the program's answer was accepted, but the result is %q", i, got)
			}
		case errors.As(err, &re) && re.Reason == hub.RefusedAnswered:
			if got != "staging" {
				t.Fatalf("round %d: the program was refused, but the result is %q", i, got)
			}
		default:
			t.Fatalf("round %d: %v", i, err)
		}
		// The question leaves the queue either way.
		deadline := testkit.PatienceDeadline(t)
		for qs, _ := c.Pending(context.Background()); len(qs) != 0; qs, _ = c.Pending(context.Background()) {
			if time.Now().After(deadline) {
				t.Fatalf("round %d: the question still waits", i)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	t.Logf("the program won %d of 20 rounds", hubWins)
}

// twinTimedOut asks, through a link of its own to the hub of info, a
// question with timeoutMs and no surface to answer it, and waits until
// its deadline ends it: a question asked before it with the same
// timeout has then outlived its own deadline, as the askers' clock and
// the hub see it, unless its countdown was stopped: the event that marks
// the deadline's passing.
func twinTimedOut(t *testing.T, info hub.Info, timeoutMs int64) {
	t.Helper()
	l := hub.NewLink(&hub.LinkOptions{
		Dial: func(ctx context.Context) (*hub.Client, error) { return hub.Dial(ctx, &hub.DialOptions{Info: &info}) },
	})
	defer closeLink(l)
	timesOut(t, newAsker(t, l, ask.Capabilities{}, timeoutMs), []byte(askUserReq))
}

// timesOut asks req with a, which has no surface to answer it, and
// waits until its deadline ends it.
func timesOut(t *testing.T, a *ask.Asker, req []byte) {
	t.Helper()
	results := make(chan contract.Result, 1)
	go func() { results <- ask.AskJSON(context.Background(), a, ask.AskUser, req, nil) }()
	select {
	case res := <-results:
		if res.Status != contract.StatusTimeout {
			t.Fatalf("the twin question ended %+v, want a timeout", res)
		}
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the twin question did not time out")
	}
}

// TestCountdownStopped has the person stop the countdown in the local
// dialog: the question on the hub then outlives its first deadline, and
// an answer given there after it still wins.
func TestCountdownStopped(t *testing.T) {
	t.Parallel()
	info := startHub(t)
	c := dial(t, info)
	l := hub.NewLink(&hub.LinkOptions{
		Dial: func(ctx context.Context) (*hub.Client, error) { return hub.Dial(ctx, &hub.DialOptions{Info: &info}) },
	})
	defer closeLink(l)
	stopped := make(chan bool, 1)
	local := ask.RendererFunc[*contract.Request, []contract.Answer](func(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
		stopped <- s.Countdown.Cancel()
		<-ctx.Done()
		return ask.Outcome[[]contract.Answer]{}, ctx.Err()
	})
	a := newAsker(t, l, ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, local), 1000)
	results := make(chan contract.Result, 1)
	go func() { results <- ask.AskJSON(context.Background(), a, ask.AskUser, []byte(askUserReq), nil) }()
	if !<-stopped {
		t.Fatal("the countdown could not be stopped")
	}
	q := waitPending(t, c)
	// The question on the hub loses its deadline once the asker tells
	// the hub that its countdown stopped.
	deadline := testkit.PatienceDeadline(t)
	for {
		qs, err := c.Pending(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(qs) == 1 && qs[0].Tag.Deadline == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the question on the hub kept its deadline: %+v", qs)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Past the first deadline, which a question asked after it with the
	// same timeout did not outlive, an answer still wins.
	twinTimedOut(t, info, 1000)
	if _, err := c.Answer(context.Background(), q.ID, askUserAnswer(t, "prod"), "program"); err != nil {
		t.Fatalf("answer after the first deadline: %v", err)
	}
	if res := <-results; res.Status != contract.StatusAnswered {
		t.Fatalf("result = %+v", res)
	}
}

// TestStopCountdownElsewhere has a surface of the hub stop the countdown
// of a question asked with a 2 s deadline: the asker's countdown stops,
// the question outlives its deadline with no deadline on the hub, and an
// answer after it wins.
func TestStopCountdownElsewhere(t *testing.T) {
	t.Parallel()
	info := startHub(t)
	c := dial(t, info)
	l := hub.NewLink(&hub.LinkOptions{
		Dial: func(ctx context.Context) (*hub.Client, error) { return hub.Dial(ctx, &hub.DialOptions{Info: &info}) },
	})
	defer closeLink(l)
	local, sessions := showingDialog()
	a := newAsker(t, l, ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, local), 2000)
	results := make(chan contract.Result, 1)
	go func() { results <- ask.AskJSON(context.Background(), a, ask.AskUser, []byte(askUserReq), nil) }()
	s := <-sessions
	q := waitPending(t, c)
	if q.Tag.Deadline == nil {
		t.Fatal("the question reached the hub without its deadline")
	}
	if err := c.StopCountdown(context.Background(), q.ID, "alice in the test"); err != nil {
		t.Fatalf("StopCountdown: %v", err)
	}
	// A second stop finds no deadline left and changes nothing.
	if err := c.StopCountdown(context.Background(), q.ID, "bob"); err != nil {
		t.Fatalf("second StopCountdown: %v", err)
	}
	got, _, err := c.Question(context.Background(), q.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Tag.Deadline != nil || got.StoppedBy != "alice in the test" {
		t.Fatalf("on the hub: deadline %v, stopped by %q; want none, by alice in the test", got.Tag.Deadline, got.StoppedBy)
	}
	for wait := testkit.PatienceDeadline(t); ; time.Sleep(10 * time.Millisecond) {
		if _, ok := s.Countdown.Deadline(); !ok {
			break
		}
		if time.Now().After(wait) {
			t.Fatal("the asker's countdown kept running after a surface stopped it")
		}
	}
	// Past the first deadline, which a question asked after it with the
	// same timeout did not outlive, an answer still wins.
	twinTimedOut(t, info, 2000)
	if _, err := c.Answer(context.Background(), q.ID, askUserAnswer(t, "prod"), "program"); err != nil {
		t.Fatalf("answer after the first deadline: %v", err)
	}
	if res := <-results; res.Status != contract.StatusAnswered {
		t.Fatalf("result = %+v", res)
	}
}

// TestStopCountdownRefused lists what StopCountdown refuses, and why.
func TestStopCountdownRefused(t *testing.T) {
	info := startHub(t)
	c := dial(t, info)
	l := hub.NewLink(&hub.LinkOptions{
		Dial: func(ctx context.Context) (*hub.Client, error) { return hub.Dial(ctx, &hub.DialOptions{Info: &info}) },
	})
	defer closeLink(l)
	a := newAsker(t, l, ask.Capabilities{}, 60000)
	results := make(chan contract.Result, 1)
	go func() { results <- ask.AskJSON(context.Background(), a, ask.AskUser, []byte(askUserReq), nil) }()
	q := waitPending(t, c)
	if _, err := c.Answer(context.Background(), q.ID, askUserAnswer(t, "staging"), "program"); err != nil {
		t.Fatal(err)
	}
	<-results
	for _, tc := range []struct {
		name, id, by string
		reason       hub.Refusal
		says         string
	}{
		{"answered", q.ID, "alice", hub.RefusedAnswered, "already answered by program"},
		{"unknown", "zzzzzzzzzzzz", "alice", hub.RefusedUnknown, "no question zzzzzzzzzzzz waits"},
		{"not an id", "../x", "alice", hub.RefusedUnknown, "is not a question id"},
		{"blank name", q.ID, " ", "", "must not be blank"},
		{"control in name", q.ID, "a\x1b[2Jb", "", "control or formatting character"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := c.StopCountdown(context.Background(), tc.id, tc.by)
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("err = %v, want one saying %q", err, tc.says)
			}
			var re *hub.RefusedError
			if tc.reason != "" && (!errors.As(err, &re) || re.Reason != tc.reason) {
				t.Fatalf("err = %#v, want refused as %s", err, tc.reason)
			}
		})
	}
}

// TestRedial: a call whose only route is the hub outlives a dial that
// failed, as one may while many agents connect at once: the link dials
// again, the question reaches the hub and its answer the call.
func TestRedial(t *testing.T) {
	t.Parallel()
	info := startHub(t)
	c := dial(t, info)
	var dials atomic.Int32
	l := hub.NewLink(&hub.LinkOptions{
		Dial: func(ctx context.Context) (*hub.Client, error) {
			if dials.Add(1) == 1 {
				return nil, errors.New("write: broken pipe")
			}
			return hub.Dial(ctx, &hub.DialOptions{Info: &info})
		},
	})
	defer closeLink(l)
	a := newAsker(t, l, ask.Capabilities{}, 60000)
	results := make(chan contract.Result, 1)
	go func() { results <- ask.AskJSON(context.Background(), a, ask.AskUser, []byte(askUserReq), nil) }()
	q := waitPending(t, c)
	if _, err := c.Answer(context.Background(), q.ID, askUserAnswer(t, "prod"), "program"); err != nil {
		t.Fatal(err)
	}
	if res := <-results; res.Status != contract.StatusAnswered {
		t.Fatalf("result = %+v", res)
	}
	if n := dials.Load(); n != 2 {
		t.Errorf("%d dials, want 2", n)
	}
}

// TestReadInfoContents checks what ReadInfo takes from an info file: a
// newer hub's members are passed over, and a file without what a client
// needs is refused, saying why.
func TestReadInfoContents(t *testing.T) {
	cases := []struct {
		name, file, wantErr string
		want                hub.Info
	}{
		{"plain", `{"url":"nats://127.0.0.1:4222","token":"t","pid":7}`, "", hub.Info{URL: "nats://127.0.0.1:4222", Token: "t", PID: 7}},
		{"a newer hub's member", `{"url":"nats://127.0.0.1:4222","token":"t","pid":7,"later":{"x":1}}`, "", hub.Info{URL: "nats://127.0.0.1:4222", Token: "t", PID: 7}},
		{"no token", `{"url":"nats://127.0.0.1:4222"}`, "no url or token", hub.Info{}},
		{"not JSON", `url=nats://127.0.0.1:4222`, "invalid character", hub.Info{}},
		{"a member of the wrong type", `{"url":"nats://127.0.0.1:4222","token":"t","pid":"7"}`, "cannot unmarshal", hub.Info{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "hub.json")
			if err := os.WriteFile(p, []byte(c.file), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := hub.ReadInfo(p)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want one saying %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("info = %+v, want %+v", got, c.want)
			}
		})
	}
}
