package config_test

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"

	. "github.com/askuser/askuser/internal/config"

	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/prefs"
	"github.com/google/go-cmp/cmp"
)

// position matches the part of Parse's messages that white space moves.
var positionText = regexp.MustCompile(`line \d+, column \d+`)

type parseVerdict struct {
	Prefs prefs.Prefs
	Err   string
}

// parseLine is Parse's verdict on data without the positions in it.
func parseLine(data []byte) parseVerdict {
	p, err := Parse("cfg.json", data)
	if err == nil {
		return parseVerdict{Prefs: p}
	}
	return parseVerdict{Prefs: p, Err: positionText.ReplaceAllString(err.Error(), "line L, column C")}
}

// jsonProblem reports whether err has a problem with the JSON itself
// rather than with what it says.
func jsonProblem(err error) bool {
	e, ok := errors.AsType[*Error](err)
	if !ok {
		return true
	}
	for _, p := range e.Problems {
		for _, s := range []string{"invalid JSON", "not valid UTF-8", "duplicate key", "byte order mark", "re-reading"} {
			if strings.Contains(p.Message, s) {
				return true
			}
		}
	}
	return false
}

// FuzzParseJSON holds Parse to encoding/json: on a clean text json.Valid
// accepts it finds no problem with the JSON itself; a duplicate key or
// bad text anywhere is refused; and white space changes neither the
// verdict, nor the problems, nor the prefs.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		`{"mode": "custom", "displayMode": "overlay", "overlayToggleKey": "alt+o", "timeoutPerQuestionMs": 60000}`,
		`{"notify": {"bell": true, "title": false, "desktop": "osc9", "command": ["notify-send", "askuser"]}, "tool": "AskUserQuestion"}`,
		`{"notify":  {"bell": true}, "notify": {"bell": false}}`,
		`{"notify": {"bell": true, "bell": false}}`,
		`{"notify": {"command": ["x", "\ud800"]}}`,
		`{"overlayToggleKey": null, "x": {"a": 1, "a": 2}}`,
		`{"hub": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + Pub + `"], "idleMs": 6e4}}`,
		`{"hub": {"url": "nats://a:1", "url": "nats://b:1", "recipients": ["\ud800"]}}`,
	} {
		f.Add(s, []byte{0x17, 0x01}, uint(0))
	}
	f.Fuzz(func(t *testing.T, in string, seed []byte, n uint) {
		testkit.FuzzBound(t, in, func() {
			data := []byte(in)
			if !json.Valid(data) {
				return
			}
			_, err := Parse("cfg.json", data)
			info := testkit.InspectJSON(data)
			switch {
			case info.Duplicate || info.BadText:
				if err == nil {
					t.Fatalf("Parse(%q) accepted a duplicate key or bad text", in)
				}
			case err != nil && jsonProblem(err):
				t.Fatalf("Parse(%q) = %v; encoding/json reads it cleanly", in, err)
			}
			want := parseLine(data)
			for _, form := range testkit.Forms(data, seed) {
				if diff := cmp.Diff(want, parseLine(form)); diff != "" {
					t.Fatalf("Parse of %q and of %q (-first +second):\n%s", in, form, diff)
				}
			}
			if dup, ok := testkit.WithDuplicate(data, n); ok {
				for _, form := range [][]byte{dup, testkit.Respace(dup, seed)} {
					if _, err := Parse("cfg.json", form); err == nil {
						t.Fatalf("Parse(%q) accepted a duplicate key", form)
					}
				}
			}
		})
	})
}
