package ask

import (
	"context"
	"fmt"
	"sync"

	"github.com/askuser/askuser/contract"
)

// request returns a valid questionnaire of n single-choice questions.
func request(n int) *contract.Request {
	r := &contract.Request{}
	for i := range n {
		r.Questions = append(r.Questions, contract.Question{
			ID:      fmt.Sprintf("q%d", i+1),
			Title:   fmt.Sprintf("Question %d", i+1),
			Kind:    contract.KindSingle,
			Options: []contract.Option{{Label: "a"}, {Label: "b"}},
		})
	}
	return r
}

// answers returns valid answers to request(n): "a" everywhere.
func answers(n int) []contract.Answer {
	out := []contract.Answer{}
	for i := range n {
		out = append(out, contract.Answer{
			Index:      i,
			ID:         fmt.Sprintf("q%d", i+1),
			Title:      fmt.Sprintf("Question %d", i+1),
			Kind:       contract.KindSingle,
			Selections: []string{"a"},
		})
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// recorder is an EventSink that keeps every event.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) Event(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) got() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event{}, r.events...)
}

// sequence is the event sequence of one wait that ended with outcome.
func sequence(callID string, outcome Event) []Event {
	outcome.CallID = callID
	return []Event{
		{Name: EventWaiting, CallID: callID, Active: true},
		outcome,
		{Name: EventWaiting, CallID: callID},
	}
}

// askRenderer is a Renderer of ask_user.
type askRenderer = Renderer[*contract.Request, []contract.Answer]

// checkingRenderer is a Renderer[*contract.Request, []contract.Answer]
// that also refuses requests.
type checkingRenderer struct {
	askRenderer
	check func(*contract.Request) error
}

func (c checkingRenderer) Check(r *contract.Request) error { return c.check(r) }

// answerWith renders by answering at once.
func answerWith(out Outcome[[]contract.Answer], err error) Renderer[*contract.Request, []contract.Answer] {
	return RendererFunc[*contract.Request, []contract.Answer](func(context.Context, *Session[*contract.Request]) (Outcome[[]contract.Answer], error) {
		return out, err
	})
}

// noRender is a Renderer[*contract.Request, []contract.Answer] that must not run.
type noRender struct{ called *bool }

func (n noRender) Render(context.Context, *Session[*contract.Request]) (Outcome[[]contract.Answer], error) {
	*n.called = true
	return Outcome[[]contract.Answer]{}, nil
}
