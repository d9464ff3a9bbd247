package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/mcpserver"
	"github.com/askuser/askuser/prefs"
)

// A server whose custom route is a renderer of the program's own, here one
// that picks the last option of every question, called by an MCP client
// over an in-memory transport. askuser mcp serves the same server on
// stdio with ServeStdio, its renderer a terminal popup.
func Example() {
	lastOption := ask.RendererFunc[*contract.Request, []contract.Answer](func(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
		var answers []contract.Answer
		for i, q := range s.Request.Questions {
			answers = append(answers, contract.Answer{
				Index: i, ID: q.ID, Title: q.Title, Kind: q.Kind,
				Selections: []string{q.Options[len(q.Options)-1].Label},
			})
		}
		return ask.Outcome[[]contract.Answer]{Answer: answers}, nil
	})
	srv, err := mcpserver.New(&mcpserver.Options{
		Host:   ask.HostOptions{Options: prefs.Prefs{Mode: contract.RouteCustom}},
		Custom: ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, lastOption),
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clientEnd, serverEnd := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, serverEnd) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil)
	session, err := client.Connect(ctx, clientEnd, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { session.Close(); cancel(); <-done }()

	res, err := session.CallTool(ctx, &mcp.CallToolParams{
		Name:      mcpserver.ToolName,
		Arguments: json.RawMessage(`{"questions": [{"title": "Deploy where?", "kind": "single", "options": [{"label": "staging"}, {"label": "prod"}]}]}`),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	data, _ := json.Marshal(res.StructuredContent)
	var out contract.Result
	if err := json.Unmarshal(data, &out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Status, out.Route, out.Answers[0].Selections)
	// Output: answered custom [prod]
}
