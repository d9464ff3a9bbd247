package opencode

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/auq"
)

// questionAsked is a question.asked event as OpenCode 1.18.33 publishes
// it for its question tool.
const questionAsked = `{"type":"question.asked","properties":{"id":"que_1","sessionID":"ses_1","questions":[` +
	`{"question":"Which database should we use?","header":"Database of the project","options":[{"label":"SQLite","description":"A file"},{"label":"Postgres","description":"A server"}]},` +
	`{"question":"Which checks?","header":"Checks","options":[{"label":"vet","description":"go vet"},{"label":"lint","description":"the linters"},{"label":"race","description":"tests with -race"}],"multiple":true,"custom":false}` +
	`],"tool":{"messageID":"msg_1","callID":"call_1"}}}`

func decodeQuestions(t *testing.T, event string) *Questions {
	t.Helper()
	e, err := DecodeEvent([]byte(event))
	if err != nil {
		t.Fatal(err)
	}
	q, err := DecodeQuestions(e)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestQuestionsShow(t *testing.T) {
	q := decodeQuestions(t, questionAsked)
	req, err := q.Show()
	if err != nil {
		t.Fatal(err)
	}
	want := &auq.Request{Questions: []auq.Question{
		{ID: "q1", Question: "Which database should we use?", Header: "Database of…", Options: []auq.Option{
			{ID: "o1", Label: "SQLite", Description: "A file"}, {ID: "o2", Label: "Postgres", Description: "A server"}}},
		{ID: "q2", Question: "Which checks?", Header: "Checks", MultiSelect: true, Options: []auq.Option{
			{ID: "o1", Label: "vet", Description: "go vet"}, {ID: "o2", Label: "lint", Description: "the linters"}, {ID: "o3", Label: "race", Description: "tests with -race"}}},
	}}
	if diff := cmp.Diff(want, req); diff != "" {
		t.Errorf("shown (-want +got):\n%s", diff)
	}
}

func TestQuestionsShowRefuses(t *testing.T) {
	option := func(l string) string { return `{"label":"` + l + `","description":"d"}` }
	tests := []struct{ name, questions string }{
		{"one option", `[{"question":"Q?","header":"H","options":[` + option("a") + `]}]`},
		{"five options", `[{"question":"Q?","header":"H","options":[` + strings.Join([]string{option("a"), option("b"), option("c"), option("d"), option("e")}, ",") + `]}]`},
		{"a repeated label", `[{"question":"Q?","header":"H","options":[` + option("a") + "," + option("a") + `]}]`},
		{"no question text", `[{"question":"","header":"H","options":[` + option("a") + "," + option("b") + `]}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := decodeQuestions(t, `{"type":"question.asked","properties":{"id":"que_1","questions":`+tt.questions+`}}`)
			if _, err := q.Show(); err == nil {
				t.Error("shown")
			}
			if _, _, err := QuestionContract.Check(q); err == nil {
				t.Error("the contract took it")
			}
		})
	}
	for _, event := range []string{`{"type":"question.asked","properties":{"id":"que_1","questions":[]}}`, `{"type":"question.asked","properties":{"questions":[{}]}}`} {
		e, err := DecodeEvent([]byte(event))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeQuestions(e); err == nil {
			t.Errorf("decoded %s", event)
		}
	}
}

func TestQuestionsRead(t *testing.T) {
	q := decodeQuestions(t, questionAsked)
	shown, err := q.Show()
	if err != nil {
		t.Fatal(err)
	}
	single := func(c auq.Choice) auq.Answer { return auq.Answer{Kind: auq.KindSingle, Choice: c} }
	multi := func(cs ...auq.Choice) auq.Answer { return auq.Answer{Kind: auq.KindMulti, Selections: cs} }
	tests := []struct {
		name    string
		answers map[string]auq.Answer
		want    string // the reply; "" for an error
	}{
		{"options", map[string]auq.Answer{"q1": single(auq.Choice{OptionID: "o2"}), "q2": multi(auq.Choice{OptionID: "o1"}, auq.Choice{OptionID: "o3"})},
			`{"answers":[["Postgres"],["vet","race"]]}`},
		{"text of the person's own", map[string]auq.Answer{"q1": single(auq.Choice{Other: true, Text: "DuckDB, <please>"}), "q2": multi(auq.Choice{OptionID: "o2"}, auq.Choice{Other: true, Text: "fuzz"})},
			`{"answers":[["DuckDB, <please>"],["lint","fuzz"]]}`},
		{"a question unanswered", map[string]auq.Answer{"q1": single(auq.Choice{OptionID: "o1"})}, ""},
		{"an empty answer", map[string]auq.Answer{"q1": single(auq.Choice{OptionID: "o1"}), "q2": {Kind: auq.KindMulti, Empty: true}}, ""},
		{"an option not shown", map[string]auq.Answer{"q1": single(auq.Choice{OptionID: "o3"}), "q2": multi(auq.Choice{OptionID: "o1"})}, ""},
		{"blank text", map[string]auq.Answer{"q1": single(auq.Choice{Other: true, Text: " "}), "q2": multi(auq.Choice{OptionID: "o1"})}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := q.Read(shown, auq.Result{Answers: tt.answers})
			got := ""
			if err == nil {
				got = string(a.Reply())
			}
			if got != tt.want {
				t.Errorf("reply %q (error %v), want %q", got, err, tt.want)
			}
		})
	}
	if _, err := q.Read(shown, auq.Result{Cancelled: true}); err == nil {
		t.Error("a cancelled questionnaire was read as answers")
	}
}
