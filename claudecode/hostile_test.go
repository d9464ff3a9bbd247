package claudecode_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/claudecode"
)

// The model's text reaches the approval as it is, control sequences and
// all: escaping it is each surface's work. What Claude Code gets back is
// JSON that holds the text escaped, never raw control characters.
func TestHostileText(t *testing.T) {
	const hostile = "\x1b]0;owned\x07\x1b[2J\u202e\u2028<script>\x00"
	input := mustJSON(t, map[string]string{"command": "echo " + hostile, "description": hostile})
	rule := mustJSON(t, map[string]any{"type": "addRules", "rules": []any{map[string]string{"toolName": "Bash", "ruleContent": hostile}}, "behavior": "allow", "destination": "localSettings"})
	p, err := claudecode.NewPrompt("Bash", input, []json.RawMessage{rule})
	if err != nil {
		t.Fatal(err)
	}
	r := p.Request
	if r.Command != "echo "+hostile || r.Detail != hostile || r.Always[0] != "always allow Bash("+hostile+") in this project" {
		t.Errorf("the text was changed: %+v", r)
	}
	shown, err := approval.Show(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(shown.Questions[0].Options[0].Preview, hostile) {
		t.Errorf("the preview does not hold the command as given: %q", shown.Questions[0].Options[0].Preview)
	}
	for _, o := range []approval.Outcome{
		{Status: approval.StatusDecided, Decision: &approval.Decision{Allow: true, Always: 1}},
		{Status: approval.StatusDecided, Decision: &approval.Decision{Reason: hostile}},
	} {
		for _, out := range [][]byte{p.HookOutput(o), p.ToolResult(o)} {
			if strings.ContainsAny(string(out), "\x1b\x07\x00\u2028") || !json.Valid(out) {
				t.Errorf("the answer holds raw control characters or is not JSON: %q", out)
			}
		}
	}
	var res struct {
		Message      string
		UpdatedInput map[string]string
	}
	if err := json.Unmarshal(p.ToolResult(approval.Outcome{Status: approval.StatusDecided, Decision: &approval.Decision{Allow: true}}), &res); err != nil || res.UpdatedInput["command"] != "echo "+hostile {
		t.Errorf("updatedInput %q (%v), want the input unchanged", res.UpdatedInput, err)
	}
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
