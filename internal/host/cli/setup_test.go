package cli_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/internal/host/cli"
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
      "args": ["-y", "@askuser/askuser", "mcp"]
    }
  }
}
`
	codexTable = `[mcp_servers.askuser]
command = "npx"
args = ["-y", "@askuser/askuser", "mcp"]
env_vars = ["TMUX", "TMUX_PANE"]
`
	opencodeEntry = `"askuser": {
      "type": "local",
      "command": ["npx", "-y", "@askuser/askuser", "mcp"]
    }`
)

func TestSetupClients(t *testing.T) {
	tests := []struct {
		name, client, file string
		before             string // "<none>": no file
		after              string
	}{
		{"claude from nothing", "claude", ".claude.json", "<none>", claudeNew},
		{"claude beside other members", "claude", ".claude.json",
			"{\n  \"numStartups\": 3,\n  \"projects\": {\"/x\": {\"mcpServers\": {}}}\n}\n",
			"{\n  \"numStartups\": 3,\n  \"projects\": {\"/x\": {\"mcpServers\": {}}},\n  \"mcpServers\": {\n    \"askuser\": {\n      \"type\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@askuser/askuser\", \"mcp\"]\n    }\n  }\n}\n"},
		{"claude beside another server, tabs", "claude", ".claude.json",
			"{\n\t\"mcpServers\": {\n\t\t\"other\": {\"command\": \"x\"}\n\t},\n\t\"z\": 1\n}",
			"{\n\t\"mcpServers\": {\n\t\t\"other\": {\"command\": \"x\"},\n\t\t\"askuser\": {\n\t\t\t\"type\": \"stdio\",\n\t\t\t\"command\": \"npx\",\n\t\t\t\"args\": [\"-y\", \"@askuser/askuser\", \"mcp\"]\n\t\t}\n\t},\n\t\"z\": 1\n}"},
		{"claude empty file", "claude", ".claude.json", "", claudeNew},
		{"claude empty object", "claude", ".claude.json", "{}\n", claudeNew},
		{"codex from nothing", "codex", ".codex/config.toml", "<none>", codexTable},
		{"codex after other tables", "codex", ".codex/config.toml",
			"model = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"",
			"model = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"\n\n" + codexTable},
		{"gemini from nothing", "gemini", ".gemini/settings.json", "<none>",
			"{\n  \"mcpServers\": {\n    \"askuser\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@askuser/askuser\", \"mcp\"],\n      \"trust\": true\n    }\n  }\n}\n"},
		{"gemini with comments", "gemini", ".gemini/settings.json",
			"// mine\n{\"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}}} // end\n",
			"// mine\n{\"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}},\n  \"mcpServers\": {\n    \"askuser\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@askuser/askuser\", \"mcp\"],\n      \"trust\": true\n    }\n  }} // end\n"},
		{"opencode from nothing", "opencode", ".config/opencode/opencode.json", "<none>",
			"{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"mcp\": {\n    " + opencodeEntry + "\n  }\n}\n"},
		{"opencode with an empty mcp and a trailing comma", "opencode", ".config/opencode/opencode.json",
			"{\n  \"autoupdate\": false, /* no */\n  \"mcp\": {},\n}\n",
			"{\n  \"autoupdate\": false, /* no */\n  \"mcp\": {\n    " + opencodeEntry + "\n  },\n}\n"},
		{"opencode jsonc", "opencode", ".config/opencode/opencode.jsonc",
			"{\n  // servers\n  \"mcp\": {\n    \"x\": {\"type\": \"remote\", \"url\": \"http://h\"}, // x\n  }\n}\n",
			"{\n  // servers\n  \"mcp\": {\n    \"x\": {\"type\": \"remote\", \"url\": \"http://h\"}, // x\n    " + opencodeEntry + "\n  }\n}\n"},
		{"opencode comment after the last member", "opencode", ".config/opencode/opencode.json",
			"{\n  \"autoupdate\": false // no\n}\n",
			"{\n  \"autoupdate\": false, // no\n  \"mcp\": {\n    " + opencodeEntry + "\n  }\n}\n"},
		{"kilo from nothing", "kilo", ".config/kilo/kilo.json", "<none>",
			"{\n  \"mcp\": {\n    " + opencodeEntry + "\n  }\n}\n"},
		{"continue from nothing", "continue", ".continue/config.yaml", "<none>",
			"mcpServers:\n  - name: askuser\n    command: \"npx\"\n    args: [\"-y\", \"@askuser/askuser\", \"mcp\"]\n"},
		{"continue into a list", "continue", ".continue/config.yaml",
			"name: Local\nmcpServers:\n    - name: other\n      command: x\nmodels: []\n",
			"name: Local\nmcpServers:\n    - name: askuser\n      command: \"npx\"\n      args: [\"-y\", \"@askuser/askuser\", \"mcp\"]\n    - name: other\n      command: x\nmodels: []\n"},
		{"continue without the key", "continue", ".continue/config.yaml",
			"name: Local\nversion: 1.0.0",
			"name: Local\nversion: 1.0.0\nmcpServers:\n  - name: askuser\n    command: \"npx\"\n    args: [\"-y\", \"@askuser/askuser\", \"mcp\"]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			path := filepath.Join(home, tt.file)
			if tt.before != "<none>" {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(tt.before), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			code, out, errs := runSetup(t, home, "--npx", "--dry-run", tt.client)
			if code != 0 || !strings.Contains(out, "+++ "+path) || !strings.Contains(out, "dry run") {
				t.Fatalf("--dry-run: status %d, stdout %q, stderr %q", code, out, errs)
			}
			if got := readOr(t, path); got != tt.before {
				t.Fatalf("--dry-run wrote the file:\n%s", got)
			}
			code, _, errs = runSetup(t, home, "--npx", tt.client)
			if code != cli.ExitUsage || !strings.Contains(errs, "no terminal") || readOr(t, path) != tt.before {
				t.Fatalf("without a terminal or --yes: status %d, stderr %q; the file must stay", code, errs)
			}
			if code, out, errs = runSetup(t, home, "--npx", "--yes", tt.client); code != 0 {
				t.Fatalf("--yes: status %d, stdout %q, stderr %q", code, out, errs)
			}
			if diff := cmp.Diff(tt.after, readOr(t, path)); diff != "" {
				t.Fatalf("file after setup (-want +got):\n%s", diff)
			}
			if st, err := os.Stat(path); err == nil && tt.before != "<none>" && st.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want the file's own 0600", st.Mode().Perm())
			}
			code, out, _ = runSetup(t, home, "--npx", "--yes", tt.client)
			if code != 0 || !strings.Contains(out, "already set up") || readOr(t, path) != tt.after {
				t.Fatalf("second run: status %d, stdout %q", code, out)
			}
			if code, out, errs = runSetup(t, home, "--yes", "--undo", tt.client); code != 0 {
				t.Fatalf("--undo: status %d, stdout %q, stderr %q", code, out, errs)
			}
			if got := readOr(t, path); got != tt.before {
				t.Fatalf("--undo left (-want +got):\n%s", cmp.Diff(tt.before, got))
			}
			left, _ := filepath.Glob(path + ".askuser-*")
			if len(left) > 0 {
				t.Errorf("--undo left %v", left)
			}
			code, out, _ = runSetup(t, home, "--yes", "--undo", tt.client)
			if code != 0 || !strings.Contains(out, "Nothing to undo") {
				t.Errorf("second --undo: status %d, stdout %q", code, out)
			}
		})
	}
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
		{"codex table differs", "codex", ".codex/config.toml", "a = 1\n[mcp_servers.askuser]\ncommand = \"askuser\"\n", `:2: [mcp_servers.askuser] is already there and differs`},
		{"codex inline table", "codex", ".codex/config.toml", "[mcp_servers]\naskuser = { command = \"askuser\" }\n", ": askuser is already among mcp_servers"},
		{"codex inline mcp_servers", "codex", ".codex/config.toml", "model = \"o3\"\nmcp_servers = { other = { command = \"x\" } }\n", ": mcp_servers is an inline table"},
		{"codex dotted keys", "codex", ".codex/config.toml", "mcp_servers.askuser.command = \"askuser\"\n", ": askuser is already among mcp_servers"},
		{"continue item differs", "continue", ".continue/config.yaml", "mcpServers:\n  - name: askuser\n    command: askuser\n", ":2: the mcpServers item askuser is already there and differs"},
		{"continue flow list", "continue", ".continue/config.yaml", "mcpServers: []\n", ": mcpServers is not a block list"},
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
			code, _, errs := runSetup(t, home, "--npx", "--yes", tt.client)
			if code != cli.ExitError || !strings.Contains(errs, path+tt.wantErr) {
				t.Errorf("status %d, stderr %q; want %d and %q", code, errs, cli.ExitError, path+tt.wantErr)
			}
			if readOr(t, path) != tt.before {
				t.Error("the file changed")
			}
			if left, _ := filepath.Glob(path + ".askuser-*"); len(left) > 0 {
				t.Errorf("left %v", left)
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
		{nil, cli.ExitUsage, "name one client: claude, codex, continue, gemini, kilo, opencode, pi"},
		{[]string{"cursor"}, cli.ExitUsage, `unknown client "cursor"; known: claude, codex, continue, gemini, kilo, opencode, pi`},
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

// TestSetupAsks answers setup's question on a terminal: only y writes.
func TestSetupAsks(t *testing.T) {
	for _, tt := range []struct {
		answer string
		code   int
		want   string
	}{
		{"y\n", 0, claudeNew},
		{"yes\n", 0, claudeNew},
		{"n\n", cli.ExitAborted, "<none>"},
		{"\n", cli.ExitAborted, "<none>"},
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
		code := cli.Run(context.Background(), []string{"setup", "--npx", "claude"}, env)
		ptmx.Close()
		tty.Close()
		if code != tt.code || !strings.Contains(out.String(), ".claude.json? [y/N] ") {
			t.Errorf("answer %q: status %d, stdout %q, stderr %q; want status %d after the question", tt.answer, code, out.String(), errb.String(), tt.code)
		}
		if got := readOr(t, filepath.Join(home, ".claude.json")); got != tt.want {
			t.Errorf("answer %q: file %q, want %q", tt.answer, got, tt.want)
		}
	}
}
