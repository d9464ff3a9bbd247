package hubserver_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/prefs"
)

// TestStressKill has 20 agents ask 5 questions each through a real hub
// process while 4 programs answer at random, and kills the hub with
// SIGKILL midway, then starts another: every question gets exactly one
// answer, the one its program was told was accepted, and none is lost.
func TestStressKill(t *testing.T) {
	const agents, perAgent, answerers = 20, 5, 4
	state := t.TempDir()
	env := getenv(state)
	proc, _ := startProcess(t, state)
	dial := func(ctx context.Context) (*hub.Client, error) {
		return hub.Dial(ctx, &hub.DialOptions{Getenv: env, Timeout: 10 * time.Second})
	}

	var mu sync.Mutex
	accepted := map[string]string{}   // question id → label its program was told was accepted
	answeredBy := map[string]string{} // call id → question id, as the asker was told
	results := map[string]string{}    // call id → the label in its result

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var asking sync.WaitGroup
	for a := range agents {
		asking.Go(func() {
			l := hub.NewLink(&hub.LinkOptions{
				Dial:  dial,
				Agent: fmt.Sprintf("agent %d", a),
				Answered: func(callID string, ans hub.Answer) {
					mu.Lock()
					answeredBy[callID] = ans.ID
					mu.Unlock()
				},
			})
			defer func() {
				cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer ccancel()
				l.Close(cctx)
			}()
			if err := l.Connect(ctx); err != nil {
				t.Error(err)
				return
			}
			ms := int64(60000)
			asker := ask.NewAsker(ask.NewHost(l.Join(ask.Capabilities{CustomReason: "none", NativeReason: "none"}), &ask.HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: &ms}}), nil)
			for i := range perAgent {
				callID := fmt.Sprintf("a%d-%d", a, i)
				res := ask.AskJSON(ctx, asker, ask.AskUser, []byte(req), &ask.Call{ID: callID})
				if res.Status != contract.StatusAnswered {
					t.Errorf("call %s: %+v %+v", callID, res, res.Error)
					return
				}
				mu.Lock()
				results[callID] = res.Answers[0].Selections[0]
				mu.Unlock()
			}
		})
	}

	var answering sync.WaitGroup
	stop := make(chan struct{})
	actx, stopAnswering := context.WithCancel(ctx)
	defer stopAnswering()
	var count atomic.Int32
	for w := range answerers {
		answering.Go(func() {
			answerAtRandom(actx, t, dial, stop, w, func(id, label string) {
				mu.Lock()
				if prev, dup := accepted[id]; dup {
					t.Errorf("question %s accepted twice: %s, then %s", id, prev, label)
				}
				accepted[id] = label
				mu.Unlock()
				count.Add(1)
			})
		})
	}

	// Kill the hub once about a third of the questions are answered.
	for count.Load() < agents*perAgent/3 {
		if ctx.Err() != nil {
			t.Fatal("the questions were not answered in time")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := proc.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	proc.wait(t, testkit.Patience(t))
	startProcess(t, state)

	asking.Wait()
	close(stop)
	stopAnswering()
	answering.Wait()
	if t.Failed() {
		return
	}
	if len(results) != agents*perAgent {
		t.Fatalf("%d calls got an answer, want %d", len(results), agents*perAgent)
	}
	seen := map[string]string{}
	for callID, label := range results {
		id, ok := answeredBy[callID]
		if !ok {
			t.Errorf("call %s was not told where its answer came from", callID)
			continue
		}
		if other, dup := seen[id]; dup {
			t.Errorf("question %s answered both call %s and call %s", id, other, callID)
		}
		seen[id] = callID
		if want, ok := accepted[id]; ok && want != label {
			t.Errorf("call %s got %q; its program was told %q was accepted", callID, label, want)
		}
	}
	t.Logf("%d answers accepted as such; %d calls answered", len(accepted), len(results))
}

// answerAtRandom answers, as answerer w, questions picked at random
// among those waiting on the hub that dial reaches, until stop is
// closed; accept is told each answer the hub accepted, with its label.
func answerAtRandom(ctx context.Context, t *testing.T, dial func(context.Context) (*hub.Client, error), stop <-chan struct{}, w int, accept func(id, label string)) {
	var c *hub.Client
	defer func() {
		if c != nil {
			c.Close()
		}
	}()
	for attempt := 0; ; attempt++ {
		select {
		case <-stop:
			return
		default:
		}
		if c == nil {
			var err error
			if c, err = dial(ctx); err != nil {
				time.Sleep(20 * time.Millisecond)
				continue
			}
		}
		qs, err := c.Pending(ctx)
		if err != nil || len(qs) == 0 {
			time.Sleep(5 * time.Millisecond)
			continue
		}
		q := qs[rand.IntN(len(qs))]
		label := []string{"staging", "prod"}[rand.IntN(2)]
		_, err = c.Answer(ctx, q.ID, answerJSON(t, label), fmt.Sprintf("answerer %d attempt %d", w, attempt))
		var re *hub.RefusedError
		switch {
		case err == nil:
			accept(q.ID, label)
		case errors.As(err, &re) && re.Reason == hub.RefusedAnswered:
		case errors.As(err, &re) && ctx.Err() == nil:
			t.Errorf("answer to %s refused: %v", q.ID, err)
		}
	}
}
