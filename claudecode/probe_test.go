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
