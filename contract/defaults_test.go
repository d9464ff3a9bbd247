package contract

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestChoiceDefault(t *testing.T) {
	opts := []Option{{Label: "staging"}, {Label: "prod"}}
	str := func(s string) *Value { v := StringValue(s); return &v }
	tests := []struct {
		name   string
		def    *Value
		option int
		free   string
		ok     bool
	}{
		{"none", nil, -1, "", false},
		{"an option", str("prod"), 1, "", true},
		{"free text, trimmed", str("  canary "), -1, "canary", true},
		{"blank", str("  "), -1, "", false},
		{"a label with spaces is not an option", str(" prod"), -1, "prod", true},
	}
	for _, tt := range tests {
		q := &Question{Kind: KindSingle, Options: opts, Default: tt.def}
		i, free, ok := q.ChoiceDefault()
		if i != tt.option || free != tt.free || ok != tt.ok {
			t.Errorf("%s: ChoiceDefault() = %d, %q, %v; want %d, %q, %v", tt.name, i, free, ok, tt.option, tt.free, tt.ok)
		}
	}
}

func TestEffectiveDefault(t *testing.T) {
	opts := []Option{{Label: "a"}, {Label: "b"}, {Label: "c"}}
	v := func(x Value) *Value { return &x }
	tests := []struct {
		name string
		f    Field
		want *Value // nil: no value
	}{
		{"no default", Field{Kind: KindInput}, nil},
		{"input, trimmed", Field{Kind: KindInput, Default: v(StringValue("  x "))}, v(StringValue("x"))},
		{"input, blank", Field{Kind: KindInput, Default: v(StringValue("   "))}, nil},
		{"bool false", Field{Kind: KindBool, Default: v(BoolValue(false))}, v(BoolValue(false))},
		{"bool given a string", Field{Kind: KindBool, Default: v(StringValue("true"))}, nil},
		{"single", Field{Kind: KindSingle, Options: opts, Default: v(StringValue("b"))}, v(StringValue("b"))},
		{"single, empty", Field{Kind: KindSingle, Options: opts, Default: v(StringValue(""))}, nil},
		{"multi, in option order", Field{Kind: KindMulti, Options: opts, Default: v(StringsValue("c", "a"))}, v(StringsValue("a", "c"))},
		{"multi, empty", Field{Kind: KindMulti, Options: opts, Default: v(StringsValue())}, nil},
	}
	for _, tt := range tests {
		got, ok := tt.f.EffectiveDefault()
		if tt.want == nil {
			if ok {
				t.Errorf("%s: EffectiveDefault() = %v, want no value", tt.name, got)
			}
			continue
		}
		if !ok || !cmp.Equal(*tt.want, got, valueEqual) {
			t.Errorf("%s: EffectiveDefault() = %v, %v; want %v", tt.name, got, ok, *tt.want)
		}
	}
}
