package contract

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/strictjson"
	"github.com/google/go-cmp/cmp"
)

var valueEqual = cmp.Comparer(func(a, b Value) bool { return a.Equal(b) })

func ptr[T any](v T) *T { return &v }

func strV(s string) *Value        { v := StringValue(s); return &v }
func boolV(b bool) *Value         { v := BoolValue(b); return &v }
func strsV(list ...string) *Value { v := StringsValue(list...); return &v }

func opts(labels ...string) []Option {
	out := make([]Option, len(labels))
	for i, l := range labels {
		out[i] = Option{Label: l}
	}
	return out
}

// validCases are requests that Parse accepts, with the normalized request
// and the warnings it returns. The schema test checks that the JSON
// Schema accepts each of them too.
var validCases = []struct {
	name       string
	in         string
	want       *Request
	warnings   []string
	decodeOnly bool // encoding/json cannot read it
}{
	{
		name: "minimal input",
		in:   `{"questions":[{"title":"Name?"}]}`,
		want: &Request{Questions: []Question{{ID: "q1", Title: "Name?", Kind: KindInput}}},
	},
	{
		name: "options infer single",
		in:   `{"questions":[{"title":"Env","options":[{"label":"dev"},{"label":"prod"}]}]}`,
		want: &Request{Questions: []Question{{ID: "q1", Title: "Env", Kind: KindSingle, Options: opts("dev", "prod")}}},
	},
	{
		name: "contract example: allowFreeText false",
		in: `{"allowFreeText": false, "questions": [
			{"title": "Environment", "kind": "single", "options": [{"label": "dev"}, {"label": "prod"}]}]}`,
		want: &Request{AllowFreeText: ptr(false), Questions: []Question{{ID: "q1", Title: "Environment", Kind: KindSingle, Options: opts("dev", "prod")}}},
	},
	{
		name: "contract example: release form",
		in: `{"header":"Release","questions":[
			{"title":"Proceed with deployment?","kind":"bool","default":false},
			{"title":"Deployment settings","kind":"simple-form","fields":[
				{"name":"confirmed","label":"Confirm","kind":"bool","required":true},
				{"name":"target","label":"Target","kind":"single","required":true,"options":[
					{"label":"staging","description":"Internal smoke test"},
					{"label":"production","description":"Customer-facing"}]},
				{"name":"checks","label":"Checks","kind":"multi","options":[{"label":"unit"},{"label":"integration"}],"default":["unit"]},
				{"name":"note","label":"Release note","kind":"input"}]}]}`,
		want: &Request{Header: "Release", Questions: []Question{
			{ID: "q1", Title: "Proceed with deployment?", Kind: KindBool, Default: boolV(false)},
			{ID: "q2", Title: "Deployment settings", Kind: KindForm, Fields: []Field{
				{Name: "confirmed", Label: "Confirm", Kind: KindBool, Required: true},
				{Name: "target", Label: "Target", Kind: KindSingle, Required: true, Options: []Option{
					{Label: "staging", Description: "Internal smoke test"},
					{Label: "production", Description: "Customer-facing"}}},
				{Name: "checks", Label: "Checks", Kind: KindMulti, Options: opts("unit", "integration"), Default: strsV("unit")},
				{Name: "note", Label: "Release note", Kind: KindInput},
			}},
		}},
	},
	{
		name: "every top-level member",
		in: `{"questions":[{"id":"db","title":"DB","prompt":"Pick one","kind":"multi","options":[{"label":"pg","description":"Postgres","preview":"# pg"}],"default":"pg"}],
			"header":"H","allowFreeText":true,"displayMode":"inline","timeoutPerQuestionMs":0}`,
		want: &Request{Header: "H", AllowFreeText: ptr(true), DisplayMode: DisplayInline, TimeoutPerQuestionMs: ptr[int64](0),
			Questions: []Question{{ID: "db", Title: "DB", Prompt: "Pick one", Kind: KindMulti,
				Options: []Option{{Label: "pg", Description: "Postgres", Preview: "# pg"}}, Default: strV("pg")}}},
	},
	{
		name: "choice default outside the options with free text",
		in:   `{"questions":[{"title":"Env","options":[{"label":"dev"}],"default":"staging, please"}]}`,
		want: &Request{Questions: []Question{{ID: "q1", Title: "Env", Kind: KindSingle, Options: opts("dev"), Default: strV("staging, please")}}},
	},
	{
		name: "duplicate labels are merged",
		in:   `{"questions":[{"title":"Env","options":[{"label":"dev"},{"label":"prod","description":"first"},{"label":"dev"},{"label":"prod"},{"label":"dev"}]}]}`,
		want: &Request{Questions: []Question{{ID: "q1", Title: "Env", Kind: KindSingle,
			Options: []Option{{Label: "dev"}, {Label: "prod", Description: "first"}}}}},
		warnings: []string{
			`questions[0] (id "q1"): duplicate option label "dev" was removed; the first option with that label was kept`,
			`questions[0] (id "q1"): duplicate option label "prod" was removed; the first option with that label was kept`,
		},
	},
	{
		name: "duplicate field option labels are merged",
		in:   `{"questions":[{"id":"f","title":"F","kind":"simple-form","fields":[{"name":"t","label":"T","kind":"single","options":[{"label":"a"},{"label":"a"}],"default":"a"}]}]}`,
		want: &Request{Questions: []Question{{ID: "f", Title: "F", Kind: KindForm, Fields: []Field{
			{Name: "t", Label: "T", Kind: KindSingle, Options: opts("a"), Default: strV("a")}}}}},
		warnings: []string{`questions[0].fields[0] (id "f", field "t"): duplicate option label "a" was removed; the first option with that label was kept`},
	},
	{
		name: "input options are checked then dropped",
		in:   `{"questions":[{"title":"Name","kind":"input","options":[{"label":"a"}],"default":"x"}]}`,
		want: &Request{Questions: []Question{{ID: "q1", Title: "Name", Kind: KindInput, Default: strV("x")}}},
		warnings: []string{
			`questions[0] (id "q1"): options are ignored on an input question and were dropped; use kind "single" or "multi" to offer choices`,
		},
	},
	{
		name: "generated ids skip explicit ones",
		in:   `{"questions":[{"title":"a","id":"q2"},{"title":"b"},{"title":"c","id":"q2-2"},{"title":"d"},{"title":"e","id":"q4"}]}`,
		want: &Request{Questions: []Question{
			{ID: "q2", Title: "a", Kind: KindInput},
			{ID: "q2-3", Title: "b", Kind: KindInput},
			{ID: "q2-2", Title: "c", Kind: KindInput},
			{ID: "q4-2", Title: "d", Kind: KindInput},
			{ID: "q4", Title: "e", Kind: KindInput},
		}},
	},
	{
		name: "ids that look generated but are free",
		in:   `{"questions":[{"title":"a","id":"q3"},{"title":"b"},{"title":"c"}]}`,
		want: &Request{Questions: []Question{
			{ID: "q3", Title: "a", Kind: KindInput},
			{ID: "q2", Title: "b", Kind: KindInput},
			{ID: "q3-2", Title: "c", Kind: KindInput},
		}},
	},
	{
		name: "text is kept as sent",
		in:   `{"header":"  spaced  ","questions":[{"title":" t ","prompt":"\t","options":[{"label":" a "},{"label":"a"}],"default":" a "}]}`,
		want: &Request{Header: "  spaced  ", Questions: []Question{{ID: "q1", Title: " t ", Prompt: "\t", Kind: KindSingle, Options: opts(" a ", "a"), Default: strV(" a ")}}},
	},
	{
		name: "escapes and surrogate pairs",
		in:   `{"questions":[{"title":"\u00e9\ud83d\ude00\n\"\\\/","options":[{"label":"日本"}]}]}`,
		want: &Request{Questions: []Question{{ID: "q1", Title: "é😀\n\"\\/", Kind: KindSingle, Options: opts("日本")}}},
	},
	{
		name:       "whole timeouts in any notation",
		in:         `{"timeoutPerQuestionMs":6.0e4,"questions":[{"title":"a"}]}`,
		decodeOnly: true,
		want:       &Request{TimeoutPerQuestionMs: ptr[int64](60000), Questions: []Question{{ID: "q1", Title: "a", Kind: KindInput}}},
	},
	{
		name: "largest timeout",
		in:   `{"timeoutPerQuestionMs":9007199254740991,"questions":[{"title":"a"}]}`,
		want: &Request{TimeoutPerQuestionMs: ptr[int64](9007199254740991), Questions: []Question{{ID: "q1", Title: "a", Kind: KindInput}}},
	},
	{
		name: "field defaults of every kind",
		in: `{"questions":[{"title":"F","kind":"simple-form","fields":[
			{"name":"b","label":"B","kind":"bool","default":true},
			{"name":"s","label":"S","kind":"single","options":[{"label":"x"}],"default":"x"},
			{"name":"m","label":"M","kind":"multi","options":[{"label":"x"},{"label":"y"}],"default":["y","x"]},
			{"name":"e","label":"E","kind":"multi","options":[{"label":"x"}],"default":[]},
			{"name":"_i-2","label":"I","kind":"input","default":""}]}]}`,
		want: &Request{Questions: []Question{{ID: "q1", Title: "F", Kind: KindForm, Fields: []Field{
			{Name: "b", Label: "B", Kind: KindBool, Default: boolV(true)},
			{Name: "s", Label: "S", Kind: KindSingle, Options: opts("x"), Default: strV("x")},
			{Name: "m", Label: "M", Kind: KindMulti, Options: opts("x", "y"), Default: strsV("y", "x")},
			{Name: "e", Label: "E", Kind: KindMulti, Options: opts("x"), Default: strsV()},
			{Name: "_i-2", Label: "I", Kind: KindInput, Default: strV("")},
		}}}},
	},
	{
		name: "whitespace around the object",
		in:   " \r\n\t{\"questions\":[{\"title\":\"a\"}]}\n ",
		want: &Request{Questions: []Question{{ID: "q1", Title: "a", Kind: KindInput}}},
	},
}

func TestParseValid(t *testing.T) {
	for _, tc := range validCases {
		t.Run(tc.name, func(t *testing.T) {
			got, warnings, err := Parse([]byte(tc.in))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tc.want, got, valueEqual); diff != "" {
				t.Errorf("request mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.warnings, warnings); diff != "" {
				t.Errorf("warnings mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// badCases are requests that Parse refuses, with every problem it
// reports. Unless decodeOnly is set, encoding/json reads the same input
// into the same typed request, and Normalize must report the same
// problems for it.
var badCases = []struct {
	name       string
	in         string
	want       []Problem
	decodeOnly bool
}{
	// JSON itself.
	{name: "empty", in: "", decodeOnly: true,
		want: []Problem{{Message: `the request is empty; send a JSON object such as {"questions":[{"title":"…"}]}`}}},
	{name: "only whitespace", in: " \n", decodeOnly: true,
		want: []Problem{{Message: `the request is empty; send a JSON object such as {"questions":[{"title":"…"}]}`}}},
	{name: "array", in: `[{"title":"a"}]`, decodeOnly: true,
		want: []Problem{{Message: "the request must be a JSON object, got an array"}}},
	{name: "string", in: `"hi"`, decodeOnly: true,
		want: []Problem{{Message: "the request must be a JSON object, got a string"}}},
	{name: "null", in: `null`, decodeOnly: true,
		want: []Problem{{Message: "the request must be a JSON object, got null"}}},
	{name: "truncated", in: `{"questions":[{"title":"a"}`, decodeOnly: true,
		want: []Problem{{Message: "invalid JSON at byte offset 27: unexpected end of input inside an array"}}},
	{name: "trailing comma", in: `{"questions":[{"title":"a"},]}`, decodeOnly: true,
		want: []Problem{{Message: "invalid JSON at byte offset 28: expected a value after ','"}}},
	{name: "trailing comma in object", in: `{"questions":[{"title":"a",}]}`, decodeOnly: true,
		want: []Problem{{Message: "invalid JSON at byte offset 27: expected a field name in double quotes"}}},
	{name: "single quotes", in: `{'questions':[]}`, decodeOnly: true,
		want: []Problem{{Message: "invalid JSON at byte offset 1: expected a field name in double quotes"}}},
	{name: "missing colon", in: `{"questions" []}`, decodeOnly: true,
		want: []Problem{{Message: "invalid JSON at byte offset 13: expected ':' after a field name"}}},
	{name: "missing comma", in: `{"header":"a" "questions":[]}`, decodeOnly: true,
		want: []Problem{{Message: "invalid JSON at byte offset 14: expected ',' or '}' after an object member"}}},
	{name: "trailing data", in: `{"questions":[{"title":"a"}]}{}`, decodeOnly: true,
		want: []Problem{{Message: "invalid JSON at byte offset 29: unexpected data after the top-level value"}}},
	{name: "trailing data after a non-object", in: `1 2`, decodeOnly: true,
		want: []Problem{{Message: "invalid JSON at byte offset 2: unexpected data after the top-level value"}}},
	{name: "raw newline in a string", in: "{\"questions\":[{\"title\":\"a\nb\"}]}", decodeOnly: true,
		want: []Problem{{Message: `invalid JSON at byte offset 25: control character in a string; escape it, for example as \n`}}},
	{name: "bad escape", in: `{"questions":[{"title":"\x"}]}`, decodeOnly: true,
		want: []Problem{{Message: `invalid JSON at byte offset 24: invalid escape \x in a string`}}},
	{name: "short unicode escape", in: `{"questions":[{"title":"\u12"}]}`, decodeOnly: true,
		want: []Problem{{Message: `invalid JSON at byte offset 24: invalid \u escape in a string; it needs four hex digits`}}},
	{name: "bad literal", in: `{"allowFreeText":tru,"questions":[{"title":"a"}]}`, decodeOnly: true,
		want: []Problem{{Message: "invalid JSON at byte offset 17: unexpected character 't', expected a value"}}},
	{name: "bad number", in: `{"timeoutPerQuestionMs":01,"questions":[{"title":"a"}]}`, decodeOnly: true,
		want: []Problem{{Message: "invalid JSON at byte offset 25: expected ',' or '}' after an object member"}}},
	{name: "number without digits after the point", in: `{"timeoutPerQuestionMs":1.,"questions":[{"title":"a"}]}`, decodeOnly: true,
		want: []Problem{{Message: "invalid JSON at byte offset 26: invalid number: expected a digit after '.'"}}},
	{name: "too deep", in: `{"x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, decodeOnly: true,
		want: []Problem{{Message: "invalid JSON at byte offset 70: values are nested too deeply"}}},
	{name: "syntax error hides other problems", in: `{"questions":5,"x":1,`, decodeOnly: true,
		want: []Problem{{Message: "invalid JSON at byte offset 21: unexpected end of input inside an object"}}},

	// Text encoding.
	{name: "invalid UTF-8", in: "{\"questions\":[{\"title\":\"a\xffb\"}]}", decodeOnly: true,
		want: []Problem{{Path: "questions[0].title", Message: "is not valid UTF-8 (at byte offset 25); send text as UTF-8"}}},
	{name: "invalid UTF-8 after an escape", in: "{\"questions\":[{\"title\":\"\\n\xc3(\"}]}", decodeOnly: true,
		want: []Problem{{Path: "questions[0].title", Message: "is not valid UTF-8 (at byte offset 26); send text as UTF-8"}}},
	{name: "lone high surrogate", in: `{"questions":[{"title":"a\ud800b"}]}`, decodeOnly: true,
		want: []Problem{{Path: "questions[0].title", Message: "is not valid UTF-8 (at byte offset 25); send text as UTF-8"}}},
	{name: "lone low surrogate", in: `{"questions":[{"title":"\udc00"}]}`, decodeOnly: true,
		want: []Problem{{Path: "questions[0].title", Message: "is not valid UTF-8 (at byte offset 24); send text as UTF-8"}}},
	{name: "reversed surrogates", in: `{"questions":[{"title":"\ude00\ud83d"}]}`, decodeOnly: true,
		want: []Problem{{Path: "questions[0].title", Message: "is not valid UTF-8 (at byte offset 24); send text as UTF-8"}}},
	{name: "invalid UTF-8 in a field name", in: "{\"questions\":[{\"title\":\"a\",\"\xff\":1}]}", decodeOnly: true,
		want: []Problem{{Path: "questions[0][\"\uFFFD\"]", Message: "unknown field \"\uFFFD\"; the fields of a question are id, title, prompt, kind, options, default, fields"}}},

	{name: "an escape sequence in a field name", in: `{"questions":[{"title":"a","\u001b]0;PWN\u0007":1}]}`, decodeOnly: true,
		want: []Problem{{Path: `questions[0]["\x1b]0;PWN\a"]`, Message: `unknown field "\x1b]0;PWN\a"; the fields of a question are id, title, prompt, kind, options, default, fields`}}},
	{name: "invisible characters in a field name", in: `{"questions":[{"title":"a","ti\u200btle\ufeff":1}]}`, decodeOnly: true,
		want: []Problem{{Path: `questions[0]["ti\u200btle\ufeff"]`, Message: `unknown field "ti\u200btle\ufeff"; the fields of a question are id, title, prompt, kind, options, default, fields`}}},

	// Members.
	{name: "unknown top-level field", in: `{"questions":[{"title":"a"}],"metadata":{"a":[1,{"b":null}]}}`, decodeOnly: true,
		want: []Problem{{Path: "metadata", Message: "unknown field \"metadata\"; the fields of the request are questions, header, allowFreeText, displayMode, timeoutPerQuestionMs"}}},
	{name: "case-mismatched field", in: `{"questions":[{"Title":"a"}]}`, decodeOnly: true,
		want: []Problem{{Path: "questions[0].Title", Message: `unknown field "Title"; did you mean "title"?`}}},
	{name: "case-mismatched field beside the real one", in: `{"questions":[{"Title":"a","title":""}]}`, decodeOnly: true,
		want: []Problem{
			{Path: "questions[0].Title", Message: `unknown field "Title"; did you mean "title"?`},
			{Path: "questions[0].title", Message: "is required: give the question a short heading"},
		}},
	{name: "misspelt field", in: `{"questions":[{"title":"a","kind":"single","optoins":[{"label":"x"}]}]}`, decodeOnly: true,
		want: []Problem{{Path: "questions[0].optoins", Message: `unknown field "optoins"; did you mean "options"?`}}},
	{name: "misspelt top-level questions", in: `{"Questions":[{"title":"a"}]}`, decodeOnly: true,
		want: []Problem{{Path: "Questions", Message: `unknown field "Questions"; did you mean "questions"?`}}},
	{name: "hinted field", in: `{"questions":[{"question":"Which?","choices":[{"label":"a"}]}]}`, decodeOnly: true,
		want: []Problem{
			{Path: "questions[0].question", Message: `unknown field "question"; use "title" for the question text`},
			{Path: "questions[0].choices", Message: `unknown field "choices"; use "options"`},
		}},
	{name: "hinted option and field members", in: `{"questions":[{"title":"a","options":[{"value":"x"}]},{"title":"b","kind":"simple-form","fields":[{"key":"k","label":"K","kind":"bool"}]}]}`, decodeOnly: true,
		want: []Problem{
			{Path: "questions[0].options[0].value", Message: `unknown field "value"; use "label"; the label is what the answer reports`},
			{Path: "questions[1].fields[0].key", Message: `unknown field "key"; use "name" for the field's output key`},
		}},
	{name: "required on a question", in: `{"questions":[{"title":"a","required":false}]}`, decodeOnly: true,
		want: []Problem{{Path: "questions[0].required", Message: `unknown field "required"; every question is required; remove "required"`}}},
	{name: "unknown option and field members", in: `{"questions":[{"title":"a","options":[{"label":"x","recommended":true}]},{"title":"b","kind":"simple-form","fields":[{"name":"n","label":"N","kind":"bool","hidden":true}]}]}`, decodeOnly: true,
		want: []Problem{
			{Path: "questions[0].options[0].recommended", Message: `unknown field "recommended"; the fields of an option are label, description, preview`},
			{Path: "questions[1].fields[0].hidden", Message: `unknown field "hidden"; the fields of a form field are name, label, kind, required, options, default`},
		}},
	{name: "duplicate keys", in: `{"questions":[{"title":"a","title":"b","options":[{"label":"x","label":"y"}]}],"header":"h","header":"i"}`, decodeOnly: true,
		want: []Problem{
			{Path: "header", Message: "appears more than once; send each field once"},
			{Path: "questions[0].title", Message: "appears more than once; send each field once"},
			{Path: "questions[0].options[0].label", Message: "appears more than once; send each field once"},
		}},
	{name: "duplicate field member", in: `{"questions":[{"title":"a","kind":"simple-form","fields":[{"name":"n","name":"m","label":"N","kind":"bool"}]}]}`, decodeOnly: true,
		want: []Problem{{Path: "questions[0].fields[0].name", Message: "appears more than once; send each field once"}}},

	// Types.
	{name: "wrong types everywhere", decodeOnly: true,
		in: `{"questions":[{"id":1,"title":2,"prompt":[],"kind":{},"options":"a,b","default":3,"fields":{}}],"header":false,"allowFreeText":"false","displayMode":1,"timeoutPerQuestionMs":"60000"}`,
		want: []Problem{
			{Path: "header", Message: "must be a string, got a boolean"},
			{Path: "allowFreeText", Message: "must be a boolean (true or false), got a string"},
			{Path: "displayMode", Message: "must be a string, got a number"},
			{Path: "timeoutPerQuestionMs", Message: "must be a whole number of milliseconds, got a string"},
			{Path: "questions[0].id", Message: "must be a string, got a number"},
			{Path: "questions[0].title", Message: "must be a string, got a number"},
			{Path: "questions[0].prompt", Message: "must be a string, got an array"},
			{Path: "questions[0].kind", Message: "must be a string, got an object"},
			{Path: "questions[0].options", Message: "must be an array of option objects, got a string"},
			{Path: "questions[0].default", Message: "must be a string, a boolean or an array of strings, as the kind requires, got a number"},
			{Path: "questions[0].fields", Message: "must be an array of field objects, got an object"},
		}},
	{name: "null is not absent", in: `{"questions":[{"title":"a","prompt":null}],"header":null}`, decodeOnly: true,
		want: []Problem{
			{Path: "header", Message: "must be a string, got null; leave the field out instead of sending null"},
			{Path: "questions[0].prompt", Message: "must be a string, got null; leave the field out instead of sending null"},
		}},
	{name: "questions not an array", in: `{"questions":{"title":"a"}}`, decodeOnly: true,
		want: []Problem{{Path: "questions", Message: "must be an array of question objects, got an object"}}},
	{name: "question not an object", in: `{"questions":["Which?",{"title":"b"}]}`, decodeOnly: true,
		want: []Problem{{Path: "questions[0]", Message: "must be a question object, got a string"}}},
	{name: "option not an object", in: `{"questions":[{"title":"a","options":["x",{"label":"y"}],"default":"x","kind":"single"}],"allowFreeText":false}`, decodeOnly: true,
		want: []Problem{{Path: "questions[0].options[0]", Message: `must be an option object such as {"label":"…"}, got a string`}}},
	{name: "field not an object", in: `{"questions":[{"title":"a","kind":"simple-form","fields":[null]}]}`, decodeOnly: true,
		want: []Problem{{Path: "questions[0].fields[0]", Message: "must be a field object, got null; leave the field out instead of sending null"}}},
	{name: "field member types", decodeOnly: true,
		in: `{"questions":[{"title":"a","kind":"simple-form","fields":[{"name":1,"label":true,"kind":null,"required":"yes","options":{},"default":{}}]}]}`,
		want: []Problem{
			{Path: "questions[0].fields[0].name", Message: "must be a string, got a number"},
			{Path: "questions[0].fields[0].label", Message: "must be a string, got a boolean"},
			{Path: "questions[0].fields[0].kind", Message: "must be a string, got null; leave the field out instead of sending null"},
			{Path: "questions[0].fields[0].required", Message: "must be a boolean (true or false), got a string"},
			{Path: "questions[0].fields[0].options", Message: "must be an array of option objects, got an object"},
			{Path: "questions[0].fields[0].default", Message: "must be a string, a boolean or an array of strings, as the kind requires, got an object"},
		}},
	{name: "option member types", in: `{"questions":[{"title":"a","options":[{"label":1,"description":2,"preview":3}]}]}`, decodeOnly: true,
		want: []Problem{
			{Path: "questions[0].options[0].label", Message: "must be a string, got a number"},
			{Path: "questions[0].options[0].description", Message: "must be a string, got a number"},
			{Path: "questions[0].options[0].preview", Message: "must be a string, got a number"},
		}},
	{name: "default array of non-strings", decodeOnly: true,
		in: `{"questions":[{"title":"a","kind":"simple-form","fields":[{"name":"m","label":"M","kind":"multi","options":[{"label":"x"}],"default":["x",1,true]}]}]}`,
		want: []Problem{
			{Path: "questions[0].fields[0].default[1]", Message: "must be a string (an option label), got a number"},
			{Path: "questions[0].fields[0].default[2]", Message: "must be a string (an option label), got a boolean"},
		}},
	{name: "timeout with a fraction", in: `{"timeoutPerQuestionMs":1500.5,"questions":[{"title":"a"}]}`, decodeOnly: true,
		want: []Problem{{Path: "timeoutPerQuestionMs", Message: "must be a whole number of milliseconds, got 1500.5"}}},
	{name: "timeout with a small exponent", in: `{"timeoutPerQuestionMs":1e-3,"questions":[{"title":"a"}]}`, decodeOnly: true,
		want: []Problem{{Path: "timeoutPerQuestionMs", Message: "must be a whole number of milliseconds, got 1e-3"}}},
	{name: "timeout negative", in: `{"timeoutPerQuestionMs":-1,"questions":[{"title":"a"}]}`,
		want: []Problem{{Path: "timeoutPerQuestionMs", Message: "must not be negative, got -1; use 0 for no deadline"}}},
	{name: "timeout past 2^53-1", in: `{"timeoutPerQuestionMs":9007199254740992,"questions":[{"title":"a"}]}`,
		want: []Problem{{Path: "timeoutPerQuestionMs", Message: "must be at most 9007199254740991 milliseconds, got 9007199254740992"}}},
	{name: "timeout huge", in: `{"timeoutPerQuestionMs":1e400,"questions":[{"title":"a"}]}`, decodeOnly: true,
		want: []Problem{{Path: "timeoutPerQuestionMs", Message: "must be at most 9007199254740991 milliseconds, got 1e400"}}},
	{name: "timeout with the largest exponent", in: `{"timeoutPerQuestionMs":1e9223372036854775807,"questions":[{"title":"a"}]}`, decodeOnly: true,
		want: []Problem{{Path: "timeoutPerQuestionMs", Message: "must be at most 9007199254740991 milliseconds, got 1e9223372036854775807"}}},
	{name: "timeout with the smallest exponent", in: `{"timeoutPerQuestionMs":1.5e-9223372036854775808,"questions":[{"title":"a"}]}`, decodeOnly: true,
		want: []Problem{{Path: "timeoutPerQuestionMs", Message: "must be a whole number of milliseconds, got 1.5e-9223372036854775808"}}},

	// Request rules.
	{name: "no questions member", in: `{}`,
		want: []Problem{{Path: "questions", Message: `is required: send 1 to 5 questions, for example [{"title":"Which database?","options":[{"label":"Postgres"},{"label":"SQLite"}]}]`}}},
	{name: "empty questions", in: `{"questions":[]}`,
		want: []Problem{{Path: "questions", Message: "must hold at least 1 question (at most 5)"}}},
	{name: "six questions", in: `{"questions":[{"title":"1"},{"title":"2"},{"title":"3"},{"title":"4"},{"title":"5"},{"title":"6"}]}`,
		want: []Problem{{Path: "questions", Message: "has 6 questions; the limit is 5: ask the most important ones first and the rest in a later call"}}},
	{name: "bad display mode", in: `{"displayMode":"popup","questions":[{"title":"a"}]}`,
		want: []Problem{{Path: "displayMode", Message: `must be "overlay" or "inline", got "popup"`}}},
	{name: "empty display mode", in: `{"displayMode":"","questions":[{"title":"a"}]}`, decodeOnly: true,
		want: []Problem{{Path: "displayMode", Message: `must be "overlay" or "inline", got ""`}}},

	// Question rules.
	{name: "missing title", in: `{"questions":[{"prompt":"p"}]}`,
		want: []Problem{{Path: "questions[0].title", Message: "is required: give the question a short heading"}}},
	{name: "blank title", in: `{"questions":[{"title":" \t\u00a0\u3000"}]}`,
		want: []Problem{{Path: "questions[0].title", Message: "must not be blank: give the question a short heading"}}},
	{name: "empty title", in: `{"questions":[{"title":""}]}`,
		want: []Problem{{Path: "questions[0].title", Message: "is required: give the question a short heading"}}},
	{name: "empty id", in: `{"questions":[{"title":"a","id":""}]}`, decodeOnly: true,
		want: []Problem{{Path: "questions[0].id", Message: "must not be empty; leave id out to get a generated one"}}},
	{name: "blank id", in: `{"questions":[{"title":"a","id":"  "}]}`,
		want: []Problem{{Path: "questions[0].id", Message: "must not be blank; leave id out to get a generated one"}}},
	{name: "duplicate ids", in: `{"questions":[{"title":"a","id":"x"},{"title":"b","id":"y"},{"title":"c","id":"x"}]}`,
		want: []Problem{{Path: "questions[2].id", Message: `"x" is already the id of questions[0]; ids must be unique`}}},
	{name: "unknown kind", in: `{"questions":[{"title":"a","kind":"choice","options":[{"label":""}]}]}`,
		want: []Problem{
			{Path: "questions[0].kind", Message: `must be single, multi, input, bool or simple-form, got "choice"`},
			{Path: "questions[0].options[0].label", Message: "is required: it is what the answer reports"},
		}},
	{name: "empty kind", in: `{"questions":[{"title":"a","kind":""}]}`, decodeOnly: true,
		want: []Problem{{Path: "questions[0].kind", Message: `must be single, multi, input, bool or simple-form, got ""`}}},
	{name: "single without options", in: `{"questions":[{"title":"a","kind":"single"}]}`,
		want: []Problem{{Path: "questions[0].options", Message: `is required for a single question: give 1 to 5 options, such as [{"label":"Yes"},{"label":"No"}]`}}},
	{name: "multi without options", in: `{"questions":[{"title":"a","kind":"multi"}]}`,
		want: []Problem{{Path: "questions[0].options", Message: `is required for a multi question: give 1 to 5 options, such as [{"label":"Yes"},{"label":"No"}]`}}},
	{name: "empty options", in: `{"questions":[{"title":"a","options":[]}]}`,
		want: []Problem{{Path: "questions[0].options", Message: `must hold at least 1 option (at most 5), such as [{"label":"Yes"}]`}}},
	{name: "six options", in: `{"questions":[{"title":"a","options":[{"label":"1"},{"label":"2"},{"label":"3"},{"label":"4"},{"label":"5"},{"label":"6"}]}]}`,
		want: []Problem{{Path: "questions[0].options", Message: "has 6 options; the limit is 5: keep the likeliest choices, or use an input question"}}},
	{name: "options on bool", in: `{"questions":[{"title":"a","kind":"bool","options":[{"label":"y"}]}]}`,
		want: []Problem{{Path: "questions[0].options", Message: "is not allowed on a bool question: it always offers True and False"}}},
	{name: "options on a form", in: `{"questions":[{"title":"a","kind":"simple-form","options":[{"label":"y"}],"fields":[{"name":"n","label":"N","kind":"bool"}]}]}`,
		want: []Problem{{Path: "questions[0].options", Message: "is not allowed on a simple-form question itself: give each single or multi field its own options"}}},
	{name: "bad options on input are still checked", in: `{"questions":[{"title":"a","kind":"input","options":[{"description":"d"}]}]}`,
		want: []Problem{{Path: "questions[0].options[0].label", Message: "is required: it is what the answer reports"}}},
	{name: "missing and blank labels", in: `{"questions":[{"title":"a","options":[{"description":"d"},{"label":"  "}]}]}`,
		want: []Problem{
			{Path: "questions[0].options[0].label", Message: "is required: it is what the answer reports"},
			{Path: "questions[0].options[1].label", Message: "must not be blank: it is what the answer reports"},
		}},
	{name: "bool default not a boolean", in: `{"questions":[{"title":"a","kind":"bool","default":"true"}]}`,
		want: []Problem{{Path: "questions[0].default", Message: "must be a boolean (true or false) for a bool question, got a string"}}},
	{name: "input default a boolean", in: `{"questions":[{"title":"a","default":true}]}`,
		want: []Problem{{Path: "questions[0].default", Message: `must be a string for an input question, got a boolean; for a yes/no question set "kind": "bool"`}}},
	{name: "multi default an array", in: `{"questions":[{"title":"a","kind":"multi","options":[{"label":"x"}],"default":["x"]}]}`,
		want: []Problem{{Path: "questions[0].default", Message: "must be a string for a multi question, got an array; a multi question takes one label as its default"}}},
	{name: "single default an array", in: `{"questions":[{"title":"a","options":[{"label":"x"}],"default":["x"]}]}`,
		want: []Problem{{Path: "questions[0].default", Message: "must be a string for a single question, got an array"}}},
	{name: "choice default not a label without free text", in: `{"allowFreeText":false,"questions":[{"title":"a","options":[{"label":"dev"},{"label":"prod"}],"default":"staging"},{"title":"b","kind":"multi","options":[{"label":"x"}],"default":"y"}]}`,
		want: []Problem{
			{Path: "questions[0].default", Message: `"staging" is not an option label; with allowFreeText false the default must be one of "dev", "prod"`},
			{Path: "questions[1].default", Message: `"y" is not an option label; with allowFreeText false the default must be one of "x"`},
		}},
	{name: "default on a form", in: `{"questions":[{"title":"a","kind":"simple-form","default":"x","fields":[{"name":"n","label":"N","kind":"bool"}]}]}`,
		want: []Problem{{Path: "questions[0].default", Message: "is not allowed on a simple-form question: set default on each field instead"}}},
	{name: "fields without kind", in: `{"questions":[{"title":"a","fields":[{"name":"n","label":"","kind":"bool"}]}]}`,
		want: []Problem{
			{Path: "questions[0].fields", Message: `belongs to a simple-form question: set "kind": "simple-form"`},
			{Path: "questions[0].fields[0].label", Message: "is required: it is shown beside the field"},
		}},
	{name: "fields on single", in: `{"questions":[{"title":"a","kind":"single","options":[{"label":"x"}],"fields":[{"name":"n","label":"N","kind":"bool"}]}]}`,
		want: []Problem{{Path: "questions[0].fields", Message: `is only allowed on a simple-form question, not on a single question; for a form set "kind": "simple-form"`}}},
	{name: "form without fields", in: `{"questions":[{"title":"a","kind":"simple-form"}]}`,
		want: []Problem{{Path: "questions[0].fields", Message: `is required for a simple-form question: give 1 to 10 fields, such as [{"name":"confirmed","label":"Confirm","kind":"bool"}]`}}},
	{name: "form with empty fields", in: `{"questions":[{"title":"a","kind":"simple-form","fields":[]}]}`,
		want: []Problem{{Path: "questions[0].fields", Message: "must hold at least 1 field (at most 10)"}}},
	{name: "form with eleven fields", in: `{"questions":[{"title":"a","kind":"simple-form","fields":[` + fieldsJSON(11) + `]}]}`,
		want: []Problem{{Path: "questions[0].fields", Message: "has 11 fields; the limit is 10: split the form across two questions"}}},

	// Field rules.
	{name: "field names", in: `{"questions":[{"title":"a","kind":"simple-form","fields":[
			{"label":"L","kind":"bool"},
			{"name":"a.b","label":"L","kind":"bool"},
			{"name":"1a","label":"L","kind":"bool"},
			{"name":"a b","label":"L","kind":"bool"},
			{"name":"a[0]","label":"L","kind":"bool"},
			{"name":"-a","label":"L","kind":"bool"},
			{"name":"é","label":"L","kind":"bool"},
			{"name":"__proto__","label":"L","kind":"bool"},
			{"name":"constructor","label":"L","kind":"bool"},
			{"name":"prototype","label":"L","kind":"bool"}]}]}`,
		want: []Problem{
			{Path: "questions[0].fields[0].name", Message: `is required: the field's key in the answer, such as "target_env"`},
			{Path: "questions[0].fields[1].name", Message: `"a.b" is not a valid field name: use 1 to 64 ASCII letters, digits, "_" or "-", starting with a letter or "_", such as "target_env"`},
			{Path: "questions[0].fields[2].name", Message: `"1a" is not a valid field name: use 1 to 64 ASCII letters, digits, "_" or "-", starting with a letter or "_", such as "target_env"`},
			{Path: "questions[0].fields[3].name", Message: `"a b" is not a valid field name: use 1 to 64 ASCII letters, digits, "_" or "-", starting with a letter or "_", such as "target_env"`},
			{Path: "questions[0].fields[4].name", Message: `"a[0]" is not a valid field name: use 1 to 64 ASCII letters, digits, "_" or "-", starting with a letter or "_", such as "target_env"`},
			{Path: "questions[0].fields[5].name", Message: `"-a" is not a valid field name: use 1 to 64 ASCII letters, digits, "_" or "-", starting with a letter or "_", such as "target_env"`},
			{Path: "questions[0].fields[6].name", Message: `"é" is not a valid field name: use 1 to 64 ASCII letters, digits, "_" or "-", starting with a letter or "_", such as "target_env"`},
			{Path: "questions[0].fields[7].name", Message: `"__proto__" is reserved; choose another name`},
			{Path: "questions[0].fields[8].name", Message: `"constructor" is reserved; choose another name`},
			{Path: "questions[0].fields[9].name", Message: `"prototype" is reserved; choose another name`},
		}},
	{name: "empty field name", in: `{"questions":[{"title":"a","kind":"simple-form","fields":[{"name":"","label":"L","kind":"bool"}]}]}`,
		want: []Problem{{Path: "questions[0].fields[0].name", Message: `is required: the field's key in the answer, such as "target_env"`}}},
	{name: "duplicate field names", in: `{"questions":[{"title":"a","kind":"simple-form","fields":[{"name":"n","label":"L","kind":"bool"},{"name":"m","label":"L","kind":"bool"},{"name":"n","label":"L","kind":"input"}]}]}`,
		want: []Problem{{Path: "questions[0].fields[2].name", Message: `"n" is already the name of fields[0]; names must be unique within a form`}}},
	{name: "field kinds", in: `{"questions":[{"title":"a","kind":"simple-form","fields":[
			{"name":"a","label":"L"},
			{"name":"b","label":"L","kind":"simple-form","fields":[]},
			{"name":"c","label":"L","kind":"text","options":[{"label":""}]}]}]}`,
		decodeOnly: true, // a nested "fields" is an unknown member only to the strict decoder
		want: []Problem{
			{Path: "questions[0].fields[0].kind", Message: "is required: one of bool, single, multi or input"},
			{Path: "questions[0].fields[1].fields", Message: `unknown field "fields"; forms are flat: a field cannot hold fields`},
			{Path: "questions[0].fields[1].kind", Message: "forms are flat: a field cannot be a simple-form; use bool, single, multi or input"},
			{Path: "questions[0].fields[2].kind", Message: `must be bool, single, multi or input, got "text"`},
			{Path: "questions[0].fields[2].options[0].label", Message: "is required: it is what the answer reports"},
		}},
	{name: "field options by kind", in: `{"questions":[{"title":"a","kind":"simple-form","fields":[
			{"name":"s","label":"L","kind":"single"},
			{"name":"m","label":"L","kind":"multi","options":[]},
			{"name":"b","label":"L","kind":"bool","options":[{"label":"x"}]},
			{"name":"i","label":"L","kind":"input","options":[{"label":"x"}]}]}]}`,
		want: []Problem{
			{Path: "questions[0].fields[0].options", Message: "is required for a single field: give 1 to 5 options"},
			{Path: "questions[0].fields[1].options", Message: `must hold at least 1 option (at most 5), such as [{"label":"Yes"}]`},
			{Path: "questions[0].fields[2].options", Message: "is not allowed on a bool field"},
			{Path: "questions[0].fields[3].options", Message: "is not allowed on an input field"},
		}},
	{name: "field defaults by kind", in: `{"questions":[{"title":"a","kind":"simple-form","fields":[
			{"name":"b","label":"L","kind":"bool","default":"true"},
			{"name":"s","label":"L","kind":"single","options":[{"label":"x"}],"default":["x"]},
			{"name":"s2","label":"L","kind":"single","options":[{"label":"x"}],"default":"y"},
			{"name":"m","label":"L","kind":"multi","options":[{"label":"x"}],"default":"x"},
			{"name":"m2","label":"L","kind":"multi","options":[{"label":"x"},{"label":"y"}],"default":["x","z","x"]},
			{"name":"i","label":"L","kind":"input","default":false}]}]}`,
		want: []Problem{
			{Path: "questions[0].fields[0].default", Message: "must be a boolean (true or false) for a bool field, got a string"},
			{Path: "questions[0].fields[1].default", Message: "must be a string (one option label) for a single field, got an array"},
			{Path: "questions[0].fields[2].default", Message: `"y" is not an option label; use one of "x"`},
			{Path: "questions[0].fields[3].default", Message: `must be an array of option labels, such as ["unit"] for a multi field, got a string`},
			{Path: "questions[0].fields[4].default[1]", Message: `"z" is not an option label; use labels from "x", "y"`},
			{Path: "questions[0].fields[4].default[2]", Message: `"x" is listed more than once; list each label once`},
			{Path: "questions[0].fields[5].default", Message: "must be a string for an input field, got a boolean"},
		}},
	{name: "missing and blank field label", in: `{"questions":[{"title":"a","kind":"simple-form","fields":[{"name":"a","kind":"bool"},{"name":"b","label":"\n","kind":"bool"}]}]}`,
		want: []Problem{
			{Path: "questions[0].fields[0].label", Message: "is required: it is shown beside the field"},
			{Path: "questions[0].fields[1].label", Message: "must not be blank: it is shown beside the field"},
		}},

	// Order and cascades.
	{name: "problems come question by question", in: `{"questions":[{"title":"","kind":"bool","options":[{"label":""}]},{"kind":"single"}],"displayMode":"x"}`,
		want: []Problem{
			{Path: "displayMode", Message: `must be "overlay" or "inline", got "x"`},
			{Path: "questions[0].title", Message: "is required: give the question a short heading"},
			{Path: "questions[0].options", Message: "is not allowed on a bool question: it always offers True and False"},
			{Path: "questions[1].title", Message: "is required: give the question a short heading"},
			{Path: "questions[1].options", Message: `is required for a single question: give 1 to 5 options, such as [{"label":"Yes"},{"label":"No"}]`},
		}},
	{name: "a bad kind does not cascade", in: `{"questions":[{"title":"a","kind":5,"default":true,"fields":[{"name":"n","label":"N","kind":"bool"}]}]}`, decodeOnly: true,
		want: []Problem{{Path: "questions[0].kind", Message: "must be a string, got a number"}}},
	{name: "bad options do not cascade into the default", in: `{"allowFreeText":false,"questions":[{"title":"a","options":[{"label":5}],"default":"x"}]}`, decodeOnly: true,
		want: []Problem{{Path: "questions[0].options[0].label", Message: "must be a string, got a number"}}},
}

// fieldsJSON returns n valid bool fields.
func fieldsJSON(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = `{"name":"f` + string(rune('a'+i)) + `","label":"L","kind":"bool"}`
	}
	return strings.Join(parts, ",")
}

func TestParseProblems(t *testing.T) {
	for _, tc := range badCases {
		t.Run(tc.name, func(t *testing.T) {
			got, warnings, err := Parse([]byte(tc.in))
			if got != nil || warnings != nil {
				t.Errorf("Parse returned a request %+v and warnings %q with its error", got, warnings)
			}
			if diff := cmp.Diff(tc.want, problemsOf(t, err)); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func problemsOf(t *testing.T, err error) []Problem {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	var re *RequestError
	if !errors.As(err, &re) {
		t.Fatalf("error %v is a %T, not a *RequestError", err, err)
	}
	return re.Problems
}

// TestNormalizeMatchesParse checks that a Go caller gets the same
// validation as a JSON one.
func TestNormalizeMatchesParse(t *testing.T) {
	for _, tc := range badCases {
		if tc.decodeOnly {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			var r Request
			if err := json.Unmarshal([]byte(tc.in), &r); err != nil {
				t.Fatalf("encoding/json: %v", err)
			}
			_, _, err := Normalize(&r)
			if diff := cmp.Diff(tc.want, problemsOf(t, err)); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
	for _, tc := range validCases {
		if tc.decodeOnly {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			var r Request
			if err := json.Unmarshal([]byte(tc.in), &r); err != nil {
				t.Fatalf("encoding/json: %v", err)
			}
			got, warnings, err := Normalize(&r)
			if err != nil {
				t.Fatalf("Normalize: %v", err)
			}
			if diff := cmp.Diff(tc.want, got, valueEqual); diff != "" {
				t.Errorf("request mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.warnings, warnings); diff != "" {
				t.Errorf("warnings mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseTooLarge(t *testing.T) {
	pad := func(n int) []byte {
		head := `{"questions":[{"title":"a"}],"header":"`
		return []byte(head + strings.Repeat(" ", n-len(head)-2) + `"}`)
	}
	at := pad(MaxRequestBytes)
	if _, _, err := Parse(at); err == nil || strings.Contains(err.Error(), "byte limit") {
		t.Errorf("Parse of exactly %d bytes: got %v, want a header length problem only", len(at), err)
	}
	want := []Problem{{Message: "the request is over the 262144-byte limit (256 KiB): shorten the previews or split the questionnaire"}}
	_, _, err := Parse(pad(MaxRequestBytes + 1))
	if diff := cmp.Diff(want, problemsOf(t, err)); diff != "" {
		t.Errorf("problems mismatch (-want +got):\n%s", diff)
	}
}

func TestNormalizeTooLarge(t *testing.T) {
	// Five questions of five options with the longest previews: every text
	// within its own limit, the whole over 256 KiB.
	preview := strings.Repeat("p", MaxPreviewLen)
	r := &Request{}
	for range MaxQuestions {
		q := Question{Title: "t", Kind: KindSingle}
		for j := range MaxOptions {
			q.Options = append(q.Options, Option{Label: strconv.Itoa(j), Preview: preview})
		}
		r.Questions = append(r.Questions, q)
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := []Problem{{Message: "the request is " + strconv.Itoa(len(data)) + " bytes long, over the 262144-byte limit (256 KiB): shorten the previews or split the questionnaire"}}
	_, _, err = Normalize(r)
	if diff := cmp.Diff(want, problemsOf(t, err)); diff != "" {
		t.Errorf("problems mismatch (-want +got):\n%s", diff)
	}
	// Two questions fewer fit, and are accepted.
	r.Questions = r.Questions[:3]
	if _, _, err := Normalize(r); err != nil {
		t.Errorf("Normalize of %d questions: %v", len(r.Questions), err)
	}
}

func TestProblemCap(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"questions":[`)
	for i := range 60 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"title":""}`)
	}
	b.WriteString(`]}`)
	ps := problemsOf(t, func() error { _, _, err := Parse([]byte(b.String())); return err }())
	if len(ps) != strictjson.MaxProblems+1 {
		t.Fatalf("got %d problems, want %d", len(ps), strictjson.MaxProblems+1)
	}
	want := Problem{Message: "and 11 more problems"}
	if diff := cmp.Diff(want, ps[strictjson.MaxProblems]); diff != "" {
		t.Errorf("last problem mismatch (-want +got):\n%s", diff)
	}
}

// TestMemberBits checks that the member bits follow the member lists,
// which the misspelling hints rely on.
func TestMemberBits(t *testing.T) {
	tests := []struct {
		keys []string
		bits []uint32
	}{
		{requestObject.Names, []uint32{rQuestions, rHeader, rAllowFreeText, rDisplayMode, rTimeout}},
		{questionObject.Names, []uint32{qID, qTitle, qPrompt, qKind, qOptions, qDefault, qFields}},
		{optionObject.Names, []uint32{oLabel, oDescription, oPreview}},
		{fieldObject.Names, []uint32{fName, fLabel, fKind, fRequired, fOptions, fDefault}},
	}
	for _, tc := range tests {
		for i, bit := range tc.bits {
			if bit != 1<<i {
				t.Errorf("bit of %q is %#x, want %#x", tc.keys[i], bit, 1<<i)
			}
		}
		if len(tc.keys) != len(tc.bits) {
			t.Errorf("%d keys %q for %d bits", len(tc.keys), tc.keys, len(tc.bits))
		}
	}
}
