package ask

import (
	"context"
	"testing"

	"github.com/askuser/askuser/contract"
)

// BenchmarkAsk measures one whole call with a renderer that answers at
// once: validation, the wait with its timer and goroutine, the answer
// check and the events.
func BenchmarkAsk(b *testing.B) {
	ans := answers(5)
	r := RendererFunc[*contract.Request, []contract.Answer](func(context.Context, *Session[*contract.Request]) (Outcome[[]contract.Answer], error) {
		return Outcome[[]contract.Answer]{Answer: ans}, nil
	})
	sink := EventSinkFunc(func(Event) {})
	a := NewAsker(NewHost(Bind(Capabilities{}, contract.RouteCustom, AskUser, r), nil), &Options{Events: sink})
	req := request(5)
	ctx := context.Background()
	call := &Call{ID: "toolu_1"}
	b.ReportAllocs()
	for b.Loop() {
		if res := Ask(ctx, a, AskUser, req, call); res.Route == "" {
			b.Fatalf("Ask = %+v", res)
		}
	}
}
