package ask

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/prefs"
)

// renderFunc is a test renderer. It may note what it sees; release is
// closed once Ask has returned, so that a renderer ignoring its context
// can end and the bubble can exit.
type renderFunc func(ctx context.Context, s *Session[*contract.Request], note func(string), release <-chan struct{}) (Outcome[[]contract.Answer], error)

func TestDeadline(t *testing.T) {
	const safe = time.Duration(contract.MaxSafeTimeoutMs) * time.Millisecond
	answered := func(n int) contract.Result {
		return contract.Result{Status: contract.StatusAnswered, Route: custom, Answers: answers(n)}
	}
	timeout := contract.Result{Status: contract.StatusTimeout, Route: custom, Answers: []contract.Answer{}}
	abort := contract.Result{Status: contract.StatusAborted, Route: custom, Answers: []contract.Answer{}, CancelledReason: contract.CancelAbort}
	evAnswered := Event{Name: EventAnswered, Route: custom, Status: contract.StatusAnswered}
	evTimeout := Event{Name: EventTimeout, Route: custom, Status: contract.StatusTimeout}
	evAbort := Event{Name: EventAborted, Route: custom, Status: contract.StatusAborted, CancelledReason: contract.CancelAbort}

	// ignoring never looks at ctx and answers only once released.
	ignoring := func(_ context.Context, s *Session[*contract.Request], _ func(string), release <-chan struct{}) (Outcome[[]contract.Answer], error) {
		<-release
		return Outcome[[]contract.Answer]{Answer: answers(len(s.Request.Questions))}, nil
	}
	// honouring returns when ctx is done, noting the cause.
	honouring := func(ctx context.Context, _ *Session[*contract.Request], note func(string), _ <-chan struct{}) (Outcome[[]contract.Answer], error) {
		<-ctx.Done()
		note(causeName(context.Cause(ctx)))
		return Outcome[[]contract.Answer]{}, ctx.Err()
	}
	answerAfter := func(d time.Duration) renderFunc {
		return func(_ context.Context, s *Session[*contract.Request], _ func(string), _ <-chan struct{}) (Outcome[[]contract.Answer], error) {
			time.Sleep(d)
			return Outcome[[]contract.Answer]{Answer: answers(len(s.Request.Questions))}, nil
		}
	}

	tests := []struct {
		name        string
		perQuestion int64 // ms; -1 leaves the default
		questions   int
		abortAfter  time.Duration // 0: the caller never aborts
		render      renderFunc
		want        contract.Result
		wantAfter   time.Duration // when Ask returns
		outcome     Event
		notes       []string
	}{
		{"default is 60 s per question", -1, 2, 0, honouring, timeout, 2 * time.Minute, evTimeout, []string{"timeout"}},
		{"timeout at questions × per question", 1000, 3, 0, honouring, timeout, 3 * time.Second, evTimeout, []string{"timeout"}},
		{"renderer ignoring ctx still times out", 1000, 3, 0, ignoring, timeout, 3 * time.Second, evTimeout, nil},
		{"answer just before the deadline", 1000, 3, 0, answerAfter(3*time.Second - time.Nanosecond), answered(3), 3*time.Second - time.Nanosecond, evAnswered, nil},
		{"clamped to 2³¹−1 ms", contract.MaxSafeTimeoutMs, 5, 0, honouring, timeout, safe, evTimeout, []string{"timeout"}},
		{"largest configurable timeout", config.MaxTimeoutPerQuestionMs, 2, 0, ignoring, timeout, safe, evTimeout, nil},
		{"just under the clamp", contract.MaxSafeTimeoutMs / 2, 2, 0, ignoring, timeout, (safe - time.Millisecond), evTimeout, nil},
		{"zero waits until answered", 0, 3, 0, answerAfter(1000 * time.Hour), answered(3), 1000 * time.Hour, evAnswered, nil},
		{"zero waits until aborted", 0, 1, 100 * time.Hour, honouring, abort, 100 * time.Hour, evAbort, []string{"abort"}},
		{"abort while rendering", 1000, 1, 500 * time.Millisecond, honouring, abort, 500 * time.Millisecond, evAbort, []string{"abort"}},
		{"abort with a renderer ignoring ctx", 1000, 1, 500 * time.Millisecond, ignoring, abort, 500 * time.Millisecond, evAbort, nil},
		{"remaining counts down", 1000, 3, 0, func(_ context.Context, s *Session[*contract.Request], note func(string), _ <-chan struct{}) (Outcome[[]contract.Answer], error) {
			noteRemaining(s, note)
			time.Sleep(400 * time.Millisecond)
			noteRemaining(s, note)
			return Outcome[[]contract.Answer]{Answer: answers(3)}, nil
		}, answered(3), 400 * time.Millisecond, evAnswered, []string{"remaining 3s", "remaining 2.6s"}},
		{"cancel countdown, answer late", 1000, 2, 0, func(_ context.Context, s *Session[*contract.Request], note func(string), _ <-chan struct{}) (Outcome[[]contract.Answer], error) {
			time.Sleep(time.Second)
			note(fmt.Sprintf("cancel %v", s.Countdown.Cancel()))
			noteRemaining(s, note)
			time.Sleep(time.Hour)
			return Outcome[[]contract.Answer]{Answer: answers(2)}, nil
		}, answered(2), time.Hour + time.Second, evAnswered, []string{"cancel true", "no deadline"}},
		{"cancel countdown twice", 1000, 1, 0, func(_ context.Context, s *Session[*contract.Request], note func(string), _ <-chan struct{}) (Outcome[[]contract.Answer], error) {
			note(fmt.Sprintf("cancel %v", s.Countdown.Cancel()))
			note(fmt.Sprintf("cancel %v", s.Countdown.Cancel()))
			return Outcome[[]contract.Answer]{Answer: answers(1)}, nil
		}, answered(1), 0, evAnswered, []string{"cancel true", "cancel false"}},
		{"cancel countdown, abort still works", 1000, 1, time.Minute, func(ctx context.Context, s *Session[*contract.Request], note func(string), _ <-chan struct{}) (Outcome[[]contract.Answer], error) {
			note(fmt.Sprintf("cancel %v", s.Countdown.Cancel()))
			<-ctx.Done()
			note(causeName(context.Cause(ctx)))
			return Outcome[[]contract.Answer]{}, ctx.Err()
		}, abort, time.Minute, evAbort, []string{"cancel true", "abort"}},
		{"cancel without a deadline", 0, 1, 0, func(_ context.Context, s *Session[*contract.Request], note func(string), _ <-chan struct{}) (Outcome[[]contract.Answer], error) {
			note(fmt.Sprintf("cancel %v", s.Countdown.Cancel()))
			noteRemaining(s, note)
			return Outcome[[]contract.Answer]{Answer: answers(1)}, nil
		}, answered(1), 0, evAnswered, []string{"cancel false", "no deadline"}},
		{"cancel at the deadline", 1000, 1, 0, func(_ context.Context, s *Session[*contract.Request], note func(string), release <-chan struct{}) (Outcome[[]contract.Answer], error) {
			time.Sleep(time.Second)
			note(fmt.Sprintf("cancel %v", s.Countdown.Cancel()))
			<-release
			return Outcome[[]contract.Answer]{Answer: answers(1)}, nil
		}, timeout, time.Second, evTimeout, []string{"cancel false"}},
		{"cancel after expiry, late result discarded", 1000, 1, 0, func(_ context.Context, s *Session[*contract.Request], note func(string), release <-chan struct{}) (Outcome[[]contract.Answer], error) {
			<-release
			note(fmt.Sprintf("cancel %v", s.Countdown.Cancel()))
			noteRemaining(s, note)
			return Outcome[[]contract.Answer]{Answer: answers(1)}, nil
		}, timeout, time.Second, evTimeout, []string{"cancel false", "remaining 0s"}},
		{"late error discarded", 1000, 1, 0, func(_ context.Context, _ *Session[*contract.Request], _ func(string), release <-chan struct{}) (Outcome[[]contract.Answer], error) {
			<-release
			return Outcome[[]contract.Answer]{}, errors.New("too late")
		}, timeout, time.Second, evTimeout, nil},
		{"late panic discarded", 1000, 1, 0, func(_ context.Context, _ *Session[*contract.Request], _ func(string), release <-chan struct{}) (Outcome[[]contract.Answer], error) {
			<-release
			panic("too late")
		}, timeout, time.Second, evTimeout, nil},
		// Host dialogs that carry the deadline themselves (Pi's input box,
		// native.Render's context) may return at the same instant as the
		// core's timer, with an error or as if dismissed: still a timeout.
		{"dialog failing at the deadline", 1000, 2, 0, func(ctx context.Context, s *Session[*contract.Request], _ func(string), _ <-chan struct{}) (Outcome[[]contract.Answer], error) {
			d, _ := s.Countdown.Deadline()
			time.Sleep(time.Until(d))
			return Outcome[[]contract.Answer]{}, errors.New("input box: timed out")
		}, timeout, 2 * time.Second, evTimeout, nil},
		{"dialog dismissed at the deadline", 1000, 2, 0, func(ctx context.Context, s *Session[*contract.Request], _ func(string), _ <-chan struct{}) (Outcome[[]contract.Answer], error) {
			d, _ := s.Countdown.Deadline()
			time.Sleep(time.Until(d))
			return Outcome[[]contract.Answer]{Dismissed: true}, nil
		}, timeout, 2 * time.Second, evTimeout, nil},
		// A loaded machine can run the core's timer late: whatever arrives
		// once the deadline has passed is a timeout all the same, and
		// whatever arrives before it is not.
		{"answer after the deadline, timer late", 1000, 1, 0, holdingTimer(time.Second+time.Nanosecond, Outcome[[]contract.Answer]{Answer: answers(1)}, nil),
			timeout, time.Second + time.Nanosecond, evTimeout, nil},
		{"answer at the deadline, timer late", 1000, 1, 0, holdingTimer(time.Second, Outcome[[]contract.Answer]{Answer: answers(1)}, nil),
			timeout, time.Second, evTimeout, nil},
		{"answer before the deadline, timer late", 1000, 1, 0, holdingTimer(time.Second-time.Nanosecond, Outcome[[]contract.Answer]{Answer: answers(1)}, nil),
			answered(1), time.Second - time.Nanosecond, evAnswered, nil},
		{"error after the deadline, timer late", 1000, 1, 0, holdingTimer(time.Second+time.Millisecond, Outcome[[]contract.Answer]{}, errors.New("too late")),
			timeout, time.Second + time.Millisecond, evTimeout, nil},
		{"dismissal after the deadline, timer late", 1000, 1, 0, holdingTimer(time.Second+time.Millisecond, Outcome[[]contract.Answer]{Dismissed: true}, nil),
			timeout, time.Second + time.Millisecond, evTimeout, nil},
		{"panic after the deadline, timer late", 1000, 1, 0, func(_ context.Context, s *Session[*contract.Request], _ func(string), _ <-chan struct{}) (Outcome[[]contract.Answer], error) {
			holdTimer(s)
			time.Sleep(time.Second + time.Millisecond)
			panic("too late")
		}, timeout, time.Second + time.Millisecond, evTimeout, nil},
		{"abort after the deadline, timer late", 1000, 1, time.Second + time.Nanosecond, func(ctx context.Context, s *Session[*contract.Request], note func(string), _ <-chan struct{}) (Outcome[[]contract.Answer], error) {
			holdTimer(s)
			<-ctx.Done()
			note(causeName(context.Cause(ctx)))
			return Outcome[[]contract.Answer]{}, ctx.Err()
		}, timeout, time.Second + time.Nanosecond, evTimeout, []string{"timeout"}},
		{"abort before the deadline, timer late", 1000, 1, time.Second - time.Nanosecond, func(ctx context.Context, s *Session[*contract.Request], note func(string), _ <-chan struct{}) (Outcome[[]contract.Answer], error) {
			holdTimer(s)
			<-ctx.Done()
			note(causeName(context.Cause(ctx)))
			return Outcome[[]contract.Answer]{}, ctx.Err()
		}, abort, time.Second - time.Nanosecond, evAbort, []string{"abort"}},
		{"answer at the instant the timer fires", 1000, 2, 0, func(_ context.Context, s *Session[*contract.Request], _ func(string), _ <-chan struct{}) (Outcome[[]contract.Answer], error) {
			d, _ := s.Countdown.Deadline()
			time.Sleep(time.Until(d))
			return Outcome[[]contract.Answer]{Answer: answers(2)}, nil
		}, timeout, 2 * time.Second, evTimeout, nil},
		{"cancel countdown, answer after the old deadline, timer late", 1000, 1, 0, func(_ context.Context, s *Session[*contract.Request], note func(string), _ <-chan struct{}) (Outcome[[]contract.Answer], error) {
			holdTimer(s)
			note(fmt.Sprintf("cancel %v", s.Countdown.Cancel()))
			time.Sleep(time.Second + time.Nanosecond)
			return Outcome[[]contract.Answer]{Answer: answers(1)}, nil
		}, answered(1), time.Second + time.Nanosecond, evAnswered, []string{"cancel true"}},
		{"dismissal cause", 1000, 1, 0, func(ctx context.Context, _ *Session[*contract.Request], note func(string), release <-chan struct{}) (Outcome[[]contract.Answer], error) {
			go func() { <-ctx.Done(); note(causeName(context.Cause(ctx))) }()
			return Outcome[[]contract.Answer]{Dismissed: true}, nil
		}, contract.Result{Status: contract.StatusAborted, Route: custom, Answers: []contract.Answer{}, CancelledReason: contract.CancelUser}, 0,
			Event{Name: EventAborted, Route: custom, Status: contract.StatusAborted, CancelledReason: contract.CancelUser}, []string{"dismissed"}},
		{"answer cause", 1000, 1, 0, func(ctx context.Context, _ *Session[*contract.Request], note func(string), release <-chan struct{}) (Outcome[[]contract.Answer], error) {
			go func() { <-ctx.Done(); note(causeName(context.Cause(ctx))) }()
			return Outcome[[]contract.Answer]{Answer: answers(1)}, nil
		}, answered(1), 0, evAnswered, []string{"finished"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var (
					mu    sync.Mutex
					notes []string
				)
				note := func(s string) {
					mu.Lock()
					defer mu.Unlock()
					notes = append(notes, s)
				}
				release := make(chan struct{})
				r := RendererFunc[*contract.Request, []contract.Answer](func(ctx context.Context, s *Session[*contract.Request]) (Outcome[[]contract.Answer], error) {
					return tt.render(ctx, s, note, release)
				})
				opts := &HostOptions{}
				if tt.perQuestion >= 0 {
					opts.Options = prefs.Prefs{TimeoutPerQuestionMs: ptr(tt.perQuestion)}
				}
				rec := &recorder{}
				a := NewAsker(NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUser, r), opts), &Options{Events: rec})
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if tt.abortAfter > 0 {
					go func() {
						time.Sleep(tt.abortAfter)
						cancel()
					}()
				}

				start := time.Now()
				got := Ask(ctx, a, AskUser, request(tt.questions), &Call{ID: "call-7"})
				elapsed := time.Since(start)
				close(release)
				synctest.Wait() // the renderer's late result, if any, is in

				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("Ask mismatch (-want +got):\n%s", diff)
				}
				if elapsed != tt.wantAfter {
					t.Errorf("Ask returned after %v; want exactly %v", elapsed, tt.wantAfter)
				}
				if diff := cmp.Diff(sequence("call-7", tt.outcome), rec.got()); diff != "" {
					t.Errorf("events mismatch (-want +got):\n%s", diff)
				}
				mu.Lock()
				defer mu.Unlock()
				if diff := cmp.Diff(tt.notes, notes); diff != "" {
					t.Errorf("renderer notes mismatch (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// holdTimer stops the core's timer of s's wait, as a loaded machine can
// hold it back, so that only the clock decides.
func holdTimer(s *Session[*contract.Request]) {
	w := s.Countdown.impl.(countdown[[]contract.Answer]).w
	w.mu.Lock()
	defer w.mu.Unlock()
	w.timer.Stop()
}

// holdingTimer holds the timer back and returns out and err after d.
func holdingTimer(d time.Duration, out Outcome[[]contract.Answer], err error) renderFunc {
	return func(_ context.Context, s *Session[*contract.Request], _ func(string), _ <-chan struct{}) (Outcome[[]contract.Answer], error) {
		holdTimer(s)
		time.Sleep(d)
		return out, err
	}
}

func TestTimerCannotOvertake(t *testing.T) {
	// The timer only wakes the wait: fired before the deadline (the
	// goroutine that "won"), it settles nothing, and an answer that comes
	// before the deadline still settles the wait.
	synctest.Test(t, func(t *testing.T) {
		var causes []error
		w := newWaiter[[]contract.Answer](time.Second, func(err error) { causes = append(causes, err) })
		time.Sleep(time.Second / 2)
		w.expire()
		if w.isSettled() {
			t.Fatal("a timer fired half-way settled the wait")
		}
		time.Sleep(time.Second/2 - time.Nanosecond)
		if !w.settle(settlement[[]contract.Answer]{kind: byRenderer, outcome: Outcome[[]contract.Answer]{Answer: answers(1)}}) {
			t.Fatal("an answer a nanosecond before the deadline did not settle the wait")
		}
		time.Sleep(time.Hour)
		w.expire()
		if w.result.kind != byRenderer {
			t.Errorf("settled by %v; want the renderer (%v)", w.result.kind, byRenderer)
		}
		if diff := cmp.Diff([]error{ErrFinished}, causes, cmpopts.EquateErrors()); diff != "" {
			t.Errorf("causes mismatch (-want +got):\n%s", diff)
		}
	})
}

func noteRemaining(s *Session[*contract.Request], note func(string)) {
	left, ok := s.Countdown.Remaining()
	if !ok {
		note("no deadline")
		return
	}
	note("remaining " + left.String())
}

func causeName(err error) string {
	switch {
	case errors.Is(err, ErrTimeout):
		return "timeout"
	case errors.Is(err, ErrAborted) && errors.Is(err, context.Canceled):
		return "abort"
	case errors.Is(err, ErrDismissed):
		return "dismissed"
	case errors.Is(err, ErrFinished):
		return "finished"
	}
	return fmt.Sprintf("unexpected cause %v", err)
}

func TestDeadlineNotBefore(t *testing.T) {
	// The deadline fires neither a nanosecond early nor late.
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		r := RendererFunc[*contract.Request, []contract.Answer](func(context.Context, *Session[*contract.Request]) (Outcome[[]contract.Answer], error) {
			<-release
			return Outcome[[]contract.Answer]{}, nil
		})
		a := NewAsker(NewHost(Bind(Capabilities{}, contract.RouteNative, AskUser, r), &HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: ptr[int64](250)}}), nil)
		done := make(chan contract.Result, 1)
		go func() { done <- Ask(context.Background(), a, AskUser, request(4), nil) }()
		time.Sleep(time.Second - time.Nanosecond)
		synctest.Wait()
		select {
		case res := <-done:
			t.Fatalf("Ask returned %+v before 4 × 250 ms", res)
		default:
		}
		time.Sleep(time.Nanosecond)
		synctest.Wait()
		select {
		case res := <-done:
			if res.Status != contract.StatusTimeout || res.Route != native {
				t.Errorf("Ask = %+v; want a native timeout", res)
			}
		default:
			t.Fatal("Ask had not returned at 4 × 250 ms")
		}
		close(release)
	})
}

func TestTotalTimeout(t *testing.T) {
	tests := []struct {
		per  int64
		n    int
		want time.Duration
	}{
		{0, 5, 0},
		{0, 0, 0},
		{1, 1, time.Millisecond},
		{60000, 0, time.Minute},
		{60000, 1, time.Minute},
		{60000, 5, 5 * time.Minute},
		{contract.MaxSafeTimeoutMs, 1, contract.MaxSafeTimeoutMs * time.Millisecond},
		{contract.MaxSafeTimeoutMs/5 + 1, 5, contract.MaxSafeTimeoutMs * time.Millisecond},
		{math.MaxInt64, 5, contract.MaxSafeTimeoutMs * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d×%d", tt.per, tt.n), func(t *testing.T) {
			got, err := TotalTimeout(tt.per, tt.n)
			if err != nil || got != tt.want {
				t.Errorf("TotalTimeout(%d, %d) = %v, %v; want %v", tt.per, tt.n, got, err, tt.want)
			}
		})
	}
	// A negative time per question is a mistake, not "no deadline".
	for _, n := range []int{0, 1, 5} {
		if got, err := TotalTimeout(-1, n); err == nil {
			t.Errorf("TotalTimeout(-1, %d) = %v; want an error", n, got)
		}
	}
}

func TestCancelAtTheInstant(t *testing.T) {
	// With the timer held back, only the clock decides: a deadline that
	// has been reached can no longer be cancelled.
	tests := []struct {
		name  string
		after time.Duration
		want  bool
	}{
		{"a nanosecond before", time.Second - time.Nanosecond, true},
		{"at the deadline", time.Second, false},
		{"after the deadline", time.Second + time.Nanosecond, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := newWaiter[[]contract.Answer](time.Second, func(error) {})
				w.timer.Stop()
				time.Sleep(tt.after)
				c := &Countdown{impl: countdown[[]contract.Answer]{w}}
				if got := c.Cancel(); got != tt.want {
					t.Errorf("Cancel() after %v = %v; want %v", tt.after, got, tt.want)
				}
				if _, ok := c.Deadline(); ok == tt.want {
					t.Errorf("Deadline() ok = %v after Cancel() = %v", ok, tt.want)
				}
				select {
				case <-c.Stopped():
					if !tt.want {
						t.Error("Stopped() is closed though Cancel() did nothing")
					}
				default:
					if tt.want {
						t.Error("Stopped() is open after Cancel()")
					}
				}
				if c.Cancel() {
					t.Error("a second Cancel() = true; want false")
				}
			})
		})
	}
}

func TestZeroCountdown(t *testing.T) {
	for _, c := range []*Countdown{nil, {}} {
		if _, ok := c.Deadline(); ok {
			t.Errorf("%#v.Deadline() ok; want no deadline", c)
		}
		if _, ok := c.Remaining(); ok {
			t.Errorf("%#v.Remaining() ok; want no deadline", c)
		}
		if c.Cancel() {
			t.Errorf("%#v.Cancel() = true; want false", c)
		}
		if c.Stopped() != nil {
			t.Errorf("%#v.Stopped() is not nil", c)
		}
	}
}
