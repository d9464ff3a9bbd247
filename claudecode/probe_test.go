package claudecode_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/askuser/askuser/claudecode"
)

// TestSuggestionsNeverTurnOffPrompts checks that a permission suggestion
// that would turn off Claude Code's prompts, or that is not an allow at
// all, is never offered as a standing choice, and that a suggestion
// whose members could be read two ways (a name that differs only in
// case, which encoding/json folds and Claude Code does not) is left out,
// so that the label the person reads is what Claude Code applies.
func TestSuggestionsNeverTurnOffPrompts(t *testing.T) {
	tests := []struct {
		name       string
		suggestion string
	}{
		{"bypass permissions", `{"type":"setMode","mode":"bypassPermissions","destination":"session"}`},
		{"bypass permissions in every project", `{"type":"setMode","mode":"bypassPermissions","destination":"userSettings"}`},
		{"auto mode", `{"type":"setMode","mode":"auto","destination":"session"}`},
		{"dontAsk mode, which denies", `{"type":"setMode","mode":"dontAsk","destination":"session"}`},
		{"plan mode, which allows nothing", `{"type":"setMode","mode":"plan","destination":"session"}`},
		{"default mode, which allows nothing", `{"type":"setMode","mode":"default","destination":"session"}`},
		{"a destination in two cases", `{"type":"addRules","rules":[{"toolName":"Read"}],"behavior":"allow","destination":"userSettings","Destination":"session"}`},
		{"a tool name in two cases", `{"type":"addRules","rules":[{"toolName":"Read","ToolName":"Bash"}],"behavior":"allow","destination":"session"}`},
		{"a mode in two cases", `{"type":"setMode","mode":"bypassPermissions","Mode":"acceptEdits","destination":"session"}`},
		{"a type in another case", `{"Type":"addRules","rules":[{"toolName":"Read"}],"behavior":"allow","destination":"session"}`},
		{"an unknown member", `{"type":"addRules","rules":[{"toolName":"Read"}],"behavior":"allow","destination":"session","scope":"global"}`},
		{"an unknown member of a rule", `{"type":"addRules","rules":[{"toolName":"Read","pattern":"**"}],"behavior":"allow","destination":"session"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := claudecode.NewPrompt("Bash", json.RawMessage(`{"command":"ls"}`), []json.RawMessage{json.RawMessage(tt.suggestion)})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Request.Always) != 0 {
				t.Errorf("offered %q for %s", p.Request.Always, tt.suggestion)
			}
		})
	}
	// acceptEdits is still offered, as it says.
	p, err := claudecode.NewPrompt("Edit", json.RawMessage(`{"file_path":"a","old_string":"x","new_string":"y"}`),
		[]json.RawMessage{json.RawMessage(`{"type":"setMode","mode":"acceptEdits","destination":"session"}`)})
	if err != nil || len(p.Request.Always) != 1 {
		t.Fatalf("acceptEdits: %v, %v", p, err)
	}
}

// TestShownChangeIsTheChangeMade checks that the diff an approval shows
// cannot differ from what Claude Code applies: an edit whose members
// differ only in case from the names Claude Code reads (encoding/json
// folds case, Claude Code does not) is shown as its raw input.
func TestShownChangeIsTheChangeMade(t *testing.T) {
	tests := []struct {
		name, tool, input, hidden string
	}{
		{"MultiEdit new_string in two cases", "MultiEdit",
			`{"file_path":"a.go","edits":[{"old_string":"x","new_string":"EVIL","New_String":"benign"}]}`, "EVIL"},
		{"MultiEdit old_string in another case", "MultiEdit",
			`{"file_path":"a.go","edits":[{"OLD_STRING":"x","new_string":"y"}]}`, "OLD_STRING"},
		{"MultiEdit unknown member", "MultiEdit",
			`{"file_path":"a.go","edits":[{"old_string":"x","new_string":"y","then":"rm -rf /"}]}`, "rm -rf /"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := claudecode.NewPrompt(tt.tool, json.RawMessage(tt.input), nil)
			if err != nil {
				t.Fatal(err)
			}
			shown := p.Request.Diff + "\n" + p.Request.Detail
			if !strings.Contains(shown, tt.hidden) {
				t.Errorf("the approval shows %q, hiding %q", shown, tt.hidden)
			}
		})
	}
}

// TestEventsReadOneWay checks that a hook event or a permission prompt
// that encoding/json and its writer could read two ways, such as one
// whose tool name is also given in another case, is refused rather
// than shown as another call than the one that would run.
func TestEventsReadOneWay(t *testing.T) {
	tests := []struct {
		name, data string
		decode     func([]byte) error
	}{
		{"a tool name in two cases", `{"hook_event_name":"PermissionRequest","tool_name":"Read","TOOL_NAME":"Bash","tool_input":{"command":"rm -rf /"}}`, permissionRequest},
		{"a tool input in another case", `{"hook_event_name":"PermissionRequest","tool_name":"Bash","Tool_Input":{"command":"ls"},"tool_input":{"command":"rm -rf /"}}`, permissionRequest},
		{"suggestions in another case", `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"},"Permission_Suggestions":[]}`, permissionRequest},
		{"an event name with a Kelvin sign", `{"hoo\u212a_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"}}`, permissionRequest},
		{"the prompt tool's input in two cases", `{"tool_name":"Bash","input":{"command":"ls"},"Input":{"command":"rm -rf /"}}`, promptToolInput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.decode([]byte(tt.data)); err == nil {
				t.Errorf("decoded %s", tt.data)
			}
		})
	}
}

func permissionRequest(data []byte) error {
	_, err := claudecode.DecodePermissionRequest(data)
	return err
}

func promptToolInput(data []byte) error {
	_, err := claudecode.DecodePromptToolInput(data)
	return err
}
