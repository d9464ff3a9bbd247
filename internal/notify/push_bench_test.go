package notify_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/askuser/askuser/hub"
)

// BenchmarkPushLag asks b.N questions through a real hub that pushes
// after 200 ms, and reports how long after that delay each push reached
// a local ntfy server: p50-ms and p99-ms (the budget is 1 s).
//
//	go test -run '^$' -bench PushLag -benchtime 50x ./internal/notify/
func BenchmarkPushLag(b *testing.B) {
	rec := newRecorderTB(b)
	state := b.TempDir()
	_, stop := testHubTB(b, state, pushConfig(rec.srv.URL, 200))
	defer stop()
	c, err := hub.Dial(context.Background(), &hub.DialOptions{Getenv: env(state)})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	var lags []time.Duration
	b.ResetTimer()
	for range b.N {
		before := len(rec.pushes())
		l, res := askerTB(b, state, 600000)
		var q hub.Question
		for q.ID == "" {
			qs, err := c.Pending(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			if len(qs) == 1 {
				q = qs[0]
			}
		}
		for len(rec.pushes()) == before {
			time.Sleep(time.Millisecond)
		}
		p := rec.pushes()[before]
		lags = append(lags, p.at.Sub(q.Created.Add(200*time.Millisecond)))
		if _, err := c.Dismiss(context.Background(), q.ID, "bench"); err != nil {
			b.Fatal(err)
		}
		<-res
		closeLink(l)
	}
	b.StopTimer()
	slices.Sort(lags)
	b.ReportMetric(float64(lags[len(lags)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lags[len(lags)*99/100].Microseconds())/1000, "p99-ms")
}
