package ask_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/askuser/askuser/ask"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/prefs"
)

// behaviour is what the stress renderer does with one ask.
type behaviour int

const (
	answerNow      behaviour = iota
	answerLate               // ignores ctx and answers after a delay, maybe past the deadline
	answerWatching           // answers after a delay unless ctx is done first
	fail                     // returns an error after a delay
	panics                   // panics after a delay
	dismiss                  // reports a dismissal after a delay
	emptyAnswer              // returns an answer with nothing in it
	hang                     // waits for ctx, then returns its error
	hangIgnoring             // ignores ctx and never returns until the test ends
	stopCountdown            // cancels the countdown, then answers after a delay
	refuse                   // refuses the request through Checker
	behaviours
)

// abortKind is what the caller does with its context.
type abortKind int

const (
	noAbort     abortKind = iota
	abortLater            // cancels after a delay
	abortBefore           // cancels before calling Ask
)

// plan is what happens to one ask, drawn before the run.
type plan struct {
	do         behaviour
	delay      time.Duration // of the renderer, 0 to 25 ms
	abort      abortKind
	abortAfter time.Duration // 0 to 25 ms
	ms         int64         // the deadline, 1 to 20 ms
}

// trace is what happened to one ask, written by the renderer, the caller's
// abort and the caller.
type trace struct {
	mu          sync.Mutex
	rendered    bool
	deadline    time.Time // as the renderer saw it; zero when it did not run
	returned    time.Time // when the renderer was about to return
	stopped     bool      // the renderer's Countdown.Cancel succeeded
	abortedAt   time.Time // when the caller cancelled ctx
	start, done time.Time // around Ask
	res         contract.Result
}

// stressRenderer renders each ask as its plan says. Asks are told apart
// by the title of their one question, "ask <i>".
type stressRenderer struct {
	plans   []plan
	traces  []*trace
	release <-chan struct{} // closed when the test ends
}

func (r *stressRenderer) index(req *contract.Request) int {
	i, err := strconv.Atoi(strings.TrimPrefix(req.Questions[0].Title, "ask "))
	if err != nil {
		panic(fmt.Sprintf("stress: bad title %q", req.Questions[0].Title))
	}
	return i
}

func (r *stressRenderer) Check(req *contract.Request) error {
	if r.plans[r.index(req)].do == refuse {
		return errors.New("this renderer refuses the request")
	}
	return nil
}

func (r *stressRenderer) Render(ctx context.Context, s *Session[*contract.Request]) (Outcome[[]contract.Answer], error) {
	i := r.index(s.Request)
	p, tr := r.plans[i], r.traces[i]
	d, _ := s.Countdown.Deadline()
	tr.mu.Lock()
	tr.rendered, tr.deadline = true, d
	tr.mu.Unlock()
	returning := func() {
		tr.mu.Lock()
		tr.returned = time.Now()
		tr.mu.Unlock()
	}
	q := s.Request.Questions[0]
	answer := Outcome[[]contract.Answer]{Answer: []contract.Answer{{Index: 0, ID: q.ID, Title: q.Title, Kind: q.Kind, Selections: []string{"a"}}}}
	// pause waits for the delay, or until ctx is done when watch is set,
	// and reports whether the delay passed.
	pause := func(watch bool) bool {
		t := time.NewTimer(p.delay)
		defer t.Stop()
		done := ctx.Done()
		if !watch {
			done = nil
		}
		select {
		case <-t.C:
			return true
		case <-done:
			return false
		}
	}
	switch p.do {
	case answerNow:
		returning()
		return answer, nil
	case answerLate:
		pause(false)
		returning()
		return answer, nil
	case answerWatching:
		if !pause(true) {
			return Outcome[[]contract.Answer]{}, ctx.Err()
		}
		returning()
		return answer, nil
	case fail:
		pause(false)
		returning()
		return Outcome[[]contract.Answer]{}, errors.New("the terminal went away")
	case panics:
		pause(false)
		returning()
		panic("renderer bug")
	case dismiss:
		pause(false)
		returning()
		return Outcome[[]contract.Answer]{Dismissed: true}, nil
	case emptyAnswer:
		returning()
		answer.Answer[0].Selections = nil
		return answer, nil
	case hang:
		<-ctx.Done()
		return Outcome[[]contract.Answer]{}, ctx.Err()
	case hangIgnoring:
		<-r.release
		return Outcome[[]contract.Answer]{}, errors.New("released")
	case stopCountdown:
		ok := s.Countdown.Cancel()
		tr.mu.Lock()
		tr.stopped = ok
		tr.mu.Unlock()
		if !pause(true) {
			return Outcome[[]contract.Answer]{}, ctx.Err()
		}
		returning()
		return answer, nil
	}
	panic(fmt.Sprintf("stress: unknown behaviour %d", p.do))
}

// callEvents keeps the events of every call, by call id.
type callEvents struct {
	mu     sync.Mutex
	byCall map[string][]Event
}

func (c *callEvents) Event(e Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.byCall[e.CallID] = append(c.byCall[e.CallID], e)
}

// maxOvershoot is how late Ask may return after its deadline, not
// counting the time the whole process was stalled, before the test calls
// it a hang. It bounds a hang, not the latency: on a loaded machine a
// single goroutine can wait for a CPU for hundreds of milliseconds while
// the stall watch's goroutine runs, which the stall watch cannot see. The
// test checks exactly-once outcomes strictly and only logs how late the
// timeouts came (p50, p99, max): that figure is for a person to read, not
// a pass or fail.
const maxOvershoot = 5 * time.Second

// stallGap is how late a 1 ms tick must come to count as a stall of the
// whole process.
const stallGap = 5 * time.Millisecond

// stallWatch records the stretches of time in which a goroutine ticking
// every millisecond did not run: the whole process was stalled then, and
// no ask could have returned.
type stallWatch struct {
	quit chan struct{}
	done chan struct{}
	gaps [][2]time.Time // written by the watching goroutine until done
}

func watchStalls() *stallWatch {
	s := &stallWatch{quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		prev := time.Now()
		for {
			select {
			case <-tick.C:
			case <-s.quit:
				return
			}
			now := time.Now()
			if now.Sub(prev) > stallGap {
				s.gaps = append(s.gaps, [2]time.Time{prev, now})
			}
			prev = now
		}
	}()
	return s
}

func (s *stallWatch) stop() {
	close(s.quit)
	<-s.done
}

// within returns how long the process was stalled between from and to.
func (s *stallWatch) within(from, to time.Time) time.Duration {
	var d time.Duration
	for _, g := range s.gaps {
		if lo, hi := later(g[0], from), earlier(g[1], to); hi.After(lo) {
			d += hi.Sub(lo)
		}
	}
	return d
}

// summary returns the number of stalls, the longest and their total.
func (s *stallWatch) summary() (n int, longest, total time.Duration) {
	for _, g := range s.gaps {
		d := g[1].Sub(g[0])
		longest, total = max(longest, d), total+d
	}
	return len(s.gaps), longest, total
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// TestExactlyOnceUnderLoad runs many asks at once, in real time, against
// a renderer that answers, fails, panics, hangs, ignores its context or
// answers late, with callers that abort, and checks that each ask settles
// exactly once, never before its deadline, with its events, and leaves no
// goroutine behind. It logs how late the timeouts came, and fails on that
// only for a hang (see maxOvershoot).
func TestExactlyOnceUnderLoad(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	const parallel = 64
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("ASKUSER_STRESS_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("ASKUSER_STRESS_SEED=%q: %v", s, err)
		}
	}
	t.Logf("%d asks, %d at a time, seed %d (rerun with ASKUSER_STRESS_SEED=%d)", n, parallel, seed, seed)

	rng := rand.New(rand.NewPCG(seed, 0))
	plans := make([]plan, n)
	traces := make([]*trace, n)
	for i := range plans {
		p := plan{
			do:    behaviour(rng.IntN(int(behaviours))),
			delay: time.Duration(rng.Int64N(int64(25 * time.Millisecond))),
			ms:    1 + rng.Int64N(20),
		}
		switch k := rng.IntN(20); {
		case k < 6:
			p.abort, p.abortAfter = abortLater, time.Duration(rng.Int64N(int64(25*time.Millisecond)))
		case k < 7:
			p.abort = abortBefore
		}
		plans[i], traces[i] = p, &trace{}
	}

	before := runtime.NumGoroutine()
	stalls := watchStalls()
	release := make(chan struct{})
	r := &stressRenderer{plans: plans, traces: traces, release: release}
	events := &callEvents{byCall: map[string][]Event{}}
	askers := map[int64]*Asker{}
	for ms := int64(1); ms <= 20; ms++ {
		h := NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUser, r), &HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: Ptr(ms)}})
		askers[ms] = NewAsker(h, &Options{Events: events})
	}

	next := make(chan int)
	var wg sync.WaitGroup
	for range parallel {
		wg.Go(func() {
			for i := range next {
				stressAsk(askers[plans[i].ms], i, plans[i], traces[i])
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	finished := make(chan struct{})
	go func() {
		wg.Wait()
		close(finished)
	}()
	patience := testkit.Patience(t)
	select {
	case <-finished:
	case <-time.After(patience):
		t.Fatalf("the asks have not all returned after %v:\n%s", patience, goroutines())
	}
	close(release)
	stalls.stop()
	waitGoroutines(t, before)

	var failures []string
	report := func(i int, format string, args ...any) {
		failures = append(failures, fmt.Sprintf("ask %d %+v: %s", i, plans[i], fmt.Sprintf(format, args...)))
	}
	var overshoots []time.Duration
	lateArrivals := 0
	counts := map[string]int{}
	for i, p := range plans {
		tr := traces[i]
		tr.mu.Lock()
		res := tr.res
		id := fmt.Sprintf("call-%d", i)
		got := events.byCall[id]
		counts[outcomeName(res)]++

		// An abort can come before Ask looks at ctx, even when the
		// caller meant it for later.
		preAborted := p.abort == abortBefore || p.abort == abortLater && res.Route == "" && res.Status == contract.StatusAborted
		if p.do == refuse || preAborted {
			want := contract.Result{Status: contract.StatusAborted, Answers: []contract.Answer{}, CancelledReason: contract.CancelAbort}
			if !preAborted {
				want = contract.ErrorResult(contract.ErrUnsupportedMode, "the custom dialog cannot show this request: this renderer refuses the request")
			}
			if diff := cmp.Diff(want, res); diff != "" {
				report(i, "refused ask: result mismatch (-want +got):\n%s", diff)
			}
			if len(got) != 0 || tr.rendered {
				report(i, "refused ask: rendered %v, events %v; want neither", tr.rendered, got)
			}
			tr.mu.Unlock()
			continue
		}
		if diff := cmp.Diff(Sequence(id, outcomeOf(res)), got); diff != "" {
			report(i, "events mismatch (-want +got):\n%s", diff)
		}
		// The deadline as the renderer saw it, or, if it never ran, the
		// latest it can have been.
		deadline := tr.deadline
		if !tr.rendered {
			deadline = tr.done
		}
		inForce := !tr.stopped
		if late, stalled := tr.done.Sub(deadline), stalls.within(deadline, tr.done); inForce && late-stalled > maxOvershoot {
			report(i, "returned %v after the deadline, %v of it with the whole process stalled", late, stalled)
		}
		beforeDeadline := func(at time.Time) bool { return !inForce || at.Before(deadline) }
		switch {
		case res.Status == contract.StatusTimeout:
			late := tr.done.Sub(deadline)
			if !tr.rendered {
				late = tr.done.Sub(tr.start.Add(time.Duration(p.ms) * time.Millisecond))
			}
			overshoots = append(overshoots, late)
			if !inForce {
				report(i, "timeout after the countdown was cancelled")
			}
			if late < 0 {
				report(i, "timeout %v before the deadline", -late)
			}
			if !tr.returned.IsZero() && !tr.returned.Before(deadline) && tr.returned.Before(tr.done) {
				lateArrivals++ // came after the deadline, before Ask returned
			}
		case res.Status == contract.StatusAnswered:
			if p.do != answerNow && p.do != answerLate && p.do != answerWatching && p.do != stopCountdown {
				report(i, "answered by a renderer that does not answer: %+v", res)
			}
			if !beforeDeadline(tr.returned) {
				report(i, "answered %v after the deadline", tr.returned.Sub(deadline))
			}
		case res.Status == contract.StatusAborted && res.CancelledReason == contract.CancelAbort:
			if p.abort != abortLater || tr.abortedAt.IsZero() || !beforeDeadline(tr.abortedAt) {
				report(i, "aborted, but the caller aborted at %v with the deadline at %v", tr.abortedAt, deadline)
			}
		case res.Status == contract.StatusAborted && res.CancelledReason == contract.CancelUser:
			if p.do != dismiss || !beforeDeadline(tr.returned) {
				report(i, "dismissed: renderer returned at %v with the deadline at %v", tr.returned, deadline)
			}
		case res.Status == contract.StatusError && res.Error.Code == contract.ErrCustomUIFailed:
			if p.do != fail && p.do != panics || !beforeDeadline(tr.returned) {
				report(i, "failed: renderer returned at %v with the deadline at %v: %v", tr.returned, deadline, res.Error)
			}
		case res.Status == contract.StatusError && res.Error.Code == contract.ErrEmptyAnswer:
			if p.do != emptyAnswer {
				report(i, "empty_answer from a renderer that answers fully")
			}
		default:
			report(i, "unexpected result %+v", res)
		}
		if res.Route != contract.RouteCustom {
			report(i, "route %q; want custom", res.Route)
		}
		tr.mu.Unlock()
	}
	if len(events.byCall) != n-counts["refused"] {
		failures = append(failures, fmt.Sprintf("events for %d calls; want %d", len(events.byCall), n-counts["refused"]))
	}
	for i, f := range failures {
		if i == 20 {
			t.Errorf("... and %d more", len(failures)-20)
			break
		}
		t.Error(f)
	}
	t.Logf("outcomes: %v; %d timeouts had a result from the renderer come in after the deadline and before Ask returned", counts, lateArrivals)
	if len(overshoots) == 0 {
		t.Fatal("no ask timed out")
	}
	p50, p99, worst := percentiles(overshoots)
	t.Logf("timeout overshoot over %d timeouts: p50 %v, p99 %v, max %v", len(overshoots), p50, p99, worst)
	n, longest, total := stalls.summary()
	t.Logf("whole-process stalls over %v: %d, longest %v, %v in all", stallGap, n, longest, total)
}

// stressAsk runs ask i as its plan says and records it in tr.
func stressAsk(a *Asker, i int, p plan, tr *trace) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	switch p.abort {
	case abortBefore:
		cancel()
	case abortLater:
		t := time.AfterFunc(p.abortAfter, func() {
			tr.mu.Lock()
			tr.abortedAt = time.Now()
			tr.mu.Unlock()
			cancel()
		})
		defer t.Stop()
	}
	req := NewRequest(1)
	req.Questions[0].Title = fmt.Sprintf("ask %d", i)
	start := time.Now()
	res := Ask(ctx, a, AskUser, req, &Call{ID: fmt.Sprintf("call-%d", i)})
	done := time.Now()
	tr.mu.Lock()
	tr.start, tr.done, tr.res = start, done, res
	tr.mu.Unlock()
}

// outcomeOf is the outcome event that goes with res.
func outcomeOf(res contract.Result) Event {
	e := Event{Route: res.Route, Status: res.Status}
	switch res.Status {
	case contract.StatusAnswered:
		e.Name = EventAnswered
	case contract.StatusAborted:
		e.Name, e.CancelledReason = EventAborted, res.CancelledReason
	case contract.StatusTimeout:
		e.Name = EventTimeout
	default:
		e.Name, e.ErrorCode = EventError, res.Error.Code
	}
	return e
}

// outcomeName names res for the tally of outcomes.
func outcomeName(res contract.Result) string {
	switch {
	case res.Route == "":
		return "refused"
	case res.Status == contract.StatusError:
		return string(res.Error.Code)
	case res.Status == contract.StatusAborted:
		return "aborted:" + string(res.CancelledReason)
	}
	return string(res.Status)
}

// waitGoroutines waits, for a bounded time, until no more goroutines run
// than before, and fails with their stacks otherwise.
func waitGoroutines(t *testing.T, before int) {
	t.Helper()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	limit := time.After(testkit.Patience(t))
	for runtime.NumGoroutine() > before {
		select {
		case <-tick.C:
		case <-limit:
			t.Fatalf("%d goroutines left after the asks (%d before):\n%s", runtime.NumGoroutine(), before, goroutines())
		}
	}
}

// goroutines returns the stacks of all goroutines.
func goroutines() string {
	var b strings.Builder
	pprof.Lookup("goroutine").WriteTo(&b, 1)
	return b.String()
}

// percentiles returns the median, the 99th percentile and the largest of
// ds, which it sorts.
func percentiles(ds []time.Duration) (p50, p99, worst time.Duration) {
	slices.Sort(ds)
	return ds[len(ds)/2], ds[len(ds)*99/100], ds[len(ds)-1]
}
