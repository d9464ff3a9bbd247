package ask_test

import (
	"context"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
)

// The call's id and the host's data reach the renderer unchanged; a nil
// call gives the zero Call.
func TestCallReachesRenderer(t *testing.T) {
	type hostData struct{ conn string }
	data := &hostData{conn: "c1"}
	tests := []struct {
		name string
		call *ask.Call
		want ask.Call
	}{
		{"nil", nil, ask.Call{}},
		{"id and data", &ask.Call{ID: "call_1", Data: data}, ask.Call{ID: "call_1", Data: data}},
	}
	for _, tt := range tests {
		var got ask.Call
		r := ask.RendererFunc[*contract.Request, []contract.Answer](func(_ context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
			got = s.Call
			return ask.Outcome[[]contract.Answer]{Dismissed: true}, nil
		})
		asker := ask.NewAsker(ask.NewHost(ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, r), nil), nil)
		res := ask.Ask(t.Context(), asker, ask.AskUser, &contract.Request{Questions: []contract.Question{{Title: "Go?", Kind: contract.KindBool}}}, tt.call)
		if res.Status != contract.StatusAborted {
			t.Fatalf("%s: result %+v", tt.name, res)
		}
		if got.ID != tt.want.ID || got.Data != tt.want.Data {
			t.Errorf("%s: the renderer got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
