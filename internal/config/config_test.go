package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/prefs"
)

func ptr[T any](v T) *T { return &v }

// P is a contract.Problem written as a local type, so that tables can use
// short unkeyed literals.
type P struct{ Path, Message string }

func problems(ps []P) []contract.Problem {
	if ps == nil {
		return nil
	}
	out := make([]contract.Problem, len(ps))
	for i, p := range ps {
		out[i] = contract.Problem(p)
	}
	return out
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want prefs.Prefs
	}{
		{"empty", "", prefs.Prefs{}},
		{"whitespace", " \t\r\n\n ", prefs.Prefs{}},
		{"unicode whitespace", "\u00a0\u3000\n\u2028", prefs.Prefs{}},
		{"empty object", "{}", prefs.Prefs{}},
		{"contract example", `{
  "mode": "custom",
  "displayMode": "overlay",
  "overlayToggleKey": "alt+o",
  "timeoutPerQuestionMs": 60000
}`, prefs.Prefs{Mode: contract.RouteCustom, DisplayMode: contract.DisplayOverlay, ToggleKey: ptr("alt+o"), TimeoutPerQuestionMs: ptr[int64](60000)}},
		{"native inline", `{"mode":"native","displayMode":"inline"}`, prefs.Prefs{Mode: contract.RouteNative, DisplayMode: contract.DisplayInline}},
		{"toggle canonicalized", `{"overlayToggleKey": "Shift+Ctrl+H"}`, prefs.Prefs{ToggleKey: ptr("ctrl+shift+h")}},
		{"toggle pi name", `{"overlayToggleKey": "ctrl+pageUp"}`, prefs.Prefs{ToggleKey: ptr("ctrl+pgup")}},
		{"toggle null", `{"overlayToggleKey": null}`, prefs.Prefs{ToggleKey: ptr("")}},
		{"toggle off", `{"overlayToggleKey": "off"}`, prefs.Prefs{ToggleKey: ptr("")}},
		{"toggle none", `{"overlayToggleKey": "none"}`, prefs.Prefs{ToggleKey: ptr("")}},
		{"toggle disabled", `{"overlayToggleKey": "disabled"}`, prefs.Prefs{ToggleKey: ptr("")}},
		{"toggle OFF", `{"overlayToggleKey": "OFF"}`, prefs.Prefs{ToggleKey: ptr("")}},
		{"timeout zero", `{"timeoutPerQuestionMs": 0}`, prefs.Prefs{TimeoutPerQuestionMs: ptr[int64](0)}},
		{"timeout negative zero", `{"timeoutPerQuestionMs": -0}`, prefs.Prefs{TimeoutPerQuestionMs: ptr[int64](0)}},
		{"timeout exponent", `{"timeoutPerQuestionMs": 6e4}`, prefs.Prefs{TimeoutPerQuestionMs: ptr[int64](60000)}},
		{"tool ask_user", `{"tool": "ask_user"}`, prefs.Prefs{Tool: prefs.ToolAskUser}},
		{"tool AskUserQuestion", `{"tool": "AskUserQuestion"}`, prefs.Prefs{Tool: prefs.ToolAskUserQuestion}},
		{"hub auto", `{"hub": "auto"}`, prefs.Prefs{Hub: prefs.HubAuto}},
		{"hub off", `{"hub": "off"}`, prefs.Prefs{Hub: prefs.HubOff}},
		{"timeout whole fraction", `{"timeoutPerQuestionMs": 1500.000}`, prefs.Prefs{TimeoutPerQuestionMs: ptr[int64](1500)}},
		{"timeout fraction exponent", `{"timeoutPerQuestionMs": 1.5E3}`, prefs.Prefs{TimeoutPerQuestionMs: ptr[int64](1500)}},
		{"timeout negative exponent", `{"timeoutPerQuestionMs": 150000e-2}`, prefs.Prefs{TimeoutPerQuestionMs: ptr[int64](1500)}},
		{"timeout max", `{"timeoutPerQuestionMs": 9007199254740991}`, prefs.Prefs{TimeoutPerQuestionMs: ptr[int64](MaxTimeoutPerQuestionMs)}},
		{"escaped key", `{"mo\u0064e": "custom"}`, prefs.Prefs{Mode: contract.RouteCustom}},
		{"unicode elsewhere", "{\"overlayToggleKey\": \"alt+o\"}\n", prefs.Prefs{ToggleKey: ptr("alt+o")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse("cfg.json", []byte(tt.in))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse (-want +got):\n%s", diff)
			}
			if err := CheckPrefs("cfg.json", got); err != nil {
				t.Errorf("CheckPrefs of parsed prefs: %v", err)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []P
	}{
		// Not JSON, or not an object.
		{"syntax", `{"mode": "custom" "displayMode": "inline"}`, []P{{"", "invalid JSON: invalid character '\"' after object key:value pair (line 1, column 19)"}}},
		{"syntax on line 3", "{\n  \"mode\": \"custom\",\n  \"displayMode\": inline\n}", []P{{"", "invalid JSON: invalid character 'i' looking for beginning of value (line 3, column 18)"}}},
		{"trailing comma", `{"mode": "custom",}`, []P{{"", "invalid JSON: invalid character '}' looking for beginning of object key string; JSON allows no comma after the last item (line 1, column 19)"}}},
		{"comment", "{\n  // no\n}", []P{{"", "invalid JSON: invalid character '/' looking for beginning of object key string; JSON has no comments (line 2, column 3)"}}},
		{"single quotes", `{'mode': 'custom'}`, []P{{"", "invalid JSON: invalid character '\\'' looking for beginning of object key string; JSON strings use double quotes (line 1, column 2)"}}},
		{"unterminated", `{"mode": "cus`, []P{{"", "invalid JSON: unexpected end of input; a string, array or object is not closed (line 1, column 14)"}}},
		{"trailing data", "{}\n{}", []P{{"", "invalid JSON: unexpected data after the config object (line 2, column 1)"}}},
		{"trailing garbage", `{} x`, []P{{"", "invalid JSON: unexpected data after the config object (line 1, column 4)"}}},
		{"array", `["mode"]`, []P{{"", `the config must be a JSON object such as {"overlayToggleKey": "alt+o"}, not an array (line 1, column 1)`}}},
		{"string", ` "custom"`, []P{{"", `the config must be a JSON object such as {"overlayToggleKey": "alt+o"}, not the string "custom" (line 1, column 2)`}}},
		{"null", `null`, []P{{"", `the config must be a JSON object such as {"overlayToggleKey": "alt+o"}, not null (line 1, column 1)`}}},
		{"number", `60000`, []P{{"", `the config must be a JSON object such as {"overlayToggleKey": "alt+o"}, not a number (line 1, column 1)`}}},
		{"bom", "\xef\xbb\xbf{}", []P{{"", "byte order mark at the start; save as UTF-8 without one"}}},
		{"invalid utf-8", "{\"mode\": \"cust\xffom\"}", []P{{"", "not valid UTF-8 (line 1, column 15)"}}},
		{"invalid utf-8 after text", "{\n\"é\": \xc3}", []P{{"", "not valid UTF-8 (line 2, column 6)"}}},
		// Keys.
		{"unknown key", `{"theme": "dark"}`, []P{{"theme", "unknown key; the config keys are mode, displayMode, overlayToggleKey, timeoutPerQuestionMs, tool, notify and hub (line 1, column 2)"}}},
		{"unknown key with odd characters", "{\"a b\\u001b\": 1}", []P{{`["a b\x1b"]`, "unknown key; the config keys are mode, displayMode, overlayToggleKey, timeoutPerQuestionMs, tool, notify and hub (line 1, column 2)"}}},
		{"empty key", `{"": 1}`, []P{{`[""]`, "unknown key; the config keys are mode, displayMode, overlayToggleKey, timeoutPerQuestionMs, tool, notify and hub (line 1, column 2)"}}},
		{"legacy key", `{"timeout": 5}`, []P{{"timeout", "unknown key; the config keys are mode, displayMode, overlayToggleKey, timeoutPerQuestionMs, tool, notify and hub (line 1, column 2)"}}},
		{"tool case", `{"tool": "askuserquestion"}`, []P{{"tool", `must be "ask_user" or "AskUserQuestion", got "askuserquestion" (line 1, column 10)`}}},
		{"tool null", `{"tool": null}`, []P{{"tool", `must be "ask_user" or "AskUserQuestion", got null; omit tool for the default, ask_user (line 1, column 10)`}}},
		{"hub on", `{"hub": "on"}`, []P{{"hub", `must be "auto", "off" or an object naming a remote hub, {"url": …, "credentials": …, "recipients": […]}, got "on" (line 1, column 9)`}}},
		{"hub false", `{"hub": false}`, []P{{"hub", `must be "auto", "off" or an object naming a remote hub, {"url": …, "credentials": …, "recipients": […]}, got a boolean (line 1, column 9)`}}},
		{"key case", `{"Mode": "custom"}`, []P{{"Mode", `unknown key; keys are case-sensitive: write "mode" (line 1, column 2)`}}},
		{"key case toggle", `{"overlaytogglekey": "alt+o"}`, []P{{"overlaytogglekey", `unknown key; keys are case-sensitive: write "overlayToggleKey" (line 1, column 2)`}}},
		{"duplicate key", "{\"mode\": \"custom\",\n \"mode\": \"native\"}", []P{{"mode", "duplicate key; it is first set at line 1, column 2 (line 2, column 2)"}}},
		{"duplicate invalid key", `{"mode": "custom", "mode": 1}`, []P{{"mode", "duplicate key; it is first set at line 1, column 2 (line 1, column 20)"}}},
		// mode and displayMode.
		{"mode value", `{"mode": "tui"}`, []P{{"mode", `must be "custom" or "native", got "tui" (line 1, column 10)`}}},
		{"mode case", `{"mode": "Custom"}`, []P{{"mode", `must be "custom" or "native", got "Custom" (line 1, column 10)`}}},
		{"mode empty", `{"mode": ""}`, []P{{"mode", `must be "custom" or "native", got "" (line 1, column 10)`}}},
		{"mode null", `{"mode": null}`, []P{{"mode", `must be "custom" or "native", got null; omit mode to let askuser choose the route (line 1, column 10)`}}},
		{"mode number", `{"mode": 1}`, []P{{"mode", `must be "custom" or "native", got a number (line 1, column 10)`}}},
		{"mode bool", `{"mode": true}`, []P{{"mode", `must be "custom" or "native", got a boolean (line 1, column 10)`}}},
		{"mode array", `{"mode": ["custom"]}`, []P{{"mode", `must be "custom" or "native", got an array (line 1, column 10)`}}},
		{"mode object", `{"mode": {}}`, []P{{"mode", `must be "custom" or "native", got an object (line 1, column 10)`}}},
		{"mode long value", `{"mode": "` + strings.Repeat("x", 50) + `"}`, []P{{"mode", `must be "custom" or "native", got "` + strings.Repeat("x", 40) + `"… (line 1, column 10)`}}},
		{"mode control characters", `{"mode": "\u001b[31m"}`, []P{{"mode", `must be "custom" or "native", got "\x1b[31m" (line 1, column 10)`}}},
		{"displayMode value", `{"displayMode": "popup"}`, []P{{"displayMode", `must be "overlay" or "inline", got "popup" (line 1, column 17)`}}},
		{"displayMode null", `{"displayMode": null}`, []P{{"displayMode", `must be "overlay" or "inline", got null; omit displayMode for the default, overlay (line 1, column 17)`}}},
		{"displayMode bool", `{"displayMode": false}`, []P{{"displayMode", `must be "overlay" or "inline", got a boolean (line 1, column 17)`}}},
		// overlayToggleKey.
		{"toggle malformed", `{"overlayToggleKey": "alt+banana"}`, []P{{"overlayToggleKey", `unknown key "banana" in "alt+banana": want a letter a-z, a digit 0-9, a symbol such as - = [ ] ; ' , . /, or one of esc, enter, tab, space, backspace, delete, insert, clear, home, end, pageUp, pageDown, up, down, left, right, f1-f12 (line 1, column 22)`}}},
		{"toggle reserved", `{"overlayToggleKey": "escape"}`, []P{{"overlayToggleKey", `"escape" is reserved: esc must keep cancelling the questionnaire (line 1, column 22)`}}},
		{"toggle esc", `{"overlayToggleKey": "esc"}`, []P{{"overlayToggleKey", `"esc" is reserved: esc must keep cancelling the questionnaire (line 1, column 22)`}}},
		{"toggle enter", `{"overlayToggleKey": "enter"}`, []P{{"overlayToggleKey", `"enter" is reserved: enter selects and continues, and confirms text inputs (line 1, column 22)`}}},
		{"toggle pageUp", `{"overlayToggleKey": "pageUp"}`, []P{{"overlayToggleKey", `"pageUp" is reserved: pgup (page up) scrolls long forms and previews (line 1, column 22)`}}},
		{"toggle printable", `{"overlayToggleKey": "o"}`, []P{{"overlayToggleKey", `"o" types text: it would swallow typing in the questionnaire's inputs; add ctrl or alt, as in "alt+o" (line 1, column 22)`}}},
		{"toggle conflicting", `{"overlayToggleKey": "ctrl+c"}`, []P{{"overlayToggleKey", `"ctrl+c" conflicts with an existing binding: ctrl+c interrupts the program in terminals and in Pi (line 1, column 22)`}}},
		{"toggle alt+q", `{"overlayToggleKey": "alt+q"}`, []P{{"overlayToggleKey", `"alt+q" conflicts with an existing binding: alt+q cancels the questionnaire's countdown (line 1, column 22)`}}},
		{"toggle empty", `{"overlayToggleKey": ""}`, []P{{"overlayToggleKey", `must not be empty: write a chord such as "alt+o", or "off" to turn the toggle off (line 1, column 22)`}}},
		{"toggle false", `{"overlayToggleKey": false}`, []P{{"overlayToggleKey", `must be a key chord such as "alt+o", or null, "off", "none" or "disabled" to turn the toggle off; got a boolean (line 1, column 22)`}}},
		{"toggle array", `{"overlayToggleKey": ["alt+o"]}`, []P{{"overlayToggleKey", `must be a key chord such as "alt+o", or null, "off", "none" or "disabled" to turn the toggle off; got an array (line 1, column 22)`}}},
		// timeoutPerQuestionMs.
		{"timeout negative", `{"timeoutPerQuestionMs": -1}`, []P{{"timeoutPerQuestionMs", "must not be negative, got -1; use 0 for no deadline (line 1, column 26)"}}},
		{"timeout negative fraction", `{"timeoutPerQuestionMs": -0.5}`, []P{{"timeoutPerQuestionMs", "must not be negative, got -0.5; use 0 for no deadline (line 1, column 26)"}}},
		{"timeout fraction", `{"timeoutPerQuestionMs": 1.5}`, []P{{"timeoutPerQuestionMs", "must be a whole number of milliseconds, got 1.5 (line 1, column 26)"}}},
		{"timeout tiny", `{"timeoutPerQuestionMs": 1e-3}`, []P{{"timeoutPerQuestionMs", "must be a whole number of milliseconds, got 1e-3 (line 1, column 26)"}}},
		{"timeout above 2^53-1", `{"timeoutPerQuestionMs": 9007199254740992}`, []P{{"timeoutPerQuestionMs", "must be at most 9007199254740991 milliseconds, got 9007199254740992 (line 1, column 26)"}}},
		{"timeout huge", `{"timeoutPerQuestionMs": 1e20}`, []P{{"timeoutPerQuestionMs", "must be at most 9007199254740991 milliseconds, got 1e20 (line 1, column 26)"}}},
		{"timeout enormous exponent", `{"timeoutPerQuestionMs": 1e999999999999}`, []P{{"timeoutPerQuestionMs", "must be at most 9007199254740991 milliseconds, got 1e999999999999 (line 1, column 26)"}}},
		{"timeout enormous negative exponent", `{"timeoutPerQuestionMs": 5e-999999999999}`, []P{{"timeoutPerQuestionMs", "must be a whole number of milliseconds, got 5e-999999999999 (line 1, column 26)"}}},
		{"timeout string", `{"timeoutPerQuestionMs": "60000"}`, []P{{"timeoutPerQuestionMs", `must be a number of milliseconds (0 for no deadline), got the string "60000"; write the number without quotes (line 1, column 26)`}}},
		{"timeout word", `{"timeoutPerQuestionMs": "never"}`, []P{{"timeoutPerQuestionMs", `must be a number of milliseconds (0 for no deadline), got the string "never" (line 1, column 26)`}}},
		{"timeout null", `{"timeoutPerQuestionMs": null}`, []P{{"timeoutPerQuestionMs", `must be a number of milliseconds (0 for no deadline), got null (line 1, column 26)`}}},
		{"timeout bool", `{"timeoutPerQuestionMs": true}`, []P{{"timeoutPerQuestionMs", `must be a number of milliseconds (0 for no deadline), got a boolean (line 1, column 26)`}}},
		// Every problem at once, in document order.
		{"many", `{
  "mode": "tui",
  "displayMode": "inline",
  "Theme": 1,
  "overlayToggleKey": "o",
  "timeoutPerQuestionMs": -5,
  "mode": "custom"
}`, []P{
			{"mode", `must be "custom" or "native", got "tui" (line 2, column 11)`},
			{"Theme", "unknown key; the config keys are mode, displayMode, overlayToggleKey, timeoutPerQuestionMs, tool, notify and hub (line 4, column 3)"},
			{"overlayToggleKey", `"o" types text: it would swallow typing in the questionnaire's inputs; add ctrl or alt, as in "alt+o" (line 5, column 23)`},
			{"timeoutPerQuestionMs", "must not be negative, got -5; use 0 for no deadline (line 6, column 27)"},
			{"mode", "duplicate key; it is first set at line 2, column 3 (line 7, column 3)"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse("cfg.json", []byte(tt.in))
			if err == nil {
				t.Fatalf("Parse = %+v, want an error", got)
			}
			if diff := cmp.Diff(prefs.Prefs{}, got); diff != "" {
				t.Errorf("Parse returned prefs with an error (-want +got):\n%s", diff)
			}
			cerr, ok := errors.AsType[*Error](err)
			if !ok {
				t.Fatalf("error is %T, want *Error: %v", err, err)
			}
			if cerr.File != "cfg.json" {
				t.Errorf("File = %q, want cfg.json", cerr.File)
			}
			if cerr.Code() != contract.ErrInvalidConfig {
				t.Errorf("Code() = %q, want %q", cerr.Code(), contract.ErrInvalidConfig)
			}
			if diff := cmp.Diff(problems(tt.want), cerr.Problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestErrorMessage(t *testing.T) {
	_, err := Parse("/home/u/.pi/agent/ask-user.json", []byte(`{"mode": "tui", "timeoutPerQuestionMs": -1}`))
	want := `/home/u/.pi/agent/ask-user.json: invalid config: mode: must be "custom" or "native", got "tui" (line 1, column 10); timeoutPerQuestionMs: must not be negative, got -1; use 0 for no deadline (line 1, column 41)`
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("Error() (-want +got):\n%s", diff)
	}
	e := &Error{File: "f.json", Problems: []contract.Problem{{Message: "not valid UTF-8"}}}
	if diff := cmp.Diff("f.json: invalid config: not valid UTF-8", e.Error()); diff != "" {
		t.Errorf("Error() without a path (-want +got):\n%s", diff)
	}
}

func TestParseOptions(t *testing.T) {
	got, err := ParseOptions([]byte(`{"mode": "native", "overlayToggleKey": null, "timeoutPerQuestionMs": 0}`))
	if err != nil {
		t.Fatal(err)
	}
	want := prefs.Prefs{Mode: contract.RouteNative, ToggleKey: ptr(""), TimeoutPerQuestionMs: ptr[int64](0)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseOptions (-want +got):\n%s", diff)
	}

	// configFile belongs to the shim, not to the options it forwards.
	_, err = ParseOptions([]byte(`{"configFile": false, "mode": "gui"}`))
	wantMsg := `options: invalid config: configFile: unknown key; the config keys are mode, displayMode, overlayToggleKey, timeoutPerQuestionMs, tool, notify and hub (line 1, column 2); mode: must be "custom" or "native", got "gui" (line 1, column 31)`
	if err == nil {
		t.Fatal("ParseOptions accepted configFile and a bad mode")
	}
	if diff := cmp.Diff(wantMsg, err.Error()); diff != "" {
		t.Errorf("ParseOptions error (-want +got):\n%s", diff)
	}
	if e, ok := errors.AsType[*Error](err); !ok || e.File != OptionsSource {
		t.Errorf("error %#v does not name the source %q", err, OptionsSource)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}

	t.Run("missing", func(t *testing.T) {
		got, err := Load(filepath.Join(dir, "nope.json"))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(prefs.Prefs{}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("valid", func(t *testing.T) {
		got, err := Load(write("ok.json", `{"displayMode": "inline"}`))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(prefs.Prefs{DisplayMode: contract.DisplayInline}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("empty", func(t *testing.T) {
		got, err := Load(write("empty.json", "\n"))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(prefs.Prefs{}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})

	bad := []struct {
		name string
		path func(t *testing.T) string
		want string // message of the single problem, which concerns the whole file
		is   error
	}{
		{"directory", func(t *testing.T) string {
			p := filepath.Join(dir, "adir")
			if err := os.Mkdir(p, 0o700); err != nil {
				t.Fatal(err)
			}
			return p
		}, "is a directory; the config must be a JSON file", nil},
		{"dangling symlink", func(t *testing.T) string {
			p := filepath.Join(dir, "link.json")
			if err := os.Symlink(filepath.Join(dir, "gone.json"), p); err != nil {
				t.Fatal(err)
			}
			return p
		}, "is a symbolic link to a file that does not exist", fs.ErrNotExist},
		{"fifo", func(t *testing.T) string {
			p := filepath.Join(dir, "fifo.json")
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Skipf("cannot make a FIFO here: %v", err)
			}
			return p
		}, "is not a regular file", nil},
		{"parent is a file", func(t *testing.T) string {
			return filepath.Join(write("plain", "x"), "ask-user.json")
		}, "cannot read the file: not a directory", syscall.ENOTDIR},
		{"too large", func(t *testing.T) string {
			return write("big.json", "{"+strings.Repeat(" ", MaxFileSize)+"}")
		}, "is larger than 64 KiB; a config file holds a few settings", nil},
		{"unreadable", func(t *testing.T) string {
			if os.Geteuid() == 0 {
				t.Skip("running as root, which reads a file whatever its mode")
			}
			p := write("secret.json", "{}")
			if err := os.Chmod(p, 0); err != nil {
				t.Fatal(err)
			}
			return p
		}, "cannot read the file: permission denied", fs.ErrPermission},
		{"read error", func(t *testing.T) string {
			// A regular file whose every read fails (reading address 0).
			const p = "/proc/self/mem"
			if _, err := os.Stat(p); err != nil {
				t.Skipf("no %s here: %v", p, err)
			}
			return p
		}, "cannot read the file: input/output error", syscall.EIO},
		{"no path", func(t *testing.T) string { return "" }, "no config file path given", nil},
	}
	t.Run("invalid", func(t *testing.T) {
		p := write("bad.json", `{"mode": 1}`)
		_, err := Load(p)
		e, ok := errors.AsType[*Error](err)
		if !ok {
			t.Fatalf("error is %T, want *Error: %v", err, err)
		}
		want := &Error{File: p, Problems: []contract.Problem{{Path: "mode", Message: `must be "custom" or "native", got a number (line 1, column 10)`}}}
		if diff := cmp.Diff(want, e); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path(t)
			got, err := Load(path)
			if err == nil {
				t.Fatalf("Load(%q) = %+v, want an error", path, got)
			}
			e, ok := errors.AsType[*Error](err)
			if !ok {
				t.Fatalf("error is %T, want *Error: %v", err, err)
			}
			if path != "" && e.File != path {
				t.Errorf("File = %q, want %q", e.File, path)
			}
			if !strings.Contains(err.Error(), e.File) {
				t.Errorf("Error() %q does not name the file", err)
			}
			if diff := cmp.Diff([]contract.Problem{{Message: tt.want}}, e.Problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v does not wrap %v", err, tt.is)
			}
		})
	}
}

func TestPaths(t *testing.T) {
	if diff := cmp.Diff("/tmp/agent/ask-user.json", PiPath("/tmp/agent")); diff != "" {
		t.Errorf("PiPath (-want +got):\n%s", diff)
	}
	t.Setenv("XDG_CONFIG_HOME", "/cfg")
	got, err := StandalonePath()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("/cfg/askuser/config.json", got); diff != "" {
		t.Errorf("StandalonePath (-want +got):\n%s", diff)
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("HOME", "")
	if got, err := StandalonePath(); err == nil {
		t.Errorf("StandalonePath without HOME = %q, want an error", got)
	}
}

func TestCheckPrefs(t *testing.T) {
	tests := []struct {
		name string
		in   prefs.Prefs
		want []P
	}{
		{"zero", prefs.Prefs{}, nil},
		{"all valid", prefs.Prefs{Mode: contract.RouteCustom, DisplayMode: contract.DisplayInline, ToggleKey: ptr("Ctrl+O"), TimeoutPerQuestionMs: ptr[int64](0)}, nil},
		{"toggle disabled", prefs.Prefs{ToggleKey: ptr("")}, nil},
		{"toggle disable word", prefs.Prefs{ToggleKey: ptr("none")}, nil},
		{"max timeout", prefs.Prefs{TimeoutPerQuestionMs: ptr[int64](MaxTimeoutPerQuestionMs)}, nil},
		{"bad mode", prefs.Prefs{Mode: "tui"}, []P{{"mode", `must be "custom" or "native", got "tui"`}}},
		{"bad display", prefs.Prefs{DisplayMode: "Overlay"}, []P{{"displayMode", `must be "overlay" or "inline", got "Overlay"`}}},
		{"bad toggle", prefs.Prefs{ToggleKey: ptr("esc")}, []P{{"overlayToggleKey", `"esc" is reserved: esc must keep cancelling the questionnaire`}}},
		{"negative timeout", prefs.Prefs{TimeoutPerQuestionMs: ptr[int64](-1)}, []P{{"timeoutPerQuestionMs", "must not be negative, got -1; use 0 for no deadline"}}},
		{"huge timeout", prefs.Prefs{TimeoutPerQuestionMs: ptr[int64](MaxTimeoutPerQuestionMs + 1)}, []P{{"timeoutPerQuestionMs", "must be at most 9007199254740991 milliseconds, got 9007199254740992"}}},
		{"everything", prefs.Prefs{Mode: "x", DisplayMode: "y", ToggleKey: ptr("o"), TimeoutPerQuestionMs: ptr[int64](-2)}, []P{
			{"mode", `must be "custom" or "native", got "x"`},
			{"displayMode", `must be "overlay" or "inline", got "y"`},
			{"overlayToggleKey", `"o" types text: it would swallow typing in the questionnaire's inputs; add ctrl or alt, as in "alt+o"`},
			{"timeoutPerQuestionMs", "must not be negative, got -2; use 0 for no deadline"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckPrefs("flags", tt.in)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("CheckPrefs: %v", err)
				}
				return
			}
			e, ok := errors.AsType[*Error](err)
			if !ok {
				t.Fatalf("CheckPrefs error is %T, want *Error: %v", err, err)
			}
			if e.File != "flags" || e.Code() != contract.ErrInvalidConfig {
				t.Errorf("File, Code = %q, %q; want flags, invalid_config", e.File, e.Code())
			}
			if diff := cmp.Diff(problems(tt.want), e.Problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseToggle(t *testing.T) {
	tests := []struct {
		in, want, wantErr string
	}{
		{"alt+o", "alt+o", ""},
		{"Alt+O", "alt+o", ""},
		{"off", "", ""},
		{"None", "", ""},
		{"DISABLED", "", ""},
		{"", "", `must not be empty: write a chord such as "alt+o", or "off" to turn the toggle off`},
		{"offf", "", `unknown key "offf" in "offf": want a letter a-z, a digit 0-9, a symbol such as - = [ ] ; ' , . /, or one of esc, enter, tab, space, backspace, delete, insert, clear, home, end, pageUp, pageDown, up, down, left, right, f1-f12`},
		{"tab", "", `"tab" is reserved: tab switches to the next question tab`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseToggle(tt.in)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if diff := cmp.Diff(tt.wantErr, gotErr); diff != "" {
				t.Errorf("ParseToggle(%q) error (-want +got):\n%s", tt.in, diff)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseToggle(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name               string
		programmatic, file prefs.Prefs
		want               prefs.Effective
	}{
		{"defaults", prefs.Prefs{}, prefs.Prefs{}, prefs.Effective{ToggleKey: "alt+o"}},
		{"file only", prefs.Prefs{}, prefs.Prefs{Mode: contract.RouteNative, DisplayMode: contract.DisplayInline, ToggleKey: ptr("ctrl+o"), TimeoutPerQuestionMs: ptr[int64](5000)},
			prefs.Effective{Mode: contract.RouteNative, DisplayMode: contract.DisplayInline, ToggleKey: "ctrl+o", TimeoutPerQuestionMs: 5000, TimeoutSet: true}},
		{"programmatic only", prefs.Prefs{Mode: contract.RouteCustom, TimeoutPerQuestionMs: ptr[int64](0)}, prefs.Prefs{},
			prefs.Effective{Mode: contract.RouteCustom, ToggleKey: "alt+o", TimeoutPerQuestionMs: 0, TimeoutSet: true}},
		{"programmatic wins per knob", prefs.Prefs{Mode: contract.RouteCustom, ToggleKey: ptr("")}, prefs.Prefs{Mode: contract.RouteNative, DisplayMode: contract.DisplayInline, ToggleKey: ptr("ctrl+o"), TimeoutPerQuestionMs: ptr[int64](5000)},
			prefs.Effective{Mode: contract.RouteCustom, DisplayMode: contract.DisplayInline, ToggleKey: "", TimeoutPerQuestionMs: 5000, TimeoutSet: true}},
		{"file disables toggle", prefs.Prefs{}, prefs.Prefs{ToggleKey: ptr("")}, prefs.Effective{ToggleKey: ""}},
		{"programmatic re-enables toggle", prefs.Prefs{ToggleKey: ptr("alt+o")}, prefs.Prefs{ToggleKey: ptr("")}, prefs.Effective{ToggleKey: "alt+o"}},
		{"Go spelling canonicalized", prefs.Prefs{ToggleKey: ptr("Shift+Ctrl+PageUp")}, prefs.Prefs{}, prefs.Effective{ToggleKey: "ctrl+shift+pgup"}},
		{"Go disable word", prefs.Prefs{ToggleKey: ptr("off")}, prefs.Prefs{}, prefs.Effective{ToggleKey: ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Resolve(tt.programmatic, tt.file)
			if tt.want.Notify.Desktop == "" {
				tt.want.Notify = defaultNotify()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Resolve (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResolveDoesNotAlias(t *testing.T) {
	file := prefs.Prefs{TimeoutPerQuestionMs: ptr[int64](5)}
	e := Resolve(prefs.Prefs{}, file)
	*file.TimeoutPerQuestionMs = 7
	if e.TimeoutPerQuestionMs != 5 {
		t.Errorf("prefs.Effective changed with its source: %d", e.TimeoutPerQuestionMs)
	}
}

func TestForRequest(t *testing.T) {
	tests := []struct {
		name        string
		user        prefs.Prefs
		req         *contract.Request
		wantDisplay contract.DisplayMode
		wantTimeout int64
	}{
		{"nothing set", prefs.Prefs{}, &contract.Request{}, contract.DisplayOverlay, 60000},
		{"nil request", prefs.Prefs{}, nil, contract.DisplayOverlay, 60000},
		{"request values", prefs.Prefs{}, &contract.Request{DisplayMode: contract.DisplayInline, TimeoutPerQuestionMs: ptr[int64](1000)}, contract.DisplayInline, 1000},
		{"request no deadline", prefs.Prefs{}, &contract.Request{TimeoutPerQuestionMs: ptr[int64](0)}, contract.DisplayOverlay, 0},
		{"user beats request", prefs.Prefs{DisplayMode: contract.DisplayOverlay, TimeoutPerQuestionMs: ptr[int64](30000)}, &contract.Request{DisplayMode: contract.DisplayInline, TimeoutPerQuestionMs: ptr[int64](1000)}, contract.DisplayOverlay, 30000},
		{"user no deadline beats request", prefs.Prefs{TimeoutPerQuestionMs: ptr[int64](0)}, &contract.Request{TimeoutPerQuestionMs: ptr[int64](1000)}, contract.DisplayOverlay, 0},
		{"per knob", prefs.Prefs{DisplayMode: contract.DisplayInline}, &contract.Request{DisplayMode: contract.DisplayOverlay, TimeoutPerQuestionMs: ptr[int64](2000)}, contract.DisplayInline, 2000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, timeout := ForRequest(Resolve(prefs.Prefs{}, tt.user), tt.req)
			if diff := cmp.Diff(tt.wantDisplay, d); diff != "" {
				t.Errorf("display (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantTimeout, timeout); diff != "" {
				t.Errorf("timeout (-want +got):\n%s", diff)
			}
		})
	}
}

func BenchmarkParse(b *testing.B) {
	data := []byte(`{"mode": "custom", "displayMode": "overlay", "overlayToggleKey": "alt+o", "timeoutPerQuestionMs": 60000}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("cfg.json", data); err != nil {
			b.Fatal(err)
		}
	}
}
