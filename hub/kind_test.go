package hub_test

import (
	"strings"
	"testing"

	"github.com/askuser/askuser/hub"
)

// TestCheckKind admits a question, and an approval shown as an
// AskUserQuestion questionnaire, and refuses any other kind, as a relay
// refuses an unknown contract.
func TestCheckKind(t *testing.T) {
	tests := []struct {
		name     string
		contract string
		kind     string
		want     string // a part of the error; "" for none
	}{
		{"a question of ask_user", hub.ContractAskUser, "", ""},
		{"a question of AskUserQuestion", hub.ContractAskUserQuestion, "", ""},
		{"an approval", hub.ContractAskUserQuestion, hub.KindApproval, ""},
		{"an approval of ask_user", hub.ContractAskUser, hub.KindApproval, `an approval of contract "ask_user"`},
		{"an unknown kind", hub.ContractAskUserQuestion, "payment", `its kind "payment" is not one askuser knows`},
		{"a kind in another case", hub.ContractAskUserQuestion, "Approval", `its kind "Approval" is not one askuser knows`},
		{"an unknown contract", "tool_call", "", `its contract "tool_call" is not one askuser knows`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := askUserReq
			if tt.contract == hub.ContractAskUserQuestion {
				req = auqReq
			}
			q := &hub.Question{Request: []byte(req), Tag: hub.Tag{Agent: "codex", Contract: tt.contract, Kind: tt.kind, Questions: 1}}
			err := hub.CheckRequestForTest(q)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("checkRequest = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("checkRequest = %v, want an error saying %q", err, tt.want)
			}
			// The kind alone: an unknown contract is checkRequest's.
			if err := hub.CheckKind(q.Tag); (err == nil) != (tt.want == "" || tt.contract == "tool_call") {
				t.Errorf("CheckKind = %v", err)
			}
		})
	}
}
