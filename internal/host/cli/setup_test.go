package cli_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/creack/pty"
	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/internal/host/cli"
	"github.com/askuser/askuser/opencode"
)

// runSetup runs askuser setup with args on HOME home, without a terminal.
func runSetup(t *testing.T, home string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}}
	code = cli.Run(context.Background(), append([]string{"setup"}, args...), env)
	return code, out.String(), errb.String()
}

// readOr returns the file's bytes, or "<none>" when it does not exist.
func readOr(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "<none>"
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const (
	claudeNew = `{
  "mcpServers": {
    "askuser": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@askuser/askuser", "mcp", "--approve-tool"]
    }
  }
}
`
	// claudeHookGroups are the two members of hooks in Claude Code's
	// settings, at the indentation of a new file.
	claudeHookGroups = `"PreToolUse": [
      {
        "matcher": "AskUserQuestion",
        "hooks": [
          {
            "type": "command",
            "command": "npx -y @askuser/askuser hook claude-code",
            "timeout": 86400
          }
        ]
      }
    ],
    "PermissionRequest": [
      {
        "matcher": "*",
        "hooks": [
          {
            "type": "command",
            "command": "npx -y @askuser/askuser hook claude-code",
            "timeout": 600
          }
        ]
      }
    ]`
	claudeSettingsNew = "{\n  \"hooks\": {\n    " + claudeHookGroups + "\n  }\n}\n"
	codexTable        = `[mcp_servers.askuser]
command = "npx"
args = ["-y", "@askuser/askuser", "mcp"]
env_vars = ["TMUX", "TMUX_PANE"]
`
	codexHook = `[[hooks.PermissionRequest]]
[[hooks.PermissionRequest.hooks]]
type = "command"
command = "npx -y @askuser/askuser hook codex"
timeout = 600
`
	codexNew      = codexTable + "\n" + codexHook
	opencodeEntry = `"askuser": {
      "type": "local",
      "command": ["npx", "-y", "@askuser/askuser", "mcp"]
    }`
)

// A setupFile is one file of a setup test: its path under HOME, its text
// before setup ("<none>": no file) and after.
type setupFile struct{ file, before, after string }

// pluginOf is askuser's plugin of OpenCode (or Kilo, client) in dir, as
// askuser setup --npx writes it, from before.
func pluginOf(dir, client, before string) setupFile {
	text, err := opencode.Plugin([]string{"npx", "-y", "@askuser/askuser", "hook", client})
	if err != nil {
		panic(err)
	}
	return setupFile{".config/" + dir + "/plugin/askuser.js", before, string(text)}
}

// olderPlugin stands for an older version of askuser's OpenCode plugin.
const olderPlugin = "// askuser's OpenCode plugin: an older version\nexport const AskUser = async () => ({});\n"

// claudeSettings is Claude Code's settings.json, from nothing.
var claudeSettings = setupFile{".claude/settings.json", "<none>", claudeSettingsNew}

func TestSetupClients(t *testing.T) {
	tests := []struct {
		name, client, file string
		before             string // "<none>": no file
		after              string
		more               []setupFile // the client's other files
	}{
		{"claude from nothing", "claude-code", ".claude.json", "<none>", claudeNew, []setupFile{claudeSettings}},
		{"claude by its command's name", "claude", ".claude.json", "<none>", claudeNew, []setupFile{claudeSettings}},
		{"claude beside other members", "claude", ".claude.json",
			"{\n  \"numStartups\": 3,\n  \"projects\": {\"/x\": {\"mcpServers\": {}}}\n}\n",
			"{\n  \"numStartups\": 3,\n  \"projects\": {\"/x\": {\"mcpServers\": {}}},\n  \"mcpServers\": {\n    \"askuser\": {\n      \"type\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@askuser/askuser\", \"mcp\", \"--approve-tool\"]\n    }\n  }\n}\n",
			[]setupFile{claudeSettings}},
		{"claude beside another server, tabs", "claude-code", ".claude.json",
			"{\n\t\"mcpServers\": {\n\t\t\"other\": {\"command\": \"x\"}\n\t},\n\t\"z\": 1\n}",
			"{\n\t\"mcpServers\": {\n\t\t\"other\": {\"command\": \"x\"},\n\t\t\"askuser\": {\n\t\t\t\"type\": \"stdio\",\n\t\t\t\"command\": \"npx\",\n\t\t\t\"args\": [\"-y\", \"@askuser/askuser\", \"mcp\", \"--approve-tool\"]\n\t\t}\n\t},\n\t\"z\": 1\n}",
			[]setupFile{claudeSettings}},
		{"claude empty file", "claude-code", ".claude.json", "", claudeNew, []setupFile{claudeSettings}},
		{"claude empty object", "claude-code", ".claude.json", "{}\n", claudeNew, []setupFile{claudeSettings}},
		{"claude settings with hooks of their own", "claude-code", ".claude.json", "<none>", claudeNew, []setupFile{{".claude/settings.json",
			"{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"log\"}]}\n    ],\n    \"PermissionRequest\": []\n  }\n}\n",
			"{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"log\"}]},\n" +
				"      {\n        \"matcher\": \"AskUserQuestion\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"npx -y @askuser/askuser hook claude-code\",\n            \"timeout\": 86400\n          }\n        ]\n      }\n    ],\n" +
				"    \"PermissionRequest\": [\n      {\n        \"matcher\": \"*\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"npx -y @askuser/askuser hook claude-code\",\n            \"timeout\": 600\n          }\n        ]\n      }\n    ]\n  }\n}\n"}}},
		{"codex from nothing", "codex", ".codex/config.toml", "<none>", codexNew, nil},
		{"codex after other tables", "codex", ".codex/config.toml",
			"model = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"",
			"model = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"\n\n" + codexNew, nil},
		{"codex beside hooks of its own, server there", "codex", ".codex/config.toml",
			codexTable + "\n[[hooks.PermissionRequest]]\nmatcher = \"^Bash$\"\n[[hooks.PermissionRequest.hooks]]\ntype = \"command\"\ncommand = \"log\"\n",
			codexTable + "\n[[hooks.PermissionRequest]]\nmatcher = \"^Bash$\"\n[[hooks.PermissionRequest.hooks]]\ntype = \"command\"\ncommand = \"log\"\n\n" + codexHook, nil},
		{"gemini from nothing", "gemini", ".gemini/settings.json", "<none>",
			"{\n  \"mcpServers\": {\n    \"askuser\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@askuser/askuser\", \"mcp\"],\n      \"trust\": true\n    }\n  }\n}\n", nil},
		{"gemini with comments", "gemini", ".gemini/settings.json",
			"// mine\n{\"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}}} // end\n",
			"// mine\n{\"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}},\n  \"mcpServers\": {\n    \"askuser\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@askuser/askuser\", \"mcp\"],\n      \"trust\": true\n    }\n  }} // end\n", nil},
		{"opencode from nothing", "opencode", ".config/opencode/opencode.json", "<none>",
			"{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"mcp\": {\n    " + opencodeEntry + "\n  }\n}\n",
			[]setupFile{pluginOf("opencode", "opencode", "<none>")}},
		{"opencode with an empty mcp and a trailing comma", "opencode", ".config/opencode/opencode.json",
			"{\n  \"autoupdate\": false, /* no */\n  \"mcp\": {},\n}\n",
			"{\n  \"autoupdate\": false, /* no */\n  \"mcp\": {\n    " + opencodeEntry + "\n  },\n}\n", nil},
		{"opencode jsonc", "opencode", ".config/opencode/opencode.jsonc",
			"{\n  // servers\n  \"mcp\": {\n    \"x\": {\"type\": \"remote\", \"url\": \"http://h\"}, // x\n  }\n}\n",
			"{\n  // servers\n  \"mcp\": {\n    \"x\": {\"type\": \"remote\", \"url\": \"http://h\"}, // x\n    " + opencodeEntry + "\n  }\n}\n",
			[]setupFile{pluginOf("opencode", "opencode", olderPlugin)}},
		{"opencode comment after the last member", "opencode", ".config/opencode/opencode.json",
			"{\n  \"autoupdate\": false // no\n}\n",
			"{\n  \"autoupdate\": false, // no\n  \"mcp\": {\n    " + opencodeEntry + "\n  }\n}\n", nil},
		{"kilo from nothing", "kilo", ".config/kilo/kilo.json", "<none>",
			"{\n  \"mcp\": {\n    " + opencodeEntry + "\n  }\n}\n",
			[]setupFile{pluginOf("kilo", "kilo", "<none>")}},
		{"continue from nothing", "continue", ".continue/config.yaml", "<none>",
			"mcpServers:\n  - name: askuser\n    command: \"npx\"\n    args: [\"-y\", \"@askuser/askuser\", \"mcp\"]\n", nil},
		{"continue into a list", "continue", ".continue/config.yaml",
			"name: Local\nmcpServers:\n    - name: other\n      command: x\nmodels: []\n",
			"name: Local\nmcpServers:\n    - name: askuser\n      command: \"npx\"\n      args: [\"-y\", \"@askuser/askuser\", \"mcp\"]\n    - name: other\n      command: x\nmodels: []\n", nil},
		{"continue without the key", "continue", ".continue/config.yaml",
			"name: Local\nversion: 1.0.0",
			"name: Local\nversion: 1.0.0\nmcpServers:\n  - name: askuser\n    command: \"npx\"\n    args: [\"-y\", \"@askuser/askuser\", \"mcp\"]\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			files := append([]setupFile{{tt.file, tt.before, tt.after}}, tt.more...)
			for _, f := range files {
				writeBefore(t, home, f)
			}
			orig := snapshot(t, home)
			code, out, errs := runSetup(t, home, "--npx", "--dry-run", tt.client)
			for _, f := range files {
				if code != 0 || !strings.Contains(out, "+++ "+filepath.Join(home, f.file)) || !strings.Contains(out, "dry run") {
					t.Fatalf("--dry-run: status %d, stdout %q, stderr %q", code, out, errs)
				}
			}
			if diff := cmp.Diff(orig, snapshot(t, home)); diff != "" {
				t.Fatalf("--dry-run wrote (-before +after):\n%s", diff)
			}
			code, _, errs = runSetup(t, home, "--npx", tt.client)
			if code != cli.ExitUsage || !strings.Contains(errs, "no terminal") || !cmp.Equal(orig, snapshot(t, home)) {
				t.Fatalf("without a terminal or --yes: status %d, stderr %q; the files must stay", code, errs)
			}
			if code, out, errs = runSetup(t, home, "--npx", "--yes", tt.client); code != 0 {
				t.Fatalf("--yes: status %d, stdout %q, stderr %q", code, out, errs)
			}
			for _, f := range files {
				path := filepath.Join(home, f.file)
				if diff := cmp.Diff(f.after, readOr(t, path)); diff != "" {
					t.Fatalf("%s after setup (-want +got):\n%s", f.file, diff)
				}
				if st, err := os.Stat(path); err == nil && f.before != "<none>" && st.Mode().Perm() != 0o600 {
					t.Errorf("%s: mode %v, want the file's own 0600", f.file, st.Mode().Perm())
				}
			}
			set := snapshot(t, home)
			code, out, _ = runSetup(t, home, "--npx", "--yes", tt.client)
			if code != 0 || !strings.Contains(out, "already set up") || !cmp.Equal(set, snapshot(t, home)) {
				t.Fatalf("second run: status %d, stdout %q, files changed: %s", code, out, cmp.Diff(set, snapshot(t, home)))
			}
			if code, out, errs = runSetup(t, home, "--yes", "--undo", tt.client); code != 0 {
				t.Fatalf("--undo: status %d, stdout %q, stderr %q", code, out, errs)
			}
			if diff := cmp.Diff(orig, snapshot(t, home)); diff != "" {
				t.Fatalf("--undo left (-before +after):\n%s", diff)
			}
			code, out, _ = runSetup(t, home, "--yes", "--undo", tt.client)
			if code != 0 || !strings.Contains(out, "Nothing to undo") {
				t.Errorf("second --undo: status %d, stdout %q", code, out)
			}
		})
	}
}

// writeBefore writes f's text before setup under home, mode 0600.
func writeBefore(t *testing.T, home string, f setupFile) {
	t.Helper()
	if f.before == "<none>" {
		return
	}
	path := filepath.Join(home, f.file)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(f.before), 0o600); err != nil {
		t.Fatal(err)
	}
}

// snapshot is everything under dir: each file's bytes and mode, each
// directory as "dir", by path.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		if d.IsDir() {
			m[p] = "dir"
			return nil
		}
		b, err := os.ReadFile(p)
		info, _ := d.Info()
		m[p] = fmt.Sprintf("%v %q", info.Mode(), b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSetupRefuses(t *testing.T) {
	tests := []struct {
		name, client, file, before string
		wantErr                    string // in stderr, after the file's path
	}{
		{"claude invalid JSON", "claude", ".claude.json", "{\n  \"x\": [1,\n  2]\n  \"y\": 1}", ":4:3: not valid JSON"},
		{"claude allows no comments", "claude", ".claude.json", "{\n  // no\n}", ":2:3: not valid JSON"},
		{"claude not an object", "claude", ".claude.json", "[]", ":1:1: not valid JSON"},
		{"claude mcpServers not an object", "claude", ".claude.json", "{\"mcpServers\": []}", `:1:16: not valid JSON: "mcpServers" is not an object`},
		{"claude allows no trailing comma", "claude", ".claude.json", "{\"a\": 1,}", ":1:9: not valid JSON"},
		{"gemini unclosed", "gemini", ".gemini/settings.json", "{\"a\": \"b", ":1:9: not valid JSON with comments: unexpected end of input inside a string"},
		{"gemini comment not closed", "gemini", ".gemini/settings.json", "{ /*/ }", ":1:3: not valid JSON with comments: comment not closed"},
		{"gemini comma without a member", "gemini", ".gemini/settings.json", "{,}", ":1:2: not valid JSON with comments"},
		{"gemini askuser differs", "gemini", ".gemini/settings.json", `{"mcpServers": {"askuser": {"command": "askuser", "args": ["mcp"]}}}`, ": mcpServers.askuser is already there and differs"},
		{"claude askuser of another command", "claude", ".claude.json", `{"mcpServers": {"askuser": {"command": "node", "args": ["server.js", "mcp"]}}}`, ": mcpServers.askuser is already there and differs from {\"type\": \"stdio\",\"command\": \"npx\",\"args\": [\"-y\", \"@askuser/askuser\", \"mcp\", \"--approve-tool\"]}, and is not an entry askuser setup wrote; change or remove it by hand"},
		{"claude askuser with flags of the user's", "claude", ".claude.json", `{"mcpServers": {"askuser": {"command": "askuser", "args": ["mcp", "--mode", "popup"]}}}`, ": mcpServers.askuser is already there and differs"},
		{"claude askuser over http", "claude", ".claude.json", `{"mcpServers": {"askuser": {"type": "http", "command": "askuser", "args": ["mcp"]}}}`, ": mcpServers.askuser is already there and differs"},
		{"claude askuser by npx of another package", "claude", ".claude.json", `{"mcpServers": {"askuser": {"command": "npx", "args": ["-y", "askuser-fork", "mcp"]}}}`, ": mcpServers.askuser is already there and differs"},
		{"claude askuser not an object", "claude", ".claude.json", `{"mcpServers": {"askuser": "askuser mcp"}}`, ": mcpServers.askuser is already there and differs"},
		{"codex table differs", "codex", ".codex/config.toml", "a = 1\n[mcp_servers.askuser]\ncommand = \"askuser\"\n", `:2: [mcp_servers.askuser] is already there and differs`},
		{"codex inline table", "codex", ".codex/config.toml", "[mcp_servers]\naskuser = { command = \"askuser\" }\n", ": askuser is already among mcp_servers"},
		{"codex inline mcp_servers", "codex", ".codex/config.toml", "model = \"o3\"\nmcp_servers = { other = { command = \"x\" } }\n", ": mcp_servers is an inline table"},
		{"codex dotted keys", "codex", ".codex/config.toml", "mcp_servers.askuser.command = \"askuser\"\n", ": askuser is already among mcp_servers"},
		{"continue item differs", "continue", ".continue/config.yaml", "mcpServers:\n  - name: askuser\n    command: askuser\n", ":2: the mcpServers item askuser is already there and differs"},
		{"continue flow list", "continue", ".continue/config.yaml", "mcpServers: []\n", ": mcpServers is not a block list"},
		{"claude hooks not an object", "claude-code", ".claude/settings.json", "{\"hooks\": []}", `:1:11: not valid JSON: "hooks" is not an object`},
		{"claude hook event not a list", "claude-code", ".claude/settings.json", "{\"hooks\": {\"PreToolUse\": {}}}", `:1:26: not valid JSON: "PreToolUse" is not an array`},
		{"claude settings allow no comments", "claude-code", ".claude/settings.json", "{} // no", ":1:4: not valid JSON"},
		{"claude background setting differs", "claude-code", ".claude/settings.json", "{\"env\": {\"CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS\": \"120000\"}}", `: env.CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS is already there and differs from "0"`},
		{"codex hook as a table", "codex", ".codex/config.toml", "[hooks.PermissionRequest]\nmatcher = \"x\"\n", ": hooks.PermissionRequest is not a list of tables"},
		{"codex hook as a key of [hooks]", "codex", ".codex/config.toml", "[hooks]\nPermissionRequest = []\n", ": hooks.PermissionRequest is not a list of tables"},
		{"codex hooks inline", "codex", ".codex/config.toml", "hooks = {}\n", ": hooks.PermissionRequest is not a list of tables"},
		{"opencode plugin of another", "opencode", ".config/opencode/plugin/askuser.js", "export const Mine = async () => ({});\n", " is there and is not askuser's plugin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			path := filepath.Join(home, tt.file)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tt.before), 0o644); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, home)
			args := []string{"--npx", "--yes", tt.client}
			if tt.client == "claude-code" { // the setting it offers, too
				args = append([]string{"--keep-popup-answers"}, args...)
			}
			code, _, errs := runSetup(t, home, args...)
			if code != cli.ExitError || !strings.Contains(errs, path+tt.wantErr) {
				t.Errorf("status %d, stderr %q; want %d and %q", code, errs, cli.ExitError, path+tt.wantErr)
			}
			if diff := cmp.Diff(before, snapshot(t, home)); diff != "" {
				t.Errorf("files changed (-before +after):\n%s", diff)
			}
		})
	}
}

// TestSetupUpgradesOlderEntry checks that askuser's entry in Claude
// Code's configuration as an older askuser setup wrote it, without the
// approve tool, becomes the current one, shown and asked like any change,
// with the members of the user's own kept; --undo puts the file back
// byte for byte.
func TestSetupUpgradesOlderEntry(t *testing.T) {
	const file = ".claude.json"
	tests := []struct{ name, before, after string }{
		{"by npx",
			"{\n  \"numStartups\": 3,\n  \"mcpServers\": {\n    \"askuser\": {\n      \"type\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@askuser/askuser\", \"mcp\"]\n    }\n  }\n}\n",
			"{\n  \"numStartups\": 3,\n  \"mcpServers\": {\n    \"askuser\": {\n      \"type\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@askuser/askuser\", \"mcp\", \"--approve-tool\"]\n    }\n  }\n}\n"},
		{"by a binary, with env of the user's, on one line",
			`{"mcpServers": {"askuser": {"command": "/opt/bin/askuser", "args": ["mcp"], "env": {"A": "1"}}}}`,
			`{"mcpServers": {"askuser": {"command": "npx", "args": ["-y", "@askuser/askuser", "mcp", "--approve-tool"], "env": {"A": "1"},` + "\n  \"type\": \"stdio\"}}}"},
		{"by npx without -y, tabs",
			"{\n\t\"mcpServers\": {\n\t\t\"askuser\": {\n\t\t\t\"type\": \"stdio\",\n\t\t\t\"command\": \"npx\",\n\t\t\t\"args\": [\"@askuser/askuser\", \"mcp\"]\n\t\t}\n\t}\n}",
			"{\n\t\"mcpServers\": {\n\t\t\"askuser\": {\n\t\t\t\"type\": \"stdio\",\n\t\t\t\"command\": \"npx\",\n\t\t\t\"args\": [\"-y\", \"@askuser/askuser\", \"mcp\", \"--approve-tool\"]\n\t\t}\n\t}\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			writeBefore(t, home, setupFile{file, tt.before, ""})
			orig := snapshot(t, home)
			path := filepath.Join(home, file)
			note := path + ": mcpServers.askuser is askuser's entry as an older askuser setup wrote it; it becomes the current one."
			code, out, errs := runSetup(t, home, "--npx", "--dry-run", "claude-code")
			if code != 0 || !strings.Contains(out, note) || !strings.Contains(out, "+++ "+path) || !cmp.Equal(orig, snapshot(t, home)) {
				t.Fatalf("--dry-run: status %d, stdout %q, stderr %q; want the note %q and no change", code, out, errs, note)
			}
			if code, _, errs = runSetup(t, home, "--npx", "claude-code"); code != cli.ExitUsage || !cmp.Equal(orig, snapshot(t, home)) {
				t.Fatalf("without a terminal or --yes: status %d, stderr %q; the files must stay", code, errs)
			}
			if code, out, errs = runSetup(t, home, "--npx", "--yes", "claude-code"); code != 0 {
				t.Fatalf("--yes: status %d, stdout %q, stderr %q", code, out, errs)
			}
			if diff := cmp.Diff(tt.after, readOr(t, path)); diff != "" {
				t.Fatalf("%s after setup (-want +got):\n%s", file, diff)
			}
			if got := readOr(t, path+".askuser-backup"); got != tt.before {
				t.Errorf("backup %q, want the file as it was %q", got, tt.before)
			}
			if code, out, _ = runSetup(t, home, "--npx", "--yes", "claude-code"); code != 0 || !strings.Contains(out, "already set up") {
				t.Errorf("second run: status %d, stdout %q", code, out)
			}
			if code, _, errs = runSetup(t, home, "--yes", "--undo", "claude-code"); code != 0 || !cmp.Equal(orig, snapshot(t, home)) {
				t.Fatalf("--undo: status %d, stderr %q, left (-before +after):\n%s", code, errs, cmp.Diff(orig, snapshot(t, home)))
			}
		})
	}
}

// TestSetupKeepPopupAnswers checks the setting setup claude-code offers:
// set with its flag, only named without it, and undone with the rest.
func TestSetupKeepPopupAnswers(t *testing.T) {
	settings := ".claude/settings.json"
	tests := []struct {
		name     string
		args     []string
		before   string // settings.json, "<none>": no file
		after    string
		wantOut  string
		avoidOut string
	}{
		{"--yes names it", []string{"--yes"}, "<none>", claudeSettingsNew, "Not set (--keep-popup-answers sets it)", ""},
		{"the flag sets it", []string{"--yes", "--keep-popup-answers"}, "<none>", claudeSettingsEnv, "NOT USER INPUT", "Not set"},
		{"the flag without --yes", []string{"--keep-popup-answers"}, "<none>", "<none>", "", "Not set"},
		{"dry run with the flag", []string{"--dry-run", "--keep-popup-answers"}, "<none>", "<none>", "+    \"CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS\": \"0\"", "Not set"},
		{"already set", []string{"--yes"}, "{\"env\": {\"CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS\": \"0\"}}\n",
			"{\"env\": {\"CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS\": \"0\"},\n  \"hooks\": {\n    " + claudeHookGroups + "\n  }}\n", "", "Not set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			writeBefore(t, home, setupFile{settings, tt.before, ""})
			orig := snapshot(t, home)
			code, out, errs := runSetup(t, home, append(append([]string{"--npx"}, tt.args...), "claude-code")...)
			if !slices.Contains(tt.args, "--yes") && !slices.Contains(tt.args, "--dry-run") {
				if code != cli.ExitUsage || !cmp.Equal(orig, snapshot(t, home)) {
					t.Fatalf("without a terminal: status %d, stderr %q; want %d and no change", code, errs, cli.ExitUsage)
				}
				return
			}
			if code != 0 || !strings.Contains(out, tt.wantOut) || tt.avoidOut != "" && strings.Contains(out, tt.avoidOut) {
				t.Fatalf("status %d, stdout %q, stderr %q; want %q in stdout, not %q", code, out, errs, tt.wantOut, tt.avoidOut)
			}
			if diff := cmp.Diff(tt.after, readOr(t, filepath.Join(home, settings))); diff != "" {
				t.Fatalf("settings.json (-want +got):\n%s", diff)
			}
			if code, out, _ = runSetup(t, home, append(append([]string{"--npx"}, tt.args...), "claude-code")...); code != 0 || readOr(t, filepath.Join(home, settings)) != tt.after {
				t.Fatalf("second run: status %d, stdout %q; settings.json changed", code, out)
			}
			if code, _, errs := runSetup(t, home, "--yes", "--undo", "claude-code"); code != 0 || !cmp.Equal(orig, snapshot(t, home)) {
				t.Fatalf("--undo: status %d, stderr %q, left (-before +after):\n%s", code, errs, cmp.Diff(orig, snapshot(t, home)))
			}
		})
	}
}

// TestSetupCommand checks that without --npx setup registers the running
// binary by its absolute path, and that a backup holds the first
// original only.
func TestSetupCommand(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Skip("no path to this binary:", err)
	}
	self, _ = filepath.EvalSymlinks(self)
	home := t.TempDir()
	path := filepath.Join(home, ".codex", "config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	const orig = "model = \"o3\"\n"
	if err := os.WriteFile(path, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runSetup(t, home, "--yes", "codex"); code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	if got := readOr(t, path); !strings.Contains(got, "command = \""+self+"\"\nargs = [\"mcp\"]\n") {
		t.Fatalf("config.toml:\n%s\nwant command %q", got, self)
	}
	// An edit of the user's own in between, then a second registration
	// (the npx one, after the first was removed by hand): the backup
	// stays the first original.
	if err := os.WriteFile(path, []byte("model = \"o4\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runSetup(t, home, "--yes", "--npx", "codex"); code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	if got := readOr(t, path+".askuser-backup"); got != orig {
		t.Errorf("backup %q, want the first original %q", got, orig)
	}
	if code, _, errs := runSetup(t, home, "--yes", "--undo", "codex"); code != 0 || readOr(t, path) != orig {
		t.Errorf("--undo: status %d, %s; file %q", code, errs, readOr(t, path))
	}
}

func TestSetupUsage(t *testing.T) {
	tests := []struct {
		args    []string
		code    int
		wantErr string
	}{
		{nil, cli.ExitUsage, "name one client: claude-code, codex, continue, gemini, kilo, opencode, pi"},
		{[]string{"cursor"}, cli.ExitUsage, `unknown client "cursor"; known: claude-code, codex, continue, gemini, kilo, opencode, pi`},
		{[]string{"--keep-popup-answers", "codex"}, cli.ExitUsage, "--keep-popup-answers is for claude-code"},
		{[]string{"claude", "codex"}, cli.ExitUsage, "name one client"},
		{[]string{"-h"}, 0, "usage: askuser setup"},
	}
	for _, tt := range tests {
		code, _, errs := runSetup(t, t.TempDir(), tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.wantErr) {
			t.Errorf("setup %q: status %d, stderr %q; want %d and %q", tt.args, code, errs, tt.code, tt.wantErr)
		}
	}
}

// TestSetupPi checks that setup pi runs pi install with the package when
// pi is on the PATH, and prints the command when it is not.
func TestSetupPi(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	code, out, _ := runSetup(t, t.TempDir(), "--yes", "pi")
	if code != 0 || !strings.Contains(out, "pi is not on the PATH, so run:\n  pi install npm:@askuser/pi-ask-user\n") {
		t.Fatalf("without pi: status %d, stdout %q", code, out)
	}
	log := filepath.Join(dir, "log")
	script := "#!/bin/sh\necho \"$@\" >> " + log + "\n"
	if err := os.WriteFile(filepath.Join(dir, "pi"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		code int
		log  string
	}{
		{[]string{"--dry-run", "pi"}, 0, "<none>"},
		{[]string{"pi"}, cli.ExitUsage, "<none>"}, // no terminal
		{[]string{"--yes", "pi"}, 0, "install npm:@askuser/pi-ask-user\n"},
		{[]string{"--yes", "--undo", "pi"}, 0, "install npm:@askuser/pi-ask-user\nremove npm:@askuser/pi-ask-user\n"},
	} {
		if code, out, errs := runSetup(t, t.TempDir(), tt.args...); code != tt.code {
			t.Errorf("setup %q: status %d, want %d; stdout %q, stderr %q", tt.args, code, tt.code, out, errs)
		}
		if got := readOr(t, log); got != tt.log {
			t.Errorf("after setup %q pi ran %q, want %q", tt.args, got, tt.log)
		}
	}
}

// TestSetupPiUndo checks that setup pi keeps Pi's settings file as any
// client's file: --undo runs pi remove and then gives the file back byte
// for byte, or removes it and the directories made for it when pi install
// created them.
func TestSetupPiUndo(t *testing.T) {
	const orig = "{\n  \"theme\": \"dark\"\n}\n"
	for _, tt := range []struct {
		name   string
		before string // "<none>": no settings file, nor its directory
	}{
		{"settings there", orig},
		{"no settings", "<none>"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bin, home := t.TempDir(), t.TempDir()
			t.Setenv("PATH", bin)
			settings := filepath.Join(home, ".pi", "agent", "settings.json")
			// A pi that writes its settings as Pi does: install adds the
			// package, remove leaves an empty list.
			script := "#!/bin/sh\nf='" + settings + "'\n/bin/mkdir -p \"${f%/*}\"\n" +
				"case $1 in install) printf '{\"packages\":[\"%s\"]}\\n' \"$2\" > \"$f\";; remove) printf '{\"packages\":[]}\\n' > \"$f\";; esac\n"
			if err := os.WriteFile(filepath.Join(bin, "pi"), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			if tt.before != "<none>" {
				if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(settings, []byte(tt.before), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			for _, args := range [][]string{{"--yes", "pi"}, {"--yes", "pi"}} {
				if code, out, errs := runSetup(t, home, args...); code != 0 {
					t.Fatalf("setup %q: status %d; stdout %q, stderr %q", args, code, out, errs)
				}
			}
			if got := readOr(t, settings); got != "{\"packages\":[\"npm:@askuser/pi-ask-user\"]}\n" {
				t.Fatalf("after setup pi, settings.json holds %q", got)
			}
			if code, out, errs := runSetup(t, home, "--yes", "--undo", "pi"); code != 0 {
				t.Fatalf("setup --undo pi: status %d; stdout %q, stderr %q", code, out, errs)
			}
			if got := readOr(t, settings); got != tt.before {
				t.Errorf("after --undo settings.json holds %q, want %q", got, tt.before)
			}
			if tt.before != "<none>" {
				if st, err := os.Stat(settings); err != nil || st.Mode().Perm() != 0o600 {
					t.Errorf("after --undo settings.json: %v, %v; want mode 0600", st, err)
				}
			} else if _, err := os.Stat(filepath.Join(home, ".pi")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("after --undo ~/.pi is still there (%v)", err)
			}
			left, _ := filepath.Glob(settings + ".askuser-*")
			if len(left) > 0 {
				t.Errorf("after --undo setup's files are left: %q", left)
			}
		})
	}
}

// claudeSettingsEnv is claudeSettingsNew with the setting
// --keep-popup-answers offers.
const claudeSettingsEnv = "{\n  \"hooks\": {\n    " + claudeHookGroups + "\n  },\n  \"env\": {\n    \"CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS\": \"0\"\n  }\n}\n"

// TestSetupAsks answers setup's questions on a terminal: only y writes;
// for Claude Code the setting it offers is a second question.
func TestSetupAsks(t *testing.T) {
	const offer = `Set CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS to "0" in `
	for _, tt := range []struct {
		client, answer string
		code           int
		questions      []string // in stdout, in order
		files          []setupFile
	}{
		{"codex", "y\n", 0, []string{"config.toml? [y/N] "}, []setupFile{{".codex/config.toml", "<none>", codexNew}}},
		{"codex", "yes\n", 0, []string{"config.toml? [y/N] "}, []setupFile{{".codex/config.toml", "<none>", codexNew}}},
		{"codex", "n\n", cli.ExitAborted, []string{"config.toml? [y/N] "}, []setupFile{{".codex/config.toml", "<none>", "<none>"}}},
		{"codex", "\n", cli.ExitAborted, []string{"config.toml? [y/N] "}, []setupFile{{".codex/config.toml", "<none>", "<none>"}}},
		{"claude-code", "y\ny\n", 0, []string{".claude/settings.json? [y/N] ", "NOT USER INPUT", offer},
			[]setupFile{{".claude.json", "<none>", claudeNew}, {".claude/settings.json", "<none>", claudeSettingsEnv}}},
		{"claude-code", "y\nn\n", 0, []string{".claude/settings.json? [y/N] ", offer, "Nothing written."},
			[]setupFile{{".claude.json", "<none>", claudeNew}, claudeSettings}},
		{"claude-code", "n\n", cli.ExitAborted, []string{".claude/settings.json? [y/N] ", "Nothing written."},
			[]setupFile{{".claude.json", "<none>", "<none>"}, {".claude/settings.json", "<none>", "<none>"}}},
	} {
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Skip("no pseudo-terminal here:", err)
		}
		if _, err := ptmx.Write([]byte(tt.answer)); err != nil {
			t.Fatal(err)
		}
		home := t.TempDir()
		var out, errb bytes.Buffer
		env := &cli.Env{Stdin: tty, Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
			if k == "HOME" {
				return home
			}
			return ""
		}}
		code := cli.Run(context.Background(), []string{"setup", "--npx", tt.client}, env)
		ptmx.Close()
		tty.Close()
		rest := out.String()
		for _, q := range tt.questions {
			i := strings.Index(rest, q)
			if i < 0 {
				t.Errorf("%s, answers %q: stdout %q lacks %q (in order)", tt.client, tt.answer, out.String(), q)
				break
			}
			rest = rest[i+len(q):]
		}
		if code != tt.code {
			t.Errorf("%s, answers %q: status %d, want %d; stderr %q", tt.client, tt.answer, code, tt.code, errb.String())
		}
		for _, f := range tt.files {
			if got := readOr(t, filepath.Join(home, f.file)); got != f.after {
				t.Errorf("%s, answers %q: %s %q, want %q", tt.client, tt.answer, f.file, got, f.after)
			}
		}
	}
}
