package claudecode_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/claudecode"
)

func TestNewPrompt(t *testing.T) {
	tests := []struct {
		name  string
		tool  string
		input string
		want  approval.Request
	}{
		{
			name:  "a command",
			tool:  "Bash",
			input: `{"command":"npm publish --tag next","description":"Publish the package"}`,
			want: approval.Request{Tool: "Bash", Action: approval.ActionRun,
				Command: "npm publish --tag next", Detail: "Publish the package"},
		},
		{
			name:  "a command with more input",
			tool:  "Bash",
			input: `{"command":"make","timeout": 120000, "dangerouslyDisableSandbox":true}`,
			want: approval.Request{Tool: "Bash", Action: approval.ActionRun,
				Command: "make", Detail: `Also: {"timeout":120000,"dangerouslyDisableSandbox":true}`},
		},
		{
			name:  "an edit",
			tool:  "Edit",
			input: `{"file_path":"/src/a.go","old_string":"x := 1\ny := 2\n","new_string":"x := 3"}`,
			want: approval.Request{Tool: "Edit", Action: approval.ActionEdit, Path: "/src/a.go",
				Diff: "--- /src/a.go\n+++ /src/a.go\n@@\n-x := 1\n-y := 2\n+x := 3\n"},
		},
		{
			name:  "an edit of every occurrence",
			tool:  "Edit",
			input: `{"file_path":"a.go","old_string":"foo","new_string":"bar","replace_all":true}`,
			want: approval.Request{Tool: "Edit", Action: approval.ActionEdit, Path: "a.go",
				Diff: "--- a.go\n+++ a.go\n@@ every occurrence @@\n-foo\n+bar\n"},
		},
		{
			name:  "several edits",
			tool:  "MultiEdit",
			input: `{"file_path":"a.go","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"","replace_all":true}]}`,
			want: approval.Request{Tool: "MultiEdit", Action: approval.ActionEdit, Path: "a.go",
				Diff: "--- a.go\n+++ a.go\n@@ edit 1 of 2 @@\n-a\n+b\n@@ edit 2 of 2, every occurrence @@\n-c\n"},
		},
		{
			name:  "a file written whole",
			tool:  "Write",
			input: `{"file_path":"/tmp/x.sh","content":"#!/bin/sh\necho hi\n"}`,
			want: approval.Request{Tool: "Write", Action: approval.ActionWrite, Path: "/tmp/x.sh",
				Diff: "+++ /tmp/x.sh (2 lines, written whole)\n+#!/bin/sh\n+echo hi\n"},
		},
		{
			name:  "an empty file",
			tool:  "Write",
			input: `{"file_path":"empty","content":""}`,
			want: approval.Request{Tool: "Write", Action: approval.ActionWrite, Path: "empty",
				Diff: "+++ empty (0 lines, written whole)\n"},
		},
		{
			name:  "a notebook cell",
			tool:  "NotebookEdit",
			input: `{"notebook_path":"n.ipynb","cell_id":"c1","new_source":"print(1)","cell_type":"code","edit_mode":"replace"}`,
			want: approval.Request{Tool: "NotebookEdit", Action: approval.ActionEdit, Path: "n.ipynb",
				Diff: "--- n.ipynb\n+++ n.ipynb\n@@ cell c1, replace, code @@\n+print(1)\n"},
		},
		{
			name:  "a fetch",
			tool:  "WebFetch",
			input: `{"url":"https://docs.example.com:8443/a?b=c","prompt":"Summarize"}`,
			want: approval.Request{Tool: "WebFetch", Action: approval.ActionFetch, Domain: "docs.example.com",
				Detail: "https://docs.example.com:8443/a?b=c\n\nAlso: {\"prompt\":\"Summarize\"}"},
		},
		{
			name:  "a fetch of no URL one can parse",
			tool:  "WebFetch",
			input: `{"url":"http://[::1"}`,
			want:  approval.Request{Tool: "WebFetch", Action: approval.ActionFetch, Detail: "http://[::1"},
		},
		{
			name:  "a search",
			tool:  "WebSearch",
			input: `{"query":"go 1.26 release notes"}`,
			want:  approval.Request{Tool: "WebSearch", Action: approval.ActionFetch, Detail: "Search the web for: go 1.26 release notes"},
		},
		{
			name:  "an MCP tool",
			tool:  "mcp__github__create_issue",
			input: "{\n  \"title\": \"Bug \\u003cb\\u003e\",\n  \"labels\": [\"a\", \"b\"]\n}",
			want: approval.Request{Tool: "mcp__github__create_issue", Action: approval.ActionUse,
				Detail: `{"title":"Bug \u003cb\u003e","labels":["a","b"]}`},
		},
		{
			name:  "an unknown tool with no input",
			tool:  "Skill",
			input: `{}`,
			want:  approval.Request{Tool: "Skill", Action: approval.ActionUse, Detail: `{}`},
		},
		{
			name:  "a known tool with input of other types",
			tool:  "Bash",
			input: `{"command":["rm","-rf","/"]}`,
			want:  approval.Request{Tool: "Bash", Action: approval.ActionUse, Detail: `{"command":["rm","-rf","/"]}`},
		},
		{
			name:  "escapes stay as given",
			tool:  "Bash",
			input: `{"command":"printf '\u001b[2J\\x1b]0;pwned\\a'","description":"\u202eevil"}`,
			want: approval.Request{Tool: "Bash", Action: approval.ActionRun,
				Command: "printf '\x1b[2J\\x1b]0;pwned\\a'", Detail: "\u202eevil"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := claudecode.NewPrompt(tt.tool, json.RawMessage(tt.input), nil)
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Agent = claudecode.Agent
			if diff := cmp.Diff(&tt.want, p.Request); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
			if string(p.Input) != tt.input {
				t.Errorf("input = %s, want it as given", p.Input)
			}
		})
	}
}

func TestNewPromptFails(t *testing.T) {
	tests := []struct {
		name  string
		tool  string
		input string
		want  string
	}{
		{"no tool", "", `{"command":"ls"}`, "tool: is required"},
		{"no command", "Bash", `{"description":"x"}`, "command: is required"},
		{"a blank command", "Bash", `{"command":"  "}`, "command: is required"},
		{"an edit of no file", "Edit", `{"old_string":"a","new_string":"b"}`, "path: is required"},
		{"input not an object", "Bash", `["ls"]`, "is not a JSON object"},
		{"input null", "Bash", `null`, "is not a JSON object"},
		{"no input", "Bash", ``, "tool input"},
		{"a duplicate key", "Bash", `{"command":"ls","command":"rm -rf ~"}`, "command"},
		{"an unpaired surrogate", "Bash", `{"command":"ls \ud800"}`, "surrogate"},
		{"invalid UTF-8", "Bash", "{\"command\":\"ls \xff\"}", "UTF-8"},
		{"a command over the limit", "Bash", `{"command":"` + strings.Repeat("x", approval.MaxCommandLen+1) + `"}`, "command: has 65537 characters"},
		{"input of an MCP tool over the limit", "mcp__a__b", `{"a":"` + strings.Repeat("x", approval.MaxDetailLen) + `"}`, "detail: has"},
		{"a tool name over the limit", strings.Repeat("t", approval.MaxToolLen+1), `{}`, "tool: has"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := claudecode.NewPrompt(tt.tool, json.RawMessage(tt.input), nil)
			if err == nil {
				t.Fatalf("NewPrompt = %+v, want an error", p.Request)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q, want it to hold %q", err, tt.want)
			}
		})
	}
}

func TestSuggestions(t *testing.T) {
	publish := `{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"npm publish:*"}],"behavior":"allow","destination":"localSettings"}`
	tests := []struct {
		name        string
		suggestions []string
		want        []string
		offered     []string // the suggestion each standing choice hands back
	}{
		{"none", nil, nil, nil},
		{
			name:        "a rule for this project",
			suggestions: []string{publish},
			want:        []string{"always allow Bash(npm publish:*) in this project"},
			offered:     []string{publish},
		},
		{
			name: "rules, a mode and directories",
			suggestions: []string{
				`{"type":"addRules","rules":[{"toolName":"Read"},{"toolName":"Bash","ruleContent":"ls:*"}],"behavior":"allow","destination":"session"}`,
				`{"type":"setMode","mode":"acceptEdits","destination":"session"}`,
			},
			want: []string{"allow Read, Bash(ls:*) for the rest of this session", "accept every edit without asking for the rest of this session"},
		},
		{
			name:        "directories for every project",
			suggestions: []string{`{"type":"addDirectories","directories":["/data","/srv"],"destination":"userSettings"}`},
			want:        []string{"always allow access to /data, /srv in every project"},
		},
		{
			name: "what does not allow more is left out",
			suggestions: []string{
				`{"type":"addRules","rules":[{"toolName":"Bash"}],"behavior":"deny","destination":"session"}`,
				`{"type":"removeRules","rules":[{"toolName":"Bash"}],"behavior":"allow","destination":"session"}`,
				`{"type":"removeDirectories","directories":["/"],"destination":"session"}`,
				`{"type":"setMode","mode":"warp","destination":"session"}`,
				`{"type":"addRules","rules":[{"toolName":"Bash"}],"behavior":"allow","destination":"elsewhere"}`,
				`{"type":"addRules","rules":[],"behavior":"allow","destination":"session"}`,
				`{"type":"addRules","rules":[{"ruleContent":"x"}],"behavior":"allow","destination":"session"}`,
				`{"type":"addRules","rules":"Bash","behavior":"allow","destination":"session"}`,
				`{"type":"addRules","rules":[{"toolName":"Bash"}],"behavior":"allow","destination":"session","destination":"userSettings"}`,
				`{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"` + strings.Repeat("x", approval.MaxAlwaysLen) + `"}],"behavior":"allow","destination":"session"}`,
				`"allow"`,
				publish,
			},
			want:    []string{"always allow Bash(npm publish:*) in this project"},
			offered: []string{publish},
		},
		{
			name:        "at most MaxAlways",
			suggestions: []string{publish, publish, `{"type":"setMode","mode":"acceptEdits","destination":"session"}`},
			want:        []string{"always allow Bash(npm publish:*) in this project", "always allow Bash(npm publish:*) in this project"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var raw []json.RawMessage
			for _, s := range tt.suggestions {
				raw = append(raw, json.RawMessage(s))
			}
			p, err := claudecode.NewPrompt("Bash", json.RawMessage(`{"command":"npm publish"}`), raw)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, p.Request.Always); diff != "" {
				t.Errorf("always (-want +got):\n%s", diff)
			}
			for i, want := range tt.offered {
				out := p.HookOutput(approval.Outcome{Status: approval.StatusDecided, Decision: &approval.Decision{Allow: true, Always: i + 1}})
				wantOut := `{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedPermissions":[` + want + `]},"hookEventName":"PermissionRequest"}}`
				if string(out) != wantOut {
					t.Errorf("always %d: hook output\n got %s\nwant %s", i+1, out, wantOut)
				}
			}
		})
	}
}

func TestLongDiffIsCut(t *testing.T) {
	line := strings.Repeat("x", 999)
	content := strings.Repeat(line+"\\n", approval.MaxDiffLen/1000+10)
	tests := []struct {
		name, tool, input, tail string
	}{
		{"many lines", "Write", `{"file_path":"a","content":"` + content + `"}`, "… 11 more lines not shown\n"},
		{"one long line", "Edit", `{"file_path":"a","old_string":"` + strings.Repeat("y", approval.MaxDiffLen) + `","new_string":"z"}`, "… 2 more lines not shown\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := claudecode.NewPrompt(tt.tool, json.RawMessage(tt.input), nil)
			if err != nil {
				t.Fatal(err)
			}
			d := p.Request.Diff
			if n := len([]rune(d)); n > approval.MaxDiffLen || !strings.HasSuffix(d, tt.tail) {
				t.Errorf("the diff has %d characters and ends %q; want at most %d ending %q", n, d[max(len(d)-60, 0):], approval.MaxDiffLen, tt.tail)
			}
		})
	}
}
