package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode"

	"github.com/askuser/askuser/internal/host/cli"
	"github.com/askuser/askuser/internal/program"
)

// hostileText holds a C1 control, bidi overrides and isolates, zero-width
// characters, a byte order mark, a tag character and DEL: each must reach
// standard output as a \u escape, never raw.
const hostileText = "a\u009b\u202e\u2066\u200b\u200d\ufeff\U000E0041\x7fz"

// hostileJSON is hostileText as a JSON string.
var hostileJSON = func() string {
	b, _ := json.Marshal(hostileText)
	return string(b)
}()

// rawInvisible reports the first character of out, outside the whitespace
// between JSON tokens, that is a control or an invisible character by the
// unicode package's categories; -1 for none.
func rawInvisible(out string) rune {
	for _, r := range out {
		switch {
		case r == '\n' || r == ' ':
		case unicode.Is(unicode.Cc, r), unicode.Is(unicode.Cf, r), r == 0x2028, r == 0x2029,
			unicode.Is(unicode.Variation_Selector, r), r >= 0xe0000 && r <= 0xe0fff:
			return r
		}
	}
	return -1
}

// checkEscaped fails t when out holds a raw control or invisible
// character, or does not decode to hold hostileText.
func checkEscaped(t *testing.T, what, out string) {
	t.Helper()
	if r := rawInvisible(out); r >= 0 {
		t.Errorf("%s holds %U raw:\n%q", what, r, out)
	}
	if !strings.Contains(out, `\u202e`) {
		t.Errorf("%s does not show the override as \\u202e:\n%q", what, out)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	found := false
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s is not JSON: %v\n%q", what, err, out)
		}
		found = found || containsString(v, hostileText)
	}
	if !found {
		t.Errorf("%s does not decode to hold the text as given:\n%q", what, out)
	}
}

// containsString reports whether v, a decoded JSON value, holds s as a
// string or a part of one.
func containsString(v any, s string) bool {
	switch v := v.(type) {
	case string:
		return strings.Contains(v, s)
	case []any:
		for _, e := range v {
			if containsString(e, s) {
				return true
			}
		}
	case map[string]any:
		for k, e := range v {
			if strings.Contains(k, s) || containsString(e, s) {
				return true
			}
		}
	}
	return false
}

// TestJSONOutputEscaped runs the commands that write JSON on standard
// output with the model's text in what they echo: validate's report of
// either tool, the MCP server's response to a request whose id is that
// text, and the Pi bridge's result for a call of that name.
func TestJSONOutputEscaped(t *testing.T) {
	askUser := `{"header":` + hostileJSON + `,"questions":[{"title":` + hostileJSON + `,"options":[{"label":` + hostileJSON + `},{"label":"b"}]}]}`
	auqReq := `{"questions":[{"id":"q","question":"` + hostileJSON[1:len(hostileJSON)-1] + `?","header":"h","options":[{"id":"a","label":` + hostileJSON + `,"description":"d"},{"id":"b","label":"B","description":"d"}]}],"metadata":{"source":` + hostileJSON + `}}`
	initialize := `{"jsonrpc":"2.0","id":` + hostileJSON + `,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n"
	hello, _ := json.Marshal(map[string]any{"type": "hello", "version": 1, "release": program.Release(), "mode": "print", "hasUI": false, "ui": map[string]bool{}, "agentDir": "", "configFile": false})
	ask := `{"type":"ask","call":` + hostileJSON + `,"callId":"tool-1","params":{"questions":[{"title":"a"}]}}` + "\n"
	tests := []struct {
		name  string
		args  []string
		stdin string
	}{
		{"validate ask_user", []string{"validate", "-"}, askUser},
		{"validate AskUserQuestion", []string{"validate", "--tool", "AskUserQuestion", "-"}, auqReq},
		{"mcp", []string{"mcp", "--no-config"}, initialize},
		{"bridge", []string{"bridge"}, string(hello) + "\n" + ask},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("TMUX", "")
			var stdout, stderr bytes.Buffer
			cli.Run(context.Background(), tt.args, &cli.Env{Stdin: strings.NewReader(tt.stdin), Stdout: &stdout, Stderr: &stderr})
			checkEscaped(t, strings.Join(tt.args, " ")+"'s standard output", stdout.String())
		})
	}
}

// TestAskOutputEscaped answers on a terminal, as askuser ask does, a
// questionnaire whose title and label are the model's text, and stops an
// AskUserQuestion request that carries it in metadata.source, which the
// result echoes.
func TestAskOutputEscaped(t *testing.T) {
	dir := t.TempDir()
	askUser, auqReq := filepath.Join(dir, "ask.json"), filepath.Join(dir, "auq.json")
	files := map[string]string{
		askUser: `{"questions":[{"title":` + hostileJSON + `,"kind":"bool","default":true}]}`,
		auqReq:  `{"questions":[{"id":"q","question":"Which?","header":"h","options":[{"id":"a","label":"A","description":"d"},{"id":"b","label":"B","description":"d"}]}],"metadata":{"source":` + hostileJSON + `}}`,
	}
	for name, body := range files {
		if err := os.WriteFile(name, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("ask_user answered", func(t *testing.T) {
		var stderr bytes.Buffer
		s := startOnPtyWith(t, append(os.Environ(), "TERM=xterm-256color", "TMUX="), &stderr, "ask", "--no-config", "--mode", "native", askUser)
		s.expect("left]: ")
		s.send("\r")
		if code, out := s.exit(); code != 0 {
			t.Errorf("exit status %d, want 0; stderr %s", code, stderr.String())
		} else {
			checkEscaped(t, "ask's result", out)
		}
	})
	t.Run("AskUserQuestion stopped", func(t *testing.T) {
		var stderr bytes.Buffer
		s := startOnPtyWith(t, append(os.Environ(), "TERM=xterm-256color", "TMUX="), &stderr, "ask", "--no-config", "--tool", "AskUserQuestion", auqReq)
		s.expect("Which?")
		if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if code, out := s.exit(); code != 1 {
			t.Errorf("exit status %d, want 1; stderr %s", code, stderr.String())
		} else {
			checkEscaped(t, "ask's result", out)
		}
	})
}
