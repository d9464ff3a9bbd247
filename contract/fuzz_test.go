package contract_test

import (
	"encoding/json"
	"errors"
	"testing"

	. "github.com/askuser/askuser/contract"

	"github.com/askuser/askuser/internal/testkit"
	"github.com/google/go-cmp/cmp"
)

// FuzzParse feeds arbitrary bytes to Parse. It must never panic; a
// rejection is a *RequestError with at least one problem; an accepted
// request is something encoding/json can read as well (Parse is the
// stricter reader), and its normalized form, encoded and parsed again,
// comes back unchanged with no new warnings.
func FuzzParse(f *testing.F) {
	for _, in := range ValidInputs() {
		f.Add([]byte(in))
	}
	f.Add([]byte(`{"questions":[{"title":"a\u00e9\ud83d\ude00\n\"\\/","prompt":"\ud800"}]}`))
	f.Add([]byte(`{"questions":[{"title":"x","Kind":"bool"}]} trailing`))
	f.Add([]byte(`{"questions":[{"title":"x","options":[{"label":"a"},{"label":"a"}]}]}`))
	f.Add(MaximalRequest(40))
	for _, n := range testkit.FuzzNumbers() {
		f.Add([]byte(`{"questions":[{"title":"a","kind":"bool"}],"timeoutPerQuestionMs":` + n + `}`))
		f.Add([]byte(`{"questions":[{"title":"f","kind":"simple-form","fields":[{"name":"n","label":"N","kind":"input","default":` + n + `}]}]}`))
		f.Add([]byte(`{"questions":[{"title":"a","kind":"bool","default":` + n + `}]}`))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		testkit.FuzzBound(t, data, func() {
			req, warnings, err := Parse(data)
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
			var any map[string]any
			if jerr := json.Unmarshal(data, &any); jerr != nil {
				t.Fatalf("Parse accepted %q, encoding/json does not: %v", data, jerr)
			}
			again, err := json.Marshal(req)
			if err != nil {
				t.Fatalf("marshal normalized request: %v", err)
			}
			req2, warnings2, err := Parse(again)
			if err != nil {
				t.Fatalf("normalized request %s is rejected: %v", again, err)
			}
			if diff := cmp.Diff(req, req2, ValueEqual); diff != "" {
				t.Fatalf("normalizing twice changed the request (-once +twice):\n%s", diff)
			}
			if len(warnings2) > 0 {
				t.Fatalf("normalized request still warns: %q (first pass: %q)", warnings2, warnings)
			}
		})
	})
}
