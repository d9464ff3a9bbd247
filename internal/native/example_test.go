package native_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/native"
)

// lines answers each list and input with the next of its replies, and
// prints what it was shown.
type lines struct{ replies []string }

func (l *lines) next() string {
	r := l.replies[0]
	l.replies = l.replies[1:]
	return r
}

func (l *lines) Select(_ context.Context, title string, choices []string) (string, bool, error) {
	fmt.Printf("%s %q\n", title, choices)
	return l.next(), true, nil
}

func (l *lines) Input(_ context.Context, title, _ string) (string, bool, error) {
	fmt.Println(title)
	return l.next(), true, nil
}

func ExampleQuestionDialogs() {
	req, err := auq.Parse([]byte(`{"questions":[{"id":"db","question":"Which database?","header":"Database","options":[
		{"id":"pg","label":"Postgres","description":"Relational","recommended":true},
		{"id":"lite","label":"SQLite","description":"Embedded"}]}]}`))
	if err != nil {
		panic(err)
	}
	ui := &lines{replies: []string{"Other…", "DuckDB"}}
	host := ask.NewHost(ask.Bind(ask.Capabilities{}, contract.RouteNative, ask.AskUserQuestion, native.NewQuestionDialogs(ui, ui)), nil)
	out := ask.Ask(context.Background(), ask.NewAsker(host, nil), ask.AskUserQuestion, req, nil)
	res, _ := json.Marshal(out.Result)
	fmt.Println(out.Status, string(res))
	// Output:
	// Database: Which database? ["Postgres (recommended) — Relational" "SQLite — Embedded" "Other…" "Add a note…"]
	// Other: Which database?
	// submitted {"cancelled":false,"answers":{"db":{"kind":"single","label":"Other","other":true,"text":"DuckDB"}}}
}
