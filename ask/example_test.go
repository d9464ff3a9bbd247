package ask_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/prefs"
)

// A renderer that answers the first option of every question, as a user
// pressing Enter on each would.
var firstOption = ask.RendererFunc[*contract.Request, []contract.Answer](func(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
	var answers []contract.Answer
	for i, q := range s.Request.Questions {
		answers = append(answers, contract.Answer{
			Index: i, ID: q.ID, Title: q.Title, Kind: q.Kind,
			Selections: []string{q.Options[0].Label},
		})
	}
	return ask.Outcome[[]contract.Answer]{Answer: answers}, nil
})

func Example() {
	host := ask.NewHost(ask.Bind(ask.Capabilities{NativeReason: "no native dialogs in this example"}, contract.RouteCustom, ask.AskUser, firstOption), nil)
	asker := ask.NewAsker(host, nil)
	if !asker.IsAvailable() {
		fmt.Println(asker.NotAvailableReason())
		return
	}
	res := ask.Ask(context.Background(), asker, ask.AskUser, &contract.Request{
		Questions: []contract.Question{{
			Title:   "Deploy where?",
			Kind:    contract.KindSingle,
			Options: []contract.Option{{Label: "staging"}, {Label: "prod"}},
		}},
	}, nil)
	fmt.Println(res.Status, res.Route, res.Answers[0].Selections)
	// Output: answered custom [staging]
}

func ExampleNewHost() {
	host := ask.NewHost(ask.Bind(ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, firstOption), contract.RouteNative, ask.AskUser, firstOption), &ask.HostOptions{
		Options: prefs.Prefs{Mode: contract.RouteNative},
	})
	data, _ := json.Marshal(host.Support())
	fmt.Println(string(data))
	// Output: {"status":"available","route":"native","source":"configured","available":["custom","native"]}
}

func ExampleNewHost_unavailable() {
	host := ask.NewHost(ask.Bind(ask.Capabilities{NativeReason: "print mode has no dialogs"}, contract.RouteCustom, ask.AskUser, firstOption), &ask.HostOptions{
		Options: prefs.Prefs{Mode: contract.RouteNative},
	})
	res := ask.Ask(context.Background(), ask.NewAsker(host, nil), ask.AskUser, &contract.Request{
		Questions: []contract.Question{{Title: "Name?", Kind: contract.KindInput}},
	}, nil)
	fmt.Println(host.Support().Status)
	fmt.Println(res.Status, res.Route, res.Error.Code)
	// Output:
	// configured_unavailable
	// error native unsupported_mode
}

func ExampleAsk_events() {
	sink := ask.EventSinkFunc(func(e ask.Event) {
		payload, _ := json.Marshal(e)
		fmt.Println(e.Name, string(payload))
	})
	asker := ask.NewAsker(ask.NewHost(ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, firstOption), nil), &ask.Options{Events: sink})
	ask.AskJSON(context.Background(), asker, ask.AskUser, []byte(`{"questions":[{"title":"Deploy where?","options":[{"label":"staging"}]}]}`), &ask.Call{ID: "toolu_1"})
	// Output:
	// herdr:blocked {"active":true,"label":"Waiting for user response","callId":"toolu_1"}
	// ask:answered {"callId":"toolu_1","route":"custom","status":"answered"}
	// herdr:blocked {"active":false,"callId":"toolu_1"}
}

func ExampleCountdown_Cancel() {
	r := ask.RendererFunc[*contract.Request, []contract.Answer](func(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
		_, before := s.Countdown.Deadline()
		cancelled := s.Countdown.Cancel()
		_, after := s.Countdown.Deadline()
		fmt.Println("deadline:", before, "cancelled:", cancelled, "deadline now:", after)
		return ask.Outcome[[]contract.Answer]{Dismissed: true}, nil
	})
	res := ask.Ask(context.Background(), ask.NewAsker(ask.NewHost(ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, r), nil), nil), ask.AskUser, &contract.Request{
		Questions: []contract.Question{{Title: "Name?", Kind: contract.KindInput}},
	}, nil)
	fmt.Println(res.Status, res.CancelledReason)
	// Output:
	// deadline: true cancelled: true deadline now: false
	// aborted user
}

// A host tells the user that a question is waiting as each wait opens,
// from what Opening holds: never the questions themselves.
func ExampleOptions_onOpen() {
	host := ask.NewHost(ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, firstOption), nil)
	asker := ask.NewAsker(host, &ask.Options{OnOpen: func(o ask.Opening) {
		fmt.Printf("%s: %d question(s) waiting on the %s route, header %q, deadline set: %v\n",
			o.Tool, o.Questions, o.Route, o.Header, !o.Deadline.IsZero())
	}})
	ask.Ask(context.Background(), asker, ask.AskUser, &contract.Request{
		Header: "Release",
		Questions: []contract.Question{{
			Title:   "Deploy where?",
			Kind:    contract.KindSingle,
			Options: []contract.Option{{Label: "staging"}, {Label: "prod"}},
		}},
	}, nil)
	// Output: ask_user: 1 question(s) waiting on the custom route, header "Release", deadline set: true
}
