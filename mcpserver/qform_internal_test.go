package mcpserver

import (
	"strings"
	"testing"
	"time"

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
// through, and some it would not, strictly.
func TestQuestionsAnswers(t *testing.T) {
	req := qformRequest(t)
	tests := []struct {
		name    string
		content map[string]any
		gaps    string // describe of the gaps, "" for none
		err     string // part of the error, "" for none
	}{
		{"complete", map[string]any{"q1": "SQLite", "q2": []any{"Cache"}}, "", ""},
		{"required missing", map[string]any{"q1": "SQLite"}, `question 2 ("Extras": no answer)`, ""},
		{"an option and an Other text", map[string]any{"q1": "SQLite", "q1_other": "Maria", "q2": []any{}},
			`question 1 ("Database": an option is chosen and an answer of your own typed; choose Other to use your own, or clear it)`, ""},
		{"Other without text", map[string]any{"q1": "Other", "q2": []any{"Other"}},
			`question 1 ("Database": Other is chosen without your own answer) and question 2 ("Extras": Other is chosen without your own answer)`, ""},
		{"unknown label", map[string]any{"q1": "MySQL", "q2": []any{}}, "", `q1 of the form is "MySQL", which is not one of its choices`},
		{"a label twice", map[string]any{"q1": "SQLite", "q2": []any{"Cache", "Cache"}}, "", `q2 of the form lists "Cache" twice`},
		{"wrong type", map[string]any{"q1": 3.0}, "", "q1 of the form must be one of its choices, not float64"},
		{"note not text", map[string]any{"q1": "SQLite", "q1_note": true}, "", "q1_note of the form must be text, not bool"},
		{"too long", map[string]any{"q1": "Other", "q1_other": strings.Repeat("é", auq.MaxOtherTextLen+1)}, "", "q1_other of the form is 2001 characters long; the limit is 2000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, g, err := questionsAnswers(req, tt.content)
			switch {
			case tt.err != "":
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			got := ""
			if len(g) > 0 {
				got = g.describe(req)
			}
			if got != tt.gaps {
				t.Errorf("gaps %q, want %q", got, tt.gaps)
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
