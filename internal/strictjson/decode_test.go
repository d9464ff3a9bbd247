package strictjson

import (
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// decodeItems reads {"questions":[{"name":"…","on":true}, …]} with the
// helpers, as a request decoder does, each item as if it were
// questions[0].options[2].
func decodeItems(data string, nullHint func([]Seg) string) List {
	d := Decoder{Scanner: NewScanner([]byte(data)), NullHint: nullHint}
	item := Object{What: "an item", Names: []string{"name", "on"}, Hints: []Hint{{Name: "label", Meant: "name", Text: `use "name"`}}}
	d.Members(func(string) {
		d.Open()
		for first := true; d.NextElem(&first); {
			d.PushIndex(0)
			d.Push("options")
			d.PushIndex(2)
			var m Meta
			d.Object(&m, "an item", func(key string) {
				switch key {
				case "name":
					var s string
					d.StringMember(&s, &m, 1)
				case "on":
					var b bool
					if d.Member(&m, 2) {
						d.BoolInto(&b, &m, 2)
					}
				default:
					d.Unknown(&m, key, &item)
				}
			})
			d.Pop()
			d.Pop()
			d.Pop()
		}
	})
	return d.Problems
}

func TestDecoder(t *testing.T) {
	at := func(path, msg string) Placed {
		return Placed{Problem: Problem{Path: path, Message: msg}, Q: 0, F: -1, O: 2}
	}
	tests := []struct {
		name     string
		data     string
		nullHint func([]Seg) string
		want     List
	}{
		{"valid", `{"questions":[{"name":"a","on":false}]}`, nil, nil},
		{"not an object", `{"questions":[[]]}`, nil, List{
			at("questions[0].options[2]", "must be an item, got an array"),
		}},
		{"duplicate", `{"questions":[{"name":"a","name":"b"}]}`, nil, List{
			at("questions[0].options[2].name", "appears more than once; send each field once"),
		}},
		{"types", `{"questions":[{"name":1,"on":"yes"}]}`, nil, List{
			at("questions[0].options[2].name", "must be a string, got a number"),
			at("questions[0].options[2].on", "must be a boolean (true or false), got a string"),
		}},
		{"null", `{"questions":[{"name":null}]}`, nil, List{
			at("questions[0].options[2].name", "must be a string, got null; leave the field out instead of sending null"),
		}},
		{"null hint", `{"questions":[{"name":null}]}`, func([]Seg) string { return "; it is required" }, List{
			at("questions[0].options[2].name", "must be a string, got null; it is required"),
		}},
		{"not UTF-8", "{\"questions\":[{\"name\":\"a\xffb\"}]}", nil, List{
			at("questions[0].options[2].name", "is not valid UTF-8 (at byte offset 24); send text as UTF-8"),
		}},
		{"unknown", `{"questions":[{"nmae":"a","label":"b","colour":"c","a b":1}]}`, nil, List{
			at("questions[0].options[2].nmae", `unknown field "nmae"; did you mean "name"?`),
			at("questions[0].options[2].label", `unknown field "label"; use "name"`),
			at("questions[0].options[2].colour", `unknown field "colour"; the fields of an item are name, on`),
			at(`questions[0].options[2]["a b"]`, `unknown field "a b"; the fields of an item are name, on`),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, decodeItems(tt.data, tt.nullHint)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMisspelt(t *testing.T) {
	known := []string{"name", "on"}
	var m Meta
	misspelt(&m, "on", known)
	if m.Bad != 2 {
		t.Errorf("a misspelt member not sent: Bad = %b, want 10", m.Bad)
	}
	m = Meta{Present: 2}
	misspelt(&m, "on", known)
	misspelt(&m, "", known)
	if m.Bad != 0 {
		t.Errorf("a misspelt member sent as well, or none meant: Bad = %b, want 0", m.Bad)
	}
}

func TestView(t *testing.T) {
	decoded := View{M: Meta{Present: 1 | 2, Bad: 2}}
	typed := View{Typed: true}
	tests := []struct {
		name      string
		got, want bool
	}{
		{"decoded, sent", decoded.Has(1, false), true},
		{"decoded, not sent", decoded.Has(4, true), false},
		{"decoded, decoded", decoded.OK(1), true},
		{"decoded, bad", decoded.OK(2), false},
		{"typed, zero", typed.Has(1, false), false},
		{"typed, set", typed.Has(1, true), true},
		{"typed, always decoded", typed.OK(2), true},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v", tt.name, tt.got)
		}
	}
}

func TestField(t *testing.T) {
	o := Object{What: "an item", Names: []string{"name", "on", "tag", "flag", "kids", "rest"}}
	tests := []struct {
		name, data string
		bits       []uint32 // Field's answer for each member
		problems   []string
		want       string // the values read, as "name on tag flag"
	}{
		{"read", `{"name":"a","on":true,"tag":"t","flag":false}`, []uint32{0, 0, 0, 0}, nil, "a true t false"},
		{"left to the caller", `{"kids":[],"rest":1}`, []uint32{1 << 4, 1 << 5}, nil, " false <nil> <nil>"},
		{"unknown", `{"nmae":"a"}`, []uint32{0}, []string{`nmae: unknown field "nmae"; did you mean "name"?`}, " false <nil> <nil>"},
		{"duplicate", `{"on":true,"on":false}`, []uint32{0, 0}, []string{"on: appears more than once; send each field once"}, " true <nil> <nil>"},
		{"wrong type", `{"tag":1}`, []uint32{0}, []string{"tag: must be a string, got a number"}, " false <nil> <nil>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decoder{Scanner: NewScanner([]byte(tt.data))}
			var (
				m    Meta
				name string
				on   bool
				tag  *string
				flag *bool
				bits []uint32
			)
			d.Members(func(key string) {
				bit := d.Field(key, &o, &m, &name, &on, &tag, &flag, nil)
				if bit != 0 {
					d.Skip()
				}
				bits = append(bits, bit)
			})
			if d.Failed() {
				t.Fatal(d.Err())
			}
			if !slices.Equal(bits, tt.bits) {
				t.Errorf("bits = %v, want %v", bits, tt.bits)
			}
			var got []string
			for _, p := range d.Problems {
				got = append(got, p.Path+": "+p.Message)
			}
			if !slices.Equal(got, tt.problems) {
				t.Errorf("problems = %q, want %q", got, tt.problems)
			}
			show := func(p any) string {
				switch p := p.(type) {
				case *string:
					if p != nil {
						return *p
					}
				case *bool:
					if p != nil {
						return strconv.FormatBool(*p)
					}
				}
				return "<nil>"
			}
			if got := name + " " + strconv.FormatBool(on) + " " + show(tag) + " " + show(flag); got != tt.want {
				t.Errorf("values = %q, want %q", got, tt.want)
			}
		})
	}
}
