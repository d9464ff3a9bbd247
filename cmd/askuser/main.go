// Command askuser asks a human structured questions on behalf of an AI
// agent: from the shell, as a Pi package's engine, or as an MCP server.
//
// SIGINT and SIGTERM cancel the command's context: a dialog is closed and
// the terminal given back, pending calls are answered, and the command
// ends with its usual exit status. Work that does not stop within half a
// second of the signal, or a second signal, ends the process at once with
// status 128 plus the signal's number, as shells report it: 130 for
// SIGINT, 143 for SIGTERM.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/askuser/askuser/internal/host/cli"
)

// grace is how long a command may go on after the first signal has
// cancelled its context. Code that watches the context ends well within
// it; code that cannot (a read from a pipe that nobody writes) is cut off,
// so that askuser always ends within a second of the signal.
const grace = 500 * time.Millisecond

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := stop(sigs, cancel, grace)
		fmt.Fprintf(os.Stderr, "askuser: %v: exiting without waiting for the work in progress\n", sig)
		os.Exit(exitStatus(sig))
	}()
	code := cli.Run(ctx, os.Args[1:], &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
	os.Exit(code)
}

// stop cancels the context at the first signal and returns, once the
// process must end without waiting any longer, the signal it ends by: a
// second signal, or the first once grace has passed.
func stop(sigs <-chan os.Signal, cancel context.CancelCauseFunc, grace time.Duration) os.Signal {
	sig := <-sigs
	cancel(signalCause{sig})
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case sig = <-sigs:
	case <-t.C:
	}
	return sig
}

// exitStatus is the status of a process ended by sig: 128 plus its number.
func exitStatus(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128
}

// signalCause is the cause of the context a signal cancelled. It is
// context.Canceled, as for any other cancellation.
type signalCause struct{ sig os.Signal }

func (c signalCause) Error() string        { return c.sig.String() + " signal received" }
func (c signalCause) Is(target error) bool { return target == context.Canceled }
