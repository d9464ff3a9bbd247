package contract

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/askuser/askuser/internal/strictjson"
	"github.com/google/go-cmp/cmp"
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

func instance(t *testing.T, in string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(in), &v); err != nil {
		t.Fatalf("instance is not JSON: %v", err)
	}
	return v
}

func TestSchemaIsDraft202012(t *testing.T) {
	var top map[string]any
	if err := json.Unmarshal(Schema(), &top); err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	if got, want := top["$schema"], "https://json-schema.org/draft/2020-12/schema"; got != want {
		t.Errorf("$schema = %v, want %v", got, want)
	}
	if got := top["type"]; got != "object" {
		t.Errorf("type = %v, want object", got)
	}
	resolvedSchema(t)
}

// TestSchemaDescribesEverything checks that every property of every
// object has a description and that every object refuses unknown
// members, since models read the schema to fill in the call.
func TestSchemaDescribesEverything(t *testing.T) {
	var top map[string]any
	if err := json.Unmarshal(Schema(), &top); err != nil {
		t.Fatal(err)
	}
	objects := map[string]map[string]any{"request": top}
	for name, def := range top["$defs"].(map[string]any) {
		objects[name] = def.(map[string]any)
	}
	for name, obj := range objects {
		if obj["additionalProperties"] != false {
			t.Errorf("%s: additionalProperties is %v, want false", name, obj["additionalProperties"])
		}
		if _, ok := obj["description"].(string); !ok {
			t.Errorf("%s: no description", name)
		}
		for prop, schema := range obj["properties"].(map[string]any) {
			if _, ok := schema.(map[string]any)["description"].(string); !ok {
				t.Errorf("%s.%s: no description", name, prop)
			}
		}
	}
	// The member lists of the decoder and the schema must agree.
	for name, keys := range map[string][]string{"request": requestObject.Names, "question": questionObject.Names, "option": optionObject.Names, "field": fieldObject.Names} {
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
}

func TestSchemaAcceptsValidRequests(t *testing.T) {
	rs := resolvedSchema(t)
	for _, tc := range validCases {
		t.Run(tc.name, func(t *testing.T) {
			if err := rs.Validate(instance(t, tc.in)); err != nil {
				t.Errorf("schema refuses a valid request: %v", err)
			}
		})
	}
	for _, tc := range limitCases {
		t.Run(tc.name+" at limit", func(t *testing.T) {
			if err := rs.Validate(instance(t, tc.build(tc.limit))); err != nil {
				t.Errorf("schema refuses a request at the limit: %v", err)
			}
		})
	}
}

func TestSchemaRefusesInvalidRequests(t *testing.T) {
	rs := resolvedSchema(t)
	tests := []struct{ name, in string }{
		{"no questions", `{}`},
		{"empty questions", `{"questions":[]}`},
		{"unknown top-level field", `{"questions":[{"title":"a"}],"metadata":{}}`},
		{"case-mismatched field", `{"questions":[{"Title":"a"}]}`},
		{"missing title", `{"questions":[{"prompt":"p"}]}`},
		{"empty title", `{"questions":[{"title":""}]}`},
		{"empty id", `{"questions":[{"title":"a","id":""}]}`},
		{"unknown kind", `{"questions":[{"title":"a","kind":"choice"}]}`},
		{"empty options", `{"questions":[{"title":"a","options":[]}]}`},
		{"option without label", `{"questions":[{"title":"a","options":[{"description":"d"}]}]}`},
		{"unknown option member", `{"questions":[{"title":"a","options":[{"label":"x","id":"x"}]}]}`},
		{"default a number", `{"questions":[{"title":"a","default":3}]}`},
		{"field kind simple-form", `{"questions":[{"title":"a","kind":"simple-form","fields":[{"name":"n","label":"L","kind":"simple-form"}]}]}`},
		{"field without kind", `{"questions":[{"title":"a","kind":"simple-form","fields":[{"name":"n","label":"L"}]}]}`},
		{"dotted field name", `{"questions":[{"title":"a","kind":"simple-form","fields":[{"name":"a.b","label":"L","kind":"bool"}]}]}`},
		{"nested fields", `{"questions":[{"title":"a","kind":"simple-form","fields":[{"name":"n","label":"L","kind":"bool","fields":[]}]}]}`},
		{"bad display mode", `{"displayMode":"popup","questions":[{"title":"a"}]}`},
		{"negative timeout", `{"timeoutPerQuestionMs":-1,"questions":[{"title":"a"}]}`},
		{"fractional timeout", `{"timeoutPerQuestionMs":1.5,"questions":[{"title":"a"}]}`},
		{"timeout a string", `{"timeoutPerQuestionMs":"60000","questions":[{"title":"a"}]}`},
		{"allowFreeText a string", `{"allowFreeText":"false","questions":[{"title":"a"}]}`},
	}
	for _, tc := range limitCases {
		tests = append(tests, struct{ name, in string }{tc.name + " past limit", tc.build(tc.limit + 1)})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := Parse([]byte(tc.in)); err == nil {
				t.Fatalf("Parse accepts the sample, so it cannot show the schema refusing bad input")
			}
			if err := rs.Validate(instance(t, tc.in)); err == nil {
				t.Errorf("schema accepts an invalid request")
			}
		})
	}
}

// TestSchemaBounds checks every bound the schema states against the
// constant the rules apply, and that the schema states no bound the
// table does not know, so that a limit changed in Go cannot leave the
// schema behind.
func TestSchemaBounds(t *testing.T) {
	var top map[string]any
	if err := json.Unmarshal(Schema(), &top); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"/properties/questions/minItems":                       1,
		"/properties/questions/maxItems":                       MaxQuestions,
		"/properties/header/maxLength":                         MaxHeaderLen,
		"/properties/timeoutPerQuestionMs/minimum":             0,
		"/properties/timeoutPerQuestionMs/maximum":             strictjson.MaxSafeInteger,
		"/$defs/question/properties/id/minLength":              1,
		"/$defs/question/properties/id/maxLength":              MaxIDLen,
		"/$defs/question/properties/title/minLength":           1,
		"/$defs/question/properties/title/maxLength":           MaxTitleLen,
		"/$defs/question/properties/prompt/maxLength":          MaxPromptLen,
		"/$defs/question/properties/options/minItems":          1,
		"/$defs/question/properties/options/maxItems":          MaxOptions,
		"/$defs/question/properties/default/anyOf/0/maxLength": MaxTextDefaultLen,
		"/$defs/question/properties/fields/minItems":           1,
		"/$defs/question/properties/fields/maxItems":           MaxFormFields,
		"/$defs/option/properties/label/minLength":             1,
		"/$defs/option/properties/label/maxLength":             MaxOptionLabelLen,
		"/$defs/option/properties/description/maxLength":       MaxDescriptionLen,
		"/$defs/option/properties/preview/maxLength":           MaxPreviewLen,
		"/$defs/field/properties/name/pattern":                 "^[A-Za-z_][A-Za-z0-9_-]{0," + strconv.Itoa(MaxFieldNameLen-1) + "}$",
		"/$defs/field/properties/label/minLength":              1,
		"/$defs/field/properties/label/maxLength":              MaxFieldLabelLen,
		"/$defs/field/properties/options/minItems":             1,
		"/$defs/field/properties/options/maxItems":             MaxOptions,
		"/$defs/field/properties/default/anyOf/1/maxLength":    MaxTextDefaultLen,
	}
	for k, v := range want {
		if n, ok := v.(int); ok {
			want[k] = float64(n)
		}
	}
	got := map[string]any{}
	var walk func(ptr string, v any)
	walk = func(ptr string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				switch k {
				case "minItems", "maxItems", "minLength", "maxLength", "minimum", "maximum",
					"exclusiveMinimum", "exclusiveMaximum", "minProperties", "maxProperties", "pattern":
					got[ptr+"/"+k] = x
				}
				walk(ptr+"/"+k, x)
			}
		case []any:
			for i, x := range v {
				walk(ptr+"/"+strconv.Itoa(i), x)
			}
		}
	}
	walk("", top)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("schema bounds mismatch (-want +got):\n%s", diff)
	}
}
