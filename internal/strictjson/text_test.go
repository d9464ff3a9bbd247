package strictjson

import (
	"strings"
	"testing"
)

func TestRules(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"required empty", requiredProblem("", "say why"), "is required: say why"},
		{"required blank", requiredProblem(" \t\u00a0", "say why"), "must not be blank: say why"},
		{"required", requiredProblem("x", "say why"), ""},
		{"required after a space", requiredProblem(" x", "say why"), ""},
		{"text within", textProblem("héllo", 5, true), ""},
		{"text too long", textProblem("héllo!", 5, false), "is 6 characters long; the limit is 5"},
		{"text not UTF-8, typed", textProblem("a\xffb", 5, true), "is not valid UTF-8"},
		{"text not UTF-8, decoded", textProblem("a\xffb", 5, false), ""},
		{"quote", Quote("a\x1bb"), `"a\x1bb"`},
		{"quote long", Quote(strings.Repeat("é", 40)), `"` + strings.Repeat("é", 40) + `"`},
		{"quote cut", Quote(strings.Repeat("x", 81)), `"` + strings.Repeat("x", 60) + `…"`},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestBlank(t *testing.T) {
	for s, want := range map[string]bool{"": true, " ": true, "\u3000\n": true, "x": false, " x ": false, "é": false, "\u00a0é": false} {
		if got := Blank(s); got != want || got != (strings.TrimSpace(s) == "") {
			t.Errorf("Blank(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestSize(t *testing.T) {
	if got, want := TooLarge(-1, 1<<10, "send less"), "the request is over the 1024-byte limit (1 KiB): send less"; got != want {
		t.Errorf("TooLarge(-1) = %q, want %q", got, want)
	}
	if got, want := TooLarge(2000, 1<<10, "send less"), "the request is 2000 bytes long, over the 1024-byte limit (1 KiB): send less"; got != want {
		t.Errorf("TooLarge(2000) = %q, want %q", got, want)
	}
	v := map[string]string{"text": strings.Repeat("x", 600)}
	tests := []struct {
		name        string
		v           any
		text, limit int
		want        string
	}{
		{"text under half the limit", v, 600, 1201, ""},
		{"at the limit", v, 600, 611, ""},
		{"over the limit", v, 600, 610, "the request is 611 bytes long, over the 610-byte limit (0 KiB): send less"},
		{"a func", func() {}, 600, 1000, "the request cannot be encoded as JSON: json: unsupported type: func()"},
	}
	for _, tt := range tests {
		if got := SizeProblem(tt.v, tt.text, tt.limit, "send less"); got != tt.want {
			t.Errorf("%s: SizeProblem = %q, want %q", tt.name, got, tt.want)
		}
	}
}
