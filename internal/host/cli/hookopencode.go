package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/opencode"
)

// opencodeHook answers one event of OpenCode (or Kilo, its fork, as
// agent), which askuser's OpenCode plugin hands over: permission.asked
// as an approval, question.asked as OpenCode's questions. It returns
// the body of OpenCode's reply, which the plugin posts.
func opencodeHook(agent string) func(ctx context.Context, h *hookRun, event []byte) ([]byte, error) {
	return func(ctx context.Context, h *hookRun, event []byte) ([]byte, error) {
		e, err := opencode.DecodeEvent(event)
		if err != nil {
			return nil, err
		}
		// The plugin runs the hook in OpenCode's directory.
		project, _ := os.Getwd()
		switch e.Type {
		case opencode.PermissionAsked:
			p, err := opencode.DecodePermission(e)
			if err != nil {
				return nil, err
			}
			r, err := p.Approval(agent)
			if err != nil {
				return nil, fmt.Errorf("the permission request cannot be asked as an approval: %w", err)
			}
			o, err := hookAsk(ctx, h, ask.Approval, r, project, 1, maxApprovalWait)
			if err != nil {
				return nil, err
			}
			out := opencode.Reply(r, o)
			if out == nil {
				return nil, approvalEnded(o)
			}
			return out, nil
		case opencode.QuestionAsked:
			q, err := opencode.DecodeQuestions(e)
			if err != nil {
				return nil, err
			}
			end, err := hookAsk(ctx, h, opencode.QuestionContract, q, project, len(q.Questions), maxQuestionWait)
			if err != nil {
				return nil, err
			}
			if end.How != ask.EndAnswered {
				return nil, opencodeEnded(end)
			}
			return end.Answer.Reply(), nil
		}
		return nil, fmt.Errorf("askuser answers %s and %s only, not %q", opencode.PermissionAsked, opencode.QuestionAsked, e.Type)
	}
}

// opencodeEnded says how OpenCode's questions ended without answers.
func opencodeEnded(end ask.End[opencode.Answers]) error {
	switch end.How {
	case ask.EndDismissed:
		return errors.New("the questions were dismissed")
	case ask.EndTimeout:
		return errors.New("nobody answered the questions in time")
	case ask.EndAborted:
		return errors.New("the questions were stopped")
	}
	return fmt.Errorf("the questions could not be asked: %s: %s", end.Code, end.Message)
}
