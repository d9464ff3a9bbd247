// Command askuser-hub runs askuser's hub in the foreground: the one queue
// where every question of one user waits until a surface answers it. It
// is a binary of its own so that the embedded NATS server costs the
// askuser binary, which every agent runs, nothing; `askuser hub` starts
// it.
//
// SIGINT and SIGTERM stop the hub with nothing lost: the store is
// flushed and closed and the info file removed. A second signal, or a
// stop that takes longer than five seconds, ends the process at once.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/askuser/askuser/internal/hubserver"
)

// grace bounds the stop after the first signal.
const grace = 5 * time.Second

const usage = `usage: askuser hub

Run the hub in the foreground: an embedded NATS server with JetStream on
127.0.0.1, its store and info file in $XDG_STATE_HOME/askuser/hub (else
~/.local/state/askuser/hub). Local askuser processes find it there and
publish their questions to it. SIGTERM stops it with nothing lost.
`

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) > 0 {
		if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
			fmt.Fprint(os.Stderr, usage)
			return 0
		}
		fmt.Fprintf(os.Stderr, "askuser hub: unexpected argument %q\n%s", args[0], usage)
		return 2
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
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
	err := hubserver.Run(ctx, &hubserver.Options{Getenv: os.Getenv, Log: os.Stderr})
	var running *hubserver.RunningError
	switch {
	case errors.As(err, &running):
		fmt.Fprintf(os.Stderr, "askuser hub: %v\n", err)
		return 1
	case err != nil:
		fmt.Fprintf(os.Stderr, "askuser hub: %v\n", err)
		return 3
	}
	return 0
}
