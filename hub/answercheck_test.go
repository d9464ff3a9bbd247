package hub

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/google/go-cmp/cmp"
)

const (
	doorAskUser = `{"questions": [{"title": "Deploy where?", "options": [{"label": "staging"}, {"label": "prod"}]},
	  {"title": "Note", "kind": "input"}]}`
	doorQuestions = `{"questions": [{"id": "db", "question": "Which database?", "header": "Database",
	  "options": [{"id": "pg", "label": "Postgres", "description": "d"}, {"id": "lite", "label": "SQLite", "description": "d"}]}],
	  "metadata": {"source": "door"}}`
)

func doorQuestion(t testing.TB, contractName, req string) *Question {
	t.Helper()
	var norm []byte
	switch contractName {
	case ContractAskUser:
		r, _, err := contract.Parse([]byte(req))
		if err != nil {
			t.Fatal(err)
		}
		norm, _ = json.Marshal(r)
	default:
		r, err := auq.Parse([]byte(req))
		if err != nil {
			t.Fatal(err)
		}
		norm, _ = json.Marshal(r)
	}
	return &Question{ID: "abcdefghjkmn", Tag: Tag{Contract: contractName}, Request: norm}
}

const (
	q1 = `{"index":0,"id":"q1","title":"Deploy where?","kind":"single","selections":["prod"],"usedDefault":false}`
	q2 = `{"index":1,"id":"q2","title":"Note","kind":"input","selections":[],"freeText":"ship it","usedDefault":false}`
)

// TestCheckAnswer holds answers given to the hub to the dialog's rules, for both
// contracts: what it accepts comes out normalized, and what it refuses
// is refused with the reason.
func TestCheckAnswer(t *testing.T) {
	tests := []struct {
		name, contract, answer string
		want                   string // the stored result, or "" for a refusal
		reason                 string // a part of the refusal's message
	}{
		{"ask_user", ContractAskUser, `{"status":"answered","answers":[` + q1 + `,` + q2 + `]}`,
			`{"status":"answered","answers":[` + q1 + `,` + q2 + `]}`, ""},
		{"ask_user as askuser ask prints it", ContractAskUser, `{"status":"answered","route":"custom","answers":[` + q1 + `,` + q2 + `],"warnings":["w"]}`,
			`{"status":"answered","answers":[` + q1 + `,` + q2 + `]}`, ""},
		{"not answered", ContractAskUser, `{"status":"aborted","answers":[]}`, "", `status must be "answered"`},
		{"no answers", ContractAskUser, `{"status":"answered"}`, "", "answers is missing"},
		{"too few", ContractAskUser, `{"status":"answered","answers":[` + q1 + `]}`, "", "got 1 answers for 2 questions"},
		{"unknown label", ContractAskUser, `{"status":"answered","answers":[` + strings.Replace(q1, "prod", "moon", 1) + `,` + q2 + `]}`, "", "moon"},
		{"unknown member", ContractAskUser, `{"status":"answered","answers":[` + q1 + `,` + q2 + `],"by":"me"}`, "", `unknown field "by"`},
		{"duplicate member", ContractAskUser, `{"status":"answered","status":"answered","answers":[` + q1 + `,` + q2 + `]}`, "", "duplicate"},
		{"control character", ContractAskUser, `{"status":"answered","answers":[` + q1 + `,` + strings.Replace(q2, "ship it", `ship\u001b[2Jit`, 1) + `]}`, "", "U+001B"},
		{"bidi override", ContractAskUser, `{"status":"answered","answers":[` + q1 + `,` + strings.Replace(q2, "ship it", "ship\u202eit", 1) + `]}`, "", "U+202E"},
		{"two values", ContractAskUser, `{"status":"answered","answers":[` + q1 + `,` + q2 + `]} {}`, "", "not valid JSON"},
		{"not JSON", ContractAskUser, `prod`, "", "refused"},
		{"over the limit", ContractAskUser, `{"status":"answered","answers":[` + q1 + `,` + strings.Replace(q2, "ship it", strings.Repeat("x", MaxAnswerBytes), 1) + `]}`, "", "over the limit"},

		{"AskUserQuestion", ContractAskUserQuestion, `{"cancelled":false,"answers":{"db":{"kind":"single","optionId":"pg","label":"Postgres"}},"metadata":{"source":"door"}}`,
			`{"cancelled":false,"answers":{"db":{"kind":"single","optionId":"pg","label":"Postgres"}},"metadata":{"source":"door"}}`, ""},
		{"AskUserQuestion Other", ContractAskUserQuestion, `{"cancelled":false,"answers":{"db":{"kind":"single","label":"Other","other":true,"text":"MariaDB"}},"metadata":{"source":"door"}}`,
			`{"cancelled":false,"answers":{"db":{"kind":"single","label":"Other","other":true,"text":"MariaDB"}},"metadata":{"source":"door"}}`, ""},
		{"cancelled", ContractAskUserQuestion, `{"cancelled":true,"metadata":{"source":"door"}}`, "", "cancelled must be false"},
		{"wrong label", ContractAskUserQuestion, `{"cancelled":false,"answers":{"db":{"kind":"single","optionId":"pg","label":"MySQL"}},"metadata":{"source":"door"}}`, "", "MySQL"},
		{"missing required", ContractAskUserQuestion, `{"cancelled":false,"answers":{},"metadata":{"source":"door"}}`, "", "db"},
		{"metadata changed", ContractAskUserQuestion, `{"cancelled":false,"answers":{"db":{"kind":"single","optionId":"pg","label":"Postgres"}}}`, "", "metadata"},
		{"Other with a control character", ContractAskUserQuestion, `{"cancelled":false,"answers":{"db":{"kind":"single","label":"Other","other":true,"text":"Maria\u0007DB"}},"metadata":{"source":"door"}}`, "", "U+0007"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := doorAskUser
			if tt.contract == ContractAskUserQuestion {
				req = doorQuestions
			}
			got, err := CheckAnswer(doorQuestion(t, tt.contract, req), []byte(tt.answer))
			if tt.want == "" {
				var re *RefusedError
				if !errors.As(err, &re) || re.Reason != RefusedInvalid || !strings.Contains(re.Message, tt.reason) {
					t.Fatalf("CheckAnswer = %s, %v; want a refusal saying %q", got, err, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("stored result (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTitleMayRepeatModelText checks that text of the questionnaire
// itself, which an answer repeats, is not taken for typed text.
func TestTitleMayRepeatModelText(t *testing.T) {
	q := doorQuestion(t, ContractAskUser, `{"questions": [{"title": "Deploy \u001b[2J where?", "options": [{"label": "a"}, {"label": "b"}]}]}`)
	ans := `{"status":"answered","answers":[{"index":0,"id":"q1","title":"Deploy \u001b[2J where?","kind":"single","selections":["a"],"usedDefault":false}]}`
	if _, err := CheckAnswer(q, []byte(ans)); err != nil {
		t.Fatal(err)
	}
}

// TestCheckAnswerUsedDefault refuses an answer that says it took the
// default while it gives something else, for every kind a default has.
func TestCheckAnswerUsedDefault(t *testing.T) {
	q := doorQuestion(t, ContractAskUser, `{"questions": [
	  {"title": "Where?", "options": [{"label": "staging"}, {"label": "prod"}], "default": "staging"},
	  {"title": "Name", "kind": "input", "default": "web"},
	  {"title": "Go?", "kind": "bool", "default": true},
	  {"title": "Form", "kind": "simple-form", "fields": [{"name": "env", "label": "Env", "kind": "input", "default": "dev"}, {"name": "n", "label": "N", "kind": "input"}]}]}`)
	answer := func(where, name, goOn, form string) string {
		return `{"status":"answered","answers":[` +
			`{"index":0,"id":"q1","title":"Where?","kind":"single","selections":["` + where + `"],"usedDefault":true},` +
			`{"index":1,"id":"q2","title":"Name","kind":"input","selections":[],"freeText":"` + name + `","usedDefault":true},` +
			`{"index":2,"id":"q3","title":"Go?","kind":"bool","selections":[],"value":` + goOn + `,"usedDefault":true},` +
			`{"index":3,"id":"q4","title":"Form","kind":"simple-form","selections":[],"value":` + form + `,"usedDefault":true}]}`
	}
	tests := []struct {
		name, answer, reason string // reason is "" for an answer accepted
	}{
		{"each the default", answer("staging", "web", "true", `{"env":"dev","n":"1"}`), ""},
		{"another option", answer("prod", "web", "true", `{"env":"dev"}`), "answer 0: usedDefault is set but the answer is not the question's default"},
		{"other text", answer("staging", "db", "true", `{"env":"dev"}`), "answer 1: usedDefault"},
		{"the other boolean", answer("staging", "web", "false", `{"env":"dev"}`), "answer 2: usedDefault"},
		{"a form field changed", answer("staging", "web", "true", `{"env":"prod","n":"1"}`), "answer 3: usedDefault is set but no field included has its default's value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := CheckAnswer(q, []byte(tt.answer))
			if tt.reason == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var re *RefusedError
			if !errors.As(err, &re) || re.Reason != RefusedInvalid || !strings.Contains(re.Message, tt.reason) {
				t.Fatalf("CheckAnswer = %v; want a refusal saying %q", err, tt.reason)
			}
		})
	}
}

// FuzzCheckAnswer finds no panic in the door, and holds that what it
// accepts it accepts again, unchanged, as the asker checks it again.
func FuzzCheckAnswer(f *testing.F) {
	f.Add(false, `{"status":"answered","answers":[`+q1+`,`+q2+`]}`)
	f.Add(false, `{"status":"answered","answers":[{"index":0}]}`)
	f.Add(true, `{"cancelled":false,"answers":{"db":{"kind":"single","optionId":"pg","label":"Postgres"}},"metadata":{"source":"door"}}`)
	f.Add(true, `{"cancelled":false,"answers":{"db":{"kind":"multi","selections":[]}}}`)
	qa := doorQuestion(f, ContractAskUser, doorAskUser)
	qq := doorQuestion(f, ContractAskUserQuestion, doorQuestions)
	f.Fuzz(func(t *testing.T, questions bool, in string) {
		q := qa
		if questions {
			q = qq
		}
		out, err := CheckAnswer(q, []byte(in))
		if err != nil {
			return
		}
		again, err := CheckAnswer(q, out)
		if err != nil {
			t.Fatalf("accepted %q, stored %s, then refused it: %v", in, out, err)
		}
		if string(again) != string(out) {
			t.Fatalf("stored %s, then %s", out, again)
		}
	})
}
