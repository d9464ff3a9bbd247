package popup

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/askuser/askuser/internal/testkit"
	"github.com/google/go-cmp/cmp"
)

// FuzzDecodeStrictJSON holds decodeStrict to encoding/json: read into an
// any, which has no schema, it accepts exactly the clean texts json.Valid
// accepts; white space changes neither its verdict nor what it reads, nor
// DecodeReport's; and a key given twice is always refused.
func FuzzDecodeStrictJSON(f *testing.F) {
	for _, s := range []string{
		`{"type":"resize"}`,
		`{"type": "resize" , "type":"outcome"}`,
		`{"token": "t", "env": ["TERM=xterm", "COLORTERM=truecolor"]}`,
		`{"a": {"b": [1, "\ud83d\ude00", null, true]}}`,
		`{"a":"\ud800"}`,
		`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
	} {
		f.Add(s, []byte{0x17, 0x01}, uint(0))
	}
	f.Fuzz(func(t *testing.T, in string, seed []byte, n uint) {
		testkit.FuzzBound(t, in, func() {
			data := []byte(in)
			if !json.Valid(data) {
				return
			}
			var v any
			err := decodeStrict(data, &v)
			if clean := testkit.InspectJSON(data).Clean(64); clean != (err == nil) {
				t.Fatalf("decodeStrict(%q) = %v; encoding/json's reading is clean: %v", in, err, clean)
			}
			report, reportErr := DecodeReport(data)
			for _, form := range testkit.Forms(data, seed) {
				var w any
				got := decodeStrict(form, &w)
				if (got == nil) != (err == nil) {
					t.Fatalf("decodeStrict(%q) = %v, but the same text as %q gets %v", in, err, form, got)
				}
				// cmp.Diff takes time exponential in the nesting of
				// equal values: it only explains a difference.
				if !reflect.DeepEqual(v, w) {
					t.Fatalf("decodeStrict of %q and of %q (-first +second):\n%s", in, form, cmp.Diff(v, w))
				}
				r, got := DecodeReport(form)
				if (got == nil) != (reportErr == nil) {
					t.Fatalf("DecodeReport(%q) = %v, but the same text as %q gets %v", in, reportErr, form, got)
				}
				if diff := cmp.Diff(report, r); diff != "" {
					t.Fatalf("DecodeReport of %q and of %q (-first +second):\n%s", in, form, diff)
				}
			}
			if dup, ok := testkit.WithDuplicate(data, n); ok {
				for _, form := range [][]byte{dup, testkit.Respace(dup, seed)} {
					var w any
					if decodeStrict(form, &w) == nil {
						t.Fatalf("decodeStrict(%q) accepted a duplicate key", form)
					}
				}
			}
		})
	})
}
