package codex_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/codex"
)

// hookInput is a PermissionRequest hook's input as Codex 0.171 sends it.
const hookInput = `{"session_id":"019a","turn_id":"1","cwd":"/work/p","model":"gpt-5","permission_mode":"default","transcript_path":null,` +
	`"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"rm -rf build \u001b]0;x\u0007","description":"Clean <b>up</b>"}}`

func TestDecodePermissionRequest(t *testing.T) {
	h, err := codex.DecodePermissionRequest([]byte(hookInput))
	if err != nil {
		t.Fatal(err)
	}
	r, err := h.Approval()
	if err != nil {
		t.Fatal(err)
	}
	want := &approval.Request{Agent: "codex", Tool: "Bash", Action: approval.ActionRun, Command: "rm -rf build \x1b]0;x\a", Detail: "Clean <b>up</b>"}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("Approval (-want +got):\n%s", diff)
	}
	for _, bad := range []string{
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}`,
		`{"hook_event_name":"PermissionRequest","tool_input":{}}`,
		`{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":"rm"}`,
		`{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_name":"Read","tool_input":{}}`,
		`{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{}} {}`,
		`{"hook_event_name":`,
	} {
		if h, err := codex.DecodePermissionRequest([]byte(bad)); err == nil {
			t.Errorf("DecodePermissionRequest(%s) = %+v, want an error", bad, h)
		}
	}
}

func TestHookOutput(t *testing.T) {
	r := &approval.Request{Agent: "codex", Tool: "Bash", Action: approval.ActionRun, Command: "make"}
	decided := func(d approval.Decision) approval.Outcome {
		return approval.Outcome{Status: approval.StatusDecided, Decision: &d}
	}
	tests := []struct {
		name string
		o    approval.Outcome
		want string // "" for no decision
	}{
		{"allow", decided(approval.Decision{Allow: true}), `{"hookSpecificOutput":{"decision":{"behavior":"allow"},"hookEventName":"PermissionRequest"}}`},
		{"deny", decided(approval.Decision{Reason: "not <now>"}), `{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"The person denied this call: not <now>"},"hookEventName":"PermissionRequest"}}`},
		{"a standing choice Codex does not offer", decided(approval.Decision{Allow: true, Always: 1}), ""},
		{"timeout", approval.Outcome{Status: approval.StatusTimeout}, ""},
		{"dismissed", approval.Outcome{Status: approval.StatusDismissed}, ""},
		{"aborted", approval.Outcome{Status: approval.StatusAborted}, ""},
		{"error", approval.Outcome{Status: approval.StatusError, Error: &approval.Error{Code: "x", Message: "y"}}, ""},
		{"decided without a decision", approval.Outcome{Status: approval.StatusDecided}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(codex.HookOutput(r, tt.o)); got != tt.want {
				t.Errorf("HookOutput = %s, want %s", got, tt.want)
			}
			if strings.Contains(string(codex.HookOutput(r, tt.o)), `"allow"`) && !tt.o.Allowed() {
				t.Error("an allow for an outcome that is not one")
			}
		})
	}
}

// FuzzDecodePermissionRequest: the decoder never panics, and what it
// decodes is asked as a valid approval or refused.
func FuzzDecodePermissionRequest(f *testing.F) {
	f.Add([]byte(hookInput))
	f.Add([]byte(`{"hook_event_name":"PermissionRequest","tool_name":"mcp__x__y","tool_input":{"a":[1,{"b":null}]}}`))
	f.Add([]byte(`{"hook_event_name":"PermissionRequest","tool_name":"NetworkAccess","tool_input":{"host":"example.com"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := codex.DecodePermissionRequest(data)
		if err != nil {
			return
		}
		r, err := h.Approval()
		if err != nil {
			return
		}
		if err := approval.Validate(r); err != nil || r.Agent != codex.Agent || len(r.Always) != 0 {
			t.Errorf("Approval = %+v, %v", r, err)
		}
	})
}

// TestEventReadOneWay checks that an event whose members encoding/json
// and Codex could read two ways is refused.
func TestEventReadOneWay(t *testing.T) {
	for _, data := range []string{
		`{"hook_event_name":"PermissionRequest","tool_name":"Read","Tool_Name":"Bash","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"TOOL_INPUT":{"command":"ls"}}`,
	} {
		if _, err := codex.DecodePermissionRequest([]byte(data)); err == nil {
			t.Errorf("decoded %s", data)
		}
	}
}
