package contract_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	. "github.com/askuser/askuser/contract"

	"github.com/askuser/askuser/internal/strictjson"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/google/go-cmp/cmp"
)

// byteOffset matches the part of Parse's problems that white space moves.
var byteOffset = regexp.MustCompile(`byte offset \d+`)

type parseVerdict struct {
	Request  *Request
	Warnings []string
	Err      string
}

func parseVerdictOf(data []byte) parseVerdict {
	r, w, err := Parse(data)
	v := parseVerdict{Request: r, Warnings: w}
	if err != nil {
		v.Err = byteOffset.ReplaceAllString(err.Error(), "byte offset N")
	}
	return v
}

// jsonProblems are what Parse says of the JSON itself rather than of
// what it says.
var jsonProblems = []string{"invalid JSON", "not valid UTF-8", "appears more than once"}

// FuzzParseJSON holds Parse to encoding/json: on a clean text json.Valid
// accepts, within MaxRequestBytes and strictjson.MaxDepth, it finds no
// problem with the JSON itself; a duplicate key or bad text anywhere is
// refused; and white space changes neither the verdict, nor the
// problems, nor the request.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		`{"header":"abc","questions":[{"title":"Deploy where?","options":[{"label":"staging"},{"label":"prod","description":"d"}]}]}`,
		`{"header": "abc", "questions": [{"title": "Run the migrations?", "kind": "bool", "default": true}], "timeoutPerQuestionMs": 60000}`,
		`{"questions":[{"title":"Form","kind":"simple-form","fields":[{"name":"a","label":"A","kind":"input","default":"x"},{"name":"b","label":"B","kind":"multi","options":[{"label":"1"},{"label":"2"}],"default":["1"]}]}],"displayMode":"inline","allowFreeText":false}`,
		`{"questions":[{"title":"a","title":"b","kind":"bool"}]}`,
		`{"questions":[{"title":"\ud800","kind":"bool"}]}`,
		`{"questions":[{"title":"a","kind":"bool"}],"x": {"a": 1, "a": 2}}`,
	} {
		f.Add(s, []byte{0x17, 0x01}, uint(0))
	}
	f.Fuzz(func(t *testing.T, in string, seed []byte, n uint) {
		testkit.FuzzBound(t, in, func() {
			data := []byte(in)
			if !json.Valid(data) || len(data) > MaxRequestBytes {
				return
			}
			want := parseVerdictOf(data)
			info := testkit.InspectJSON(data)
			switch {
			case info.Duplicate || info.BadText:
				if want.Err == "" {
					t.Fatalf("Parse(%q) accepted a duplicate key or bad text", in)
				}
			case info.Depth <= strictjson.MaxDepth:
				for _, p := range jsonProblems {
					if strings.Contains(want.Err, p) {
						t.Fatalf("Parse(%q) = %s; encoding/json reads it cleanly", in, want.Err)
					}
				}
			}
			for _, form := range testkit.Forms(data, seed) {
				if len(form) > MaxRequestBytes {
					continue
				}
				if diff := cmp.Diff(want, parseVerdictOf(form)); diff != "" {
					t.Fatalf("Parse of %q and of %q (-first +second):\n%s", in, form, diff)
				}
			}
			if dup, ok := testkit.WithDuplicate(data, n); ok && len(dup) <= MaxRequestBytes {
				for _, form := range [][]byte{dup, testkit.Respace(dup, seed)} {
					if _, _, err := Parse(form); err == nil && len(form) <= MaxRequestBytes {
						t.Fatalf("Parse(%q) accepted a duplicate key", form)
					}
				}
			}
		})
	})
}
