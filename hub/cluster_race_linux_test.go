package hub_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/syncbuf"
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
// test with what it last returned once within has passed.
func waitFor(t *testing.T, within time.Duration, check func() string) {
	t.Helper()
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

// TestClusterSameMomentRelayed answers a question of an agent machine on
// two machines of the person at the same moment, through a real
// three-node cluster: each answer wins on its own machine's hub, one of
// them wins on the cluster and the agent gets that one. The hub of the
// machine whose answer lost then shows the answer that won and who gave
// it, as it shows an answer given elsewhere, and says whose answer it
// replaced; its watch tells the question closed once more, with it. The
// winner's hub keeps its own.
func TestClusterSameMomentRelayed(t *testing.T) {
	c := startCluster(t)
	me := newPerson(t, c)
	agentInfo, _ := relayingHub(t, pathsIn(t.TempDir()), c.nodes[0].url(), c.credentials(t, "agent"), me.recipient)
	laptopPaths, _ := hub.Locate(me.getenv)
	phonePaths := pathsIn(t.TempDir())
	copyKey(t, laptopPaths, phonePaths)
	var laptopLog, phoneLog syncbuf.Buffer
	remote := func(node int) map[string]any {
		return map[string]any{"url": c.nodes[node].url(), "credentials": me.creds, "recipients": []string{me.recipient}}
	}
	_, laptop := relayingHubWith(t, laptopPaths, remote(1), &laptopLog)
	_, phone := relayingHubWith(t, phonePaths, remote(2), &phoneLog)
	type machine struct {
		name, by, label string
		c               *hub.Client
		closed          *closedEvents
		log             *syncbuf.Buffer
	}
	machines := []*machine{
		{name: "laptop", by: "alice on her laptop", label: "staging", c: laptop, closed: watchClosed(t, laptop), log: &laptopLog},
		{name: "phone", by: "alice on her phone", label: "prod", c: phone, closed: watchClosed(t, phone), log: &phoneLog},
	}

	l := hub.NewLink(&hub.LinkOptions{Dial: func(ctx context.Context) (*hub.Client, error) {
		return hub.Dial(ctx, &hub.DialOptions{Info: &agentInfo})
	}})
	defer closeLink(l)
	if err := l.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	asker := newAsker(t, l, ask.Capabilities{CustomReason: "none", NativeReason: "none"}, 60000)

	// Both answers must win on their own hubs; an answer that comes
	// after the other reached its hub is refused there, and the
	// question is asked again.
	const attempts = 5
	for attempt := range attempts {
		results := make(chan contract.Result, 1)
		go func() { results <- asker.AskJSON(context.Background(), []byte(askUserReq), nil) }()
		var id string
		waitFor(t, 20*time.Second, func() string {
			ids := map[string]int{}
			for _, m := range machines {
				qs, err := m.c.Pending(context.Background())
				if err != nil {
					return fmt.Sprintf("pending on the %s: %v", m.name, err)
				}
				for _, q := range qs {
					ids[q.ID]++
				}
			}
			for q, n := range ids {
				if n == len(machines) {
					id = q
					return ""
				}
			}
			return "the question did not reach both of the person's hubs"
		})
		start := make(chan struct{})
		errs := make([]error, len(machines))
		var wg sync.WaitGroup
		for i, m := range machines {
			data := askUserAnswer(t, m.label)
			wg.Go(func() {
				<-start
				_, errs[i] = m.c.Answer(context.Background(), id, data, m.by)
			})
		}
		close(start)
		wg.Wait()
		var res contract.Result
		select {
		case res = <-results:
		case <-time.After(20 * time.Second):
			t.Fatal("the agent got no result")
		}
		if res.Status != contract.StatusAnswered || len(res.Answers) != 1 || len(res.Answers[0].Selections) != 1 {
			t.Fatalf("the agent got %+v", res)
		}
		for i, err := range errs {
			var refused *hub.RefusedError
			if err != nil && !(errors.As(err, &refused) && refused.Reason == hub.RefusedAnswered) {
				t.Fatalf("answer on the %s: %v", machines[i].name, err)
			}
		}
		if errs[0] != nil || errs[1] != nil {
			t.Logf("attempt %d: one answer came after the other had reached its hub (%v, %v)", attempt, errs[0], errs[1])
			continue
		}

		got := res.Answers[0].Selections[0]
		winner, loser := machines[0], machines[1]
		if got == loser.label {
			winner, loser = loser, winner
		} else if got != winner.label {
			t.Fatalf("the agent got %q, answered by neither", got)
		}
		t.Logf("the agent got the %s's answer, %q", winner.name, got)
		waitFor(t, 10*time.Second, func() string {
			_, a, err := loser.c.Question(context.Background(), id)
			if err != nil || a == nil {
				return fmt.Sprintf("the %s's hub: %v, %+v", loser.name, err, a)
			}
			if a.Status != hub.StatusClosed || a.Note != hub.StatusAnswered || a.By != winner.by || a.Superseded != loser.by {
				return fmt.Sprintf("the %s's hub shows %s %q by %q, superseding %q (%s); want the %s's answer", loser.name, a.Status, a.Note, a.By, a.Superseded, a.Where(), winner.name)
			}
			return ""
		})
		waitFor(t, 5*time.Second, func() string {
			es := loser.closed.of(id)
			if len(es) == 0 || es[len(es)-1].By != winner.by {
				return fmt.Sprintf("the %s's watch told the question closed with %+v; want last the %s's answer", loser.name, es, winner.name)
			}
			return ""
		})
		_, a, err := winner.c.Question(context.Background(), id)
		if err != nil || a == nil || a.Status != hub.StatusAnswered || a.By != winner.by {
			t.Errorf("the %s's hub shows %+v (%v); want its own answer", winner.name, a, err)
		}
		_, a, _ = loser.c.Question(context.Background(), id)
		t.Logf("the %s's hub: %s; its log:\n%s", loser.name, a.Where(), loser.log.String())
		return
	}
	t.Fatalf("in %d attempts the two answers never both won on their own hubs", attempts)
}
