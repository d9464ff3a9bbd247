package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/hubstore"
)

// BenchmarkInboxLatency is the time from a question stored on a real hub
// to its row drawn by the inbox's model, fed by Client.Watch: p50 and p99
// are reported as metrics.
func BenchmarkInboxLatency(b *testing.B) {
	state := b.TempDir()
	getenv := func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	info, stop, err := hubserver.Start(ctx, &hubserver.Options{Getenv: getenv})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	c, err := hub.Dial(ctx, &hub.DialOptions{Info: &info})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	// The asker's side: a connection of its own that stores questions.
	nc, err := nats.Connect(info.URL, nats.Token(info.Token))
	if err != nil {
		b.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	kv, err := js.KeyValue(ctx, hubstore.QuestionsBucket)
	if err != nil {
		b.Fatal(err)
	}
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	events, err := c.Watch(wctx)
	if err != nil {
		b.Fatal(err)
	}
	m := newInbox(events, nil, &InboxOptions{})
	m.width, m.height = 160, 40
	for e := range events {
		m.apply(e)
		if e.Kind == hub.WatchSynced {
			break
		}
	}
	var lat []time.Duration
	i := 0
	for b.Loop() {
		i++
		agent := fmt.Sprintf("agent-%d", i)
		id := fmt.Sprintf("bench%07d", i)
		q := hub.Question{ID: id, Status: "waiting", Created: time.Now().UTC(), Request: json.RawMessage(`{"questions":[{"title":"Go?"}]}`),
			Tag: hub.Tag{Agent: agent, Contract: hub.ContractAskUser, Questions: 1}}
		data, _ := json.Marshal(q)
		start := time.Now()
		if _, err := kv.Create(ctx, id, data); err != nil {
			b.Fatal(err)
		}
		for e := range events {
			m.apply(e)
			if e.ID == id {
				break
			}
		}
		if !strings.Contains(ansi.Strip(m.View().Content), agent) {
			b.Fatalf("the row of %s is not drawn", agent)
		}
		lat = append(lat, time.Since(start))
		_ = kv.Delete(ctx, id)
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
