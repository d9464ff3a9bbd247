package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
)

// Offered is a questionnaire offered on the hub by Offer, until its asker
// settles it.
type Offered struct {
	h      *hubSide
	cancel context.CancelFunc
}

// Offer publishes a questionnaire that its asker shows on a surface no
// race can end: an MCP client's form sent as InputRequests, which holds
// no call in flight while it is on screen. The question waits on the hub
// for deadline (nil for none) or until Settle; an answer given there
// waits for the asker to take it in Settle, when the client calls again.
// The hub is reached on a goroutine of its own: an offer never holds up
// its asker, and a hub out of reach is told to the link's Unreachable.
//
// request is the questionnaire of contract (ContractAskUser or
// ContractAskUserQuestion), normalized, with questions questions.
func (l *Link) Offer(contract string, request json.RawMessage, questions int, deadline *time.Time) *Offered {
	h := l.side(contract, request, questions, deadline)
	ctx, cancel := context.WithCancel(context.Background())
	l.pending.Add(1)
	go h.run(ctx)
	return &Offered{h: h, cancel: cancel}
}

// ID is the question's id on the hub.
func (o *Offered) ID() string { return o.h.q.ID }

// Settle ends the offer, its asker having settled the questionnaire with
// note ("answered", "dismissed", "timed out"). It claims the question
// on the hub, so that no answer there can come after it, and returns the
// answer given on the hub when one came first: that answer stands, and
// the asker's own is dropped. Settle may be called more than once; the
// calls after the first report nothing.
func (o *Offered) Settle(note string) (Answer, bool) {
	defer o.cancel()
	select {
	case a := <-o.h.answers:
		return a, true
	default:
	}
	a, lost := o.h.settle(note)
	if !lost {
		// An answer that came while the claim was made is the same
		// answer the claim reports; none is left to take.
		select {
		case <-o.h.answers:
		default:
		}
	}
	return a, lost
}

// Outcome is an answer given on the hub to a questionnaire of ask_user,
// as its renderer returns it.
func (a Answer) Outcome() (ask.Outcome[[]contract.Answer], error) {
	switch a.Status {
	case StatusDismissed:
		return ask.Outcome[[]contract.Answer]{Dismissed: true}, nil
	case StatusAnswered:
		var r askUserAnswer
		err := json.Unmarshal(a.Result, &r)
		return ask.Outcome[[]contract.Answer]{Answer: r.Answers}, err
	}
	return ask.Outcome[[]contract.Answer]{}, fmt.Errorf("the question was %s: it has no answer", a.Where())
}

// QuestionOutcome is an answer given on the hub to a questionnaire of
// AskUserQuestion, as its renderer returns it.
func (a Answer) QuestionOutcome() (ask.Outcome[auq.Result], error) {
	switch a.Status {
	case StatusDismissed:
		return ask.Outcome[auq.Result]{Dismissed: true}, nil
	case StatusAnswered:
		var r auq.Result
		err := json.Unmarshal(a.Result, &r)
		return ask.Outcome[auq.Result]{Answer: r}, err
	}
	return ask.Outcome[auq.Result]{}, fmt.Errorf("the question was %s: it has no answer", a.Where())
}
