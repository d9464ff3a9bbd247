//go:build linux

package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/prefs"
)

// BenchmarkHubWaiting fills a real askuser hub process with 10,000
// waiting questions from 1,000 agents, each its own connection asking 10
// at once, and then measures the first screen of a real askuser inbox on
// a pseudo-terminal: each op starts the inbox and waits until it shows
// "10000 questions wait", which takes its dial, the reading of every
// question from the hub and the first drawing. It reports when the newest
// question was on the screen (newest-shown-ms), the hub's
// resident memory then (hub-RSS-MiB) and at its peak (hub-HWM-MiB), read
// from /proc.
//
// The agents are hub.Link joined to an ask.Asker with no route of its
// own, in this process, as askuser ask and askuser mcp join theirs: a
// thousand askuser processes would measure the machine, not the hub.
//
//	go test -run '^$' -bench HubWaiting -benchtime 5x ./internal/host/cli/
func BenchmarkHubWaiting(b *testing.B) {
	const agents, perAgent = 1000, 10
	state, tmp := b.TempDir(), b.TempDir()
	env := append(os.Environ(), "XDG_STATE_HOME="+state, "TMPDIR="+tmp, "TERM=xterm-256color")
	h := startHubCommand(b, env)
	getenv := envGetenv(env)
	dial := func(ctx context.Context) (*hub.Client, error) {
		return hub.Dial(ctx, &hub.DialOptions{Getenv: getenv, Timeout: 30 * time.Second})
	}

	watcher, err := dial(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer watcher.Close()
	wctx, stopWatch := context.WithCancel(context.Background())
	defer stopWatch()
	events, err := watcher.Watch(wctx)
	if err != nil {
		b.Fatal(err)
	}
	all := make(chan struct{})
	go func() {
		waiting := map[string]bool{}
		for e := range events {
			if e.Kind == hub.WatchWaiting {
				waiting[e.ID] = true
				if len(waiting) == agents*perAgent {
					close(all)
				}
			}
		}
	}()

	ctx, cancel := context.WithCancel(context.Background())
	var asking sync.WaitGroup
	var links []*hub.Link
	ms := int64(time.Hour / time.Millisecond)
	for a := range agents {
		l := hub.NewLink(&hub.LinkOptions{Dial: dial, Agent: fmt.Sprintf("agent %d", a)})
		links = append(links, l)
		asker := ask.NewAsker(ask.NewHost(l.Join(ask.Capabilities{CustomReason: "none", NativeReason: "none"}),
			&ask.HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: &ms}}), nil)
		for i := range perAgent {
			asking.Go(func() {
				req := fmt.Sprintf(`{"questions":[{"title":"Deploy a%dq%d where?","options":[{"label":"staging"},{"label":"production"}]}]}`, a, i)
				res := ask.AskJSON(ctx, asker, ask.AskUser, []byte(req), &ask.Call{ID: fmt.Sprintf("a%d-%d", a, i)})
				if res.Status != contract.StatusAborted {
					why := ""
					if res.Error != nil {
						why = ": " + res.Error.Message
					}
					b.Errorf("call a%d-%d ended %s, not aborted at the end%s", a, i, res.Status, why)
				}
			})
		}
	}
	defer func() {
		cancel()
		asking.Wait()
		cctx, ccancel := context.WithTimeout(context.Background(), time.Minute)
		defer ccancel()
		for _, l := range links {
			l.Close(cctx)
		}
		if err := h.stop(b, syscall.SIGTERM); err != nil {
			b.Errorf("askuser hub on SIGTERM: %v", err)
		}
	}()
	filled := time.Now()
	select {
	case <-all:
	case <-time.After(5 * time.Minute):
		b.Fatal("10,000 questions did not wait on the hub within 5 minutes")
	}
	fillTime := time.Since(filled)
	rss := procStatusMiB(b, h.cmd.Process.Pid, "VmRSS")
	firstRead, synced := watchSynced(b, dial)

	// The newest question's title: the first row of the first screen.
	pending, err := watcher.Pending(context.Background())
	if err != nil || len(pending) != agents*perAgent {
		b.Fatalf("askuser pending: %d questions, %v", len(pending), err)
	}
	var newest struct {
		Questions []struct{ Title string } `json:"questions"`
	}
	if err := json.Unmarshal(pending[0].Request, &newest); err != nil {
		b.Fatal(err)
	}
	var first time.Duration
	for b.Loop() {
		start := time.Now()
		s := startInbox(b, env)
		s.waitFor(newest.Questions[0].Title)
		first += time.Since(start)
		s.waitFor(fmt.Sprintf("%d questions wait", agents*perAgent))
		b.StopTimer()
		s.send("q")
		if code := s.exit(); code != 0 {
			b.Fatalf("askuser inbox: exit status %d", code)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "newest-shown-ms")
	b.ReportMetric(rss, "hub-RSS-MiB")
	b.ReportMetric(procStatusMiB(b, h.cmd.Process.Pid, "VmHWM"), "hub-HWM-MiB")
	b.Logf("%d questions of %d agents waiting after %v; hub resident memory %.1f MiB; a new client dialled and read the newest in %v, all in %v",
		agents*perAgent, agents, fillTime.Round(time.Millisecond), rss, firstRead.Round(time.Millisecond), synced.Round(time.Millisecond))
}

// procStatusMiB reads the field (VmRSS, VmHWM) of process pid's
// /proc/PID/status, in MiB.
func procStatusMiB(tb testing.TB, pid int, field string) float64 {
	tb.Helper()
	n, err := statusBytes(pid, field)
	if err != nil {
		tb.Fatal(err)
	}
	return float64(n) / (1 << 20)
}

// watchSynced returns how long a new client's dial and Watch take to
// report the first question that waits, the newest, and everything that
// waits: the part of the inbox's first screen that is the hub's.
func watchSynced(tb testing.TB, dial func(context.Context) (*hub.Client, error)) (first, synced time.Duration) {
	tb.Helper()
	start := time.Now()
	c, err := dial(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, err := c.Watch(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	for e := range events {
		if e.Kind == hub.WatchWaiting && first == 0 {
			first = time.Since(start)
		}

		if e.Kind == hub.WatchSynced && synced == 0 {
			synced = time.Since(start)
			cancel()
		}
	}
	return first, synced
}
