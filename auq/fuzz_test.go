package auq_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	. "github.com/askuser/askuser/auq"

	"github.com/askuser/askuser/internal/testkit"
	"github.com/google/go-cmp/cmp"
)

// FuzzParse feeds arbitrary bytes to Parse. It must never panic; a
// rejection is a *RequestError with at least one problem and no request;
// an accepted request is one encoding/json reads too, that Validate
// accepts, and that comes back the same when encoded and parsed again.
func FuzzParse(f *testing.F) {
	f.Add(Encode(f, Base()))
	f.Add(Encode(f, Maximal(strings.Repeat("p", 20))))
	f.Add([]byte(`{"questions":[{"id":"q","question":"Caf\u00e9 \ud83d\ude00?","header":"h","options":[{"id":"a","label":"A","description":"\ud800"},{"id":"b","label":"Other…","description":"d"}]}]}`))
	f.Add([]byte(`{"questions":[{"id":"q","Question":"x","header":"h","options":[]}],"metadata":{"tags":[1]}} trailing`))
	f.Add([]byte(`{"questions":[{"id":"q","question":"Go?","header":"h","options":[{"id":"a","label":"A","description":"d"},{"id":"b","label":"B","description":"d"}]}],"metadata":{"tags":[]}}`))
	f.Add([]byte(`{"questions":[{"id":"$q","question":"Which?","header":"h","multiSelect":true,"options":[{"id":"a","label":"A","description":"d","preview":"p","recommended":true},{"id":"a","label":"a","description":"d","recommended":true}]}]}`))
	for _, n := range testkit.FuzzNumbers() {
		f.Add([]byte(`{"questions":[{"id":"q","question":"Which?","header":"h","required":` + n + `,"options":[]}],"metadata":{"tags":[` + n + `]}}`))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		testkit.FuzzBound(t, data, func() {
			req, err := Parse(data)
			if err != nil {
				var re *RequestError
				if !errors.As(err, &re) || len(re.Problems) == 0 {
					t.Fatalf("Parse error %v (%T) has no problems", err, err)
				}
				if req != nil {
					t.Fatalf("Parse returned a request with an error")
				}
				return
			}
			var v map[string]any
			if jerr := json.Unmarshal(data, &v); jerr != nil {
				t.Fatalf("Parse accepted %q, encoding/json does not: %v", data, jerr)
			}
			if err := Validate(req); err != nil {
				t.Fatalf("Validate refuses what Parse accepted: %v", err)
			}
			again, err := json.Marshal(req)
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			req2, err := Parse(again)
			if err != nil {
				t.Fatalf("the request encoded again, %s, is refused: %v", again, err)
			}
			// An empty tags list has no members to lose: it is encoded
			// as absent (omitempty) and comes back nil.
			if req.Metadata != nil && req.Metadata.Tags != nil && len(req.Metadata.Tags) == 0 && req2.Metadata != nil && req2.Metadata.Tags == nil {
				req2.Metadata.Tags = []string{}
			}
			if diff := cmp.Diff(req, req2); diff != "" {
				t.Fatalf("encoding and parsing again changed the request (-once +twice):\n%s", diff)
			}
		})
	})
}
