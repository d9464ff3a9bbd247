package strictjson_test

import (
	"encoding/json"
	"strings"
	"testing"

	. "github.com/askuser/askuser/internal/strictjson"

	"github.com/askuser/askuser/internal/testkit"
)

// FuzzCheckJSON holds Check to encoding/json: on a text json.Valid
// accepts, Check accepts exactly the clean ones (no duplicate key, no bad
// text, within its depth); white space never changes its verdict; and a
// key given twice is always refused, also beside a skipped member. Its
// fast pass and its walk agree.
func FuzzCheckJSON(f *testing.F) {
	for _, s := range []string{
		`{"type":"ask","call":"c1","params": {"header":"abc","questions":[{"title":"a"}]}}`,
		`{"type":"abort","call":"c1","params": {"header":"abc"},"type":"ask"}`,
		`{"p" :  [ 1 , "x" ] , "a" : { "b" : null } }`,
		"{\"p\"\t:\r\n\"\\ud800\",\"a\":1}",
		`[[[[[[[[1]]]]]]]]`,
		`{"a":"\ud83d\ude00","b":"\\ud800"}`,
		`"x"`,
	} {
		f.Add(s, []byte{0x17, 0x01}, uint(0))
	}
	f.Fuzz(func(t *testing.T, in string, seed []byte, n uint) {
		testkit.FuzzBound(t, in, func() {
			data := []byte(in)
			if !json.Valid(data) {
				return
			}
			const depth = 8
			skip := &CheckOptions{Skip: []string{"p"}, MaxDepth: depth}
			strict := &CheckOptions{MaxDepth: depth}
			err := Check(data, strict)
			fast, walk := FastCheck(data, depth), CheckWalk(data, nil, depth)
			if fast && walk != nil {
				t.Fatalf("the fast pass accepts %q, which Check's walk refuses: %v", in, walk)
			}
			// The fast pass refuses a member name that reads as U+FFFD,
			// for the walk to say whether it stood for bad text.
			if !fast && walk == nil && !strings.Contains(in, "\uFFFD") && !strings.Contains(strings.ToLower(in), `\ufffd`) {
				t.Fatalf("the fast pass refuses %q, which Check's walk accepts", in)
			}
			if clean := testkit.InspectJSON(data).Clean(depth); clean != (err == nil) {
				t.Fatalf("Check(%q) = %v; encoding/json's reading is clean: %v", in, err, clean)
			}
			skipErr := Check(data, skip)
			if testkit.InspectJSON(data, "p").Duplicate && skipErr == nil {
				t.Fatalf("Check(%q) with p skipped accepted a duplicate key", in)
			}
			for _, form := range testkit.Forms(data, seed) {
				if got := Check(form, strict); (got == nil) != (err == nil) {
					t.Fatalf("Check(%q) = %v, but the same text as %q gets %v", in, err, form, got)
				}
				if got := Check(form, skip); (got == nil) != (skipErr == nil) {
					t.Fatalf("Check(%q) with p skipped = %v, but the same text as %q gets %v", in, skipErr, form, got)
				}
			}
			if dup, ok := testkit.WithDuplicate(data, n); ok {
				if Check(dup, strict) == nil {
					t.Fatalf("Check(%q) accepted a duplicate key", dup)
				}
				if testkit.InspectJSON(dup, "p").Duplicate && Check(testkit.Respace(dup, seed), skip) == nil {
					t.Fatalf("Check(%q) with p skipped accepted a duplicate key", testkit.Respace(dup, seed))
				}
			}
		})
	})
}

// FuzzCheck holds Check to refValue on valid JSON. It must never panic
// or hang, on any input.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		`{"a":"b","c":[1,{"d":"\u00e9"}],"p":{"x":1,"x":2}}`,
		`{"a":1,"\u0061":2}`,
		`{"a" : [ "\ud800" , 1e400 , -0 , true , null ] }`,
		`[[[[[[[[[[1]]]]]]]]]]`,
		`{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{}}}}}}}}}`,
		"{\"a\":\"\xff\"}",
		`{"k\"ey":1,"k\"ey":2}`,
		`"\\ud800"`,
		`{"p":"\udc00","q":"\\"}`,
		`{"p": {"x":1},"a":1}`,
		`{"type":"abort","p": {"x":1},"type":"ask"}`,
	} {
		f.Add(s)
	}
	for _, n := range testkit.FuzzNumbers() {
		f.Add(n)
		f.Add(`{"a":` + n + `,"p":[` + n + `]}`)
	}
	f.Fuzz(func(t *testing.T, in string) {
		testkit.FuzzBound(t, in, func() {
			opts := &CheckOptions{Skip: []string{"p"}, MaxDepth: 8}
			got := errString(Check([]byte(in), opts))
			if !json.Valid([]byte(in)) {
				if got == "" {
					t.Errorf("Check(%q) accepted JSON that is not valid", in)
				}
				return
			}
			want := errString(RefCheck([]byte(in), opts))
			if got != want {
				t.Errorf("Check(%q) = %q; the reference says %q", in, got, want)
			}
		})
	})
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
