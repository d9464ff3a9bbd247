package auq

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

func resolvedSchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(Schema(), &s); err != nil {
		t.Fatalf("schema does not decode: %v", err)
	}
	rs, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		t.Fatalf("schema does not resolve: %v", err)
	}
	return rs
}

func instance(t *testing.T, in []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(in, &v); err != nil {
		t.Fatalf("instance is not JSON: %v", err)
	}
	return v
}

func schemaMap(t *testing.T) map[string]any {
	t.Helper()
	var top map[string]any
	if err := json.Unmarshal(Schema(), &top); err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	return top
}

// TestSchemaDescribesEverything checks that every object and property
// has a description, every object refuses unknown members, the members
// are the decoder's, and the bounds are the package's constants.
func TestSchemaDescribesEverything(t *testing.T) {
	top := schemaMap(t)
	if got, want := top["$schema"], "https://json-schema.org/draft/2020-12/schema"; got != want {
		t.Errorf("$schema = %v, want %v", got, want)
	}
	defs := top["$defs"].(map[string]any)
	objects := map[string]map[string]any{"request": top}
	for _, name := range []string{"question", "option", "metadata"} {
		objects[name] = defs[name].(map[string]any)
	}
	for name, obj := range objects {
		if obj["additionalProperties"] != false {
			t.Errorf("%s: additionalProperties is %v, want false", name, obj["additionalProperties"])
		}
		if _, ok := obj["description"].(string); !ok {
			t.Errorf("%s: no description", name)
		}
		for prop, s := range obj["properties"].(map[string]any) {
			if _, ok := s.(map[string]any)["description"].(string); !ok {
				t.Errorf("%s.%s: no description", name, prop)
			}
		}
	}
	for name, keys := range map[string][]string{"request": requestObject.Names, "question": questionObject.Names, "option": optionObject.Names, "metadata": metadataObject.Names} {
		props := objects[name]["properties"].(map[string]any)
		if len(props) != len(keys) {
			t.Errorf("%s: schema has %d properties, decoder %d", name, len(props), len(keys))
		}
		for _, k := range keys {
			if _, ok := props[k]; !ok {
				t.Errorf("%s: schema lacks %q", name, k)
			}
		}
	}
	prop := func(obj, name, key string) any {
		return objects[obj]["properties"].(map[string]any)[name].(map[string]any)[key]
	}
	bounds := []struct {
		name string
		got  any
		want int
	}{
		{"questions minItems", prop("request", "questions", "minItems"), MinQuestions},
		{"questions maxItems", prop("request", "questions", "maxItems"), MaxQuestions},
		{"options minItems", prop("question", "options", "minItems"), MinOptions},
		{"options maxItems", prop("question", "options", "maxItems"), MaxOptions},
		{"question maxLength", prop("question", "question", "maxLength"), MaxQuestionLen},
		{"header maxLength", prop("question", "header", "maxLength"), MaxHeaderLen},
		{"label maxLength", prop("option", "label", "maxLength"), MaxLabelLen},
		{"description maxLength", prop("option", "description", "maxLength"), MaxDescriptionLen},
		{"preview maxLength", prop("option", "preview", "maxLength"), MaxPreviewLen},
		{"source maxLength", prop("metadata", "source", "maxLength"), MaxSourceLen},
		{"flowId maxLength", prop("metadata", "flowId", "maxLength"), MaxFlowIDLen},
		{"tags maxItems", prop("metadata", "tags", "maxItems"), MaxTags},
		{"tag maxLength", prop("metadata", "tags", "items").(map[string]any)["maxLength"], MaxTagLen},
		{"id maxLength", defs["id"].(map[string]any)["maxLength"], MaxIDLen},
	}
	for _, b := range bounds {
		if b.got != float64(b.want) {
			t.Errorf("%s = %v, want %d", b.name, b.got, b.want)
		}
	}
}

// TestSchemaAgreesWithParse checks, request by request, that the schema
// accepts exactly what Parse accepts: every rule row of TestRules, every
// decoding case Parse refuses for its JSON alone, and valid requests.
func TestSchemaAgreesWithParse(t *testing.T) {
	rs := resolvedSchema(t)
	// What a schema cannot say: uniqueness across items.
	beyond := map[string]bool{
		"question id duplicate":           true,
		"option id duplicate":             true,
		"label duplicate":                 true,
		"label duplicate in another case": true,
	}
	type sample struct {
		name string
		in   []byte
	}
	var samples []sample
	samples = append(samples, sample{"base", encode(t, base())}, sample{"maximal", maximalJSON(t)})
	for _, tt := range []struct {
		name string
		edit func(*Request)
	}{
		{"8 questions", func(r *Request) { r.Questions = nQuestions(8) }},
		{"4 options", func(r *Request) { r.Questions[0].Options = nOptions(4) }},
		{"no metadata", func(r *Request) { r.Metadata = nil }},
		{"16 tags", func(r *Request) { r.Metadata.Tags = make([]string, 16) }},
		{"one recommended on each question", func(r *Request) { r.Questions[1].Options[1].Recommended = true }},
		{"a label containing Other", func(r *Request) { r.Questions[0].Options[2].Label = "Other people's choice" }},
		{"a header of 12 wide characters", func(r *Request) { r.Questions[0].Header = "日本語のヘッダー見出し項" }},
		{"an id with a dollar inside", func(r *Request) { r.Questions[0].ID = "a$b" }},
	} {
		r := base()
		tt.edit(r)
		samples = append(samples, sample{tt.name, encode(t, r)})
	}
	for _, tt := range ruleRows() {
		if tt.msg == "" {
			continue // only a Go string can hold invalid UTF-8
		}
		r := base()
		tt.edit(r)
		samples = append(samples, sample{tt.name, encode(t, r)})
	}
	for _, tt := range decodingRows() {
		// Text that is not JSON, or that encoding/json reads other than
		// it is (duplicates, invalid UTF-8), is no instance for a schema.
		if json.Valid([]byte(tt.in)) && !strings.Contains(tt.name, "UTF-8") && !strings.Contains(tt.name, "surrogate") && !strings.Contains(tt.name, "duplicate") &&
			!strings.Contains(tt.name, "trailing") && !strings.Contains(tt.name, "empty input") {
			samples = append(samples, sample{tt.name, []byte(tt.in)})
		}
	}
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			_, perr := Parse(s.in)
			serr := rs.Validate(instance(t, s.in))
			switch {
			case beyond[s.name]:
				if perr == nil || serr != nil {
					t.Errorf("Parse error %v, schema error %v: want Parse alone to refuse it", perr, serr)
				}
			case (perr == nil) != (serr == nil):
				t.Errorf("Parse error %v, schema error %v: they disagree on\n%s", perr, serr, s.in)
			}
		})
	}
}
