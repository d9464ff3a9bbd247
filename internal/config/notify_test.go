package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/askuser/askuser/prefs"
	"github.com/google/go-cmp/cmp"
)

func TestParseNotify(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want prefs.Notify
	}{
		{"empty", `{"notify": {}}`, prefs.Notify{}},
		{"all", `{"notify": {"bell": false, "desktop": true, "title": false, "command": ["ntfy", "publish", "topic"]}}`,
			prefs.Notify{Bell: ptr(false), Desktop: prefs.DesktopOn, Title: ptr(false), Command: []string{"ntfy", "publish", "topic"}}},
		{"desktop off", `{"notify": {"desktop": false}}`, prefs.Notify{Desktop: prefs.DesktopOff}},
		{"desktop osc9", `{"notify": {"desktop": "osc9"}}`, prefs.Notify{Desktop: prefs.DesktopOSC9}},
		{"desktop osc777", `{"notify": {"desktop": "osc777"}}`, prefs.Notify{Desktop: prefs.DesktopOSC777}},
		{"desktop osc99", `{"notify": {"desktop": "osc99"}}`, prefs.Notify{Desktop: prefs.DesktopOSC99}},
		{"command null", `{"notify": {"command": null}}`, prefs.Notify{Command: []string{}}},
		{"command empty argument", `{"notify": {"command": ["echo", ""]}}`, prefs.Notify{Command: []string{"echo", ""}}},
		{"command escaped surrogate pair", `{"notify": {"command": ["echo", "\ud83d\ude00"]}}`, prefs.Notify{Command: []string{"echo", "\U0001F600"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse("cfg.json", []byte(tt.in))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tt.want, got.Notify); diff != "" {
				t.Errorf("Parse (-want +got):\n%s", diff)
			}
			if err := CheckPrefs("cfg.json", got); err != nil {
				t.Errorf("CheckPrefs of parsed prefs: %v", err)
			}
		})
	}
}

func TestParseNotifyErrors(t *testing.T) {
	long := strings.Repeat("a", MaxCommandArgLen+1)
	tests := []struct {
		name string
		in   string
		want []P
	}{
		{"not an object", `{"notify": true}`, []P{{"notify", `must be an object such as {"bell": true, "desktop": false}, got a boolean (line 1, column 12)`}}},
		{"bell string", `{"notify": {"bell": "yes"}}`, []P{{"notify.bell", `must be true or false, got the string "yes" (line 1, column 13)`}}},
		{"title null", `{"notify": {"title": null}}`, []P{{"notify.title", `must be true or false, got null (line 1, column 13)`}}},
		{"desktop word", `{"notify": {"desktop": "osc8"}}`, []P{{"notify.desktop", `must be true, false, "osc9", "osc777" or "osc99", got "osc8" (line 1, column 13)`}}},
		{"desktop number", `{"notify": {"desktop": 9}}`, []P{{"notify.desktop", `must be true, false, "osc9", "osc777" or "osc99", got a number (line 1, column 13)`}}},
		{"command string", `{"notify": {"command": "ntfy pub"}}`, []P{{"notify.command", `must be an array of strings, a program and its arguments, or null; got the string "ntfy pub" (line 1, column 13)`}}},
		{"command empty", `{"notify": {"command": []}}`, []P{{"notify.command", `must name a program, as in ["notify-send", "askuser"]; write null for no command (line 1, column 13)`}}},
		{"command number item", `{"notify": {"command": ["a", 1]}}`, []P{{"notify.command[1]", `must be a string, got a number (line 1, column 13)`}}},
		{"command empty program", `{"notify": {"command": [""]}}`, []P{{"notify.command[0]", `the program must not be empty (line 1, column 13)`}}},
		{"command lone surrogate", `{"notify": {"command": ["a", "x\ud800"]}}`, []P{{"notify.command[1]", `holds an unpaired surrogate escape, which is not text; write the character itself (line 1, column 13)`}}},
		{"command reversed surrogates", `{"notify": {"command": ["\udc00\ud800"]}}`, []P{{"notify.command[0]", `holds an unpaired surrogate escape, which is not text; write the character itself (line 1, column 13)`}}},
		{"command NUL", `{"notify": {"command": ["a\u0000b"]}}`, []P{{"notify.command[0]", `must not contain a NUL character (line 1, column 13)`}}},
		{"command long", `{"notify": {"command": ["a", "` + long + `"]}}`, []P{{"notify.command[1]", `is 4097 bytes long; an argument has at most 4096 (line 1, column 13)`}}},
		{"unknown", `{"notify": {"sound": true}}`, []P{{"notify.sound", `unknown key; the keys of notify are bell, desktop, title, command (line 1, column 13)`}}},
		{"case", `{"notify": {"Bell": true}}`, []P{{"notify.Bell", `unknown key; keys are case-sensitive: write "bell" (line 1, column 13)`}}},
		{"duplicate", `{"notify": {"bell": true, "bell": false}}`, []P{{"notify.bell", `duplicate key (line 1, column 27)`}}},
		{"several", `{"notify": {"bell": 1, "title": 2}}`, []P{
			{"notify.bell", `must be true or false, got a number (line 1, column 13)`},
			{"notify.title", `must be true or false, got a number (line 1, column 24)`},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("cfg.json", []byte(tt.in))
			ce, ok := errors.AsType[*Error](err)
			if !ok {
				t.Fatalf("Parse error = %v, want *Error", err)
			}
			if ce.File != "cfg.json" {
				t.Errorf("File = %q", ce.File)
			}
			if diff := cmp.Diff(problems(tt.want), ce.Problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheckPrefsNotify(t *testing.T) {
	err := CheckPrefs(OptionsSource, prefs.Prefs{Notify: prefs.Notify{Desktop: "loud", Command: []string{""}}})
	want := `options: invalid config: notify.desktop: must be true, false, "osc9", "osc777" or "osc99", got "loud"; notify.command[0]: the program must not be empty`
	if err == nil || err.Error() != want {
		t.Errorf("CheckPrefs = %v\nwant %s", err, want)
	}
	if err := CheckPrefs(OptionsSource, prefs.Prefs{Notify: prefs.Notify{Desktop: prefs.DesktopOSC99, Command: []string{"x"}}}); err != nil {
		t.Errorf("CheckPrefs of valid notify: %v", err)
	}
}

func TestResolveNotify(t *testing.T) {
	tests := []struct {
		name               string
		programmatic, file prefs.Notify
		want               prefs.NotifyPrefs
	}{
		{"defaults", prefs.Notify{}, prefs.Notify{}, prefs.NotifyPrefs{Bell: true, Title: true, Desktop: prefs.DesktopAuto}},
		{"file", prefs.Notify{}, prefs.Notify{Bell: ptr(false), Desktop: prefs.DesktopOff, Command: []string{"a"}},
			prefs.NotifyPrefs{Bell: false, Title: true, Desktop: prefs.DesktopOff, Command: []string{"a"}}},
		{"programmatic wins per knob", prefs.Notify{Title: ptr(false), Command: []string{}}, prefs.Notify{Bell: ptr(false), Title: ptr(true), Command: []string{"a"}},
			prefs.NotifyPrefs{Bell: false, Title: false, Desktop: prefs.DesktopAuto}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Resolve(prefs.Prefs{Notify: tt.programmatic}, prefs.Prefs{Notify: tt.file}).Notify
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Resolve (-want +got):\n%s", diff)
			}
		})
	}
}
