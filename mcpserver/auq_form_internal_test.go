package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/auq"
)

func qformRequest(t *testing.T) *auq.Request {
	t.Helper()
	r, err := auq.Parse([]byte(`{"questions":[
	 {"id":"db","question":"Which database?","header":"Database","options":[
	   {"id":"pg","label":"Postgres","description":"Relational"},{"id":"lite","label":"SQLite","description":"Embedded"}]},
	 {"id":"ex","question":"Which extras?","header":"Extras","multiSelect":true,"options":[
	   {"id":"cache","label":"Cache","description":"Redis"},{"id":"queue","label":"Queue","description":"NATS"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestQuestionsAnswers reads form content the SDK's schema check lets
// through, and some it would not: a value the form cannot hold is a gap
// named for the person, and its property is dropped, never the call.
func TestQuestionsAnswers(t *testing.T) {
	req := qformRequest(t)
	tests := []struct {
		name    string
		content map[string]any
		gaps    string   // describe of the gaps, "" for none
		bad     []string // the properties that cannot be used
	}{
		{"complete", map[string]any{"q1": "SQLite", "q2": []any{"Cache"}}, "", nil},
		{"required missing", map[string]any{"q1": "SQLite"}, `question 2 ("Extras": no answer)`, nil},
		{"an option and an Other text", map[string]any{"q1": "SQLite", "q1_other": "Maria", "q2": []any{}},
			`question 1 ("Database": an option is chosen and an answer of your own typed; choose Other to use your own, or clear it)`, nil},
		{"Other without text", map[string]any{"q1": "Other", "q2": []any{"Other"}},
			`question 1 ("Database": Other is chosen without your own answer) and question 2 ("Extras": Other is chosen without your own answer)`, nil},
		{"unknown label", map[string]any{"q1": "MySQL", "q2": []any{}}, `question 1 ("Database": "MySQL" is not one of the choices)`, []string{"q1"}},
		{"a label twice", map[string]any{"q1": "SQLite", "q2": []any{"Cache", "Cache"}}, `question 2 ("Extras": "Cache" is chosen twice)`, []string{"q2"}},
		{"wrong type", map[string]any{"q1": 3.0, "q2": []any{}}, `question 1 ("Database": the form sent a number where it needs one of the choices)`, []string{"q1"}},
		{"a boolean as text", map[string]any{"q1": "SQLite", "q2": "true"}, `question 2 ("Extras": the form sent a string where it needs a list of choices)`, []string{"q2"}},
		{"note not text", map[string]any{"q1": "SQLite", "q1_note": true, "q2": []any{}}, `question 1 ("Database": the note: the form sent a boolean where it needs text)`, []string{"q1_note"}},
		{"too long", map[string]any{"q1": "Other", "q1_other": strings.Repeat("é", auq.MaxOtherTextLen+1), "q2": []any{}},
			`question 1 ("Database": your own answer is 2001 characters long; the limit is 2000)`, []string{"q1_other"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, g, bad := questionsAnswers(req, tt.content)
			got := ""
			if len(g) > 0 {
				got = g.describe(req)
			}
			if got != tt.gaps {
				t.Errorf("gaps %q, want %q", got, tt.gaps)
			}
			if diff := cmp.Diff(tt.bad, bad); diff != "" {
				t.Errorf("properties that cannot be used (-want +got):\n%s", diff)
			}
			if len(g) == 0 {
				if err := auq.CheckResult(req, res); err != nil {
					t.Errorf("the result breaks the contract: %v", err)
				}
			}
		})
	}
}

// TestQuestionsRounds gives up after maxRounds forms, and at once on an
// incomplete form that came back too soon for a person.
func TestQuestionsRounds(t *testing.T) {
	req := qformRequest(t)
	partial := &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1": "SQLite"}}
	v := judgeQuestions(req, qround{n: 1}, partial, time.Second)
	if v.next == nil || v.err != nil {
		t.Fatalf("no second round: %+v", v)
	}
	v = judgeQuestions(req, qround{n: maxRounds, kept: v.next.kept, asks: v.next.asks}, &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, time.Second)
	if v.err == nil || !strings.Contains(v.err.Error(), "the form was sent 3 times") {
		t.Errorf("after the last round: %+v", v)
	}
	v = judgeQuestions(req, qround{n: 1}, partial, time.Millisecond)
	if v.err == nil || !strings.Contains(v.err.Error(), "too soon for anyone to have filled it in") {
		t.Errorf("too soon: %+v", v)
	}
	v = judgeQuestions(req, qround{n: 2, kept: map[string]any{}, asks: qgaps{1: "no answer"}}, &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1": "SQLite"}}, time.Second)
	if v.err == nil || !strings.Contains(v.err.Error(), `properties it does not have: "q1"`) {
		t.Errorf("a property of another round: %+v", v)
	}
}

// FuzzQuestionsAnswers reads any form content: it never panics, a
// property it cannot use is a gap, and content without gaps is a result
// the contract accepts.
func FuzzQuestionsAnswers(f *testing.F) {
	for _, c := range []string{`{}`, `{"q1":"SQLite","q2":["Cache"]}`, `{"q1":"Other","q1_other":"x"}`, `{"q1":3,"q2":"Cache"}`,
		`{"q1":["SQLite"],"q2":[1]}`, `{"q1_note":true}`, `{"q2":["Cache","Cache"]}`, `{"q1":"","q1_other":" "}`} {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, content string) {
		req := qformRequest(t)
		var m map[string]any
		if json.Unmarshal([]byte(content), &m) != nil {
			return
		}
		res, g, bad := questionsAnswers(req, m)
		for _, name := range bad {
			if _, ok := m[name]; !ok {
				t.Fatalf("content %s: %q is bad but absent", content, name)
			}
		}
		if len(g) == 0 {
			if err := auq.CheckResult(req, res); err != nil {
				t.Fatalf("content %s gave a result the contract refuses: %v", content, err)
			}
		}
	})
}
