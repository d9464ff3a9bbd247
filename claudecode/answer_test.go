package claudecode_test

import (
	"encoding/json"
	"testing"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/claudecode"
)

func decided(d approval.Decision) approval.Outcome {
	return approval.Outcome{Status: approval.StatusDecided, Decision: &d}
}

func TestAnswers(t *testing.T) {
	const (
		input   = `{"command":"rm -r build", "description":"Clean"}`
		publish = `{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"rm -r build"}],"behavior":"allow","destination":"localSettings"}`
	)
	tests := []struct {
		name    string
		outcome approval.Outcome
		hook    string // "" for no decision
		tool    string
	}{
		{
			name:    "allow once",
			outcome: decided(approval.Decision{Allow: true}),
			hook:    `{"hookSpecificOutput":{"decision":{"behavior":"allow"},"hookEventName":"PermissionRequest"}}`,
			tool:    `{"behavior":"allow","updatedInput":{"command":"rm -r build","description":"Clean"}}`,
		},
		{
			name:    "allow always",
			outcome: decided(approval.Decision{Allow: true, Always: 1}),
			hook:    `{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedPermissions":[` + publish + `]},"hookEventName":"PermissionRequest"}}`,
			tool:    `{"behavior":"allow","updatedInput":{"command":"rm -r build","description":"Clean"},"updatedPermissions":[` + publish + `]}`,
		},
		{
			name:    "deny",
			outcome: decided(approval.Decision{}),
			hook:    `{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"The person denied this call."},"hookEventName":"PermissionRequest"}}`,
			tool:    `{"behavior":"deny","message":"The person denied this call."}`,
		},
		{
			name:    "deny with a reason",
			outcome: decided(approval.Decision{Reason: "use make clean <instead> & \"then\" go"}),
			hook:    `{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"The person denied this call: use make clean <instead> & \"then\" go"},"hookEventName":"PermissionRequest"}}`,
			tool:    `{"behavior":"deny","message":"The person denied this call: use make clean <instead> & \"then\" go"}`,
		},
		{
			name:    "timeout",
			outcome: approval.Outcome{Status: approval.StatusTimeout},
			tool:    `{"behavior":"deny","message":"Nobody answered the approval in time, so the call is denied."}`,
		},
		{
			name:    "dismissed",
			outcome: approval.Outcome{Status: approval.StatusDismissed},
			tool:    `{"behavior":"deny","message":"The person dismissed the approval without deciding, so the call is denied."}`,
		},
		{
			name:    "aborted",
			outcome: approval.Outcome{Status: approval.StatusAborted},
			tool:    `{"behavior":"deny","message":"The approval was cancelled before anyone decided, so the call is denied."}`,
		},
		{
			name:    "no route",
			outcome: approval.Outcome{Status: approval.StatusError, Error: &approval.Error{Code: "unsupported", Message: "no renderer"}},
			tool:    `{"behavior":"deny","message":"The approval could not be asked (unsupported: no renderer), so the call is denied."}`,
		},
		{
			name:    "an error with nothing said",
			outcome: approval.Outcome{Status: approval.StatusError},
			tool:    `{"behavior":"deny","message":"The approval could not be asked (unknown error), so the call is denied."}`,
		},
		{
			name:    "decided without a decision",
			outcome: approval.Outcome{Status: approval.StatusDecided},
			tool:    `{"behavior":"deny","message":"The approval ended without a decision, so the call is denied."}`,
		},
		{
			name:    "an allow with a decision of another status",
			outcome: approval.Outcome{Status: approval.StatusTimeout, Decision: &approval.Decision{Allow: true}},
			tool:    `{"behavior":"deny","message":"Nobody answered the approval in time, so the call is denied."}`,
		},
		{
			name:    "an unknown status",
			outcome: approval.Outcome{Status: "allowed", Decision: &approval.Decision{Allow: true}},
			tool:    `{"behavior":"deny","message":"The approval ended without a decision, so the call is denied."}`,
		},
		{
			name:    "a standing choice not offered",
			outcome: decided(approval.Decision{Allow: true, Always: 2}),
			tool:    `{"behavior":"deny","message":"The approval's decision does not fit the request, so the call is denied."}`,
		},
		{
			name:    "a standing choice with a denial",
			outcome: decided(approval.Decision{Always: 1}),
			tool:    `{"behavior":"deny","message":"The person denied this call."}`,
		},
		{
			name:    "an allow with a reason",
			outcome: decided(approval.Decision{Allow: true, Reason: "x"}),
			tool:    `{"behavior":"deny","message":"The approval's decision does not fit the request, so the call is denied."}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := claudecode.NewPrompt("Bash", json.RawMessage(input), []json.RawMessage{json.RawMessage(publish)})
			if err != nil {
				t.Fatal(err)
			}
			if got := string(p.HookOutput(tt.outcome)); got != tt.hook {
				t.Errorf("hook output\n got %s\nwant %s", got, tt.hook)
			}
			got := p.ToolResult(tt.outcome)
			if string(got) != tt.tool {
				t.Errorf("tool result\n got %s\nwant %s", got, tt.tool)
			}
			if !json.Valid(got) {
				t.Errorf("tool result %s is not JSON", got)
			}
		})
	}
}

func TestWhyCutsLongErrors(t *testing.T) {
	long := make([]rune, 5000)
	for i := range long {
		long[i] = 'é'
	}
	why := claudecode.Why(approval.Outcome{Status: approval.StatusError, Error: &approval.Error{Message: string(long)}})
	if n := len([]rune(why)); n > 600 {
		t.Errorf("Why has %d characters; want the error cut", n)
	}
}

func TestDenyResult(t *testing.T) {
	got := string(claudecode.DenyResult("the input </script> is\nbad"))
	want := `{"behavior":"deny","message":"the input </script> is\nbad"}`
	if got != want {
		t.Errorf("DenyResult\n got %s\nwant %s", got, want)
	}
}
