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
	"os"
	"time"

	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/program"
)

// grace bounds the stop after the first signal.
const grace = 5 * time.Second

func main() {
	program.Main("askuser hub", "the store", grace, func(ctx context.Context) int {
		return hubserver.Main(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	})
}
