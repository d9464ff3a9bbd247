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

// callData is what one tools/call hands the renderers of its session, as
// the ask.Call's Data.
type callData struct {
	progress *progress         // the call's progress notifications; nil for none
	response *mcp.ElicitResult // the client's answer to a form sent as InputRequests, if any
}

// dataOf returns the callData of s, or an empty one for a call that has
// none.
func dataOf(s *ask.Session) *callData {
	if d, ok := s.Call.Data.(*callData); ok && d != nil {
		return d
	}
	return &callData{}
}

// Render implements ask.Renderer.
func (r *elicitRenderer) Render(ctx context.Context, s *ask.Session) (ask.Outcome, error) {
	res := dataOf(s).response
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
	if p := dataOf(s).progress; p != nil {
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
