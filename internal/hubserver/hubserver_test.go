package hubserver_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/prefs"
)

// childEnv makes the test binary serve as askuser-hub.
const childEnv = "ASKUSER_HUBSERVER_TEST_CHILD"

// TestMain serves as askuser-hub when childEnv is set, and removes the
// binaries the tests built when they are done.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
		// A test binary killed before its cleanup leaves no hub behind:
		// the hub stops when its parent is gone.
		ctx, orphaned := context.WithCancel(ctx)
		go func(parent int) {
			for os.Getppid() == parent {
				time.Sleep(100 * time.Millisecond)
			}
			orphaned()
		}(os.Getppid())
		code := hubserver.Main(ctx, nil, os.Stdout, os.Stderr, os.Getenv)
		stop()
		os.Exit(code)
	}
	code := m.Run()
	testkit.RemoveBuilds()
	os.Exit(code)
}

// hubProcess is a hub running as a process of its own.
type hubProcess struct {
	cmd    *exec.Cmd
	stderr *bytes.Buffer
	done   chan error
}

// startProcess starts a hub process whose state directory is state and
// waits until it has written its info file.
func startProcess(t testing.TB, state string) (*hubProcess, hub.Info) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1", "XDG_STATE_HOME="+state)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &hubProcess{cmd: cmd, stderr: &stderr, done: make(chan error, 1)}
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
	})
	paths, err := hub.Locate(getenv(state))
	if err != nil {
		t.Fatal(err)
	}
	deadline := testkit.PatienceDeadline(t)
	for {
		info, err := hub.ReadInfo(paths.Info)
		if err == nil && info.PID == cmd.Process.Pid {
			return p, info
		}
		select {
		case err := <-p.done:
			p.done <- err
			t.Fatalf("hub process ended: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("hub process not ready\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// wait waits for the process to end and returns its exit status.
func (p *hubProcess) wait(t testing.TB, within time.Duration) int {
	t.Helper()
	select {
	case err := <-p.done:
		p.done <- err
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				return 128 + int(ws.Signal())
			}
			return ee.ExitCode()
		}
		return 0
	case <-time.After(within):
		t.Fatalf("hub process did not end within %v\n%s", within, p.stderr.String())
		return -1
	}
}

func getenv(state string) func(string) string {
	return func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}
}

const req = `{"questions": [{"title": "Deploy where?", "options": [{"label": "staging"}, {"label": "prod"}]}]}`

func answerJSON(t *testing.T, label string) []byte {
	t.Helper()
	r, _, err := contract.Parse([]byte(req))
	if err != nil {
		t.Fatal(err)
	}
	a := contract.NewAnswer(r, 0)
	a.Selections = []string{label}
	return fmt.Appendf(nil, `{"status":"answered","answers":[{"index":0,"id":%q,"title":%q,"kind":%q,"selections":[%q],"usedDefault":false}]}`, a.ID, a.Title, a.Kind, label)
}

func pending(t *testing.T, c *hub.Client, want int) []hub.Question {
	t.Helper()
	deadline := testkit.PatienceDeadline(t)
	for {
		qs, err := c.Pending(context.Background())
		if err == nil && len(qs) == want {
			return qs
		}
		if time.Now().After(deadline) {
			t.Fatalf("pending: %d questions, err %v; want %d", len(qs), err, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestRestart runs real hub processes: a question survives SIGKILL, its
// asker reconnects to the next hub by itself and gets the answer given
// there, SIGTERM stops a hub at once, and the answer survives that too.
func TestRestart(t *testing.T) {
	state := t.TempDir()
	env := getenv(state)
	first, info := startProcess(t, state)
	paths, _ := hub.Locate(env)
	if st, err := os.Stat(paths.Info); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("info file: %v, mode %v; want 0600", err, st.Mode().Perm())
	}

	// A second hub for the same user refuses and names the first.
	err := hubserver.Run(context.Background(), &hubserver.Options{Getenv: env})
	var running *hubserver.RunningError
	if !errors.As(err, &running) || !strings.Contains(err.Error(), fmt.Sprintf("process %d at %s", info.PID, info.URL)) {
		t.Fatalf("second hub: %v", err)
	}

	results := askThrough(t, env)
	q := killHolding(t, env, first)
	second, _ := startProcess(t, state)
	c, err := hub.Dial(context.Background(), &hub.DialOptions{Getenv: env})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	answerHeld(t, c, q.ID, "restart test", results, "after SIGKILL")

	start := time.Now()
	if err := second.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := second.wait(t, testkit.Patience(t)); code != 0 {
		t.Fatalf("after SIGTERM the hub exited with %d\n%s", code, second.stderr.String())
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the hub took %v to stop", d)
	}
	if _, err := os.Stat(paths.Info); !os.IsNotExist(err) {
		t.Errorf("info file after SIGTERM: %v, want it removed", err)
	}

	startProcess(t, state)
	c2, err := hub.Dial(context.Background(), &hub.DialOptions{Getenv: env})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	_, err = c2.Answer(context.Background(), q.ID, answerJSON(t, "staging"), "another")
	var re *hub.RefusedError
	if !errors.As(err, &re) || re.Reason != hub.RefusedAnswered || !strings.Contains(re.Message, "restart test") {
		t.Fatalf("answer after SIGTERM and restart: %v", err)
	}
}

// askThrough asks req through a link to the user's hub that env
// locates, with a dialog that never answers, until the test ends, and
// returns the channel of its result.
func askThrough(t *testing.T, env func(string) string) <-chan contract.Result {
	t.Helper()
	return askLogged(t, env, nil)
}

// askLogged is askThrough, with what the link's client says told to log.
func askLogged(t *testing.T, env func(string) string, log func(string)) <-chan contract.Result {
	t.Helper()
	link := hub.NewLink(&hub.LinkOptions{
		Dial: func(ctx context.Context) (*hub.Client, error) {
			return hub.Dial(ctx, &hub.DialOptions{Getenv: env, Log: log})
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() {
		cancel()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		link.Close(ctx)
	})
	ms := int64(60000)
	blocked := ask.RendererFunc[*contract.Request, []contract.Answer](func(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
		<-ctx.Done()
		return ask.Outcome[[]contract.Answer]{}, ctx.Err()
	})
	asker := ask.NewAsker(ask.NewHost(link.Join(ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, blocked)), &ask.HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: &ms}}), nil)
	results := make(chan contract.Result, 1)
	go func() { results <- ask.AskJSON(ctx, asker, ask.AskUser, []byte(req), nil) }()
	return results
}

// killHolding waits until the hub process p, for env, holds one
// question, and returns it once p is killed.
func killHolding(t *testing.T, env func(string) string, p *hubProcess) hub.Question {
	t.Helper()
	c, err := hub.Dial(context.Background(), &hub.DialOptions{Getenv: env})
	if err != nil {
		t.Fatal(err)
	}
	q := pending(t, c, 1)[0]
	c.Close()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.wait(t, testkit.Patience(t))
	return q
}

// answerHeld checks that the hub of c holds the one question id, when,
// answers it "prod" on behalf of by, and waits for results to give that
// answer.
func answerHeld(t *testing.T, c *hub.Client, id, by string, results <-chan contract.Result, when string) {
	t.Helper()
	if got := pending(t, c, 1)[0]; got.ID != id {
		t.Fatalf("%s the hub holds question %s, want %s", when, got.ID, id)
	}
	if _, err := c.Answer(context.Background(), id, answerJSON(t, "prod"), by); err != nil {
		t.Fatal(err)
	}
	select {
	case res := <-results:
		if res.Status != contract.StatusAnswered || res.Answers[0].Selections[0] != "prod" {
			t.Fatalf("%s: result = %+v", when, res)
		}
	case <-time.After(testkit.Patience(t)):
		t.Fatalf("%s: the asker did not get the answer given on the hub", when)
	}
}

// TestExpiry checks that a question whose deadline passed leaves the
// store by itself, its asker gone.
func TestExpiry(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan hub.Info, 1)
	done := make(chan error, 1)
	go func() {
		done <- hubserver.Run(ctx, &hubserver.Options{
			Paths: hub.Paths{Dir: dir, Info: filepath.Join(dir, "hub.json"), Lock: filepath.Join(dir, "hub.lock"), Store: filepath.Join(dir, "js")},
			Ready: func(i hub.Info) { ready <- i },
		})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	info := <-ready
	link := hub.NewLink(&hub.LinkOptions{
		Dial: func(ctx context.Context) (*hub.Client, error) { return hub.Dial(ctx, &hub.DialOptions{Info: &info}) },
	})
	ms := int64(1000)
	// The asker's process is gone before its deadline: nothing closes the
	// question but its TTL.
	actx, acancel := context.WithCancel(context.Background())
	blocked := ask.RendererFunc[*contract.Request, []contract.Answer](func(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
		<-ctx.Done()
		return ask.Outcome[[]contract.Answer]{}, ctx.Err()
	})
	asker := ask.NewAsker(ask.NewHost(link.Join(ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, blocked)), &ask.HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: &ms}}), nil)
	go ask.AskJSON(actx, asker, ask.AskUser, []byte(req), nil)
	c, err := hub.Dial(context.Background(), &hub.DialOptions{Info: &info})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	q := pending(t, c, 1)[0]
	// Cut the asker off the hub: it cannot close its question.
	lctx, lcancel := context.WithCancel(context.Background())
	lcancel()
	link.Close(lctx)
	acancel()
	deadline := testkit.PatienceDeadline(t)
	for {
		_, _, err := c.Question(context.Background(), q.ID)
		var re *hub.RefusedError
		if errors.As(err, &re) && re.Reason == hub.RefusedUnknown {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("question %s still in the store long after its deadline: %v", q.ID, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// idleTwinStopped runs a hub with idle that nothing uses, and waits until
// it stops: a hub that was idle since before it started would have
// stopped by then too.
func idleTwinStopped(t *testing.T, idle time.Duration) {
	t.Helper()
	dir := t.TempDir()
	paths := hub.Paths{Dir: dir, Info: filepath.Join(dir, "hub.json"), Lock: filepath.Join(dir, "hub.lock"), Store: filepath.Join(dir, "js")}
	done := make(chan error, 1)
	go func() { done <- hubserver.Run(context.Background(), &hubserver.Options{Paths: paths, Idle: idle}) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the idle twin hub stopped with %v", err)
		}
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the idle twin hub did not stop")
	}
}

// TestIdle runs a hub that stops when idle: it keeps running while an
// askuser is connected, and while a question waits with nobody
// connected, and stops by itself, removing its info file, once neither
// has been so for its idle time.
func TestIdle(t *testing.T) {
	dir := t.TempDir()
	paths := hub.Paths{Dir: dir, Info: filepath.Join(dir, "hub.json"), Lock: filepath.Join(dir, "hub.lock"), Store: filepath.Join(dir, "js")}
	const idle = 300 * time.Millisecond
	ready := make(chan hub.Info, 1)
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		done <- hubserver.Run(ctx, &hubserver.Options{Paths: paths, Idle: idle, Ready: func(i hub.Info) { ready <- i }})
	}()
	info := <-ready
	// running checks that the hub still runs once a twin of it, which
	// nothing uses and which started after the hub was last seen busy,
	// stopped for being idle.
	running := func(what string) {
		t.Helper()
		idleTwinStopped(t, idle)
		select {
		case err := <-done:
			t.Fatalf("the hub stopped (%v) %s", err, what)
		default:
		}
	}
	c, err := hub.Dial(context.Background(), &hub.DialOptions{Info: &info, Name: "askuser ask"})
	if err != nil {
		t.Fatal(err)
	}
	running("while an askuser was connected")

	// A question whose asker is gone waits until its deadline.
	link := hub.NewLink(&hub.LinkOptions{
		Dial: func(ctx context.Context) (*hub.Client, error) { return hub.Dial(ctx, &hub.DialOptions{Info: &info}) },
	})
	ms := int64(3000)
	actx, acancel := context.WithCancel(context.Background())
	defer acancel()
	blocked := ask.RendererFunc[*contract.Request, []contract.Answer](func(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
		<-ctx.Done()
		return ask.Outcome[[]contract.Answer]{}, ctx.Err()
	})
	asker := ask.NewAsker(ask.NewHost(link.Join(ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, blocked)), &ask.HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: &ms}}), nil)
	go ask.AskJSON(actx, asker, ask.AskUser, []byte(req), nil)
	pending(t, c, 1)
	lctx, lcancel := context.WithCancel(context.Background())
	lcancel()
	link.Close(lctx)
	c.Close()
	running("while a question waited")

	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the idle hub stopped with %v", err)
		}
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the hub did not stop after its question's deadline with nobody connected")
	}
	if _, err := os.Stat(paths.Info); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the stopped hub left its info file: %v", err)
	}
}
