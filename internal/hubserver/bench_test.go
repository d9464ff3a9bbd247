package hubserver_test

import (
	"context"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
)

// BenchmarkColdStart measures a hub's start, from Run to ready (its
// server listening, its buckets made, its info file written), on a new
// store each time.
func BenchmarkColdStart(b *testing.B) {
	root := b.TempDir()
	n := 0
	for b.Loop() {
		n++
		dir := filepath.Join(root, strconv.Itoa(n))
		ctx, cancel := context.WithCancel(context.Background())
		ready := make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- hubserver.Run(ctx, &hubserver.Options{
				Paths: hub.Paths{Dir: dir, Info: filepath.Join(dir, "hub.json"), Lock: filepath.Join(dir, "hub.lock"), Store: filepath.Join(dir, "js")},
				Ready: func(hub.Info) { close(ready) },
			})
		}()
		select {
		case <-ready:
		case err := <-done:
			b.Fatal(err)
		}
		b.StopTimer()
		cancel()
		if err := <-done; err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// BenchmarkStop measures how long a hub process, with a client
// connected, takes from SIGTERM to its exit: the time a service manager
// waits, and the asker's lost time in a restart. The hub process is this
// test binary: built with -race, every process sleeps a second before
// it exits (the race detector's atexit_sleep_ms), which
// GORACE=atexit_sleep_ms=0 takes off the figure.
func BenchmarkStop(b *testing.B) {
	state := b.TempDir()
	for b.Loop() {
		b.StopTimer()
		p, info := startProcess(b, state)
		c, err := hub.Dial(context.Background(), &hub.DialOptions{Info: &info})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			b.Fatal(err)
		}
		if code := p.wait(b, 10*time.Second); code != 0 {
			b.Fatalf("the hub exited with %d\n%s", code, p.stderr.String())
		}
		b.StopTimer()
		c.Close()
		b.StartTimer()
	}
}
