package mcpserver

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/askuser/askuser/internal/testkit"
	"github.com/google/go-cmp/cmp"
)

// envelopeKeys are the members checkMessage knows. Their values are the
// SDK's to read; a duplicate inside a tool's arguments is refused by the
// contract's parser, with its path.
var envelopeKeys = []string{"jsonrpc", "id", "method", "params", "result", "error"}

type envelopeVerdict struct {
	ID   string
	Code int
	Why  string
}

// checkLine is checkMessage on a line as the reader hands it over, without
// the JSON white space around it.
func checkLine(line []byte) envelopeVerdict {
	id, code, why := checkMessage(bytes.Trim(line, " \t\r\n"))
	return envelopeVerdict{string(id), code, why}
}

// FuzzCheckMessageJSON holds checkMessage to encoding/json: a request
// carrying a clean value in its params passes; white space changes
// neither the verdict, nor the id answered, nor the reason; and a member
// of the envelope given twice is always refused.
func FuzzCheckMessageJSON(f *testing.F) {
	for _, s := range []string{
		`{"header": "abc", "questions": [{"title": "a", "kind": "bool"}]}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params": {"name":"ask_user","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":"a","method":"ping","params": {},"method":"tools/call"}`,
		`{"jsonrpc":"2.0","id":7,"result": {"action":"accept","content":{"q1":true}}}`,
		`{"jsonrpc":"2.0","id":7,"error": {"code":-1,"message":"m","data":[1, {"a":null}]}}`,
		`[1, "\ud83d\ude00", {"a": -0.5e3}]`,
	} {
		f.Add(s, []byte{0x17, 0x01}, uint(0))
	}
	f.Fuzz(func(t *testing.T, in string, seed []byte, n uint) {
		testkit.FuzzBound(t, in, func() {
			if !json.Valid([]byte(in)) {
				return
			}
			req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"x":` + in + `}}`)
			if testkit.InspectJSON(req).Clean(maxDepth) {
				if v := checkLine(req); v.Code != 0 {
					t.Fatalf("checkMessage(%q) = %+v; want the clean request passed", req, v)
				}
			}
			for _, line := range [][]byte{[]byte(in), req} {
				want := checkLine(line)
				for _, form := range testkit.Forms(line, seed) {
					if diff := cmp.Diff(want, checkLine(form)); diff != "" {
						t.Fatalf("checkMessage of %q and of %q (-first +second):\n%s", line, form, diff)
					}
				}
				dup, ok := testkit.WithDuplicate(line, n)
				if !ok || !testkit.InspectJSON(dup, envelopeKeys...).Duplicate {
					continue
				}
				for _, form := range [][]byte{dup, testkit.Respace(dup, seed)} {
					if v := checkLine(form); v.Code == 0 {
						t.Fatalf("checkMessage(%q) passed a duplicate key", form)
					}
				}
			}
		})
	})
}
