package claudecode_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/claudecode"
)

// hookInput is a PermissionRequest hook's input as Claude Code 2.1.332
// sends it, with the members of every hook event.
const hookInput = `{"session_id":"4b0c","transcript_path":"/home/u/.claude/projects/p/4b0c.jsonl","cwd":"/work/p","prompt_id":"p1","permission_mode":"default","effort":"medium","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"npm publish","description":"Publish"},"permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"npm publish:*"}],"behavior":"allow","destination":"localSettings"}],"tool_use_id":"toolu_01"}`

func TestDecodePermissionRequest(t *testing.T) {
	h, err := claudecode.DecodePermissionRequest([]byte(hookInput))
	if err != nil {
		t.Fatal(err)
	}
	if h.ToolName != "Bash" || h.SessionID != "4b0c" || h.Cwd != "/work/p" || h.ToolUseID != "toolu_01" || len(h.PermissionSuggestions) != 1 {
		t.Errorf("decoded %+v", h)
	}
	p, err := h.Prompt()
	if err != nil {
		t.Fatal(err)
	}
	if p.Request.Command != "npm publish" || len(p.Request.Always) != 1 {
		t.Errorf("request %+v", p.Request)
	}
}

func TestDecodeFails(t *testing.T) {
	tests := []struct {
		name string
		data string
		want string
	}{
		{"not JSON", `{"tool_name":`, "JSON"},
		{"another event", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}`, `"PreToolUse", not PermissionRequest`},
		{"no tool", `{"hook_event_name":"PermissionRequest","tool_input":{}}`, "names no tool"},
		{"no input", `{"hook_event_name":"PermissionRequest","tool_name":"Bash"}`, "no tool input object"},
		{"input a string", `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":"{}"}`, "no tool input object"},
		{"two tools", `{"hook_event_name":"PermissionRequest","tool_name":"Read","tool_name":"Bash","tool_input":{}}`, "tool_name"},
		{"two objects", `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{}} {}`, ""},
		{"an array", `[]`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := claudecode.DecodePermissionRequest([]byte(tt.data))
			if err == nil {
				t.Fatalf("decoded %+v, want an error", h)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q, want it to hold %q", err, tt.want)
			}
		})
	}
}

func TestDecodePromptToolInput(t *testing.T) {
	in, err := claudecode.DecodePromptToolInput([]byte(`{"tool_name":"Bash","input":{"command":"touch /tmp/ran"},"tool_use_id":"toolu_9"}`))
	if err != nil {
		t.Fatal(err)
	}
	p, err := in.Prompt()
	if err != nil {
		t.Fatal(err)
	}
	if in.ToolUseID != "toolu_9" || p.Request.Command != "touch /tmp/ran" || string(p.Input) != `{"command":"touch /tmp/ran"}` {
		t.Errorf("decoded %+v to %+v", in, p.Request)
	}
	if _, err := claudecode.DecodePromptToolInput([]byte(`{"tool_name":"Bash"}`)); err == nil {
		t.Error("an input without the tool's input decoded")
	}
}

// FuzzDecode checks both decoders and NewPrompt: they never panic, a
// prompt made is a valid approval, and its answers are JSON that allows
// only for an allowed outcome, with the tool's input unchanged.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(hookInput))
	f.Add([]byte(`{"tool_name":"Edit","input":{"file_path":"a","old_string":"x\ny","new_string":"z","replace_all":true}}`))
	f.Add([]byte(`{"tool_name":"MultiEdit","input":{"file_path":"a","edits":[{"old_string":"a","new_string":"b"}]}}`))
	f.Add([]byte(`{"tool_name":"WebFetch","input":{"url":"https://x.example/\u0000"}}`))
	f.Add([]byte(`{"tool_name":"mcp__s__t","input":{"a":[1,2,{"b":null}]}}`))
	f.Add([]byte(`{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"x"},"permission_suggestions":[{"type":"setMode","mode":"acceptEdits","destination":"session"},1,null]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var prompts []*claudecode.Prompt
		if h, err := claudecode.DecodePermissionRequest(data); err == nil {
			if p, err := h.Prompt(); err == nil {
				prompts = append(prompts, p)
			}
		}
		if in, err := claudecode.DecodePromptToolInput(data); err == nil {
			if p, err := in.Prompt(); err == nil {
				prompts = append(prompts, p)
			}
		}
		for _, p := range prompts {
			if err := approval.Validate(p.Request); err != nil {
				t.Fatalf("a prompt's request is invalid: %v", err)
			}
			for i := 0; i <= len(p.Request.Always); i++ {
				o := decided(approval.Decision{Allow: true, Always: i})
				var hook struct {
					HookSpecificOutput struct {
						Decision struct{ Behavior string } `json:"decision"`
					} `json:"hookSpecificOutput"`
				}
				if err := json.Unmarshal(p.HookOutput(o), &hook); err != nil || hook.HookSpecificOutput.Decision.Behavior != "allow" {
					t.Fatalf("hook output %s: %v", p.HookOutput(o), err)
				}
				var tool struct {
					Behavior     string          `json:"behavior"`
					UpdatedInput json.RawMessage `json:"updatedInput"`
				}
				if err := json.Unmarshal(p.ToolResult(o), &tool); err != nil || tool.Behavior != "allow" {
					t.Fatalf("tool result %s: %v", p.ToolResult(o), err)
				}
				var want bytes.Buffer
				_ = json.Compact(&want, p.Input)
				if !bytes.Equal(tool.UpdatedInput, want.Bytes()) {
					t.Fatalf("updatedInput %s, want %s", tool.UpdatedInput, want.Bytes())
				}
			}
			for _, o := range []approval.Outcome{decided(approval.Decision{}), {Status: approval.StatusTimeout}, {Status: approval.StatusError}} {
				var tool struct{ Behavior, Message string }
				if err := json.Unmarshal(p.ToolResult(o), &tool); err != nil || tool.Behavior != "deny" || tool.Message == "" {
					t.Fatalf("tool result %s: %v", p.ToolResult(o), err)
				}
			}
		}
	})
}
