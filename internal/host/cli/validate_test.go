package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/internal/host/cli"
)

func TestValidateTool(t *testing.T) {
	const question = `{"questions":[{"id":"q","question":"Which?","header":"H","options":[{"id":"a","label":"A","description":"d"},{"id":"b","label":"B","description":"d"}]}]}`
	const form = `{"questions":[{"title":"Which?"}]}`
	tests := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		report string // "valid", "invalid", or "" for none
		paths  []string
		stderr string
	}{
		{name: "AskUserQuestion, valid", args: []string{"--tool", "AskUserQuestion"}, stdin: question, code: 0, report: "valid"},
		{name: "AskUserQuestion, invalid", args: []string{"--tool", "AskUserQuestion"}, stdin: form, code: 1, report: "invalid",
			paths:  []string{"questions[0].title", "questions[0].id", "questions[0].header", "questions[0].options"},
			stderr: "askuser validate: the request has 4 problems:\n"},
		{name: "ask_user by default", stdin: form, code: 0, report: "valid"},
		{name: "ask_user by name", args: []string{"--tool=ask_user"}, stdin: question, code: 1, report: "invalid"},
		{name: "unknown tool", args: []string{"--tool", "askuserquestion"}, stdin: question, code: 2,
			stderr: `invalid value "askuserquestion" for flag -tool: unknown tool "askuserquestion": want ask_user or AskUserQuestion` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append(append([]string{"validate"}, tt.args...), "-")
			code := cli.Run(context.Background(), args, &cli.Env{Stdin: strings.NewReader(tt.stdin), Stdout: &stdout, Stderr: &stderr})
			if code != tt.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tt.code, stderr.String())
			}
			if tt.stderr != "" && !strings.HasPrefix(stderr.String(), tt.stderr) {
				t.Errorf("stderr %q, want it to begin with %q", stderr.String(), tt.stderr)
			}
			if tt.report == "" {
				if stdout.Len() > 0 {
					t.Errorf("stdout %q, want nothing", stdout.String())
				}
				return
			}
			var rep struct {
				Valid bool
				Error struct {
					Code     string
					Problems []struct{ Path string }
				}
			}
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
				t.Fatalf("the report is not JSON: %v\n%s", err, stdout.String())
			}
			if rep.Valid != (tt.report == "valid") {
				t.Errorf("valid = %v, want the report %s", rep.Valid, tt.report)
			}
			if tt.paths != nil {
				var paths []string
				for _, p := range rep.Error.Problems {
					paths = append(paths, p.Path)
				}
				if diff := cmp.Diff(tt.paths, paths); diff != "" {
					t.Errorf("problem paths (-want +got):\n%s", diff)
				}
			}
		})
	}
}
