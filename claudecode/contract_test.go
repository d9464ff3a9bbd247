package claudecode_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/claudecode"
	"github.com/askuser/askuser/contract"
)

// questionsRenderer is an AskUserQuestion renderer that ends as told,
// keeping the session it was shown in *seen.
func questionsRenderer(out ask.Outcome[auq.Result], err error, seen **ask.Session[*auq.Request]) ask.Renderer[*auq.Request, auq.Result] {
	return ask.RendererFunc[*auq.Request, auq.Result](func(_ context.Context, s *ask.Session[*auq.Request]) (ask.Outcome[auq.Result], error) {
		*seen = s
		return out, err
	})
}

// Claude Code's questions asked through an AskUserQuestion renderer: a
// submitted answer is Claude Code's answers; anything else, a
// malformed answer among them, is no answer.
func TestQuestionContract(t *testing.T) {
	answered := auq.Result{Answers: map[string]auq.Answer{
		"q1": single("o1", "SQLite"),
		"q2": multi(auq.Choice{OptionID: "o2", Label: `Queue, "later"`}),
	}}
	malformed := auq.Result{Answers: map[string]auq.Answer{"q1": single("o9", "MySQL"), "q2": multi(auq.Choice{OptionID: "o1", Label: "Cache"})}}
	tests := []struct {
		name string
		out  ask.Outcome[auq.Result]
		err  error
		want claudecode.QuestionsOutcome
	}{
		{"answered", ask.Outcome[auq.Result]{Answer: answered}, nil, claudecode.QuestionsOutcome{Status: auq.StatusSubmitted, Answers: &claudecode.Answers{
			Answers:     map[string]string{q1: "SQLite", q2: `"Queue, \"later\""`},
			Annotations: map[string]claudecode.Annotation{},
		}}},
		{"dismissed", ask.Outcome[auq.Result]{Dismissed: true}, nil, claudecode.QuestionsOutcome{Status: auq.StatusDismissed}},
		{"a malformed answer", ask.Outcome[auq.Result]{Answer: malformed}, nil, claudecode.QuestionsOutcome{Status: auq.StatusError, Error: &auq.Error{
			Code: string(contract.ErrCustomUIFailed)}}},
		{"a failing dialog", ask.Outcome[auq.Result]{}, errors.New("popup gone"), claudecode.QuestionsOutcome{Status: auq.StatusError, Error: &auq.Error{
			Code: string(contract.ErrCustomUIFailed)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, _ := decodeQuestions(t)
			var seen *ask.Session[*auq.Request]
			caps := ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUserQuestion, questionsRenderer(tt.out, tt.err, &seen))
			caps = claudecode.BindQuestions(caps)
			got := ask.Ask(context.Background(), ask.NewAsker(ask.NewHost(caps, nil), nil), claudecode.QuestionContract, q, nil)
			if got.Error != nil {
				got.Error.Message = "" // its wording is the core's
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("outcome (-want +got):\n%s", diff)
			}
			if seen == nil || seen.Kind != ask.KindQuestion || len(seen.Request.Questions) != 2 {
				t.Errorf("the renderer was shown %+v", seen)
			}
		})
	}
}
