package hub_test

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/google/go-cmp/cmp"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// storeQuestions connects to the hub of info as NATS itself and returns
// its questions bucket, for tests that lay out the store message by
// message.
func storeQuestions(t *testing.T, info hub.Info) jetstream.KeyValue {
	t.Helper()
	nc, err := nats.Connect(info.URL, nats.Token(info.Token))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := js.KeyValue(context.Background(), hubstore.QuestionsBucket)
	if err != nil {
		t.Fatal(err)
	}
	return kv
}

// watchEarly runs Watch on c until WatchSynced and returns the ids of
// the questions reported before WatchNewest and after it, and the
// questions that wait at the end, as last reported.
func watchEarly(t *testing.T, c *hub.Client) (early, rest []string, waiting map[string]*hub.Question) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, err := c.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	waiting = map[string]*hub.Question{}
	newest := false // WatchNewest came
	for e := range events {
		switch e.Kind {
		case hub.WatchNewest:
			if newest {
				t.Error("WatchNewest came twice")
			}
			newest = true
		case hub.WatchWaiting:
			if !newest {
				early = append(early, e.ID)
			} else {
				rest = append(rest, e.ID)
			}
			waiting[e.ID] = e.Question
		case hub.WatchClosed:
			t.Errorf("%s reported closed", e.ID)
			delete(waiting, e.ID)
		case hub.WatchSynced:
			if !newest {
				t.Error("WatchSynced came before WatchNewest")
			}
			cancel()
		}
	}
	return early, rest, waiting
}

// checkWatch runs watchEarly and checks that the first hundred events
// are the first hundred ids of newest, and that all waiting questions,
// how many wait, were reported after them. It returns those.
func checkWatch(t *testing.T, c *hub.Client, newest iter.Seq2[int, string], all int) map[string]*hub.Question {
	t.Helper()
	early, rest, waiting := watchEarly(t, c)
	var want []string
	for _, id := range newest {
		if len(want) == 100 {
			break
		}
		want = append(want, id)
	}
	if diff := cmp.Diff(want, early); diff != "" {
		t.Errorf("the first 100 events (-want +got):\n%s", diff)
	}
	if len(rest) != all || len(waiting) != all {
		t.Errorf("after the newest: %d events, %d waiting; want %d of each", len(rest), len(waiting), all)
	}
	return waiting
}

// putter stores questions in the hub's bucket as an asker would.
func putter(t *testing.T, kv jetstream.KeyValue) func(id string, created time.Time, stoppedBy string) {
	return func(id string, created time.Time, stoppedBy string) {
		t.Helper()
		q := hub.Question{ID: id, Status: "waiting", Created: created, StoppedBy: stoppedBy,
			Tag: hub.Tag{Agent: "a", Contract: hub.ContractAskUser, Questions: 1}, Request: json.RawMessage(askUserReq)}
		data, err := json.Marshal(q)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := kv.Put(context.Background(), q.ID, data); err != nil {
			t.Fatal(err)
		}
	}
}

// Watch reports the hundred newest questions first, read back from the
// end of the store, newest first, leaving out one removed and one
// rewritten since, which was created long before; then every question
// the store holds, the rewritten one as rewritten, and WatchSynced, with
// nothing closed that waits.
func TestWatchNewestFirst(t *testing.T) {
	info := startHub(t)
	c := dial(t, info)
	kv := storeQuestions(t, info)
	put := putter(t, kv)
	const n = 250
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ids := make([]string, n)
	for i := range n {
		ids[i] = fmt.Sprintf("q%011d", i)
		put(ids[i], base.Add(time.Duration(i)*time.Second), "")
	}
	put(ids[10], base.Add(10*time.Second), "the test")                // put last: the newest message
	if err := kv.Delete(context.Background(), ids[n-1]); err != nil { // the newest question, gone
		t.Fatal(err)
	}

	waiting := checkWatch(t, c, slices.Backward(ids[:n-1]), n-1)
	if waiting[ids[n-1]] != nil {
		t.Errorf("the removed question %s is reported waiting", ids[n-1])
	}
	if q := waiting[ids[10]]; q == nil || q.StoppedBy != "the test" {
		t.Errorf("question 10 last reported as %+v, not as rewritten", q)
	}
}

// With more questions than Watch reads back, the newest it reports first
// are still the hundred created last, and a question rewritten last but
// created long before is not among them.
func TestWatchNewestOfMany(t *testing.T) {
	info := startHub(t)
	c := dial(t, info)
	put := putter(t, storeQuestions(t, info))
	const n = 1100
	ids := make([]string, n)
	for i := range n {
		ids[i] = fmt.Sprintf("m%011d", i)
		put(ids[i], time.Now(), "")
	}
	put(ids[0], time.Now().Add(-time.Hour), "the test")

	checkWatch(t, c, slices.Backward(ids), n)
}

// A question is dated when it reaches the hub, not when it was asked: a
// dial that takes a while leaves it among the newest, where a list that
// reads the store's newest first looks for it.
func TestCreatedWhenPublished(t *testing.T) {
	info := startHub(t)
	c := dial(t, info)
	const slow = 300 * time.Millisecond
	l := hub.NewLink(&hub.LinkOptions{Dial: func(ctx context.Context) (*hub.Client, error) {
		time.Sleep(slow)
		return hub.Dial(ctx, &hub.DialOptions{Info: &info})
	}})
	defer l.Close(context.Background())
	local := newBlockingLocal()
	a := newAsker(t, l, ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, local), 60000)
	asked := time.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		ask.AskJSON(context.Background(), a, ask.AskUser, []byte(askUserReq), nil)
	}()
	q := waitPending(t, c)
	if q.Created.Before(asked.Add(slow)) {
		t.Errorf("created %v, %v after it was asked; want it dated once the slow dial (%v) was done", q.Created, q.Created.Sub(asked), slow)
	}
	local.release <- ask.Outcome[[]contract.Answer]{Dismissed: true}
	<-done
}
