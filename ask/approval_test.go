package ask

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
)

func approvalRequest() *approval.Request {
	return &approval.Request{Agent: "codex", Tool: "Bash", Action: approval.ActionRun, Command: "rm -rf build", Always: []string{"always allow rm in build"}}
}

// approvalAnswer returns a renderer of AskUserQuestion that submits the
// option id (with its label from the request shown), keeps the session
// it was given in *seen, and optionally adds a note on it.
func approvalAnswer(id, note string, seen **Session[*auq.Request]) Renderer[*auq.Request, auq.Result] {
	return RendererFunc[*auq.Request, auq.Result](func(_ context.Context, s *Session[*auq.Request]) (Outcome[auq.Result], error) {
		*seen = s
		label, ann := id, auq.Annotations{}
		if o := s.Request.Questions[0].OptionByID(id); o != nil {
			label, ann.SelectedPreview = o.Label, o.Preview
		}
		if note != "" {
			ann.OptionNotes = map[string]string{id: note}
		}
		res := auq.Result{
			Answers:     map[string]auq.Answer{approval.QuestionID: {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: id, Label: label}}},
			Annotations: map[string]auq.Annotations{approval.QuestionID: ann},
		}
		return Outcome[auq.Result]{Answer: res}, nil
	})
}

func TestApprovalThroughAskUserQuestion(t *testing.T) {
	var seen *Session[*auq.Request]
	dismissed := questionsWith(Outcome[auq.Result]{Dismissed: true}, nil)
	failing := questionsWith(Outcome[auq.Result]{}, errors.New("popup gone"))
	tests := []struct {
		name string
		r    Renderer[*auq.Request, auq.Result]
		want approval.Outcome
	}{
		{"allow once", approvalAnswer("allow", "", &seen), approval.Outcome{Status: approval.StatusDecided, Decision: &approval.Decision{Allow: true}}},
		{"always", approvalAnswer("always1", "", &seen), approval.Outcome{Status: approval.StatusDecided, Decision: &approval.Decision{Allow: true, Always: 1}}},
		{"deny with a reason", approvalAnswer("deny", "build is needed", &seen), approval.Outcome{Status: approval.StatusDecided, Decision: &approval.Decision{Reason: "build is needed"}}},
		{"dismissed", dismissed, approval.Outcome{Status: approval.StatusDismissed}},
		{"an option the approval does not offer is an error, not an allow", approvalAnswer("always2", "", &seen), approval.Outcome{Status: approval.StatusError, Error: &approval.Error{
			Code: string(contract.ErrCustomUIFailed), Message: `the question has no option "always2"`}}},
		{"a failing dialog", failing, approval.Outcome{Status: approval.StatusError, Error: &approval.Error{Code: string(contract.ErrCustomUIFailed), Message: "the custom dialog failed: popup gone"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen = nil
			caps := BindApproval(Bind(Capabilities{}, contract.RouteCustom, AskUserQuestion, tt.r))
			got := Ask(context.Background(), NewAsker(NewHost(caps, nil), nil), Approval, approvalRequest(), &Call{ID: "c1"})
			if tt.want.Error != nil && got.Error != nil && strings.Contains(got.Error.Message, tt.want.Error.Message) {
				got.Error.Message = tt.want.Error.Message
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Fatalf("outcome (-want +got):\n%s", d)
			}
			if seen != nil && (seen.Kind != KindApproval || seen.Call.ID != "c1" || seen.Countdown == nil) {
				t.Fatalf("the AskUserQuestion renderer got kind %q, call %+v, countdown %v", seen.Kind, seen.Call, seen.Countdown)
			}
		})
	}
}

func TestBindViewKeepsOwnRenderers(t *testing.T) {
	own := RendererFunc[*approval.Request, approval.Decision](func(context.Context, *Session[*approval.Request]) (Outcome[approval.Decision], error) {
		return Outcome[approval.Decision]{Answer: approval.Decision{Reason: "own"}}, nil
	})
	var seen *Session[*auq.Request]
	caps := Bind(Capabilities{}, contract.RouteCustom, AskUserQuestion, approvalAnswer("allow", "", &seen))
	caps = Bind(caps, contract.RouteCustom, Approval, own)
	caps = BindApproval(caps)
	got := Ask(context.Background(), NewAsker(NewHost(caps, nil), nil), Approval, approvalRequest(), nil)
	if got.Decision == nil || got.Decision.Reason != "own" || seen != nil {
		t.Fatalf("got %+v; the view replaced the contract's own renderer", got)
	}
	if Bound(BindApproval(Capabilities{}), contract.RouteCustom, Approval) != nil {
		t.Fatal("BindApproval bound a renderer where AskUserQuestion has none")
	}
}

func TestApprovalParse(t *testing.T) {
	for _, tt := range []struct {
		in string
		ok bool
	}{
		{`{"agent":"codex","tool":"Bash","action":"run","command":"ls"}`, true},
		{`{"agent":"codex","tool":"Bash","action":"run","command":"ls","extra":1}`, false},
		{`{"agent":"codex","agent":"x","tool":"Bash","action":"run","command":"ls"}`, false},
		{`{"agent":"codex","tool":"Bash","action":"run"}`, false},
		{`{"agent":"codex","tool":"Bash","action":"run","command":"ls"} {}`, false},
	} {
		_, _, err := Approval.Parse([]byte(tt.in))
		if (err == nil) != tt.ok {
			t.Errorf("Parse(%s) = %v, want ok %v", tt.in, err, tt.ok)
		}
	}
}
