package contract

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// limitCase is one limit, and a request built around a value of a given
// length or count.
type limitCase struct {
	name  string
	path  string
	limit int
	build func(n int) string
	// want is the problem one past the limit.
	want func(n int) string
}

// js quotes s as a JSON string.
func js(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// text is n characters, each two bytes long in UTF-8, so that a limit
// counted in bytes would fail at the limit.
func text(n int) string { return strings.Repeat("é", n) }

func tooLong(limit int) func(n int) string {
	return func(n int) string {
		return "is " + strconv.Itoa(n) + " characters long; the limit is " + strconv.Itoa(limit)
	}
}

func optionList(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = `{"label":"o` + strconv.Itoa(i) + `"}`
	}
	return "[" + strings.Join(parts, ",") + "]"
}

var limitCases = []limitCase{
	{name: "header", path: "header", limit: MaxHeaderLen, want: tooLong(MaxHeaderLen),
		build: func(n int) string { return `{"header":` + js(text(n)) + `,"questions":[{"title":"t"}]}` }},
	{name: "id", path: "questions[0].id", limit: MaxIDLen, want: tooLong(MaxIDLen),
		build: func(n int) string { return `{"questions":[{"id":` + js(text(n)) + `,"title":"t"}]}` }},
	{name: "title", path: "questions[0].title", limit: MaxTitleLen, want: tooLong(MaxTitleLen),
		build: func(n int) string { return `{"questions":[{"title":` + js(text(n)) + `}]}` }},
	{name: "prompt", path: "questions[0].prompt", limit: MaxPromptLen, want: tooLong(MaxPromptLen),
		build: func(n int) string { return `{"questions":[{"title":"t","prompt":` + js(text(n)) + `}]}` }},
	{name: "option label", path: "questions[0].options[0].label", limit: MaxOptionLabelLen, want: tooLong(MaxOptionLabelLen),
		build: func(n int) string { return `{"questions":[{"title":"t","options":[{"label":` + js(text(n)) + `}]}]}` }},
	{name: "option description", path: "questions[0].options[0].description", limit: MaxDescriptionLen, want: tooLong(MaxDescriptionLen),
		build: func(n int) string {
			return `{"questions":[{"title":"t","options":[{"label":"l","description":` + js(text(n)) + `}]}]}`
		}},
	{name: "option preview", path: "questions[0].options[0].preview", limit: MaxPreviewLen, want: tooLong(MaxPreviewLen),
		build: func(n int) string {
			return `{"questions":[{"title":"t","options":[{"label":"l","preview":` + js(text(n)) + `}]}]}`
		}},
	{name: "question text default", path: "questions[0].default", limit: MaxTextDefaultLen, want: tooLong(MaxTextDefaultLen),
		build: func(n int) string { return `{"questions":[{"title":"t","default":` + js(text(n)) + `}]}` }},
	{name: "field label", path: "questions[0].fields[0].label", limit: MaxFieldLabelLen, want: tooLong(MaxFieldLabelLen),
		build: func(n int) string {
			return `{"questions":[{"title":"t","kind":"simple-form","fields":[{"name":"n","kind":"bool","label":` + js(text(n)) + `}]}]}`
		}},
	{name: "field text default", path: "questions[0].fields[0].default", limit: MaxTextDefaultLen, want: tooLong(MaxTextDefaultLen),
		build: func(n int) string {
			return `{"questions":[{"title":"t","kind":"simple-form","fields":[{"name":"n","kind":"input","label":"l","default":` + js(text(n)) + `}]}]}`
		}},
	{name: "field name", path: "questions[0].fields[0].name", limit: MaxFieldNameLen, want: tooLong(MaxFieldNameLen),
		build: func(n int) string {
			return `{"questions":[{"title":"t","kind":"simple-form","fields":[{"name":` + js(strings.Repeat("n", n)) + `,"kind":"bool","label":"l"}]}]}`
		}},
	{name: "questions", path: "questions", limit: MaxQuestions,
		want: func(n int) string {
			return "has " + strconv.Itoa(n) + " questions; the limit is 5: ask the most important ones first and the rest in a later call"
		},
		build: func(n int) string {
			parts := make([]string, n)
			for i := range parts {
				parts[i] = `{"title":"t"}`
			}
			return `{"questions":[` + strings.Join(parts, ",") + `]}`
		}},
	{name: "options", path: "questions[0].options", limit: MaxOptions,
		want: func(n int) string {
			return "has " + strconv.Itoa(n) + " options; the limit is 5: keep the likeliest choices, or use an input question"
		},
		build: func(n int) string {
			return `{"questions":[{"title":"t","kind":"multi","options":` + optionList(n) + `}]}`
		}},
	{name: "field options", path: "questions[0].fields[0].options", limit: MaxOptions,
		want: func(n int) string {
			return "has " + strconv.Itoa(n) + " options; the limit is 5: keep the likeliest choices, or use an input question"
		},
		build: func(n int) string {
			return `{"questions":[{"title":"t","kind":"simple-form","fields":[{"name":"n","kind":"single","label":"l","options":` + optionList(n) + `}]}]}`
		}},
	{name: "fields", path: "questions[0].fields", limit: MaxFormFields,
		want: func(n int) string {
			return "has " + strconv.Itoa(n) + " fields; the limit is 10: split the form across two questions"
		},
		build: func(n int) string {
			return `{"questions":[{"title":"t","kind":"simple-form","fields":[` + fieldsJSON(n) + `]}]}`
		}},
}

func TestLimits(t *testing.T) {
	for _, tc := range limitCases {
		t.Run(tc.name+"/at limit", func(t *testing.T) {
			if _, _, err := Parse([]byte(tc.build(tc.limit))); err != nil {
				t.Errorf("Parse at the limit of %d: %v", tc.limit, err)
			}
		})
		t.Run(tc.name+"/past limit", func(t *testing.T) {
			_, _, err := Parse([]byte(tc.build(tc.limit + 1)))
			want := []Problem{{Path: tc.path, Message: tc.want(tc.limit + 1)}}
			if diff := cmp.Diff(want, problemsOf(t, err)); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
