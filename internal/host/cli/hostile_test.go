package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/testkit"
)

// hostileRun is one run of the real binary with no controlling terminal.
type hostileRun struct {
	code           int
	stdout, stderr string
	maxRSS         int64 // askuser's own peak resident size, in bytes; -1 unknown
}

// runDetached runs askuser with args and stdin, in a new session so that
// it has no terminal, and fails t if it is still running after the
// test's patience (testkit.Patience).
func runDetached(t *testing.T, bin string, stdin []byte, args ...string) hostileRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testkit.Patience(t))
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = t.TempDir()
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Env = append(os.Environ(), "TMUX=", "TERM=dumb")
	peak, err := runPeak(cmd)
	if ctx.Err() != nil {
		t.Fatalf("askuser %s did not end", strings.Join(args, " "))
	}
	if _, exited := errors.AsType[*exec.ExitError](err); err != nil && !exited {
		t.Fatal(err)
	}
	return hostileRun{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errOut.String(), maxRSS: peak}
}

// checkSafe fails t if s holds anything that could act on a terminal or
// hide from its reader: C0 controls but newline and tab, DEL, C1
// controls, and the invisible format characters.
func checkSafe(t *testing.T, stream, s string) {
	t.Helper()
	for i, r := range s {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f,
			r == 0x200b || r == 0x200d || r == 0xfeff || r == 0x202e || r >= 0xe0000 && r <= 0xe007f:
			t.Errorf("%s holds %U at byte %d: %q", stream, r, i, s)
			return
		}
	}
}

// maxHostileRSS bounds askuser's own peak memory (VmHWM) on one hostile
// input. Measured on linux-amd64: 12.6 to 13.2 MiB for every case of
// TestHostileRequests and TestHostileConfigFiles, the 10 MB inputs
// included; a run that reads a whole 10 MB input would be over it.
const maxHostileRSS = 32 << 20

// checkPeak fails t when askuser's peak memory in run is over
// maxHostileRSS, and logs it when in is large.
func checkPeak(t *testing.T, what string, r hostileRun, in int) {
	t.Helper()
	if r.maxRSS < 0 {
		t.Logf("%s: askuser's own peak memory cannot be read here", what)
		return
	}
	if r.maxRSS > maxHostileRSS {
		t.Errorf("%s: peak memory %d bytes; the bound is %d", what, r.maxRSS, maxHostileRSS)
	}
	if in > 100_000 {
		t.Logf("%s, %d bytes in: peak memory %.1f MiB", what, in, float64(r.maxRSS)/(1<<20))
	}
}

// Hostile questionnaires through the real binary, as `askuser validate`
// and `askuser ask` read them from standard input: each gets its own
// clear problem, the process ends promptly with the invalid status, and
// neither stream carries a control sequence or an invisible character.
func TestHostileRequests(t *testing.T) {
	bin := buildAskuser(t)
	question := `{"questions":[{"title":"a"}]`
	timeout := func(n string) string { return question + `,"timeoutPerQuestionMs":` + n + `}` }
	deep := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	pad := func(n int) string {
		head := `{"questions":[{"title":"a"}],"header":"`
		return head + strings.Repeat(" ", n-len(head)-2) + `"}`
	}
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "the request is empty"},
		{"malformed", `{"questions":[{"title":"a",,}]}`, "invalid JSON at byte offset 27: expected a field name in double quotes"},
		{"truncated", `{"questions":[{"title":"a"`, "invalid JSON at byte offset 26: unexpected end of input inside an object"},
		{"100,000 nested brackets", deep, "values are nested too deeply"},
		{"20,000 nested objects in a field", `{"questions":[{"title":"a","x":` + strings.Repeat(`{"a":`, 20_000) + "1" + strings.Repeat("}", 20_000) + `}]}`, "values are nested too deeply"},
		{"10 MB line", `{"questions":[{"title":"` + strings.Repeat("x", 10<<20) + `"}]}`, "the request is over the 262144-byte limit"},
		{"one byte over the size limit", pad(contract.MaxRequestBytes + 1), "the request is over the 262144-byte limit"},
		{"raw NUL in a string", "{\"questions\":[{\"title\":\"a\x00b\"}]}", "invalid JSON at byte offset 25"},
		{"NUL between values", "{\"questions\":[{\"title\":\"a\"}]}\x00", "invalid JSON at byte offset 29"},
		{"invalid UTF-8", "{\"questions\":[{\"title\":\"a\xffb\"}]}", "questions[0].title: is not valid UTF-8 (at byte offset 25)"},
		{"lone surrogate", `{"questions":[{"title":"a\ud800"}]}`, "questions[0].title: is not valid UTF-8"},
		{"lone low surrogate in a key", `{"questions":[{"title":"a","\udc00":1}]}`, "questions[0][\"\uFFFD\"]: unknown field \"\uFFFD\""},
		{"duplicate key", `{"questions":[{"title":"a","title":"b"}]}`, "questions[0].title: appears more than once"},
		{"escape sequence in a key", `{"questions":[{"title":"a","\u001b]0;PWN\u0007":1}]}`, `questions[0]["\x1b]0;PWN\a"]: unknown field`},
		{"invisible characters in a key", `{"questions":[{"title":"a","\u200b\u202e\ufeff":1}]}`, `questions[0]["\u200b\u202e\ufeff"]`},
		{"huge negative exponent", timeout("1.5e-9223372036854775808"), "timeoutPerQuestionMs: must be a whole number of milliseconds, got 1.5e-9223372036854775808"},
		{"huge positive exponent", timeout("1e9223372036854775807"), "timeoutPerQuestionMs: must be at most 9007199254740991 milliseconds, got 1e9223372036854775807"},
		{"exponent past int64", timeout("1e-9223372036854775809"), "timeoutPerQuestionMs: must be a whole number of milliseconds"},
		{"very large", timeout("1e400"), "timeoutPerQuestionMs: must be at most 9007199254740991 milliseconds, got 1e400"},
		{"very small", timeout("4e-400"), "timeoutPerQuestionMs: must be a whole number of milliseconds, got 4e-400"},
		{"many digits", timeout(strings.Repeat("9", 400)), "timeoutPerQuestionMs: must be at most 9007199254740991 milliseconds"},
		{"a fraction", timeout("60000.5"), "timeoutPerQuestionMs: must be a whole number of milliseconds, got 60000.5"},
		{"negative", timeout("-1"), "timeoutPerQuestionMs: must not be negative, got -1"},
		{"not a number", timeout("NaN"), "invalid JSON at byte offset"},
		{"a leading plus", timeout("+1"), "invalid JSON at byte offset"},
		{"a leading zero", timeout("01"), "invalid JSON at byte offset"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := runDetached(t, bin, []byte(tt.in), "validate", "-")
			if v.code != 1 {
				t.Errorf("validate exited %d, want 1; stderr: %.500s", v.code, v.stderr)
			}
			if !strings.Contains(v.stderr, tt.want) {
				t.Errorf("validate's stderr lacks %q:\n%.1000s", tt.want, v.stderr)
			}
			checkSafe(t, "validate's stderr", v.stderr)
			checkSafe(t, "validate's stdout", v.stdout)

			a := runDetached(t, bin, []byte(tt.in), "ask", "--no-config", "-")
			if a.code != 2 {
				t.Errorf("ask exited %d, want 2; stderr: %.500s", a.code, a.stderr)
			}
			var res contract.Result
			if err := json.Unmarshal([]byte(a.stdout), &res); err != nil {
				t.Fatalf("ask's stdout is not a result: %v\n%.500s", err, a.stdout)
			}
			if res.Status != contract.StatusError || res.Error == nil || res.Error.Code != contract.ErrInvalidRequest {
				t.Errorf("ask's result: %+v, want invalid_request", res)
			} else if !strings.Contains(res.Error.Message, tt.want) {
				t.Errorf("ask's message lacks %q:\n%.1000s", tt.want, res.Error.Message)
			}
			checkSafe(t, "ask's stderr", a.stderr)
			checkSafe(t, "ask's stdout", a.stdout)
			checkPeak(t, "validate", v, len(tt.in))
			checkPeak(t, "ask", a, len(tt.in))
		})
	}
}

// Hostile config files: every call is refused as invalid_config, naming
// the file and what is wrong, and the message is safe to print.
func TestHostileConfigFiles(t *testing.T) {
	bin := buildAskuser(t)
	good := []byte(`{"questions":[{"title":"Go?","kind":"bool"}]}`)
	tests := []struct {
		name, content, want string
	}{
		{"malformed", `{"mode": "custom",,}`, "config.json: invalid config: "},
		{"truncated", `{"mode": "cus`, "config.json: invalid config: "},
		{"not an object", `["custom"]`, "config.json: invalid config: "},
		{"100,000 nested brackets", `{"mode":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}`, "config.json: invalid config: "},
		{"10 MB", `{"mode":"` + strings.Repeat("x", 10<<20) + `"}`, "config.json: invalid config: "},
		{"raw NUL", "{\"mode\":\"cus\x00tom\"}", "config.json: invalid config: "},
		{"invalid UTF-8", "{\"mode\":\"cus\xfftom\"}", "config.json: invalid config: "},
		{"lone surrogate", `{"mode":"\ud800"}`, "config.json: invalid config: "},
		{"duplicate key", `{"mode":"custom","mode":"native"}`, "mode"},
		{"unknown key with an escape", `{"\u001b]0;PWN\u0007":1}`, `unknown key`},
		{"wrong case", `{"Mode":"custom"}`, `write "mode"`},
		{"huge negative exponent", `{"timeoutPerQuestionMs": 1.5e-9223372036854775808}`, "timeoutPerQuestionMs"},
		{"huge positive exponent", `{"timeoutPerQuestionMs": 1e9223372036854775807}`, "timeoutPerQuestionMs"},
		{"very large", `{"timeoutPerQuestionMs": 1e400}`, "timeoutPerQuestionMs"},
		{"a fraction", `{"timeoutPerQuestionMs": 0.5}`, "timeoutPerQuestionMs"},
		{"negative", `{"timeoutPerQuestionMs": -1}`, "timeoutPerQuestionMs"},
		{"a bad mode", `{"mode": "popup"}`, "mode"},
		{"a bad toggle key", `{"overlayToggleKey": "hyper+\u001b"}`, "overlayToggleKey"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "config.json")
			if err := os.WriteFile(file, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			r := runDetached(t, bin, good, "ask", "--config", file, "-")
			if r.code != 3 {
				t.Errorf("exited %d, want 3; stderr: %.500s", r.code, r.stderr)
			}
			var res contract.Result
			if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
				t.Fatalf("stdout is not a result: %v\n%.500s", err, r.stdout)
			}
			if res.Error == nil || res.Error.Code != contract.ErrInvalidConfig {
				t.Fatalf("result %+v, want invalid_config", res)
			}
			if !strings.Contains(res.Error.Message, file) || !strings.Contains(res.Error.Message, tt.want) {
				t.Errorf("the message names neither the file nor %q:\n%.1000s", tt.want, res.Error.Message)
			}
			checkSafe(t, "stderr", r.stderr)
			checkSafe(t, "stdout", r.stdout)
			checkPeak(t, "ask", r, len(tt.content))
		})
	}
}

// Numbers are judged by their value: a whole number of milliseconds in
// range is taken however it is written, and normalized.
func TestNumbersByValue(t *testing.T) {
	bin := buildAskuser(t)
	tests := []struct {
		in   string
		want int64
	}{
		{"-0", 0},
		{"-0.0", 0},
		{"1.0", 1},
		{"1E3", 1000},
		{"0.1e1", 1},
		{"60000.000", 60000},
		{"6e4", 60000},
		{"9007199254740991", 9007199254740991},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			r := runDetached(t, bin, []byte(`{"questions":[{"title":"a"}],"timeoutPerQuestionMs":`+tt.in+`}`), "validate", "-")
			if r.code != 0 {
				t.Fatalf("validate exited %d: %s", r.code, r.stderr)
			}
			var rep struct {
				Valid   bool
				Request struct{ TimeoutPerQuestionMs *int64 }
			}
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatal(err)
			}
			if !rep.Valid || rep.Request.TimeoutPerQuestionMs == nil || *rep.Request.TimeoutPerQuestionMs != tt.want {
				t.Errorf("validate: %s; want timeoutPerQuestionMs %d", r.stdout, tt.want)
			}
		})
	}
}
