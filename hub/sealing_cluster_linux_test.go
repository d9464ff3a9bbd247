package hub_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/internal/seal"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/prefs"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// startHubAt starts a hub in paths whose config's remote is remote, its
// log going to log, and returns its info and a function that stops it,
// which the end of the test calls too.
func startHubAt(t testing.TB, paths hub.Paths, remote map[string]any, log io.Writer) (hub.Info, func()) {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "hub.json")
	data, _ := json.Marshal(map[string]any{"remote": remote})
	if err := os.WriteFile(cfg, data, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Patience(t))
	defer cancel()
	info, stop, err := hubserver.Start(ctx, &hubserver.Options{Paths: paths, ConfigFile: cfg, Log: log})
	if err != nil {
		t.Fatalf("the hub did not start: %v", err)
	}
	var once sync.Once
	stopOnce := func() { once.Do(func() { stop() }) }
	t.Cleanup(stopOnce)
	return info, stopOnce
}

// operator is whoever holds the cluster's credentials and writes its
// buckets directly: the cluster's operator, or any agent machine.
type operator struct {
	nc                 *nats.Conn
	questions, answers jetstream.KeyValue
}

func newOperator(t *testing.T, c *cluster) operator {
	t.Helper()
	nc := c.connect(t, "owner", c.urls())
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Patience(t))
	defer cancel()
	q, err := js.KeyValue(ctx, hubstore.QuestionsBucket)
	if err != nil {
		t.Fatal(err)
	}
	a, err := js.KeyValue(ctx, hubstore.AnswersBucket)
	if err != nil {
		t.Fatal(err)
	}
	return operator{nc, q, a}
}

// record reads the stored record of id in kv as a JSON object, waiting
// for it to be there.
func record(t *testing.T, kv jetstream.KeyValue, id string) map[string]any {
	t.Helper()
	var m map[string]any
	waitFor(t, func() string {
		e, err := kv.Get(context.Background(), id)
		if err != nil {
			return fmt.Sprintf("%s in %s: %v", id, kv.Bucket(), err)
		}
		m = nil
		if err := json.Unmarshal(e.Value(), &m); err != nil {
			return err.Error()
		}
		return ""
	})
	return m
}

func put(t *testing.T, kv jetstream.KeyValue, id string, m map[string]any) {
	t.Helper()
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Put(context.Background(), id, data); err != nil {
		t.Fatal(err)
	}
}

// forgeQuestion is a question as someone with a key of their own seals
// and signs it, in askuser's format: key's own question, under any tag.
func forgeQuestion(t *testing.T, key *seal.Key, recipients []string, id string, tag hub.Tag, request string) map[string]any {
	t.Helper()
	created := time.Now().UTC()
	head, _ := json.Marshal(map[string]any{"v": seal.Version, "kind": "askuser question", "id": id, "tag": tag, "created": created})
	box, err := seal.Seal(recipients, head, []byte(request))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{"id": id, "status": "waiting", "tag": tag, "created": created, "request": nil,
		"sealed": box, "head": head, "signer": key.Public(), "sig": key.Sign(must(hub.SignedForTest(head, box)))}
}

// askQuestion asks a question with two labels through l, with timeout,
// until the call ends or ctx does, and returns its result channel.
func askQuestion(ctx context.Context, l *hub.Link, title string, labels []string, timeoutMs int64, t *testing.T) <-chan contract.Result {
	var opts []map[string]any
	for _, label := range labels {
		opts = append(opts, map[string]any{"label": label})
	}
	req, _ := json.Marshal(map[string]any{"questions": []map[string]any{{"title": title, "options": opts}}})
	a := newAsker(t, l, ask.Capabilities{}, timeoutMs)
	results := make(chan contract.Result, 1)
	go func() { results <- ask.AskJSON(ctx, a, ask.AskUser, req, nil) }()
	return results
}

// waitQuestion returns the question titled title once it waits on the
// hub of c.
func waitQuestion(t *testing.T, c *hub.Client, title string) hub.Question {
	t.Helper()
	var q hub.Question
	waitFor(t, func() string {
		qs, err := c.Pending(context.Background())
		if err != nil {
			return err.Error()
		}
		for _, p := range qs {
			if strings.Contains(string(p.Request), title) {
				q = p
				return ""
			}
		}
		return fmt.Sprintf("%q does not wait on the hub", title)
	})
	return q
}

// storedQuestion is a question record as the cluster stores it.
type storedQuestion struct {
	ID     string    `json:"id"`
	Sealed *seal.Box `json:"sealed"`
	Head   []byte    `json:"head"`
}

// opened returns the ids of the questions stored on the cluster that key
// opens, by the title each asks, once each of titles is there.
func opened(t *testing.T, kv jetstream.KeyValue, key *seal.Key, titles ...string) map[string]string {
	t.Helper()
	ids := map[string]string{}
	waitFor(t, func() string {
		keys, err := kv.ListKeys(context.Background())
		if err != nil {
			return err.Error()
		}
		for id := range keys.Keys() {
			e, err := kv.Get(context.Background(), id)
			if err != nil {
				continue
			}
			var sq storedQuestion
			if json.Unmarshal(e.Value(), &sq) != nil || sq.Sealed == nil {
				continue
			}
			req, _, err := sq.Sealed.Open([]*seal.Key{key}, sq.Head)
			if err != nil {
				continue
			}
			for _, title := range titles {
				if strings.Contains(string(req), title) {
					ids[title] = id
				}
			}
		}
		for _, title := range titles {
			if ids[title] == "" {
				return fmt.Sprintf("%q is not on the cluster", title)
			}
		}
		return ""
	})
	return ids
}

// TestClusterSealing has an agent machine ask through a real three-node
// cluster while an operator, who holds the cluster's credentials and
// every public key, and a co-recipient, one of the person's own devices,
// try what the sealing of a remote hub must refuse, with the person's
// hub off: a box moved to another question, a re-tagged question,
// content forged by a co-recipient, a question signed by a key the
// person's hub does not know, another key for a known machine, and an
// answer replayed onto another question. The person's hub shows none
// of them under a name its key has not earned, and logs each with the
// reason; the agent takes no answer that is not its own question's.
func TestClusterSealing(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	me := newPerson(t, c)
	device, _ := seal.NewKey()
	recipients := []string{me.recipient, device.Public()}
	op := newOperator(t, c)
	opKey, _ := seal.NewKey()

	agentKey := machineKey(t)
	agentRemote := prefs.Remote{URL: c.nodes[0].url(), Credentials: c.credentials(t, "agent"), Recipients: recipients}
	l := hub.NewLink(&hub.LinkOptions{Agent: "billing-bot", Project: "~/billing", Machine: "prod-db", Dial: func(ctx context.Context) (*hub.Client, error) {
		return hub.DialRemote(ctx, agentRemote, agentKey, &hub.DialOptions{Timeout: 5 * time.Second})
	}})
	defer closeLink(l)
	// The questions left waiting end with the test, before the link
	// closes.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	paths, _ := hub.Locate(me.getenv)
	remote := map[string]any{"url": c.nodes[1].url(), "credentials": me.creds, "recipients": recipients}
	log := &testkit.Buffer{}
	info, stop := startHubAt(t, paths, remote, log)
	mine := dial(t, info)

	// The first question of prod-db makes it known by its key, and
	// shows with the key's fingerprint.
	title := func(what string) string { return what + " " + secret() }
	firstTitle := title("first")
	first := askQuestion(ctx, l, firstTitle, []string{"a", "b"}, 60000, t)
	q0 := waitQuestion(t, mine, firstTitle)
	k, err := hubstore.ReadKey(agentKey)
	if err != nil {
		t.Fatal(err)
	}
	if want := "prod-db (new to this hub: key " + seal.Fingerprint(k.Public()) + ")"; q0.Tag.Machine != want {
		t.Fatalf("the first question of prod-db shows under %q, want %q", q0.Tag.Machine, want)
	}
	if _, err := answerRetrying(t, mine, &q0, "a", "alice"); err != nil {
		t.Fatal(err)
	}
	if res := <-first; res.Status != contract.StatusAnswered {
		t.Fatalf("the first question: %+v", res)
	}
	stop()

	// With the person's hub off, the agent asks, and the others write.
	titles := map[string]string{}
	results := map[string]<-chan contract.Result{}
	for _, what := range []string{"re-tagged", "moved", "moved from", "forged"} {
		titles[what] = title(what)
		results[what] = askQuestion(ctx, l, titles[what], []string{"a", "b"}, 60000, t)
	}
	ids := opened(t, op.questions, device, titles["re-tagged"], titles["moved"], titles["moved from"], titles["forged"])
	id := func(what string) string { return ids[titles[what]] }

	retagged := record(t, op.questions, id("re-tagged"))
	retagged["tag"].(map[string]any)["project"] = "~/payroll"
	put(t, op.questions, id("re-tagged"), retagged)

	moved, from := record(t, op.questions, id("moved")), record(t, op.questions, id("moved from"))
	for _, m := range []string{"sealed", "head", "sig", "signer"} {
		moved[m] = from[m]
	}
	put(t, op.questions, id("moved"), moved)

	forgeContent(t, op.questions, id("forged"), recipients)

	// The operator asks under a name of its own, and under prod-db's.
	tag := hub.Tag{Agent: "billing-bot", Project: "~/billing", Machine: "prod-db", Contract: hub.ContractAskUser, Questions: 1}
	request := func(title string) string { return choiceRequest(t, title) }
	titles["named prod-db"], titles["new name"] = title("named prod-db"), title("new name")
	ids[titles["named prod-db"]], ids[titles["new name"]] = "pprdaaaaaaaa", "nwnmaaaaaaaa"
	put(t, op.questions, id("named prod-db"), forgeQuestion(t, opKey, recipients, id("named prod-db"), tag, request(titles["named prod-db"])))
	tag.Machine = "build-42"
	put(t, op.questions, id("new name"), forgeQuestion(t, opKey, recipients, id("new name"), tag, request(titles["new name"])))

	// The person's hub comes back.
	info, _ = startHubAt(t, paths, remote, log)
	mine = dial(t, info)
	newName := waitQuestion(t, mine, titles["new name"])
	if want := "build-42 (new to this hub: key " + seal.Fingerprint(opKey.Public()) + ")"; newName.Tag.Machine != want {
		t.Errorf("a question signed by an unknown key shows under %q, want %q", newName.Tag.Machine, want)
	}
	intact := waitQuestion(t, mine, titles["moved from"])
	reasons := map[string]string{
		"re-tagged":     "question " + id("re-tagged") + " is not shown: question " + id("re-tagged") + ": its tag or time is not the one it was signed with",
		"moved":         "question " + id("moved") + " is not shown: question " + id("moved") + ": it was signed as question " + id("moved from"),
		"forged":        "question " + id("forged") + " is not shown: question " + id("forged") + ": its signature does not verify",
		"named prod-db": "question " + id("named prod-db") + ` is not shown: it names the machine "prod-db", which this hub knows by the key ` + seal.Fingerprint(k.Public()),
	}
	waitFor(t, func() string {
		for what, reason := range reasons {
			if !strings.Contains(log.String(), reason) {
				return fmt.Sprintf("the log does not say of the %s question %q:\n%s", what, reason, log.String())
			}
		}
		return ""
	})
	notShown(t, mine, reasons, id)

	// The person answers the intact question; the operator replays that
	// answer onto a question the agent asks now, and tells of it as a
	// hub does. The agent reads it, refuses it and removes it; the call
	// then goes on waiting, until the test ends it.
	replayTitle := title("replayed")
	replayCtx, endReplayed := context.WithCancel(ctx)
	defer endReplayed()
	replayed := askQuestion(replayCtx, l, replayTitle, []string{"a", "b"}, 60000, t)
	replayID := opened(t, op.questions, device, replayTitle)[replayTitle]
	if _, err := answerRetrying(t, mine, &intact, "b", "alice"); err != nil {
		t.Fatal(err)
	}
	answer := record(t, op.answers, id("moved from"))
	answer["id"] = replayID
	put(t, op.answers, replayID, answer)
	if err := op.nc.Publish(hub.AnsweredSubjectForTest+"."+replayID, nil); err != nil {
		t.Fatal(err)
	}
	purged(t, op.answers, replayID)
	if res := <-results["moved from"]; res.Status != contract.StatusAnswered || !slices.Equal(res.Answers[0].Selections, []string{"b"}) {
		t.Fatalf("the intact question: %+v", res)
	}
	select {
	case res := <-replayed:
		t.Fatalf("the agent took an answer replayed from another question: %+v", res)
	default:
	}
	endReplayed()
	if res := <-replayed; res.Status == contract.StatusAnswered {
		t.Fatalf("the agent took an answer replayed from another question: %+v", res)
	}
}

// purged waits until the entry of id in kv is removed, as an asker
// removes an answer that is not its question's.
func purged(t *testing.T, kv jetstream.KeyValue, id string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Patience(t))
	defer cancel()
	w, err := kv.Watch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	for {
		select {
		case e := <-w.Updates():
			if e != nil && e.Operation() == jetstream.KeyValuePurge {
				return
			}
		case <-ctx.Done():
			t.Fatalf("the answer replayed onto %s was not removed from %s", id, kv.Bucket())
		}
	}
}

// forgeContent has a co-recipient open the question id in kv and seal
// other content to recipients under the same head, keeping the agent's
// signature.
func forgeContent(t *testing.T, kv jetstream.KeyValue, id string, recipients []string) {
	t.Helper()
	forged := record(t, kv, id)
	var sq storedQuestion
	data, _ := json.Marshal(forged)
	if err := json.Unmarshal(data, &sq); err != nil {
		t.Fatal(err)
	}
	tokenReq, _ := json.Marshal(map[string]any{"questions": []map[string]any{{"title": "Paste your deploy token", "kind": "input"}}})
	box, err := seal.Seal(recipients, sq.Head, tokenReq)
	if err != nil {
		t.Fatal(err)
	}
	forged["sealed"] = box
	put(t, kv, id, forged)
}

// choiceRequest is the request, as askuser stores it, of one question
// titled title with the options a and b.
func choiceRequest(t *testing.T, title string) string {
	t.Helper()
	r, _ := json.Marshal(map[string]any{"questions": []map[string]any{{"id": "q1", "title": title, "kind": "single", "options": []map[string]any{{"label": "a"}, {"label": "b"}}}}})
	req, _, err := contract.Parse(r)
	if err != nil {
		t.Fatal(err)
	}
	norm, _ := json.Marshal(req)
	return string(norm)
}

// notShown checks that none of the questions named in reasons, whose
// ids id gives, waits on the hub of c.
func notShown(t *testing.T, c *hub.Client, reasons map[string]string, id func(string) string) {
	t.Helper()
	pending, err := c.Pending(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for what := range reasons {
		if slices.ContainsFunc(pending, func(q hub.Question) bool { return q.ID == id(what) }) {
			t.Errorf("the %s question shows on the person's hub", what)
		}
	}
}

// TestClusterRelayRestart restarts the hub of an agent machine, an
// askuser-hub process relaying to a real three-node cluster, while its
// question waits there: the person's answer, given after the restart, is
// opened by the restarted hub and reaches the agent, since the key it is
// sealed back to is the machine's, kept on disk, and the restarted
// relay takes the question it published before.
func TestClusterRelayRestart(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	me := newPerson(t, c)
	askuserHub, err := testkit.Build("github.com/askuser/askuser/cmd/askuser-hub")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_STATE_HOME": filepath.Join(dir, "state"), "XDG_CONFIG_HOME": filepath.Join(dir, "config")}
	getenv := func(k string) string { return env[k] }
	cfg, _ := json.Marshal(map[string]any{"remote": map[string]any{"url": c.nodes[0].url(), "credentials": c.credentials(t, "agent"), "recipients": []string{me.recipient}}})
	if err := os.MkdirAll(filepath.Join(dir, "config", "askuser"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config", "askuser", "hub.json"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	start := func() (*testkit.Buffer, func()) {
		var logs testkit.Buffer
		cmd := exec.Command(askuserHub)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		cmd.Stderr = &logs
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		stop := func() {
			cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-done:
			case <-time.After(testkit.Patience(t)):
				cmd.Process.Kill()
				t.Errorf("the agent's hub did not end after SIGTERM\n%s", logs.String())
				<-done
			}
		}
		t.Cleanup(stop)
		waitFor(t, func() string {
			if !strings.Contains(logs.String(), "relays questions with") {
				return "the agent's hub does not relay yet:\n" + logs.String()
			}
			return ""
		})
		return &logs, stop
	}
	paths, _ := hub.Locate(me.getenv)
	_, mine := relayingHub(t, paths, c.nodes[1].url(), me.creds, me.recipient)

	_, stop := start()
	l := hub.NewLink(&hub.LinkOptions{Dial: func(ctx context.Context) (*hub.Client, error) {
		return hub.Dial(ctx, &hub.DialOptions{Getenv: getenv})
	}})
	defer closeLink(l)
	title := "Restart " + secret()
	results := askQuestion(context.Background(), l, title, []string{"a", "b"}, 90000, t)
	q := waitQuestion(t, mine, title)
	stop()
	logs, _ := start()
	if _, err := answerRetrying(t, mine, &q, "b", "alice"); err != nil {
		t.Fatal(err)
	}
	select {
	case res := <-results:
		if res.Status != contract.StatusAnswered || !slices.Equal(res.Answers[0].Selections, []string{"b"}) {
			t.Fatalf("the agent got %+v\n%s", res, logs.String())
		}
	case <-time.After(testkit.Patience(t)):
		t.Fatalf("the agent got no answer after the person's, after its hub restarted\n%s", logs.String())
	}
}

// TestClusterMirrorChecks has a machine publish, on a real three-node
// cluster, questions that break their contract's rules or its bounds: a
// Markdown preview of 200,000 characters, a tag that miscounts its
// questions, no deadline, a deadline a year away, and more than the
// person's hub shows at once. The person's hub shows none that breaks
// the rules, logging why, caps the deadlines, and stops at its count.
// It changes bounds every relay of the process reads, so it does not run
// in parallel with other tests.
func TestClusterMirrorChecks(t *testing.T) {
	const wait = time.Hour
	hub.SetMirrorBoundsForTest(t, 4, wait)
	c := startCluster(t)
	me := newPerson(t, c)
	op := newOperator(t, c)
	key, _ := seal.NewKey()
	paths, _ := hub.Locate(me.getenv)
	log := &testkit.Buffer{}
	_, mine := relayingHubWith(t, paths, map[string]any{"url": c.nodes[1].url(), "credentials": me.creds, "recipients": []string{me.recipient}}, log)

	request := func(title, preview string) string {
		opt := map[string]any{"label": "a"}
		if preview != "" {
			opt["preview"] = preview
		}
		return fmt.Sprintf(`{"questions":[{"title":%q,"options":[%s,{"label":"b"}]}]}`, title, must(json.Marshal(opt)))
	}
	soon, late := time.Now().Add(10*time.Minute).UTC(), time.Now().AddDate(1, 0, 0).UTC()
	tests := []struct {
		id, title, preview string
		questions          int
		deadline           *time.Time
		reason             string    // "" for shown
		want               time.Time // the deadline it shows with, within a minute
	}{
		{id: "bgprevwaaaaa", title: "Big preview", preview: strings.Repeat("x", 200000), questions: 1, deadline: &soon,
			reason: "its request breaks the rules of ask_user: questions[0].options[0].preview: "},
		{id: "mscvntaaaaaa", title: "Miscount", questions: 2, deadline: &soon, reason: "its tag counts 2 questions, its request has 1"},
		{id: "ndeadaaaaaaa", title: "No deadline", questions: 1, want: time.Now().Add(wait)},
		{id: "ayearawayaaa", title: "A year away", questions: 1, deadline: &late, want: time.Now().Add(wait)},
		{id: "snnaaaaaaaaa", title: "Soon", questions: 1, deadline: &soon, want: soon},
	}
	for _, tt := range tests {
		tag := hub.Tag{Agent: "bot", Machine: "build-42", Contract: hub.ContractAskUser, Questions: tt.questions, Deadline: tt.deadline}
		put(t, op.questions, tt.id, forgeQuestion(t, key, []string{me.recipient}, tt.id, tag, request(tt.title, tt.preview)))
	}
	for _, tt := range tests {
		if tt.reason != "" {
			continue
		}
		q := waitQuestion(t, mine, tt.title)
		if q.Tag.Deadline == nil || q.Tag.Deadline.Sub(tt.want).Abs() > time.Minute {
			t.Errorf("%s: shows with the deadline %v, want about %v", tt.title, q.Tag.Deadline, tt.want)
		}
	}
	waitFor(t, func() string {
		for _, tt := range tests {
			if tt.reason != "" && !strings.Contains(log.String(), "question "+tt.id+" from the remote hub is not shown: "+tt.reason) {
				return fmt.Sprintf("the log does not say why %s is not shown (%q):\n%s", tt.id, tt.reason, log.String())
			}
		}
		return ""
	})
	// Three wait; a fourth is shown, a fifth not.
	for _, id := range []string{"frthaaaaaaaa", "ffthaaaaaaaa"} {
		tag := hub.Tag{Agent: "bot", Machine: "build-42", Contract: hub.ContractAskUser, Questions: 1, Deadline: &soon}
		put(t, op.questions, id, forgeQuestion(t, key, []string{me.recipient}, id, tag, request(id, "")))
		if id == "frthaaaaaaaa" {
			waitQuestion(t, mine, id)
		}
	}
	waitFor(t, func() string {
		if !strings.Contains(log.String(), "question ffthaaaaaaaa from the remote hub is not shown: 4 questions of other machines wait here already") {
			return "the log does not say the fifth question is over the count:\n" + log.String()
		}
		return ""
	})
	pending, err := mine.Pending(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var shown []string
	for _, q := range pending {
		shown = append(shown, q.ID)
	}
	slices.Sort(shown)
	if want := []string{"ayearawayaaa", "frthaaaaaaaa", "ndeadaaaaaaa", "snnaaaaaaaaa"}; !slices.Equal(shown, want) {
		t.Errorf("shown %v, want %v", shown, want)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
