package mcpserver

import (
	"context"
	"fmt"

	"github.com/askuser/askuser/ask"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// elicitRenderer is the native route: the questionnaire as one flat
// elicitation form. On a modern session the client has already answered
// the form, and the answer travels in the context; on an older one the
// renderer sends the form and waits for the answer.
type elicitRenderer struct {
	session *mcp.ServerSession
	modern  bool
}

type responseKey struct{}

// withResponse carries the client's answer to a form sent as InputRequests
// to the renderer.
func withResponse(ctx context.Context, r *mcp.ElicitResult) context.Context {
	return context.WithValue(ctx, responseKey{}, r)
}

// Render implements ask.Renderer.
func (r *elicitRenderer) Render(ctx context.Context, s *ask.Session) (ask.Outcome, error) {
	res, _ := ctx.Value(responseKey{}).(*mcp.ElicitResult)
	if res == nil {
		if r.modern {
			return ask.Outcome{}, errNoResponse
		}
		var err error
		left, _ := s.Countdown.Remaining()
		res, err = r.session.Elicit(ctx, elicitParams(s.Request, left))
		if err != nil {
			return ask.Outcome{}, fmt.Errorf("the elicitation request failed: %w", err)
		}
	}
	if p := progressFrom(ctx); p != nil {
		p.setAction(res.Action)
	}
	return outcome(s, res)
}

// outcome maps the client's answer to the form back to an ask.Outcome.
func outcome(s *ask.Session, res *mcp.ElicitResult) (ask.Outcome, error) {
	switch res.Action {
	case "accept":
		answers, err := formAnswers(s.Request, res.Content)
		if err != nil {
			return ask.Outcome{}, err
		}
		return ask.Outcome{Answers: answers}, nil
	case "decline", "cancel":
		return ask.Outcome{Dismissed: true}, nil
	}
	return ask.Outcome{}, fmt.Errorf("the client answered the form with the unknown action %q", res.Action)
}
