package cli

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// FuzzSetupJSON checks askuser setup's reading of a configuration file
// against encoding/json: as JSON it takes exactly the texts that are one
// JSON object, and as JSON with comments what it takes, comments and
// trailing commas blanked out, is JSON.
func FuzzSetupJSON(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"a":1}`, `{"a":{"b":[1,2,{"c":null}]}}`, `{"a":"x\"y"}`, `{"a":1,}`, `[1]`,
		`{"a":tru}`, `{"a":-0.5e3}`, "{\n  // c\n  \"a\": [1, /* d */ 2,],\n}", `{ /*/ }`, `{,}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		// Deep nesting is bounded (strictjson.MaxDepth), encoding/json's
		// far deeper: leave it out.
		if bytes.Count(b, []byte("{"))+bytes.Count(b, []byte("[")) > 60 {
			return
		}
		_, _, err := parseJSONObjectText("f", b, false)
		text := bytes.TrimLeft(b, " \t\r\n")
		want := json.Valid(b) && len(text) > 0 && text[0] == '{'
		if (err == nil) != want {
			t.Fatalf("%q: error %v; want one only if it is not one JSON object", b, err)
		}
		if _, clean, err := parseJSONObjectText("f", b, true); err == nil && !json.Valid(clean) {
			t.Fatalf("%q: taken as JSON with comments, but %q is not JSON", b, clean)
		}
	})
}

// TestHookCommand checks that the hook's command line quotes askuser's
// path for the shell the client runs it with.
func TestHookCommand(t *testing.T) {
	tests := []struct {
		cmd  []string
		want string
	}{
		{[]string{"npx", "-y", "@askuser/askuser"}, "npx -y @askuser/askuser hook codex"},
		{[]string{"/usr/local/bin/askuser"}, "/usr/local/bin/askuser hook codex"},
		{[]string{"/home/a b/askuser"}, "'/home/a b/askuser' hook codex"},
		{[]string{"/tmp/it's/$x`y`"}, `'/tmp/it'\''s/$x` + "`y`" + `' hook codex`},
		{[]string{""}, "'' hook codex"},
	}
	for _, tt := range tests {
		if got := hookCommand(tt.cmd, "codex"); got != tt.want {
			t.Errorf("hookCommand(%q) = %q, want %q", tt.cmd, got, tt.want)
		}
		if out, err := exec.Command("sh", "-c", "printf '%s\\n' "+hookCommand(tt.cmd, "codex")).Output(); err != nil || string(out) != strings.Join(append(tt.cmd, "hook", "codex"), "\n")+"\n" {
			t.Errorf("sh reads %q as %q (%v), want the words %q", hookCommand(tt.cmd, "codex"), out, err, tt.cmd)
		}
	}
}
