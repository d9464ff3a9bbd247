package ask

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/askuser/askuser/contract"
)

// The causes with which the core cancels a Renderer's context, so that
// context.Cause tells the renderer why it must stop.
var (
	// ErrTimeout: the shared deadline expired.
	ErrTimeout = errors.New("ask: the deadline expired")
	// ErrAborted: the caller's context was done. The cause wraps both
	// ErrAborted and the caller's own cause.
	ErrAborted = errors.New("ask: the caller aborted")
	// ErrDismissed: the renderer reported that the user dismissed the
	// questionnaire.
	ErrDismissed = errors.New("ask: the user dismissed the questionnaire")
	// ErrFinished: the renderer returned answers or an error.
	ErrFinished = errors.New("ask: the renderer finished")
)

// settleKind is what ended a wait.
type settleKind int

const (
	byRenderer settleKind = iota + 1
	byTimeout
	byAbort
)

// settlement is the first thing that ended a wait; later ones are
// discarded.
type settlement[Ans any] struct {
	kind     settleKind
	outcome  Outcome[Ans] // the renderer's
	err      error        // the renderer's error, or its recovered panic
	panicked bool
}

// waiter is the state of one interactive wait: the shared deadline and
// the first settlement. It implements countdownImpl. Every field after mu
// is guarded by mu.
type waiter[Ans any] struct {
	cancel func(cause error) // cancels the renderer's context
	done   chan struct{}     // closed by the first settle

	mu       sync.Mutex
	settled  bool
	result   settlement[Ans]
	at       time.Time
	deadline bool // at is in force: set and not cancelled
	timer    *time.Timer
	stopped  chan struct{} // closed when the deadline is cancelled; nil without one
}

// newWaiter starts the deadline total from now; a zero total means none.
func newWaiter[Ans any](total time.Duration, cancel func(cause error)) *waiter[Ans] {
	w := &waiter[Ans]{cancel: cancel, done: make(chan struct{})}
	if total > 0 {
		w.mu.Lock()
		w.at = time.Now().Add(total)
		w.deadline = true
		w.stopped = make(chan struct{})
		w.timer = time.AfterFunc(total, w.expire)
		w.mu.Unlock()
	}
	return w
}

// expire is the deadline's timer. The timer only wakes the wait; settle
// decides by the clock, so a timer that fired early would change nothing.
func (w *waiter[Ans]) expire() {
	w.mu.Lock()
	if w.deadline && !w.settled {
		if left := time.Until(w.at); left > 0 {
			w.timer.Reset(left)
			w.mu.Unlock()
			return
		}
	}
	w.mu.Unlock()
	w.settle(settlement[Ans]{kind: byTimeout})
}

// settle records s if nothing settled the wait before, and reports
// whether it did.
//
// The deadline decides, not the order in which goroutines run: whatever
// arrives once the deadline is in force and has passed (an answer, a
// dismissal, an error, a panic, the caller's abort) settles the wait as a
// timeout, even when the timer has not fired yet. The arrival is read
// from the clock under mu, the lock every settlement and a cancel of the
// countdown take, so the clock and the order of settlements agree: what
// arrives before the deadline settles first, and the timer, which cannot
// settle before the deadline, never overtakes it. A settlement by the
// timer that finds no deadline in force (the countdown was cancelled
// while it fired), or one not yet due, is dropped.
func (w *waiter[Ans]) settle(s settlement[Ans]) bool {
	w.mu.Lock()
	if w.settled {
		w.mu.Unlock()
		return false
	}
	if w.deadline && !time.Now().Before(w.at) {
		s = settlement[Ans]{kind: byTimeout}
	} else if s.kind == byTimeout {
		w.mu.Unlock()
		return false
	}
	w.settled = true
	w.result = s
	if w.timer != nil {
		w.timer.Stop()
	}
	w.mu.Unlock()
	w.cancel(s.cause())
	close(w.done)
	return true
}

// isSettled reports whether the wait has already settled.
func (w *waiter[Ans]) isSettled() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.settled
}

func (w *waiter[Ans]) deadlineAt() (time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.at, w.deadline
}

// cancelDeadline stops the deadline, unless there is none, it was
// cancelled, it has passed, or the wait is over.
func (w *waiter[Ans]) cancelDeadline() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.deadline || w.settled || !time.Now().Before(w.at) {
		return false
	}
	w.deadline = false
	w.timer.Stop()
	close(w.stopped)
	return true
}

// countdown adapts a waiter to countdownImpl.
type countdown[Ans any] struct{ w *waiter[Ans] }

func (c countdown[Ans]) deadline() (time.Time, bool) { return c.w.deadlineAt() }
func (c countdown[Ans]) cancel() bool                { return c.w.cancelDeadline() }
func (c countdown[Ans]) stopped() <-chan struct{}    { return c.w.stopped }

func (s settlement[Ans]) cause() error {
	switch s.kind {
	case byTimeout:
		return ErrTimeout
	case byAbort:
		return s.err
	}
	if s.err == nil && s.outcome.Dismissed {
		return ErrDismissed
	}
	return ErrFinished
}

// TotalTimeout is how long a questionnaire of that many questions stays
// open, for either contract: perQuestionMs times the number of questions
// (a count below 1 counts as 1), clamped to contract.MaxSafeTimeoutMs.
// Zero means no deadline. A negative perQuestionMs is an error, not "no
// deadline": the contracts and the config refuse one, so it can only
// come from a caller's mistake.
func TotalTimeout(perQuestionMs int64, questions int) (time.Duration, error) {
	if perQuestionMs < 0 {
		return 0, fmt.Errorf("negative timeout per question: %d ms", perQuestionMs)
	}
	if questions < 1 {
		questions = 1
	}
	ms := int64(contract.MaxSafeTimeoutMs)
	if perQuestionMs <= ms/int64(questions) {
		ms = perQuestionMs * int64(questions)
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// panicError is a recovered panic of a Renderer.
type panicError struct{ value any }

func (p panicError) Error() string { return fmt.Sprintf("panic: %v", p.value) }
