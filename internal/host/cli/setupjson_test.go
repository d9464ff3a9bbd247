package cli

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzSetupJSON checks askuser setup's reading of a configuration file
// against encoding/json: as JSON it takes exactly the texts that are one
// JSON object, and as JSON with comments what it takes, comments and
// trailing commas blanked out, is JSON.
func FuzzSetupJSON(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"a":1}`, `{"a":{"b":[1,2,{"c":null}]}}`, `{"a":"x\"y"}`, `{"a":1,}`, `[1]`,
		`{"a":tru}`, `{"a":-0.5e3}`, "{\n  // c\n  \"a\": [1, /* d */ 2,],\n}", `{ /*/ }`, `{,}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		// Deep nesting is bounded (strictjson.MaxDepth), encoding/json's
		// far deeper: leave it out.
		if bytes.Count(b, []byte("{"))+bytes.Count(b, []byte("[")) > 60 {
			return
		}
		_, _, err := parseJSONObjectText("f", b, false)
		text := bytes.TrimLeft(b, " \t\r\n")
		want := json.Valid(b) && len(text) > 0 && text[0] == '{'
		if (err == nil) != want {
			t.Fatalf("%q: error %v; want one only if it is not one JSON object", b, err)
		}
		if _, clean, err := parseJSONObjectText("f", b, true); err == nil && !json.Valid(clean) {
			t.Fatalf("%q: taken as JSON with comments, but %q is not JSON", b, clean)
		}
	})
}
