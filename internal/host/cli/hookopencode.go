package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/askuser/askuser/approval"
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
			return askApproval(ctx, h, r, project, func(o approval.Outcome) []byte { return opencode.Reply(r, o) })
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
	if end.How == ask.EndFailed {
		return ended("the questions", string(end.Code), end.Message)
	}
	return fmt.Errorf("the questions were not answered (%s)", map[ask.Ending]string{
		ask.EndDismissed: "dismissed", ask.EndTimeout: "timeout", ask.EndAborted: "aborted"}[end.How])
}
