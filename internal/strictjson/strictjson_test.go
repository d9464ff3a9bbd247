package strictjson

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name, in string
		opts     *Options
		want     string
	}{
		{"plain", `{"a":"b","c":[1,{"d":"\u00e9\ud83d\ude00"}]}`, nil, ""},
		{"escaped backslash before u", `{"a":"\\ud800"}`, nil, ""},
		{"invalid UTF-8", "{\"a\":\"\xff\"}", nil, "not valid UTF-8 at byte 6"},
		{"invalid UTF-8 in a skipped member", "{\"p\":\"\xff\"}", &Options{Skip: []string{"p"}}, "not valid UTF-8 at byte 6"},
		{"truncated UTF-8 sequence", "{\"a\":\"\xe6\x97\"}", nil, "not valid UTF-8 at byte 6"},
		{"lone high surrogate", `{"a":"x\ud800"}`, nil, `"a": an unpaired surrogate escape at byte 2 of the string`},
		{"high surrogate then text", `{"a":"\ud800x\udc00"}`, nil, `"a": an unpaired surrogate escape at byte 1`},
		{"lone low surrogate", `{"a":["\udfff"]}`, nil, `"a[0]": an unpaired surrogate escape at byte 1`},
		{"two highs", `{"a":"\ud800\ud800\udc00"}`, nil, `"a": an unpaired surrogate escape at byte 1`},
		{"surrogate in a skipped member", `{"p":"\ud800"}`, &Options{Skip: []string{"p"}}, ""},
		{"duplicate key", `{"a":1,"b":2,"a":3}`, nil, `message: duplicate key "a"`},
		{"duplicate nested key", `{"a":{"b":1,"b":1}}`, nil, `"a": duplicate key "b"`},
		{"duplicate in an array", `{"a":[{},{"b":1,"b":2}]}`, nil, `"a[1]": duplicate key "b"`},
		{"escaped duplicate", `{"a":1,"\u0061":2}`, nil, `message: duplicate key "a"`},
		{"duplicate in a skipped member", `{"p":{"b":1,"b":2}}`, &Options{Skip: []string{"p"}}, ""},
		{"skip is top-level only", `{"x":{"p":{"b":1,"b":2}}}`, &Options{Skip: []string{"p"}}, `"x.p": duplicate key "b"`},
		{"at the depth limit", `{"a":[[1]]}`, &Options{MaxDepth: 3}, ""},
		{"past the depth limit", `{"a":[[[1]]]}`, &Options{MaxDepth: 3}, `"a[0][0]": nested deeper than 3 levels`},
		{"deep by default", strings.Repeat("[", 65) + strings.Repeat("]", 65), nil, "nested deeper than 64 levels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if err := Check([]byte(tt.in), tt.opts); err != nil {
				got = err.Error()
			}
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("Check(%s) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
	if diff := cmp.Diff(-1, unpairedSurrogate([]byte(`"\u12"`))); diff != "" {
		t.Errorf("a short escape (-want +got):\n%s", diff)
	}
}
