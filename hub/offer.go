package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/askuser/askuser/ask"
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
	h := l.side(contract, "", "", request, questions, deadline)
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

// Outcome is an answer given on the hub to a questionnaire of contract
// c, as its renderer returns it.
func Outcome[Req, Ans, Res any](c ask.Contract[Req, Ans, Res], a Answer) (ask.Outcome[Ans], error) {
	switch a.Status {
	case StatusDismissed:
		return ask.Outcome[Ans]{Dismissed: true}, nil
	case StatusAnswered:
		ans, err := c.DecodeAnswer(a.Result)
		return ask.Outcome[Ans]{Answer: ans}, err
	}
	return ask.Outcome[Ans]{}, fmt.Errorf("the question was %s: it has no answer", a.Where())
}
