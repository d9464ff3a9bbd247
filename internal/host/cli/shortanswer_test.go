package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/hub"
)

// The questionnaires the short answers of these tests answer, one of
// each contract.
const (
	shortAskUserReq = `{"allowFreeText": true, "questions": [
  {"id": "env", "title": "Deploy where?", "options": [{"label": "staging"}, {"label": "production"}, {"label": "a, b"}]},
  {"id": "checks", "title": "Which checks?", "kind": "multi", "options": [{"label": "unit"}, {"label": "e2e"}, {"label": "Lint"}]},
  {"id": "go", "title": "Go ahead?", "kind": "bool", "default": true},
  {"id": "name", "title": "Codename?", "kind": "input"},
  {"id": "deploy", "title": "Deploy", "kind": "simple-form", "fields": [
    {"name": "region", "label": "Region", "kind": "single", "required": true, "options": [{"label": "eu"}, {"label": "us"}]},
    {"name": "zones", "label": "Zones", "kind": "multi", "options": [{"label": "a"}, {"label": "b"}]},
    {"name": "replicas", "label": "Replicas", "kind": "input", "default": "2"},
    {"name": "canary", "label": "Canary", "kind": "bool"}]}]}`
	shortAUQReq = `{"questions": [
  {"id": "db", "question": "Which database?", "header": "Database", "options": [
    {"id": "pg", "label": "Postgres", "description": "d", "preview": "Postgres 17"},
    {"id": "lite", "label": "SQLite", "description": "d"}]},
  {"id": "extras", "question": "Anything else?", "header": "Extras", "multiSelect": true, "required": false, "options": [
    {"id": "cache", "label": "Cache", "description": "d"}, {"id": "queue", "label": "Queue", "description": "d"}]}],
 "metadata": {"source": "s"}}`
)

func waitingQuestion(contract, req string) *hub.Question {
	return &hub.Question{ID: "aaaaaaaaaaaa", Request: json.RawMessage(req), Tag: hub.Tag{Contract: contract}}
}

// TestShortAnswer turns short answers, as arguments and as JSON, into
// the result of each contract, which the hub accepts as it is; and
// refuses bad ones saying every problem, where it is.
func TestShortAnswer(t *testing.T) {
	tests := []struct {
		name     string
		contract string
		args     []string // KEY=VALUE arguments, or
		json     string   // a JSON short answer
		want     string   // the result, or
		problems []string // the problems
	}{
		{
			name: "ask_user, every kind", contract: hub.ContractAskUser,
			args: []string{"env=staging", "checks=e2e, unit", "go=no", "name= Orion ", "deploy.region=EU", "zones=b"},
			want: `{"status":"answered","answers":[` +
				`{"index":0,"id":"env","title":"Deploy where?","kind":"single","selections":["staging"],"usedDefault":false},` +
				`{"index":1,"id":"checks","title":"Which checks?","kind":"multi","selections":["unit","e2e"],"usedDefault":false},` +
				`{"index":2,"id":"go","title":"Go ahead?","kind":"bool","selections":[],"usedDefault":false,"value":false},` +
				`{"index":3,"id":"name","title":"Codename?","kind":"input","selections":[],"freeText":"Orion","usedDefault":false},` +
				`{"index":4,"id":"deploy","title":"Deploy","kind":"simple-form","selections":[],"usedDefault":true,"value":{"region":"eu","zones":["b"],"replicas":"2"}}]}`,
		},
		{
			name: "ask_user, by number, own words, an escaped comma, defaults", contract: hub.ContractAskUser,
			args: []string{"1=a\\, b", "1.other=and more", "2.other=fuzz", "checks=", "4=x", "5.region=us", "canary=yes", "replicas=3"},
			want: `{"status":"answered","answers":[` +
				`{"index":0,"id":"env","title":"Deploy where?","kind":"single","selections":["a, b"],"freeText":"and more","usedDefault":false},` +
				`{"index":1,"id":"checks","title":"Which checks?","kind":"multi","selections":[],"freeText":"fuzz","usedDefault":false},` +
				`{"index":2,"id":"go","title":"Go ahead?","kind":"bool","selections":[],"usedDefault":true,"value":true},` +
				`{"index":3,"id":"name","title":"Codename?","kind":"input","selections":[],"freeText":"x","usedDefault":false},` +
				`{"index":4,"id":"deploy","title":"Deploy","kind":"simple-form","selections":[],"usedDefault":false,"value":{"region":"us","replicas":"3","canary":true}}]}`,
		},
		{
			name: "ask_user in JSON", contract: hub.ContractAskUser,
			json: `{"env": "production", "checks": ["Lint"], "go": true, "name": 42, "deploy": {"region": "eu", "canary": false}}`,
			want: `{"status":"answered","answers":[` +
				`{"index":0,"id":"env","title":"Deploy where?","kind":"single","selections":["production"],"usedDefault":false},` +
				`{"index":1,"id":"checks","title":"Which checks?","kind":"multi","selections":["Lint"],"usedDefault":false},` +
				`{"index":2,"id":"go","title":"Go ahead?","kind":"bool","selections":[],"usedDefault":false,"value":true},` +
				`{"index":3,"id":"name","title":"Codename?","kind":"input","selections":[],"freeText":"42","usedDefault":false},` +
				`{"index":4,"id":"deploy","title":"Deploy","kind":"simple-form","selections":[],"usedDefault":true,"value":{"region":"eu","replicas":"2","canary":false}}]}`,
		},
		{
			name: "ask_user, everything wrong", contract: hub.ContractAskUser,
			args: []string{"env=moon", "env.colour=red", "checks=unit,unit", "go=perhaps", "6=x", "deploy=eu", "zones=c", "1=staging"},
			problems: []string{
				`"env=moon": "moon" is not an option of "env"; the options are "staging", "production", "a, b"`,
				`"env.colour=red": "env" has no part "colour"; give env=OPTION, or env.other=TEXT for your own words`,
				`"checks=unit,unit": "unit" is chosen twice`,
				`"go=perhaps": "go" is a yes-or-no question: give yes, no, true or false`,
				`"6=x": there is no question 6: the questions are 1 to 5`,
				`"deploy=eu": "deploy" is a form: name a field, as deploy.FIELD=VALUE; its fields are "region", "zones", "replicas", "canary"`,
				`"zones=c": "c" is not an option of the field "zones"; the options are "a", "b"`,
				`"1=staging": answers what "env=moon" answers already`,
				`"name" ("Codename?") has no answer yet: give name=TEXT`,
				`"region", a required field of "deploy", has no answer: give deploy.region=eu|us`,
			},
		},
		{
			name: "ask_user, a template left unfilled", contract: hub.ContractAskUser,
			json: `{"env": null, "checks": ["unit"], "go": null, "name": "n", "deploy": {"region": null, "replicas": null, "canary": null}}`,
			problems: []string{
				`env: still null: give a value`,
				`go: still null: give a value, or leave the member out to take the default`,
				`deploy.region: still null: give a value`,
				`deploy.replicas: still null: give a value, or leave the member out to take the default`,
				`deploy.canary: still null: give a value, or leave the member out to leave the field unanswered`,
			},
		},
		{
			name: "AskUserQuestion, by header, id and label, with notes", contract: hub.ContractAskUserQuestion,
			args: []string{"database=pg", "db.note=fast enough", "Extras=Queue", "extras.other=search", "extras.note.other=maybe", "extras.note.cache=no"},
			want: `{"cancelled":false,"answers":{"db":{"kind":"single","optionId":"pg","label":"Postgres"},` +
				`"extras":{"kind":"multi","selections":[{"optionId":"queue","label":"Queue"},{"label":"Other","other":true,"text":"search"}],"empty":false}},` +
				`"annotations":{"db":{"questionNotes":"fast enough","selectedPreview":"Postgres 17"},"extras":{"optionNotes":{"$other":"maybe","cache":"no"}}},` +
				`"metadata":{"source":"s"}}`,
		},
		{
			name: "AskUserQuestion, Other alone, an optional question left out", contract: hub.ContractAskUserQuestion,
			json: `{"db": {"other": "MySQL"}, "extras": null}`,
			want: `{"cancelled":false,"answers":{"db":{"kind":"single","label":"Other","other":true,"text":"MySQL"}},"metadata":{"source":"s"}}`,
		},
		{
			name: "AskUserQuestion, an empty multi-select", contract: hub.ContractAskUserQuestion,
			args: []string{"db=sqlite", "extras="},
			want: `{"cancelled":false,"answers":{"db":{"kind":"single","optionId":"lite","label":"SQLite"},"extras":{"kind":"multi","selections":[],"empty":true}},"metadata":{"source":"s"}}`,
		},
		{
			name: "AskUserQuestion, everything wrong", contract: hub.ContractAskUserQuestion,
			args: []string{"db=pg,lite", "db.other=x", "extras.note.nope=x", "extras.why=x", "tests=x"},
			problems: []string{
				`"db=pg,lite": "pg,lite" is not an option of "db"; the options are "Postgres", "SQLite"`,
				`"extras.note.nope=x": "nope" is not an option of "extras"; notes go on "cache", "queue", or other`,
				`"extras.why=x": "extras" has no part "why"; give extras=OPTION, extras.other=TEXT, extras.note=TEXT or extras.note.OPTION=TEXT`,
				`"tests=x": no question has the id "tests"; the questions are "db", "extras", or 1 to 2 by number`,
			},
		},
		{
			name: "AskUserQuestion, a required question left out", contract: hub.ContractAskUserQuestion,
			args:     []string{"extras=cache"},
			problems: []string{`"db" ("Which database?") is required and has no answer yet: give db=Postgres|SQLite, or db.other=TEXT`},
		},
		{
			name: "AskUserQuestion, an option and Other", contract: hub.ContractAskUserQuestion,
			args:     []string{"db=pg", "db.other=x"},
			problems: []string{`"db" takes one answer: an option or other, not both`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := shortAskUserReq
			if tt.contract == hub.ContractAskUserQuestion {
				req = shortAUQReq
			}
			q := waitingQuestion(tt.contract, req)
			var entries []shortEntry
			var err error
			if tt.args != nil {
				entries, err = parseShortArgs(tt.args)
			} else {
				entries, err = parseShortJSON([]byte(tt.json))
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := shortAnswer(q, entries)
			var problems []string
			if se, ok := err.(*shortAnswerError); ok {
				problems = se.problems
			} else if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.problems, problems); d != "" {
				t.Errorf("problems (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.want, string(got)); err == nil && d != "" {
				t.Errorf("result (-want +got):\n%s", d)
			}
			if err == nil {
				if _, err := hub.CheckAnswer(q, got); err != nil {
					t.Errorf("the hub refuses the result: %v", err)
				}
			}
		})
	}
}

// TestShortAnswerTemplate: the template askuser pending --json gives,
// filled in where it waits for a value, is an answer the hub takes.
func TestShortAnswerTemplate(t *testing.T) {
	for _, tc := range []struct{ contract, req, want, fill string }{
		{hub.ContractAskUser, shortAskUserReq,
			`{"env":null,"checks":null,"go":true,"name":null,"deploy":{"region":null,"zones":null,"replicas":"2","canary":null}}`,
			`{"env":"staging","checks":[],"go":true,"name":"n","deploy":{"region":"eu","replicas":"2"}}`},
		{hub.ContractAskUserQuestion, shortAUQReq, `{"db":null,"extras":null}`, `{"db":"pg","extras":null}`},
	} {
		q := waitingQuestion(tc.contract, tc.req)
		got, err := json.Marshal(answerTemplate(*q))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tc.want, string(got)); d != "" {
			t.Errorf("%s: template (-want +got):\n%s", tc.contract, d)
		}
		entries, err := parseShortJSON([]byte(tc.fill))
		if err != nil {
			t.Fatal(err)
		}
		res, err := shortAnswer(q, entries)
		if tc.contract == hub.ContractAskUser {
			// checks=[] leaves a multi question without an answer.
			if err == nil || !strings.Contains(err.Error(), "checks") {
				t.Errorf("%s: an empty multi answer was taken: %s, %v", tc.contract, res, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := hub.CheckAnswer(q, res); err != nil {
			t.Errorf("%s: the hub refuses the filled template: %v", tc.contract, err)
		}
	}
}

// FuzzShortAnswer reads short answers, as arguments (one a line) and as
// JSON, for both contracts: nothing panics, and a result built is one
// the hub takes, or refuses only for the text the person typed.
func FuzzShortAnswer(f *testing.F) {
	f.Add("env=staging\nchecks=unit,e2e\ngo=no\nname=Orion\nregion=eu", `{"env": "staging", "deploy": {"region": "eu"}}`)
	f.Add("1=a\\, b\n1.other=x\ncanary=yes\nzones=a,b", `{"checks": ["unit", "e2e"], "go": null, "name": 3}`)
	f.Add("database=pg\ndb.note=n\nextras.note.other=o\nextras.other=t", `{"db": {"other": "x"}, "extras": ["cache", "Queue"], "extras.note.cache": "n"}`)
	f.Add("db=lite\nextras=", `{"Database": "Postgres", "extras": [], "x": [1, {"a": []}]}`)
	f.Add("=x\nx\n9=1\nenv.note.=", `[{"env": "staging"}]`)
	f.Fuzz(func(t *testing.T, args, js string) {
		for _, c := range []struct{ contract, req string }{
			{hub.ContractAskUser, shortAskUserReq},
			{hub.ContractAskUserQuestion, shortAUQReq},
		} {
			q := waitingQuestion(c.contract, c.req)
			for _, read := range []func() ([]shortEntry, error){
				func() ([]shortEntry, error) { return parseShortArgs(strings.Split(args, "\n")) },
				func() ([]shortEntry, error) { return parseShortJSON([]byte(js)) },
			} {
				entries, err := read()
				if err != nil {
					continue
				}
				res, err := shortAnswer(q, entries)
				if err != nil {
					if _, ok := err.(*shortAnswerError); !ok {
						t.Fatalf("%s: an error that lists no problems: %v", c.contract, err)
					}
					continue
				}
				if _, err := hub.CheckAnswer(q, res); err != nil && !typedText(err) {
					t.Fatalf("%s: the hub refuses %s: %v", c.contract, res, err)
				}
			}
		}
	})
}

// typedText reports whether the hub refused an answer for the text the
// person typed: a character no answer may hold, or a length over a
// limit, which the hub alone checks.
func typedText(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "control or formatting character") || strings.Contains(msg, "characters long; the limit is") ||
		strings.Contains(msg, "over the limit of") || strings.Contains(msg, "not valid UTF-8")
}

// TestShortAnswerREADME answers the README's questionnaires with the
// README's short answers.
func TestShortAnswerREADME(t *testing.T) {
	const release = `{"header": "Release", "questions": [
    {"title": "Deploy where?", "options": [{"label": "staging"}, {"label": "production"}]},
    {"title": "Run the migrations?", "kind": "bool", "default": false}]}`
	const db = `{"questions": [{"id": "db", "question": "Which database?", "header": "Database",
  "options": [{"id": "pg", "label": "Postgres", "description": "Managed, version 17"},
              {"id": "lite", "label": "SQLite", "description": "One file beside the app"}]}]}`
	for _, tc := range []struct {
		contract, req string
		args          []string
		json          string
		want          string
	}{
		{hub.ContractAskUser, release, []string{"q1=production", "q2=yes"}, "",
			`{"status":"answered","answers":[{"index":0,"id":"q1","title":"Deploy where?","kind":"single","selections":["production"],"usedDefault":false},` +
				`{"index":1,"id":"q2","title":"Run the migrations?","kind":"bool","selections":[],"usedDefault":false,"value":true}]}`},
		{hub.ContractAskUser, release, []string{"1=staging"}, "",
			`{"status":"answered","answers":[{"index":0,"id":"q1","title":"Deploy where?","kind":"single","selections":["staging"],"usedDefault":false},` +
				`{"index":1,"id":"q2","title":"Run the migrations?","kind":"bool","selections":[],"usedDefault":true,"value":false}]}`},
		{hub.ContractAskUser, release, nil, `{"q1": "production", "q2": true}`,
			`{"status":"answered","answers":[{"index":0,"id":"q1","title":"Deploy where?","kind":"single","selections":["production"],"usedDefault":false},` +
				`{"index":1,"id":"q2","title":"Run the migrations?","kind":"bool","selections":[],"usedDefault":false,"value":true}]}`},
		{hub.ContractAskUserQuestion, db, []string{"db=pg", "db.note=only if it is managed"}, "",
			`{"cancelled":false,"answers":{"db":{"kind":"single","optionId":"pg","label":"Postgres"}},"annotations":{"db":{"questionNotes":"only if it is managed"}}}`},
	} {
		q := waitingQuestion(tc.contract, tc.req)
		entries, err := parseShortArgs(tc.args)
		if tc.args == nil {
			entries, err = parseShortJSON([]byte(tc.json))
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := shortAnswer(q, entries)
		if err != nil {
			t.Fatalf("%q%s: %v", tc.args, tc.json, err)
		}
		if d := cmp.Diff(tc.want, string(got)); d != "" {
			t.Errorf("%q%s (-want +got):\n%s", tc.args, tc.json, d)
		}
	}
}
