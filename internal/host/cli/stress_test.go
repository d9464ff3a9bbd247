//go:build linux

package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/testkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
)

// builtHub is cmd/askuser-hub built once, beside buildAskuser's binary,
// where askuser hub looks for it.
func builtHub() (string, error) {
	return testkit.Build("github.com/askuser/askuser/cmd/askuser-hub")
}

// hubCommand is askuser hub running as a process of its own: the
// askuser-hub program, which askuser hub becomes.
type hubCommand struct {
	cmd    *exec.Cmd
	stderr testkit.Buffer
	done   chan error
}

// startHubCommand runs askuser hub with env until the test ends, and
// waits until it serves: its info file names its process.
func startHubCommand(t testing.TB, env []string) *hubCommand {
	t.Helper()
	if _, err := builtHub(); err != nil {
		t.Fatal(err)
	}
	h := &hubCommand{cmd: exec.Command(buildAskuser(t), "hub"), done: make(chan error, 1)}
	h.cmd.Env, h.cmd.Stderr = env, &h.stderr
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { h.done <- h.cmd.Wait() }()
	t.Cleanup(func() {
		h.cmd.Process.Kill()
		err := <-h.done
		h.done <- err
	})
	paths, err := hub.Locate(envGetenv(env))
	if err != nil {
		t.Fatal(err)
	}
	deadline := testkit.PatienceDeadline(t)
	for {
		if info, err := hub.ReadInfo(paths.Info); err == nil && info.PID == h.cmd.Process.Pid {
			return h
		}
		select {
		case err := <-h.done:
			h.done <- err
			t.Fatalf("askuser hub ended: %v\n%s", err, h.stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("askuser hub was not ready:\n%s", h.stderr.String())
		}
	}
}

// stop ends the hub with sig and returns how the process ended.
func (h *hubCommand) stop(t testing.TB, sig syscall.Signal) error {
	t.Helper()
	if err := h.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-h.done:
		h.done <- err
		return err
	case <-time.After(testkit.Patience(t)):
		t.Fatalf("askuser hub did not end on %v:\n%s", sig, h.stderr.String())
		return nil
	}
}

// envGetenv reads the environment env, the last value of a name winning
// as it does for exec.
func envGetenv(env []string) func(string) string {
	return func(k string) string {
		v := ""
		for _, kv := range env {
			if name, val, ok := strings.Cut(kv, "="); ok && name == k {
				v = val
			}
		}
		return v
	}
}

// stressOptions are the choices of every stress question.
var stressOptions = []string{"staging", "production", "canary"}

// stressTitle is the title of question i of agent a: unique, so that the
// test can tell from any surface which call a question is.
func stressTitle(a, i int) string { return fmt.Sprintf("Deploy a%dq%d where?", a, i) }

var stressTitleRe = regexp.MustCompile(`Deploy (a\d+q\d+) where\?`)

func stressRequest(title string) map[string]any {
	opts := make([]any, len(stressOptions))
	for i, o := range stressOptions {
		opts[i] = map[string]any{"label": o}
	}
	return map[string]any{"questions": []any{map[string]any{"title": title, "options": opts}}}
}

// stressAnswer is the result JSON askuser answer gives for title.
func stressAnswer(t *testing.T, title, label string) []byte {
	t.Helper()
	b, err := json.Marshal(stressRequest(title))
	if err != nil {
		t.Fatal(err)
	}
	req, _, err := contract.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	a := contract.NewAnswer(req, 0)
	a.Selections = []string{label}
	out, err := json.Marshal(contract.Result{Status: contract.StatusAnswered, Answers: []contract.Answer{a}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// stressAttempt is one askuser answer process: which question it
// answered, with which label, and how it ended.
type stressAttempt struct {
	by, key, label string
	code           int
	stderr         string
}

// stressCall is what one agent's call ended with.
type stressCall struct {
	status, label, by, text string
}

var stressByRe = regexp.MustCompile(`answered by (stress-\d+ \(askuser answer\)|the person in askuser inbox)`)

// TestStressHub runs 100 agents asking 10 questions each through a real
// askuser hub process, answered at random from a real askuser inbox on a
// pseudo-terminal, by keys, and by real askuser answer processes, some
// two at once for the same question. About a third through, the hub is
// killed with SIGKILL and another started on the same state directory.
// Every call must end answered (the deadline is far), with the answer
// the hub accepted, from the surface that was told it was accepted;
// every losing surface must have been refused as too late; no question
// may wait at the end, no process may be left, and the processes may
// leave nothing in their TMPDIR.
//
// An agent is one askuser mcp process driven by a go-sdk client that
// shows no form, so that the hub is its only route, making its 10 tool
// calls in sequence: that is how an agent runs askuser, and it costs 100
// processes where 1,000 askuser ask processes would cost ten times the
// start-ups on a machine of two cores, with the same publishing, waiting
// and reconnecting code on the hub's side.
func TestStressHub(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: the stress run of 100 agents × 10 questions over real processes takes about a minute")
	}
	const agents, perAgent, racers = 100, 10, 2
	bin := buildAskuser(t)
	state, tmp := t.TempDir(), t.TempDir()
	env := append(os.Environ(), "XDG_STATE_HOME="+state, "TMPDIR="+tmp, "TERM=xterm-256color", "TMUX=")
	start := time.Now()
	h := startHubCommand(t, env)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	watcher, err := hub.Dial(ctx, &hub.DialOptions{Getenv: envGetenv(env)})
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close()
	wctx, stopWatch := context.WithCancel(ctx)
	events, err := watcher.Watch(wctx)
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	waiting := map[string]string{} // question id → key (a17q3), as the watch reports
	var attempts []stressAttempt
	inboxTried := map[string][]string{} // key → labels the inbox submitted
	results := map[string]stressCall{}  // key → what its call ended with
	var done atomic.Int32

	var watching sync.WaitGroup
	watching.Go(func() {
		for e := range events {
			mu.Lock()
			switch e.Kind {
			case hub.WatchWaiting:
				if m := stressTitleRe.FindStringSubmatch(string(e.Question.Request)); m != nil {
					waiting[e.ID] = m[1]
				}
			case hub.WatchClosed:
				delete(waiting, e.ID)
			}
			mu.Unlock()
		}
	})

	// The agents.
	var asking sync.WaitGroup
	for a := range agents {
		asking.Go(func() {
			cmd := exec.Command(bin, "mcp", "--no-config", "--timeout-per-question", "180000")
			var stderr testkit.Buffer
			cmd.Env, cmd.Stderr = env, &stderr
			client := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("a%d", a), Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Errorf("agent %d: %v", a, err)
				return
			}
			for i := range perAgent {
				key := fmt.Sprintf("a%dq%d", a, i)
				r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask_user", Arguments: stressRequest(stressTitle(a, i))})
				if err != nil {
					t.Errorf("call %s: %v\n%s", key, err, stderr.String())
					break
				}
				mu.Lock()
				results[key] = stressOutcome(r)
				mu.Unlock()
				done.Add(1)
			}
			if err := cs.Close(); err != nil {
				t.Errorf("agent %d: askuser mcp did not end by itself once its client closed: %v", a, err)
			}
			if s := stderr.String(); s != "" {
				t.Logf("agent %d said: %s", a, s)
				// The hub is these agents' only route: one that lost it
				// waits for it, and must not claim to ask without it.
				if strings.Contains(s, "asked without it") {
					t.Errorf("agent %d, whose only route is the hub, said it asks without it: %s", a, s)
				}
			}
		})
	}
	allAsked := make(chan struct{})
	go func() {
		asking.Wait()
		close(allAsked)
	}()

	// The programs: each picks a waiting question at random and answers
	// it with askuser answer, now and then with two at once.
	var answering sync.WaitGroup
	var seq atomic.Int32
	for range racers {
		answering.Go(func() {
			for {
				select {
				case <-allAsked:
					return
				case <-time.After(time.Duration(rand.IntN(30)) * time.Millisecond):
				}
				mu.Lock()
				var id, key string
				n := rand.IntN(max(len(waiting), 1))
				for qid, k := range waiting {
					if n == 0 {
						id, key = qid, k
						break
					}
					n--
				}
				mu.Unlock()
				if id == "" {
					continue
				}
				two := 1 + rand.IntN(6)/5
				var racing sync.WaitGroup
				for range two {
					racing.Go(func() {
						at := stressAttempt{by: fmt.Sprintf("stress-%d", seq.Add(1)), key: key, label: stressOptions[rand.IntN(len(stressOptions))]}
						cmd := exec.Command(bin, "answer", "--by", at.by, id, "-")
						var stderr bytes.Buffer
						cmd.Env, cmd.Stdin, cmd.Stderr = env, bytes.NewReader(stressAnswer(t, stressTitleFor(key), at.label)), &stderr
						err := cmd.Run()
						at.stderr = stderr.String()
						if ee, ok := errors.AsType[*exec.ExitError](err); ok {
							at.code = ee.ExitCode()
						} else if err != nil {
							t.Errorf("askuser answer: %v", err)
							return
						}
						mu.Lock()
						attempts = append(attempts, at)
						mu.Unlock()
					})
				}
				racing.Wait()
			}
		})
	}

	// The person, in askuser inbox: opens the selected question, picks
	// an option at random and submits it.
	s := startInbox(t, env)
	var inboxing sync.WaitGroup
	inboxing.Go(func() {
		for {
			select {
			case <-allAsked:
				return
			default:
			}
			sc := s.screen()
			key := dialogKey(sc)
			switch {
			case key != "" && !strings.Contains(sc, "sending…"):
				k := rand.IntN(len(stressOptions))
				mu.Lock()
				inboxTried[key] = append(inboxTried[key], stressOptions[k])
				mu.Unlock()
				// Space and Ctrl+Enter do nothing on the list, should the
				// question close before they arrive: no key meant for
				// one question answers another.
				s.send(strings.Repeat(keyDown, k) + " " + keyCtrlEnter)
				// The question leaves the screen once the hub took the
				// answer, refused it, or could not be reached (5s).
				if !s.waitUntil(testkit.Patience(t), func(sc string) bool { return dialogKey(sc) != key }) {
					t.Errorf("askuser inbox still shows %s long after its answer was submitted:\n%s", key, s.screen())
					return
				}
			case strings.Contains(sc, "enter open · q quit") && !strings.Contains(sc, "no questions wait"):
				// Another Enter before this one opened the question would
				// answer it, so wait for it to open, or the list to empty.
				s.send(keyEnter)
				s.waitUntil(5*time.Second, func(sc string) bool { return dialogKey(sc) != "" || strings.Contains(sc, "no questions wait") })
			default:
				time.Sleep(10 * time.Millisecond)
			}
		}
	})

	// Kill the hub about a third through, and start another.
	var killedAt int32
	for done.Load() < agents*perAgent/3 {
		select {
		case <-allAsked:
			t.Fatal("the agents ended before a third of their calls were answered")
		case <-ctx.Done():
			t.Fatal("a third of the calls were not answered within 5 minutes")
		case <-time.After(5 * time.Millisecond):
		}
	}
	killedAt = done.Load()
	if err := h.stop(t, syscall.SIGKILL); err == nil {
		t.Fatal("askuser hub ended with status 0 on SIGKILL")
	}
	h = startHubCommand(t, env)

	<-allAsked
	answering.Wait()
	inboxing.Wait()
	wall := time.Since(start)
	s.send("q")
	if code := s.exit(); code != 0 {
		t.Errorf("askuser inbox: exit status %d, want 0", code)
	}
	if qs, err := watcher.Pending(ctx); err != nil || len(qs) != 0 {
		t.Errorf("at the end %d questions wait (%v), want none", len(qs), err)
	}
	stopWatch()
	watching.Wait()
	if err := h.stop(t, syscall.SIGTERM); err != nil {
		t.Errorf("askuser hub on SIGTERM: %v\n%s", err, h.stderr.String())
	}

	// Each call against what each surface was told.
	accepted := map[string]stressAttempt{} // key → the askuser answer told it was accepted
	byName := map[string]stressAttempt{}
	var refused, lost int
	for _, at := range attempts {
		byName[at.by] = at
		switch at.code {
		case 0:
			if prev, dup := accepted[at.key]; dup {
				t.Errorf("question %s accepted twice: from %s and %s", at.key, prev.by, at.by)
			}
			accepted[at.key] = at
		case 1:
			if !strings.Contains(at.stderr, "was already answered by") {
				t.Errorf("%s was refused for another reason than an answer before it: %s", at.by, at.stderr)
			}
			refused++
		case 3:
			// The hub was away: the answer may or may not have reached it.
			lost++
		default:
			t.Errorf("%s: exit status %d: %s", at.by, at.code, at.stderr)
		}
	}
	var viaInbox, viaAnswer int
	for a := range agents {
		for i := range perAgent {
			key := fmt.Sprintf("a%dq%d", a, i)
			r, ok := results[key]
			switch {
			case !ok:
				t.Errorf("call %s did not end", key)
				continue
			case r.status != string(contract.StatusAnswered):
				_, acc := accepted[key]
				t.Errorf("call %s ended %s (an answer was accepted: %v), not answered:\n%s", key, r.status, acc, r.text)
				continue
			}
			if at, ok := accepted[key]; ok && r.by != at.by+" (askuser answer)" {
				t.Errorf("call %s was answered by %q; %s was told its answer was accepted", key, r.by, at.by)
			}
			if name, ok := strings.CutSuffix(r.by, " (askuser answer)"); ok {
				viaAnswer++
				at, ok := byName[name]
				if !ok || at.key != key || at.label != r.label || (at.code != 0 && at.code != 3) {
					t.Errorf("call %s got %q from %s, which answered %+v", key, r.label, name, at)
				}
				continue
			}
			viaInbox++
			tried := inboxTried[key]
			if !strings.Contains(strings.Join(tried, "\n")+"\n", r.label+"\n") {
				t.Errorf("call %s got %q from the inbox, which submitted %q for it", key, r.label, tried)
			}
		}
	}
	if left, err := os.ReadDir(tmp); err != nil || len(left) != 0 {
		t.Errorf("the processes left %d files in their TMPDIR (%v)", len(left), err)
	}
	t.Logf("%d calls of %d agents in %v: %d answered from askuser inbox, %d by askuser answer; %d askuser answer processes, %d refused as answered already, %d cut off by the hub's death; SIGKILL after %d calls",
		len(results), agents, wall.Round(time.Millisecond), viaInbox, viaAnswer, len(attempts), refused, lost, killedAt)
}

func stressTitleFor(key string) string {
	var a, i int
	fmt.Sscanf(key, "a%dq%d", &a, &i)
	return stressTitle(a, i)
}

// stressOutcome reads a call's status, its label and who answered it.
func stressOutcome(r *mcp.CallToolResult) stressCall {
	var text strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	out := stressCall{text: text.String()}
	b, _ := json.Marshal(r.StructuredContent)
	var res contract.Result
	if json.Unmarshal(b, &res) == nil {
		out.status = string(res.Status)
		if len(res.Answers) == 1 && len(res.Answers[0].Selections) == 1 {
			out.label = res.Answers[0].Selections[0]
		}
	}
	if m := stressByRe.FindStringSubmatch(out.text); m != nil {
		out.by = m[1]
	}
	return out
}

// dialogKey returns the key of the question whose dialog the inbox shows
// on screen sc, or "" when it shows none.
func dialogKey(sc string) string {
	if m := stressDialogRe.FindStringSubmatch(sc); m != nil {
		return m[1]
	}
	return ""
}

// keyCtrlEnter is Ctrl+Enter in the kitty keyboard protocol: the
// dialog's submit key.
const keyCtrlEnter = "\x1b[13;5u"

var stressDialogRe = regexp.MustCompile(`│ Deploy (a\d+q\d+) where\?`)

// waitUntil waits until the screen satisfies ok, for at most d, and
// reports whether it did.
func (s *inboxScreen) waitUntil(d time.Duration, ok func(string) bool) bool {
	deadline := time.Now().Add(d)
	for !ok(s.screen()) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
