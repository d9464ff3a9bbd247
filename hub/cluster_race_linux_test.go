package hub_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/prefs"
	"github.com/google/go-cmp/cmp"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// closedEvents records the WatchClosed events of a hub's watch, by id.
type closedEvents struct {
	mu     sync.Mutex
	events map[string][]hub.Answer
}

func watchClosed(t *testing.T, c *hub.Client) *closedEvents {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	events, err := c.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ce := &closedEvents{events: map[string][]hub.Answer{}}
	go func() {
		for e := range events {
			if e.Kind == hub.WatchClosed && e.Answer != nil {
				ce.mu.Lock()
				ce.events[e.ID] = append(ce.events[e.ID], *e.Answer)
				ce.mu.Unlock()
			}
		}
	}()
	return ce
}

func (ce *closedEvents) of(id string) []hub.Answer {
	ce.mu.Lock()
	defer ce.mu.Unlock()
	return append([]hub.Answer(nil), ce.events[id]...)
}

// waitFor calls check every 20 ms until it returns "", and fails the
// test with what it last returned once the test's patience has passed
// (testkit.Patience).
func waitFor(t *testing.T, check func() string) {
	t.Helper()
	within := testkit.Patience(t)
	deadline := time.Now().Add(within)
	for {
		why := check()
		if why == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", within, why)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// copyKey gives the hub in to the person's key, as a second machine of
// theirs has it.
func copyKey(t *testing.T, from, to hub.Paths) {
	t.Helper()
	data, err := os.ReadFile(from.Key())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(to.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to.Key(), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// askingMachine starts a cluster, the person, and an agent machine's hub
// relaying to the cluster's first node, until the test ends.
func askingMachine(t *testing.T) (*cluster, person, hub.Info, *hub.Client) {
	t.Helper()
	c := startCluster(t)
	me := newPerson(t, c)
	info, cl := relayingHub(t, pathsIn(t.TempDir()), c.nodes[0].url(), c.credentials(t, "agent"), me.recipient)
	return c, me, info, cl
}

// agentLink is an agent's link to its machine's hub at info, connected,
// closed when the test ends.
func agentLink(t *testing.T, info hub.Info) *hub.Link {
	t.Helper()
	l := hub.NewLink(&hub.LinkOptions{Dial: func(ctx context.Context) (*hub.Client, error) {
		return hub.Dial(ctx, &hub.DialOptions{Info: &info})
	}})
	t.Cleanup(func() { closeLink(l) })
	if err := l.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	return l
}

// TestClusterSameMomentRelayed answers a question of an agent machine on
// two machines at the same moment, through a real three-node cluster:
// two machines of the person, then the agent's own machine and one of
// the person's. Each answer wins on its own machine's hub; the agent
// gets one, the one that won on the cluster or, when its own machine's
// hub answered, that one. Every hub and the cluster then show the answer
// the agent got: the hub whose answer lost shows it as an answer given
// elsewhere and says whose answer it replaced, and its watch tells the
// question closed once more, with it; the winner's hub keeps its own.
func TestClusterSameMomentRelayed(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	me := newPerson(t, c)
	laptopPaths, _ := hub.Locate(me.getenv)
	phonePaths := pathsIn(t.TempDir())
	copyKey(t, laptopPaths, phonePaths)
	start := func(name, by, label string, paths hub.Paths, node int, creds string) (*relayMachine, hub.Info) {
		m := &relayMachine{name: name, by: by, label: label, log: &testkit.Buffer{}}
		var info hub.Info
		info, m.c = relayingHubWith(t, paths, map[string]any{"url": c.nodes[node].url(), "credentials": creds, "recipients": []string{me.recipient}}, m.log)
		m.closed = watchClosed(t, m.c)
		return m, info
	}
	agent, agentInfo := start("agent's machine", "bob at the build server", "staging", pathsIn(t.TempDir()), 0, c.credentials(t, "agent"))
	laptop, _ := start("laptop", "alice on her laptop", "staging", laptopPaths, 1, me.creds)
	phone, _ := start("phone", "alice on her phone", "prod", phonePaths, 2, me.creds)
	cluster := me.dial(t, c.nodes[2].url())
	asker := newAsker(t, agentLink(t, agentInfo), ask.Capabilities{CustomReason: "none", NativeReason: "none"}, 60000)

	for _, tc := range []struct {
		name     string
		answer   [2]*relayMachine
		takes    *relayMachine // the answer the agent must take; nil for either
		attempts int
	}{
		{"two machines of the person", [2]*relayMachine{laptop, phone}, nil, 5},
		{"the agent's machine and the person's", [2]*relayMachine{agent, phone}, agent, 5},
	} {
		// Both answers must win on their own hubs; an answer that
		// comes after the other reached its hub is refused there, and
		// the question is asked again.
		raced := false
		for attempt := 0; attempt < tc.attempts && !raced; attempt++ {
			results := make(chan contract.Result, 1)
			go func() { results <- ask.AskJSON(context.Background(), asker, ask.AskUser, []byte(askUserReq), nil) }()
			id := waitOnBoth(t, tc.name, tc.answer)
			errs := answerAtOnce(t, id, tc.answer)
			var res contract.Result
			select {
			case res = <-results:
			case <-time.After(testkit.Patience(t)):
				t.Fatalf("%s: the agent got no result", tc.name)
			}
			if res.Status != contract.StatusAnswered || len(res.Answers) != 1 || len(res.Answers[0].Selections) != 1 {
				t.Fatalf("%s: the agent got %+v", tc.name, res)
			}
			for i, err := range errs {
				var refused *hub.RefusedError
				if err != nil && !(errors.As(err, &refused) && refused.Reason == hub.RefusedAnswered) {
					t.Fatalf("%s: answer on the %s: %v", tc.name, tc.answer[i].name, err)
				}
			}
			if errs[0] != nil || errs[1] != nil {
				t.Logf("%s, attempt %d: one answer came after the other had reached its hub (%v, %v)", tc.name, attempt, errs[0], errs[1])
				continue
			}
			raced = true
			got := res.Answers[0].Selections[0]
			winner, loser := tc.answer[0], tc.answer[1]
			if got == loser.label {
				winner, loser = loser, winner
			} else if got != winner.label {
				t.Fatalf("%s: the agent got %q, answered by neither", tc.name, got)
			}
			if tc.takes != nil && winner != tc.takes {
				t.Fatalf("%s: the agent got the %s's answer, not its own machine's", tc.name, winner.name)
			}
			t.Logf("%s: the agent got the %s's answer, %q", tc.name, winner.name, got)
			waitFor(t, func() string {
				_, a, err := loser.c.Question(context.Background(), id)
				if err != nil || a == nil {
					return fmt.Sprintf("%s: the %s's hub: %v, %+v", tc.name, loser.name, err, a)
				}
				if a.Status != hub.StatusClosed || a.Note != hub.StatusAnswered || a.By != winner.by || a.Superseded != loser.by {
					return fmt.Sprintf("%s: the %s's hub shows %s %q by %q, superseding %q (%s); want the %s's answer", tc.name, loser.name, a.Status, a.Note, a.By, a.Superseded, a.Where(), winner.name)
				}
				return ""
			})
			waitFor(t, func() string {
				es := loser.closed.of(id)
				if len(es) == 0 || es[len(es)-1].By != winner.by {
					return fmt.Sprintf("%s: the %s's watch told the question closed with %+v; want last the %s's answer", tc.name, loser.name, es, winner.name)
				}
				return ""
			})
			_, a, err := winner.c.Question(context.Background(), id)
			if err != nil || a == nil || a.Status != hub.StatusAnswered || a.By != winner.by {
				t.Errorf("%s: the %s's hub shows %+v (%v); want its own answer", tc.name, winner.name, a, err)
			}
			others := map[string]*hub.Client{"the cluster": cluster}
			for _, m := range []*relayMachine{agent, laptop, phone} {
				if m != winner && m != loser {
					others["the "+m.name+"'s hub"] = m.c
				}
			}
			waitFor(t, func() string {
				for name, h := range others {
					if _, a, err := h.Question(context.Background(), id); err != nil || a == nil || a.By != winner.by {
						return fmt.Sprintf("%s: %s shows %+v (%v); want the %s's answer", tc.name, name, a, err, winner.name)
					}
				}
				return ""
			})
			_, a, _ = loser.c.Question(context.Background(), id)
			_, ca, _ := cluster.Question(context.Background(), id)
			t.Logf("%s: the %s's hub: %s; the cluster: %s; the %s's log:\n%s", tc.name, loser.name, a.Where(), ca.Where(), winner.name, winner.log.String())
		}
		if !raced {
			t.Fatalf("%s: in %d attempts the two answers never both won on their own hubs", tc.name, tc.attempts)
		}
	}
}

// relayMachine is a machine of TestClusterSameMomentRelayed: its hub,
// relaying with the cluster, and who answers there with which label.
type relayMachine struct {
	name, by, label string
	c               *hub.Client
	closed          *closedEvents
	log             *testkit.Buffer
}

// waitOnBoth waits for a question to wait on the hubs of both machines,
// and returns its id; what names the case in errors.
func waitOnBoth(t *testing.T, what string, ms [2]*relayMachine) string {
	t.Helper()
	var id string
	waitFor(t, func() string {
		ids := map[string]int{}
		for _, m := range ms {
			qs, err := m.c.Pending(context.Background())
			if err != nil {
				return fmt.Sprintf("pending on the %s: %v", m.name, err)
			}
			for _, q := range qs {
				ids[q.ID]++
			}
		}
		for q, n := range ids {
			if n == len(ms) {
				id = q
				return ""
			}
		}
		return what + ": the question did not reach both hubs"
	})
	return id
}

// answerAtOnce answers the question id on both machines at the same
// moment, each with its label, and returns their errors.
func answerAtOnce(t *testing.T, id string, ms [2]*relayMachine) [2]error {
	t.Helper()
	startNow := make(chan struct{})
	var errs [2]error
	var wg sync.WaitGroup
	for i, m := range ms {
		data := askUserAnswer(t, m.label)
		wg.Go(func() {
			<-startNow
			_, errs[i] = m.c.Answer(context.Background(), id, data, m.by)
		})
	}
	close(startNow)
	wg.Wait()
	return errs
}

// TestClusterBucketReplicas starts a hub relaying to a real three-node
// cluster that has no buckets of the hub: it makes them with three
// replicas, one per server, or with as many as its config's remote asks
// for, and says so in its log, with why. Buckets it finds it uses as
// they are.
func TestClusterBucketReplicas(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	me := newPerson(t, c)
	nc := c.connect(t, "owner", c.urls())
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	buckets := []string{hubstore.QuestionsBucket, hubstore.AnswersBucket}
	for i, tc := range []struct {
		name     string
		replicas int  // the config's remote.replicas; 0 for none
		found    bool // the buckets of the case before are there
		want     int
		log      string // what the hub's log says; "" for nothing of buckets
	}{
		{"none found", 0, false, 3, "made the buckets askuser_questions and askuser_answers with 3 replicas: the cluster askuser has 3 servers"},
		{"as configured", 2, false, 2, "made the buckets askuser_questions and askuser_answers with 2 replicas: as configured"},
		{"found", 1, true, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), testkit.Patience(t))
			defer cancel()
			if !tc.found {
				for _, b := range buckets {
					if err := js.DeleteKeyValue(ctx, b); err != nil {
						t.Fatalf("delete the bucket %s: %v", b, err)
					}
				}
			}
			remote := map[string]any{"url": c.nodes[i].url(), "credentials": c.credentials(t, "agent"), "recipients": []string{me.recipient}}
			if tc.replicas > 0 {
				remote["replicas"] = tc.replicas
			}
			var log testkit.Buffer
			relayingHubWith(t, pathsIn(t.TempDir()), remote, &log)
			waitFor(t, func() string {
				if !strings.Contains(log.String(), "relays questions with the remote hub") {
					return "the hub does not relay yet; its log:\n" + log.String()
				}
				for _, b := range buckets {
					st, err := js.Stream(ctx, "KV_"+b)
					if err != nil {
						return fmt.Sprintf("the bucket %s: %v", b, err)
					}
					info := st.CachedInfo()
					peers := 0
					if info.Cluster != nil {
						peers = 1 + len(info.Cluster.Replicas)
					}
					if info.Config.Replicas != tc.want || peers != tc.want {
						return fmt.Sprintf("the bucket %s has %d replicas on %d servers, want %d", b, info.Config.Replicas, peers, tc.want)
					}
				}
				return ""
			})
			said := log.String()
			if tc.log != "" && !strings.Contains(said, tc.log) {
				t.Errorf("the hub's log does not say %q:\n%s", tc.log, said)
			}
			if tc.log == "" && strings.Contains(said, "made the buckets") {
				t.Errorf("the hub made buckets it found:\n%s", said)
			}
		})
	}
}

// TestClusterReadAfterPublish asks questions through the Go API on one
// node of a real three-node cluster (DialRemote) while the person's
// programs on the two other nodes watch; each reads every question the
// moment its watch shows it, and again the moment the other answered it.
// No read finds the question unknown, nor misses the answer, whichever
// replica is behind.
func TestClusterReadAfterPublish(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	me := newPerson(t, c)
	remote, remoteKey := prefs.Remote{URL: c.nodes[0].url(), Credentials: c.credentials(t, "agent"), Recipients: []string{me.recipient}}, machineKey(t)
	l := hub.NewLink(&hub.LinkOptions{Dial: func(ctx context.Context) (*hub.Client, error) {
		return hub.DialRemote(ctx, remote, remoteKey, &hub.DialOptions{Timeout: 5 * time.Second})
	}})
	defer closeLink(l)
	if err := l.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	asker := newAsker(t, l, ask.Capabilities{CustomReason: "none", NativeReason: "none"}, 60000)
	readers := []*hub.Client{me.dial(t, c.nodes[1].url()), me.dial(t, c.nodes[2].url())}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var waiting []<-chan hub.WatchEvent
	for _, r := range readers {
		events, err := r.Watch(ctx)
		if err != nil {
			t.Fatal(err)
		}
		shown := make(chan hub.WatchEvent, 16)
		go func() {
			for e := range events {
				if e.Kind == hub.WatchWaiting && e.Question.Request != nil {
					shown <- e
				}
			}
		}()
		waiting = append(waiting, shown)
	}
	const questions = 100
	unknown, unanswered := 0, 0
	for i := range questions {
		results := make(chan contract.Result, 1)
		go func() { results <- ask.AskJSON(context.Background(), asker, ask.AskUser, []byte(askUserReq), nil) }()
		var id string
		for j, r := range readers {
			var e hub.WatchEvent
			select {
			case e = <-waiting[j]:
			case <-time.After(testkit.Patience(t)):
				t.Fatalf("question %d: reader %d's watch did not show it", i, j)
			}
			id = e.ID
			if _, _, err := r.Question(context.Background(), id); err != nil {
				var refused *hub.RefusedError
				if !errors.As(err, &refused) || refused.Reason != hub.RefusedUnknown {
					t.Fatalf("question %d: reader %d: %v", i, j, err)
				}
				unknown++
			}
		}
		answerer, other := readers[i%2], readers[1-i%2]
		q, _, err := answerer.Question(context.Background(), id)
		if err != nil {
			t.Fatalf("question %d: %v", i, err)
		}
		if _, err := answerer.Answer(context.Background(), id, askUserAnswer(t, "prod"), "alice"); err != nil {
			t.Fatalf("question %d: answer: %v", i, err)
		}
		if _, a, err := other.Question(context.Background(), q.ID); err != nil || a == nil {
			unanswered++
		}
		if res := <-results; res.Status != contract.StatusAnswered {
			t.Fatalf("question %d: the asker got %+v", i, res)
		}
	}
	t.Logf("of %d questions, read on two other nodes each as soon as shown: %d reads found the question unknown; %d reads on the other node right after the answer missed it", questions, unknown, unanswered)
	if unknown > 0 || unanswered > 0 {
		t.Errorf("%d reads found a shown question unknown, %d missed its answer", unknown, unanswered)
	}
}

// TestClusterReadAfterWrite publishes questions through the Go API on
// one node of a real three-node cluster (DialRemote), and reads each
// right after, through that node and the two others; then answers it on
// one and reads the answer right after through the others. A direct get
// may be answered by a replica that has not stored the write yet; no
// read here finds a question unknown or misses an answer.
func TestClusterReadAfterWrite(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	me := newPerson(t, c)
	asker, err := hub.DialRemote(context.Background(), prefs.Remote{URL: c.nodes[0].url(), Credentials: c.credentials(t, "agent"), Recipients: []string{me.recipient}}, machineKey(t), &hub.DialOptions{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer asker.Close()
	var readers []*hub.Client
	for _, n := range c.nodes {
		readers = append(readers, me.dial(t, n.url()))
	}
	// A store that holds a few thousand entries, as a busy one does:
	// its replicas fall behind more often than those of an empty one.
	nc := c.connect(t, "owner", c.nodes[0].url())
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3000 {
		if _, err := js.PublishAsync(fmt.Sprintf("$KV.%s.filler%d", hubstore.QuestionsBucket, i), []byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-js.PublishAsyncComplete():
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the store was not filled")
	}
	const questions = 500
	unknown, missed, early := 0, 0, 0
	for i := range questions {
		ctx, cancel := context.WithTimeout(context.Background(), testkit.Patience(t))
		id, err := hub.PublishForTest(ctx, asker, []byte(askUserReq), 1)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		if i%5 == 0 {
			// A watch's first events, the newest questions, hold it.
			for j, r := range readers {
				if !newestHas(ctx, r, id) {
					early++
					t.Logf("question %d: the first events of a watch on node %d do not hold it", i, j+1)
				}
			}
		}
		for j, r := range readers {
			if i%5 == 0 {
				continue
			}
			if _, _, err := r.Question(ctx, id); err != nil {
				var refused *hub.RefusedError
				if !errors.As(err, &refused) || refused.Reason != hub.RefusedUnknown {
					t.Fatalf("question %d on node %d: %v", i, j+1, err)
				}
				unknown++
			}
		}
		answerer := readers[1+i%2]
		if _, err := answerRetrying(t, answerer, &hub.Question{ID: id, Request: []byte(askUserReq)}, "prod", "alice"); err != nil {
			t.Fatalf("question %d: answer: %v", i, err)
		}
		for _, r := range readers {
			if _, a, err := r.Question(ctx, id); err != nil || a == nil {
				missed++
			}
		}
		cancel()
	}
	t.Logf("%d questions read right after their publication on three nodes: %d reads found one unknown; %d reads right after its answer missed it; %d watches of %d did not show it first", questions, unknown, missed, early, questions/5*len(readers))
	if unknown > 0 || missed > 0 || early > 0 {
		t.Errorf("%d reads found a question unknown, %d missed its answer, %d watches did not show it first", unknown, missed, early)
	}
}

// newestHas reports whether the events of a new watch of c, up to its
// WatchNewest, show the question id.
func newestHas(ctx context.Context, c *hub.Client, id string) bool {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	events, err := c.Watch(ctx)
	if err != nil {
		return false
	}
	for e := range events {
		switch {
		case e.Kind == hub.WatchNewest:
			return false
		case e.Kind == hub.WatchWaiting && e.ID == id:
			return true
		}
	}
	return false
}

// stopWithoutNotice stops the countdown of the question id in the
// questions bucket that nc reaches, on behalf of by, as StopCountdown
// stores it, but sends no notice of it: as when the notice was lost on
// its way to a relay that could not be reached at that moment.
func stopWithoutNotice(t *testing.T, nc *nats.Conn, id, by string) {
	testkit.UpdateEntry(t, nc, hubstore.QuestionsBucket, id, func(q map[string]any) {
		delete(q["tag"].(map[string]any), "deadline")
		q["stopped_by"] = by
	})
}

// TestClusterStopLookedFor stops the countdown of a question asked on an
// agent machine, through a real three-node cluster, in a way whose
// notice never reaches the relays: stored on the cluster, and stored on
// the person's hub, each without its notice. The relays learn of it
// anyway at their periodic look, within five seconds (lookEvery): the
// question loses its deadline on the agent's hub, the cluster and the
// person's hub, stopped by the same name, and the asking agent's
// countdown stops.
func TestClusterStopLookedFor(t *testing.T) {
	t.Parallel()
	c, me, agentInfo, agentHub := askingMachine(t)
	paths, _ := hub.Locate(me.getenv)
	mineInfo, mine := relayingHub(t, paths, c.nodes[1].url(), me.creds, me.recipient)
	cluster := me.dial(t, c.nodes[2].url())
	l := agentLink(t, agentInfo)
	dialog, sessions := showingDialog()
	asker := newAsker(t, l, ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, dialog), 60000)
	hubs := map[string]*hub.Client{"the agent's hub": agentHub, "the cluster": cluster, "the person's hub": mine}
	// The look is every five seconds (lookEvery), and a stop is stored
	// at any moment between two; the relay that finds it tells the other
	// side at once. Without a notice only the look can tell them, so the
	// test waits with the usual patience and logs how long it took, which
	// on an idle machine is within this.
	const within = 5*time.Second + 2*time.Second
	seen := map[string]bool{}
	for _, tc := range []struct {
		where, by string
		conn      func() *nats.Conn
	}{
		{"the cluster", "alice on a train", func() *nats.Conn { return c.connect(t, "owner", c.nodes[2].url()) }},
		{"the person's hub", "alice at home", func() *nats.Conn {
			nc, err := nats.Connect(mineInfo.URL, nats.Token(mineInfo.Token))
			if err != nil {
				t.Fatal(err)
			}
			return nc
		}},
	} {
		results := make(chan contract.Result, 1)
		go func() { results <- ask.AskJSON(context.Background(), asker, ask.AskUser, []byte(askUserReq), nil) }()
		session := <-sessions
		var q hub.Question
		waitFor(t, func() string {
			qs, err := mine.Pending(context.Background())
			if err != nil {
				return fmt.Sprintf("pending: %v", err)
			}
			for _, p := range qs {
				if !seen[p.ID] {
					q, seen[p.ID] = p, true
					return ""
				}
			}
			return "the question did not reach the person's hub"
		})
		// The question waits, with its deadline, on every hub before the
		// stop: each relay has stored it, and from then on waits for its
		// end, looking for a stop every lookEvery.
		waitFor(t, func() string {
			for name, h := range hubs {
				got, _, err := h.Question(context.Background(), q.ID)
				if err != nil || got == nil || got.Tag.Deadline == nil {
					return fmt.Sprintf("the question does not wait with its deadline on %s (%v)", name, err)
				}
			}
			return ""
		})
		nc := tc.conn()
		start := time.Now()
		stopWithoutNotice(t, nc, q.ID, tc.by)
		nc.Close()
		waitFor(t, func() string {
			for name, h := range hubs {
				got, _, err := h.Question(context.Background(), q.ID)
				if err != nil || got == nil {
					return fmt.Sprintf("stopped on %s without a notice: on %s the question no longer waits (%v)", tc.where, name, err)
				}
				if got.Tag.Deadline != nil || got.StoppedBy != tc.by {
					return fmt.Sprintf("stopped on %s without a notice: on %s the question has deadline %v, stopped by %q; want none, stopped by %q", tc.where, name, got.Tag.Deadline, got.StoppedBy, tc.by)
				}
			}
			if _, ok := session.Countdown.Deadline(); ok {
				return fmt.Sprintf("stopped on %s without a notice: the asking agent's countdown still runs", tc.where)
			}
			return ""
		})
		t.Logf("stopped on %s without a notice: every hub and the agent knew within %v (expected within %v)", tc.where, time.Since(start).Round(time.Millisecond), within)
		if _, err := answerRetrying(t, mine, &q, "prod", "alice"); err != nil {
			t.Fatal(err)
		}
		select {
		case res := <-results:
			if res.Status != contract.StatusAnswered {
				t.Fatalf("the agent got %+v", res)
			}
		case <-time.After(testkit.Patience(t)):
			t.Fatal("the agent got no result")
		}
	}
}

// TestRemoteBucketsOneServer dials a real nats-server that is in no
// cluster and has no buckets of the hub, as DialRemote: it makes them
// with one replica, after JetStream refused more, and says so.
func TestRemoteBucketsOneServer(t *testing.T) {
	t.Parallel()
	var said []string
	cl, _, _ := dialOneServer(t, func(s string) { said = append(said, s) })
	cl.Close()
	want := []string{"made the buckets askuser_questions and askuser_answers with 1 replica: as many as JetStream placed, up to 3; " +
		"JetStream could not place 3: replicas > 1 not supported in non-clustered mode"}
	if d := cmp.Diff(want, said); d != "" {
		t.Fatalf("DialRemote told (-want +got):\n%s", d)
	}
	t.Log(said[0])
}

// dialOneServer runs a real nats-server that is in no cluster, with
// JetStream, until the test ends, and dials it as DialRemote, telling
// log (nil for none); it returns the client, the server's url and the
// user's password.
func dialOneServer(t *testing.T, log func(string)) (cl *hub.Client, url, pw string) {
	t.Helper()
	bin, err := testkit.Build(natsServerPkg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	port := freePorts(t, 1)[0]
	pw = secret()
	cmd := exec.Command(bin, "-a", "127.0.0.1", "-p", fmt.Sprint(port), "-js", "-sd", filepath.Join(dir, "js"), "--user", "agent", "--pass", pw)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	creds := filepath.Join(dir, "agent.cred")
	if err := os.WriteFile(creds, []byte("agent:"+pw+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	pub, err := hubstore.MakeKey(filepath.Join(dir, "key"))
	if err != nil {
		t.Fatal(err)
	}
	url = fmt.Sprintf("nats://127.0.0.1:%d", port)
	waitFor(t, func() string {
		cl, err = hub.DialRemote(context.Background(), prefs.Remote{URL: url, Credentials: creds, Recipients: []string{pub}}, filepath.Join(dir, "key"),
			&hub.DialOptions{Timeout: 5 * time.Second, Log: log})
		if err != nil {
			return err.Error()
		}
		return ""
	})
	return cl, url, pw
}

// TestRemoteStoreNotAsked: a machine asking through a remote hub does
// not ask whether the hub's store is full, as it asks its own hub: on
// the remote server, any member of the account could say so, and refuse
// every machine's questions.
func TestRemoteStoreNotAsked(t *testing.T) {
	t.Parallel()
	cl, url, pw := dialOneServer(t, nil)
	defer cl.Close()
	member, err := nats.Connect(url, nats.UserInfo("agent", pw))
	if err != nil {
		t.Fatal(err)
	}
	defer member.Close()
	full, err := json.Marshal(hub.StoreState{Full: true, Dir: "/nowhere"})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := member.Subscribe(hubstore.StoreSubject, func(m *nats.Msg) { m.Respond(full) })
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	if err := member.Flush(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if st, ok, err := cl.Store(ctx); err != nil || !ok || !st.Full {
		t.Fatalf("the member's answer on %s: %+v, %v, %v; want it full", hubstore.StoreSubject, st, ok, err)
	}
	if _, err := hub.PublishForTest(ctx, cl, json.RawMessage(`{"questions":[{"title":"Ship it?","options":[{"label":"yes"},{"label":"no"}]}]}`), 1); err != nil {
		t.Fatalf("a question to the remote hub: %v", err)
	}
}
