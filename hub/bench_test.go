package hub_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/prefs"
)

// BenchmarkAnswerRoundTrip measures, on one machine, the time from an
// answer given with Client.Answer to the asking call's result, through a
// real hub; it reports the 50th and 99th percentiles.
func BenchmarkAnswerRoundTrip(b *testing.B) {
	info := startHubB(b)
	c, err := hub.Dial(context.Background(), &hub.DialOptions{Info: &info})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	l := hub.NewLink(&hub.LinkOptions{
		Dial: func(ctx context.Context) (*hub.Client, error) { return hub.Dial(ctx, &hub.DialOptions{Info: &info}) },
	})
	defer closeLink(l)
	if err := l.Connect(context.Background()); err != nil {
		b.Fatal(err)
	}
	ms := int64(60000)
	asker := ask.NewAsker(ask.NewHost(l.Join(ask.Capabilities{CustomReason: "none", NativeReason: "none"}), &ask.HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: &ms}}), nil)
	answer := []byte(`{"status":"answered","answers":[{"index":0,"id":"q1","title":"Deploy where?","kind":"single","selections":["prod"],"usedDefault":false}]}`)
	var took []time.Duration
	for b.Loop() {
		b.StopTimer()
		results := make(chan contract.Result, 1)
		go func() { results <- ask.AskJSON(context.Background(), asker, ask.AskUser, []byte(askUserReq), nil) }()
		var id string
		for id == "" {
			qs, err := c.Pending(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			if len(qs) == 1 {
				id = qs[0].ID
			}
		}
		b.StartTimer()
		start := time.Now()
		if _, err := c.Answer(context.Background(), id, answer, "bench"); err != nil {
			b.Fatal(err)
		}
		if res := <-results; res.Status != contract.StatusAnswered {
			b.Fatalf("result = %+v", res)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
}
