package hub_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/hub"
)

// A host joins the user's hub: each questionnaire is asked on the host's
// own renderer and on the hub at once, and the first valid answer wins.
// Without a renderer of its own, the host waits for the hub alone.
func ExampleLink_Join() {
	link := hub.NewLink(&hub.LinkOptions{
		Dial: func(ctx context.Context) (*hub.Client, error) {
			return hub.Dial(ctx, &hub.DialOptions{Getenv: os.Getenv})
		},
		Agent: "release bot",
		Answered: func(callID string, a hub.Answer) {
			fmt.Fprintln(os.Stderr, a.Where(), "through the hub")
		},
	})
	defer link.Close(context.Background())
	caps := ask.Capabilities{CustomReason: "no terminal", NativeReason: "no terminal"}
	if err := link.Connect(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "no hub:", err)
		return
	}
	asker := ask.NewAsker(ask.NewHost(link.Join(caps), nil), nil)
	res := ask.AskJSON(context.Background(), asker, ask.AskUser, []byte(`{"questions":[{"title":"Ship it?","kind":"bool"}]}`), nil)
	fmt.Println(res.Status)
}

// A program answers what waits on the hub, as an eval harness or a CI
// policy does.
func ExampleClient_Answer() {
	c, err := hub.Dial(context.Background(), &hub.DialOptions{Getenv: os.Getenv})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	defer c.Close()
	waiting, err := c.Pending(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	for _, q := range waiting {
		if q.Tag.Contract != hub.ContractAskUserQuestion {
			continue
		}
		_, err := c.Answer(context.Background(), q.ID, []byte(`{"cancelled":false,"answers":{}}`), "ci-policy")
		var refused *hub.RefusedError
		if errors.As(err, &refused) {
			fmt.Fprintln(os.Stderr, refused.Reason, refused.Message)
		}
	}
}
