package program

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Main runs run with a context that the first SIGINT or SIGTERM cancels,
// and exits with the status run returns. Work that has not stopped within
// grace of the first signal, or a second signal, ends the process at once
// with status 128 plus the signal's number, as shells report it (130 for
// SIGINT, 143 for SIGTERM), after a line on stderr that starts with name
// and says that it does not wait for pending, the work cut off.
func Main(name, pending string, grace time.Duration, run func(context.Context) int) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := stop(sigs, cancel, grace)
		fmt.Fprintf(os.Stderr, "%s: %v: exiting without waiting for %s\n", name, sig, pending)
		os.Exit(exitStatus(sig))
	}()
	code := run(ctx)
	cancel(nil)
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
