package strictjson

import (
	"strings"
	"testing"
)

// TestUnmarshal reads the members v knows and lets others be, and
// refuses what could be read two ways, what is not one JSON value, and a
// value encoding/json cannot put in v.
func TestUnmarshal(t *testing.T) {
	type msg struct {
		Name string `json:"name"`
		N    int    `json:"n"`
	}
	tests := []struct {
		name, in string
		want     msg
		err      string // a part of the error; "" for none
	}{
		{"known members", `{"name":"a","n":2}`, msg{"a", 2}, ""},
		{"an unknown member let be", `{"name":"a","extra":[1,{"x":null}]}`, msg{Name: "a"}, ""},
		{"a duplicate key", `{"name":"a","name":"b"}`, msg{}, "duplicate key"},
		{"a name in another case", `{"Name":"a"}`, msg{}, `"Name" is not "name"`},
		{"an unpaired surrogate", `{"name":"\ud800"}`, msg{}, "unpaired surrogate"},
		{"data after the value", `{"name":"a"} {}`, msg{}, "not valid JSON"},
		{"not JSON", `{"name":`, msg{}, "not valid JSON"},
		{"a string for a number", `{"n":"2"}`, msg{}, "does not decode: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got msg
			err := Unmarshal([]byte(tt.in), &got)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("Unmarshal(%s) = %v, want no error", tt.in, err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("Unmarshal(%s) = %v, want an error with %q", tt.in, err, tt.err)
			case tt.err == "" && got != tt.want:
				t.Errorf("Unmarshal(%s) read %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}
