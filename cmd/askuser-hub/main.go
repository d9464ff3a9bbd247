// Command askuser-hub runs askuser's hub in the foreground: the one queue
// where every question of one user waits until a surface answers it. It
// is a program of its own so that the embedded NATS server costs the
// askuser binary, which every agent runs, nothing; `askuser hub` starts
// it.
//
// SIGINT and SIGTERM stop the hub with nothing lost: the store is
// flushed and closed and the info file removed. A second signal, or a
// stop that takes longer than five seconds, ends the process at once.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/askuser/askuser/internal/hubserver"
)

// grace bounds the stop after the first signal.
const grace = 5 * time.Second

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-sigs
		cancel()
		select {
		case sig = <-sigs:
		case <-time.After(grace):
		}
		fmt.Fprintf(os.Stderr, "askuser hub: %v: exiting without waiting for the store\n", sig)
		if s, ok := sig.(syscall.Signal); ok {
			os.Exit(128 + int(s))
		}
		os.Exit(1)
	}()
	code := hubserver.Main(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	cancel()
	os.Exit(code)
}
