package config_test

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	. "github.com/askuser/askuser/internal/config"

	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/prefs"
	"github.com/google/go-cmp/cmp"
)

// FuzzParse checks that Parse never panics; that what it accepts passes
// CheckPrefs and survives a round trip through JSON; and that what it
// refuses comes as an *Error whose message is safe to print.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"",
		"{}",
		`{"mode": "custom", "displayMode": "overlay", "overlayToggleKey": "alt+o", "timeoutPerQuestionMs": 60000}`,
		`{"overlayToggleKey": null, "timeoutPerQuestionMs": 6e4}`,
		`{"overlayToggleKey": "escape", "Mode": 1, "mode": "x", "mode": "y"}`,
		`{"timeoutPerQuestionMs": 1e999999999}`,
		`{"a": 1,}`,
		"\xef\xbb\xbf{}",
		"{\"\xff\": 1}",
		`[{"mode": "custom"}]`,
		`{"hub": {"url": "tls://a:4222,nats://b:4222", "credentials": "/c/agent.creds", "recipients": ["` + Pub + `"], "idleMs": 5000}}`,
		`{"hub": {"url": "nats://a", "credentials": "c", "recipients": ["askuser-pub-x", 1], "idleMs": 0, "url": 2}}`,
		`{"hub": "off", "tool": "AskUserQuestion"}`,
	} {
		f.Add([]byte(s))
	}
	for _, n := range testkit.FuzzNumbers() {
		f.Add([]byte(`{"timeoutPerQuestionMs": ` + n + `}`))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		testkit.FuzzBound(t, data, func() {
			got, err := Parse("cfg.json", data)
			if err != nil {
				e, ok := errors.AsType[*Error](err)
				if !ok {
					t.Fatalf("error is %T, want *Error: %v", err, err)
				}
				if len(e.Problems) == 0 {
					t.Fatalf("*Error without problems")
				}
				if diff := cmp.Diff(prefs.Prefs{}, got); diff != "" {
					t.Fatalf("Prefs returned with an error (-want +got):\n%s", diff)
				}
				msg := err.Error()
				if !strings.HasPrefix(msg, "cfg.json: ") {
					t.Fatalf("message does not name the file: %q", msg)
				}
				if !utf8.ValidString(msg) || strings.ContainsFunc(msg, unicode.IsControl) {
					t.Fatalf("message holds raw control characters or bad UTF-8: %q", msg)
				}
				return
			}
			if err := CheckPrefs("cfg.json", got); err != nil {
				t.Fatalf("CheckPrefs of accepted preferences: %v", err)
			}
			again, err := Parse("cfg.json", Encode(t, got))
			if err != nil {
				t.Fatalf("re-parsing %s: %v", Encode(t, got), err)
			}
			if diff := cmp.Diff(got, again); diff != "" {
				t.Fatalf("round trip (-first +second):\n%s", diff)
			}
		})
	})
}
