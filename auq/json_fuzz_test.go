package auq_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	. "github.com/askuser/askuser/auq"

	"github.com/askuser/askuser/internal/strictjson"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/google/go-cmp/cmp"
)

// byteOffset matches the part of the decoders' messages that white space
// moves.
var byteOffset = regexp.MustCompile(`byte offset \d+`)

type verdict struct {
	Request *Request
	Answer  *Answer
	Choice  *Choice
	Err     string
}

// parseVerdict is Parse's verdict on data.
func parseVerdict(data []byte) verdict {
	r, err := Parse(data)
	return verdict{Request: r, Err: errText(err)}
}

// answerVerdict is Answer.UnmarshalJSON's verdict on data.
func answerVerdict(data []byte) verdict {
	a := new(Answer)
	if err := a.UnmarshalJSON(data); err != nil {
		return verdict{Err: errText(err)}
	}
	return verdict{Answer: a}
}

// choiceVerdict is Choice.UnmarshalJSON's verdict on data.
func choiceVerdict(data []byte) verdict {
	c := new(Choice)
	if err := c.UnmarshalJSON(data); err != nil {
		return verdict{Err: errText(err)}
	}
	return verdict{Choice: c}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return byteOffset.ReplaceAllString(err.Error(), "byte offset N")
}

// jsonProblems are what the decoders say of the JSON itself rather than
// of what it says.
var jsonProblems = []string{"invalid JSON", "not valid UTF-8", "appears more than once"}

// FuzzParseJSON holds Parse, Answer.UnmarshalJSON and Choice.UnmarshalJSON
// to encoding/json: on
// a clean text json.Valid accepts, within MaxRequestBytes and
// strictjson.MaxDepth, they find no problem with the JSON itself; a
// duplicate key or bad text anywhere is refused; and white space changes
// neither the verdict, nor the problems, nor what is read.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		`{"questions":[{"id":"q","question":"Which framework?","header":"Framework","options":[{"id":"a","label":"A","description":"d"},{"id":"b","label":"B","description":"d","preview":"p"}]}],"metadata":{"source":"s"}}`,
		`{"questions": [{"id": "q", "question": "Go?", "header": "h", "multiSelect": true, "options": [{"id": "a", "label": "A", "description": "d"}, {"id": "b", "label": "B", "description": "d"}]}]}`,
		`{"questions":[{"id":"q","question":"Go?","question":"Stop?","header":"h","options":[]}]}`,
		`{"questions":[{"id":"q","question":"\udc00","header":"h","options":[]}]}`,
		`{"kind": "single", "label": "A", "optionId": "a"}`,
		`{"kind":"multi","selections":[{"label":"A"},{"label":"x","other":true,"text":"t"}],"empty":false}`,
		`{"kind":"single","label":"A","label":"B"}`,
		`{"label": "Other", "other": true, "text": "Svelte"}`,
	} {
		f.Add(s, []byte{0x17, 0x01}, uint(0))
	}
	f.Fuzz(func(t *testing.T, in string, seed []byte, n uint) {
		testkit.FuzzBound(t, in, func() {
			data := []byte(in)
			if !json.Valid(data) || len(data) > MaxRequestBytes {
				return
			}
			info := testkit.InspectJSON(data)
			for _, read := range []func([]byte) verdict{parseVerdict, answerVerdict, choiceVerdict} {
				want := read(data)
				switch {
				case info.Duplicate || info.BadText:
					if want.Err == "" {
						t.Fatalf("%q is accepted with a duplicate key or bad text", in)
					}
				case info.Depth <= strictjson.MaxDepth:
					for _, p := range jsonProblems {
						if strings.Contains(want.Err, p) {
							t.Fatalf("%q: %s; encoding/json reads it cleanly", in, want.Err)
						}
					}
				}
				for _, form := range testkit.Forms(data, seed) {
					if len(form) > MaxRequestBytes {
						continue
					}
					if diff := cmp.Diff(want, read(form)); diff != "" {
						t.Fatalf("%q and %q are read differently (-first +second):\n%s", in, form, diff)
					}
				}
				if dup, ok := testkit.WithDuplicate(data, n); ok && len(dup) <= MaxRequestBytes {
					for _, form := range [][]byte{dup, testkit.Respace(dup, seed)} {
						if v := read(form); v.Err == "" && len(form) <= MaxRequestBytes {
							t.Fatalf("%q is accepted with a duplicate key", form)
						}
					}
				}
			}
		})
	})
}
