package program

import (
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
	"time"
)

func TestExitStatus(t *testing.T) {
	tests := []struct {
		sig  os.Signal
		want int
	}{
		{os.Interrupt, 130},
		{syscall.SIGTERM, 143},
		{otherSignal{}, 128},
	}
	for _, tt := range tests {
		if got := exitStatus(tt.sig); got != tt.want {
			t.Errorf("exitStatus(%v) = %d, want %d", tt.sig, got, tt.want)
		}
	}
}

type otherSignal struct{}

func (otherSignal) String() string { return "other" }
func (otherSignal) Signal()        {}

// TestStop checks that the first signal cancels the context with a cause
// that is context.Canceled, and that stop returns at a second signal, or
// with the first once grace has passed.
func TestStop(t *testing.T) {
	tests := []struct {
		name   string
		second os.Signal
		grace  time.Duration
		want   os.Signal
	}{
		{"second signal", syscall.SIGTERM, time.Hour, syscall.SIGTERM},
		{"grace passed", nil, time.Millisecond, os.Interrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			sigs := make(chan os.Signal, 2)
			sigs <- os.Interrupt
			if tt.second != nil {
				sigs <- tt.second
			}
			got := stop(sigs, cancel, tt.grace)
			if got != tt.want {
				t.Errorf("stop returned %v, want %v", got, tt.want)
			}
			cause := context.Cause(ctx)
			if !errors.Is(cause, context.Canceled) || cause.Error() != "interrupt signal received" {
				t.Errorf("cause = %v, want the interrupt, as context.Canceled", cause)
			}
		})
	}
}
