package mcpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/askuser/askuser/mcpserver"
	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
)

// Every kind of result the server sends fits its output schema.
func TestOutputSchema(t *testing.T) {
	var schema jsonschema.Schema
	b, _ := json.Marshal(mcpserver.Tool().OutputSchema)
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, args string
		elicit     elicitFunc
	}{
		{"answered form", form, accept(`{"q1.version":"1","q1.arches":["amd64"],"q1.signed":false}`)},
		{"answered bool", boolQ, accept(`{"q1":true}`)},
		{"answered note", multi, accept(`{"q1":["mac"],"q1_note":"x"}`)},
		{"declined at once", single, action("decline")},
		{"invalid", `{"questions":[]}`, action("decline")},
		{"warnings", `{"questions":[{"title":"t","kind":"input","options":[{"label":"a"}]}]}`, accept(`{"q1":"x"}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := connect(t, newServer(t, nil), "2025-11-25", tt.elicit, nil)
			r, err := call(context.Background(), cs, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if err := resolved.Validate(r.StructuredContent); err != nil {
				t.Errorf("structured content %v breaks the output schema: %v", r.StructuredContent, err)
			}
		})
	}
}

// Every kind of AskUserQuestion result fits its output schema, and one
// that failed carries its error in the structured content, as ask_user's
// do.
func TestQuestionsOutputSchema(t *testing.T) {
	var schema jsonschema.Schema
	b, _ := json.Marshal(mcpserver.QuestionsTool().OutputSchema)
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, args string
		elicit     elicitFunc
		code       string // the error's code; "" for none
	}{
		{"submitted", auqRequest, accept(`{"q1":"SQLite"}`), ""},
		{"dismissed", auqRequest, slowly("decline"), ""},
		{"declined at once", auqRequest, action("decline"), "native_ui_failed"},
		{"invalid", `{"questions":[]}`, action("decline"), "invalid_request"},
		{"no elicitation", auqRequest, nil, "unsupported_mode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cs := connect(t, questionsServer(t), "2025-11-25", tt.elicit, nil)
				r, err := callQuestions(context.Background(), cs, tt.args)
				if err != nil {
					t.Fatal(err)
				}
				if err := resolved.Validate(r.StructuredContent); err != nil {
					t.Errorf("structured content %v breaks the output schema: %v", r.StructuredContent, err)
				}
				var got struct {
					Cancelled bool
					Error     *struct{ Code, Message string }
					Guidance  string
				}
				b, _ := json.Marshal(r.StructuredContent)
				if err := json.Unmarshal(b, &got); err != nil {
					t.Fatal(err)
				}
				if got.Guidance != text(r) {
					t.Errorf("guidance %q is not the text %q", got.Guidance, text(r))
				}
				switch {
				case tt.code == "" && (got.Error != nil || r.IsError):
					t.Errorf("isError %v, error %+v; want neither", r.IsError, got.Error)
				case tt.code != "" && (got.Error == nil || got.Error.Code != tt.code || got.Error.Message == "" || !got.Cancelled || !r.IsError):
					t.Errorf("isError %v, structured content %s; want an error %s, cancelled", r.IsError, b, tt.code)
				}
			})
		})
	}
}

func TestInstructions(t *testing.T) {
	cs := connect(t, newServer(t, nil), "2025-11-25", nil, nil)
	got := cs.InitializeResult().Instructions
	if !strings.HasPrefix(got, "Guidelines for ask_user:\n- ") || !strings.Contains(got, "Never invent") {
		t.Errorf("instructions:\n%s", got)
	}
}

// The structured content carries, as guidance, the very text of the text
// content, for clients that pass the model only one of the two.
func TestGuidance(t *testing.T) {
	tests := []struct {
		name, args string
		elicit     elicitFunc
		want       []string // phrases the guidance must hold
	}{
		{"answered", single, accept(`{"q1":"SQLite"}`), []string{"The user answered", "SQLite"}},
		{"no route", single, nil, []string{"Do not invent an answer", "Ask the user yourself, in ordinary text in your reply", "1. Database"}},
		{"invalid", `{"questions":[]}`, nil, []string{"The questionnaire is invalid", "Fix this and call ask_user again.", "Do not invent an answer"}},
	}
	for _, v := range versions {
		for _, tt := range tests {
			t.Run(v+"/"+tt.name, func(t *testing.T) {
				cs := connect(t, newServer(t, nil), v, tt.elicit, nil)
				r, err := call(context.Background(), cs, tt.args)
				if err != nil {
					t.Fatal(err)
				}
				b, err := json.Marshal(r.StructuredContent)
				if err != nil {
					t.Fatal(err)
				}
				var sc struct {
					Guidance *string `json:"guidance"`
				}
				if err := json.Unmarshal(b, &sc); err != nil {
					t.Fatal(err)
				}
				if sc.Guidance == nil {
					t.Fatalf("structured content has no guidance: %s", b)
				}
				if diff := cmp.Diff(text(r), *sc.Guidance); diff != "" {
					t.Errorf("guidance differs from the text content (-text +guidance):\n%s", diff)
				}
				for _, w := range tt.want {
					if !strings.Contains(*sc.Guidance, w) {
						t.Errorf("guidance does not hold %q:\n%s", w, *sc.Guidance)
					}
				}
			})
		}
	}
}
