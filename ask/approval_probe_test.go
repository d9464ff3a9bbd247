package ask

import (
	"context"
	"testing"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
)

// TestApprovalAnswersThatAreNoAllow gives an approval, through its
// AskUserQuestion view, answers that a hostile or mistaken surface could
// submit, such as one made for a copy of the question edited on the hub
// after it was published: each is checked against the questionnaire the
// asker itself showed, and none is an allow.
func TestApprovalAnswersThatAreNoAllow(t *testing.T) {
	r := approvalRequest()
	shown, err := approval.Show(r)
	if err != nil {
		t.Fatal(err)
	}
	preview := shown.Questions[0].Options[0].Preview
	single := func(c auq.Choice) map[string]auq.Answer {
		return map[string]auq.Answer{approval.QuestionID: {Kind: auq.KindSingle, Choice: c}}
	}
	tests := []struct {
		name string
		res  auq.Result
	}{
		{"allow's id under Deny's label", auq.Result{Answers: single(auq.Choice{OptionID: approval.AllowID, Label: "Deny"})}},
		{"deny's id under Allow's label", auq.Result{Answers: single(auq.Choice{OptionID: approval.DenyID, Label: "Allow once"})}},
		{"allow with the preview of an edited question", auq.Result{
			Answers:     single(auq.Choice{OptionID: approval.AllowID, Label: "Allow once"}),
			Annotations: map[string]auq.Annotations{approval.QuestionID: {SelectedPreview: "Command:\nls"}},
		}},
		{"allow under an edited question's id", auq.Result{Answers: map[string]auq.Answer{"q": {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: approval.AllowID, Label: "Allow once"}}}}},
		{"allow beside an answer to a question not asked", auq.Result{Answers: map[string]auq.Answer{
			approval.QuestionID: {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: approval.AllowID, Label: "Allow once"}},
			"extra":             {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: approval.AllowID, Label: "Allow once"}},
		}, Annotations: map[string]auq.Annotations{approval.QuestionID: {SelectedPreview: preview}}}},
		{"a cancelled result that holds an allow", auq.Result{Cancelled: true,
			Answers:     single(auq.Choice{OptionID: approval.AllowID, Label: "Allow once"}),
			Annotations: map[string]auq.Annotations{approval.QuestionID: {SelectedPreview: preview}},
		}},
		{"allow as a multi answer", auq.Result{Answers: map[string]auq.Answer{approval.QuestionID: {Kind: auq.KindMulti,
			Selections: []auq.Choice{{OptionID: approval.AllowID, Label: "Allow once"}}}}}},
		{"a standing choice not offered", auq.Result{Answers: single(auq.Choice{OptionID: "always2", Label: "Always allow (2)"}),
			Annotations: map[string]auq.Annotations{approval.QuestionID: {SelectedPreview: preview}}}},
		{"Other saying allow", auq.Result{Answers: single(auq.Choice{Other: true, Label: auq.OtherLabel, Text: "allow"})}},
		{"no answer", auq.Result{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rend := RendererFunc[*auq.Request, auq.Result](func(context.Context, *Session[*auq.Request]) (Outcome[auq.Result], error) {
				return Outcome[auq.Result]{Answer: tt.res}, nil
			})
			caps := BindApproval(Bind(Capabilities{}, contract.RouteCustom, AskUserQuestion, rend))
			got := Ask(context.Background(), NewAsker(NewHost(caps, nil), nil), Approval, approvalRequest(), &Call{ID: "c1"})
			if got.Allowed() {
				t.Fatalf("the answer allowed the approval: %+v", got)
			}
		})
	}
}
