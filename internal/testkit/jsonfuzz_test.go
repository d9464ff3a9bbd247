package testkit

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestInspect(t *testing.T) {
	tests := []struct {
		in   string
		skip []string
		want JSONInfo
	}{
		{`1`, nil, JSONInfo{}},
		{`{}`, nil, JSONInfo{Depth: 1}},
		{`{"a":[1,{"b":[]}]}`, nil, JSONInfo{Depth: 4}},
		{`{"a":1,"a":2}`, nil, JSONInfo{Depth: 1, Duplicate: true}},
		{`{"a":1,"\u0061":2}`, nil, JSONInfo{Depth: 1, Duplicate: true}},
		{`[{"a":1},{"a":2}]`, nil, JSONInfo{Depth: 2}},
		{`{"p":{"a":1,"a":2},"q":[[[]]]}`, []string{"p"}, JSONInfo{Depth: 4}},
		{`{"p":[[[[{"a":1,"a":2}]]]]}`, []string{"p"}, JSONInfo{Depth: 1}},
		{`{"x":{"p":{"a":1,"a":2}}}`, []string{"p"}, JSONInfo{Depth: 3, Duplicate: true}},
		{`"\ud800"`, nil, JSONInfo{BadText: true}},
		{`"\udc00\ud800"`, nil, JSONInfo{BadText: true}},
		{`"\ud800\\udc00"`, nil, JSONInfo{BadText: true}},
		{`"\ud83d\ude00 \\ud800"`, nil, JSONInfo{}},
		{"{\"p\":\"\xff\"}", []string{"p"}, JSONInfo{Depth: 1, BadText: true}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, InspectJSON([]byte(tt.in), tt.skip...)); diff != "" {
			t.Errorf("InspectJSON(%s, %q) (-want +got):\n%s", tt.in, tt.skip, diff)
		}
	}
}

func TestRespaceAndForms(t *testing.T) {
	in := []byte(` { "a" : [ 1 , "x y" , { } ] , "b\"" :true} `)
	if diff := cmp.Diff(`{"a":[1,"x y",{}],"b\"":true}`, string(Respace(in, nil))); diff != "" {
		t.Errorf("Respace without a seed (-want +got):\n%s", diff)
	}
	for _, seed := range [][]byte{{0xff}, {1, 2, 3, 0x7d, 0xee}} {
		for _, f := range Forms(in, seed) {
			var a, b any
			if err := json.Unmarshal(f, &b); err != nil {
				t.Fatalf("form %q: %v", f, err)
			}
			json.Unmarshal(in, &a)
			if diff := cmp.Diff(a, b); diff != "" {
				t.Errorf("form %q (-want +got):\n%s", f, diff)
			}
		}
	}
	if diff := cmp.Diff("   [1   ]", string(Respace([]byte(`[1]`), []byte{0x03, 0x00}))); diff != "" {
		t.Errorf("Respace with spaces (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("\t\n\r[\t\n\r1\t\n\r]\t\n\r", string(Respace([]byte(`[1]`), []byte{0x17}))); diff != "" {
		t.Errorf("Respace with all white space (-want +got):\n%s", diff)
	}
}

func TestWithDuplicate(t *testing.T) {
	tests := []struct {
		in   string
		n    uint
		want string
	}{
		{`{"a":1,"b":[2]}`, 0, `{"a":1,"a":1,"b":[2]}`},
		{`{"a":1,"b":[2]}`, 1, `{"a":1,"b":[2],"b":[2]}`},
		{`{"a":1,"b":[2]}`, 2, `{"a":1,"a":1,"b":[2]}`},
		{`[{"a":{"c":{}}}]`, 1, `[{"a":{"c":{},"c":{}}}]`},
		{`[1, "a", {}]`, 0, ""},
	}
	for _, tt := range tests {
		got, ok := WithDuplicate([]byte(tt.in), tt.n)
		if ok != (tt.want != "") || string(got) != tt.want {
			t.Errorf("WithDuplicate(%s, %d) = %s, %v; want %s", tt.in, tt.n, got, ok, tt.want)
		}
		if ok && !InspectJSON(got).Duplicate {
			t.Errorf("InspectJSON(%s) finds no duplicate", got)
		}
	}
}
