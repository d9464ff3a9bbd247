package pibridge

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/askuser/askuser/internal/testkit"
	"github.com/google/go-cmp/cmp"
)

// byteOffset matches the one part of decode's errors that white space
// may change.
var byteOffset = regexp.MustCompile(`at byte \d+`)

// decodeVerdict is what decode makes of line: the message, with its raw
// members compacted, and the error with no byte offset in it.
func decodeVerdict(line []byte) (inMsg, string) {
	m, err := decode(line)
	if err != nil {
		return inMsg{}, byteOffset.ReplaceAllString(err.Error(), "at byte N")
	}
	for _, raw := range []*json.RawMessage{&m.Params, &m.Result, &m.Options, &m.ConfigFile} {
		if *raw != nil {
			var b bytes.Buffer
			if err := json.Compact(&b, *raw); err != nil {
				return inMsg{}, "a raw member that is not JSON: " + err.Error()
			}
			*raw = b.Bytes()
		}
	}
	return m, ""
}

// FuzzDecodeJSON holds decode, its fast path for keys included, to
// encoding/json. in is a line, and a value sent in a member decode checks
// ("x") and in one it skips ("params"). A clean value there is accepted;
// white space changes neither the verdict nor the message; a key given
// twice outside the skipped members is refused.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{
		`{"type":"ask","call":"c1","params": {"header":"abc","questions":[{"title":"a","kind":"bool"}]}}`,
		`{"type":"abort","call":"c1","params": {"header":"abc","questions":[]},"type":"ask"}`,
		`{"type":"key","call":"c1","key":"down"}`,
		`{"type":"key","call":"c1","text":"日本"}`,
		`{"type":"resize","call":"c1","width":40,"rows":10}`,
		`{"type":"hello","version":1,"mode":"tui","hasUI":true,"ui":{"custom":true,"input":true,"select":true},"options": {"timeoutPerQuestionMs":0},"theme":{"accent":{"prefix":"a","suffix":"b"}}}`,
		`{"type":"explain","call":"x1","params":{},"result": {"cancelled":true}}`,
		`[1, {"a": "\ud83d\ude00"}, [[[[[[]]]]]]]`,
	} {
		f.Add(s, []byte{0x17, 0x01}, uint(0))
	}
	f.Fuzz(func(t *testing.T, in string, seed []byte, n uint) {
		testkit.FuzzBound(t, in, func() {
			if !json.Valid([]byte(in)) {
				return
			}
			checked := []byte(`{"type":"resize","call":"c1","x":` + in + `}`)
			if testkit.InspectJSON(checked, skipped...).Clean(8) {
				if _, err := decode(checked); err != nil {
					t.Fatalf("decode(%q) = %v; want the clean value read", checked, err)
				}
			}
			inParams := []byte(`{"type":"ask","call":"c1","params":` + in + `}`)
			if testkit.InspectJSON(inParams).Clean(10000) {
				if _, err := decode(inParams); err != nil {
					t.Fatalf("decode(%q) = %v; want the clean params read", inParams, err)
				}
			}
			for _, line := range [][]byte{[]byte(in), checked, inParams} {
				msg, verdict := decodeVerdict(line)
				for _, form := range testkit.Forms(line, seed) {
					m, v := decodeVerdict(form)
					if v != verdict {
						t.Fatalf("decode(%q) = %q, but the same text as %q gets %q", line, verdict, form, v)
					}
					if diff := cmp.Diff(msg, m); diff != "" {
						t.Fatalf("decode(%q) and decode(%q) read other messages (-first +second):\n%s", line, form, diff)
					}
				}
				dup, ok := testkit.WithDuplicate(line, n)
				if !ok || !testkit.InspectJSON(dup, skipped...).Duplicate {
					continue
				}
				for _, form := range [][]byte{dup, testkit.Respace(dup, seed)} {
					if m, err := decode(form); err == nil {
						t.Fatalf("decode(%q) = %+v; want the duplicate key refused", form, m)
					}
				}
			}
		})
	})
}
