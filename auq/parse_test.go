package auq

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/strictjson"
	"github.com/google/go-cmp/cmp"
)

func ptr[T any](v T) *T { return &v }

// base returns a valid request using every member: a single-select
// question with previews and a recommended option, and an optional
// multi-select one, with metadata.
func base() *Request {
	return &Request{
		Questions: []Question{
			{ID: "db", Question: "Which database should I use?", Header: "Database", Options: []Option{
				{ID: "pg", Label: "Postgres", Description: "A server, for many writers", Preview: "docker run postgres", Recommended: true},
				{ID: "lite", Label: "SQLite", Description: "A file, for one writer", Preview: "sqlite3 app.db"},
				{ID: "none", Label: "None", Description: "Keep the data in memory"},
			}},
			{ID: "checks", Question: "Which checks should run?", Header: "Checks", MultiSelect: true, Required: ptr(false), Options: []Option{
				{ID: "unit", Label: "Unit tests", Description: "Fast"},
				{ID: "e2e", Label: "End to end", Description: "Slow"},
			}},
		},
		Metadata: &Metadata{Source: ptr("planner"), FlowID: ptr("flow-1"), Tags: []string{"setup"}},
	}
}

func encode(t testing.TB, r *Request) []byte {
	t.Helper()
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestParseValid(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want *Request
	}{
		{
			name: "the contract's example",
			in: `{"questions":[{"id":"framework","question":"Which frontend framework do you prefer?","header":"Framework","options":[
				{"id":"react","label":"React","description":"Component-based UI library","preview":"Best if you want broad ecosystem support."},
				{"id":"vue","label":"Vue","description":"Progressive framework","preview":"Good default if you want gentle adoption."}]}]}`,
			want: &Request{Questions: []Question{{ID: "framework", Question: "Which frontend framework do you prefer?", Header: "Framework", Options: []Option{
				{ID: "react", Label: "React", Description: "Component-based UI library", Preview: "Best if you want broad ecosystem support."},
				{ID: "vue", Label: "Vue", Description: "Progressive framework", Preview: "Good default if you want gentle adoption."},
			}}}},
		},
		{
			name: "every member",
			in:   string(encode(t, base())),
			want: base(),
		},
		{
			name: "explicit defaults, escapes, a header of 12 wide characters, labels that only start with Other",
			in: `{"questions":[{"id":"q","question":"Caf\u00e9 \ud83d\ude00 or tea?","header":"日本語のヘッダー見出し項","multiSelect":false,"required":true,"options":[
				{"id":"a","label":"Other options","description":"d","recommended":false},{"id":"b","label":"Others","description":"d"}]}],"metadata":{"tags":[]}}`,
			want: &Request{Questions: []Question{{ID: "q", Question: "Café 😀 or tea?", Header: "日本語のヘッダー見出し項", Required: ptr(true), Options: []Option{
				{ID: "a", Label: "Other options", Description: "d"}, {ID: "b", Label: "Others", Description: "d"},
			}}}, Metadata: &Metadata{Tags: []string{}}},
		},
		{
			name: "empty metadata and empty source",
			in:   `{"questions":[{"id":"q","question":"?","header":"h","options":[{"id":"a","label":"A","description":"d"},{"id":"b","label":"B","description":"d"}]}],"metadata":{"source":""}}`,
			want: &Request{Questions: []Question{{ID: "q", Question: "?", Header: "h", Options: []Option{
				{ID: "a", Label: "A", Description: "d"}, {ID: "b", Label: "B", Description: "d"},
			}}}, Metadata: &Metadata{Source: ptr("")}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.in))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse (-want +got):\n%s", diff)
			}
			if err := Validate(got); err != nil {
				t.Errorf("Validate refuses what Parse accepts: %v", err)
			}
		})
	}
}

// ruleRows has one row per rule of the contract. Each row breaks one
// rule in a valid request; Parse of its JSON and Validate of the request
// itself must report exactly the problem given.
type ruleRow struct {
	name string
	edit func(r *Request)
	path string
	msg  string
}

func ruleRows() []ruleRow {
	return []ruleRow{
		{"no questions", func(r *Request) { r.Questions = nil },
			"questions", `is required: send 1 to 8 questions, such as ` + exampleQuestions},
		{"empty questions", func(r *Request) { r.Questions = []Question{} },
			"questions", "must hold at least 1 question (at most 8)"},
		{"9 questions", func(r *Request) { r.Questions = nQuestions(9) },
			"questions", "has 9 questions; the limit is 8: ask the most important ones now and the rest in a later call"},
		{"no options", func(r *Request) { r.Questions[1].Options = nil },
			"questions[1].options", `is required: give 2 to 4 options, such as [{"id":"pg","label":"Postgres","description":"…"},{"id":"lite","label":"SQLite","description":"…"}]`},
		{"empty options", func(r *Request) { r.Questions[1].Options = []Option{} },
			"questions[1].options", "is empty: give 2 to 4 options, besides the Other answer the tool adds by itself"},
		{"1 option", func(r *Request) { r.Questions[1].Options = r.Questions[1].Options[:1] },
			"questions[1].options", "has 1 option; give at least 2 (at most 4), besides the Other answer the tool adds by itself"},
		{"5 options", func(r *Request) { r.Questions[1].Options = nOptions(5) },
			"questions[1].options", "has 5 options; the limit is 4: keep the likeliest choices, since the user can always answer Other"},
		{"question id missing", func(r *Request) { r.Questions[0].ID = "" },
			"questions[0].id", "is required: the key of its answer in the result"},
		{"question id blank", func(r *Request) { r.Questions[0].ID = " \t" },
			"questions[0].id", "must not be blank: the key of its answer in the result"},
		{"question id duplicate", func(r *Request) { r.Questions[1].ID = "db" },
			"questions[1].id", `"db" is already the id of questions[0]; question ids must be unique`},
		{"question id reserved $", func(r *Request) { r.Questions[1].ID = "$checks" },
			"questions[1].id", `"$checks" is reserved: ids beginning with "$" belong to the tool; choose another id`},
		{"question id reserved Other", func(r *Request) { r.Questions[1].ID = OtherID },
			"questions[1].id", `"__other__" is reserved for the Other answer the tool adds by itself; choose another id`},
		{"option id missing", func(r *Request) { r.Questions[0].Options[1].ID = "" },
			"questions[0].options[1].id", "is required: the option's key in the answer"},
		{"option id blank", func(r *Request) { r.Questions[0].Options[1].ID = "  " },
			"questions[0].options[1].id", "must not be blank: the option's key in the answer"},
		{"option id duplicate", func(r *Request) { r.Questions[0].Options[2].ID = "pg" },
			"questions[0].options[2].id", `"pg" is already the id of options[0]; option ids must be unique within a question`},
		{"option id reserved $", func(r *Request) { r.Questions[0].Options[0].ID = "$other" },
			"questions[0].options[0].id", `"$other" is reserved: ids beginning with "$" belong to the tool; choose another id`},
		{"option id reserved Other", func(r *Request) { r.Questions[0].Options[0].ID = OtherID },
			"questions[0].options[0].id", `"__other__" is reserved for the Other answer the tool adds by itself; choose another id`},
		{"question missing", func(r *Request) { r.Questions[0].Question = "" },
			"questions[0].question", `is required: the full question the user reads, ending with "?"`},
		{"question blank", func(r *Request) { r.Questions[0].Question = "\n" },
			"questions[0].question", `must not be blank: the full question the user reads, ending with "?"`},
		{"question without ?", func(r *Request) { r.Questions[0].Question = "Pick a database." },
			"questions[0].question", `must end with "?": phrase it as a question, such as "Which database should I use?"`},
		{"question with space after ?", func(r *Request) { r.Questions[0].Question = "Which database? " },
			"questions[0].question", `must end with "?", with nothing after it: remove the trailing white space`},
		{"header missing", func(r *Request) { r.Questions[0].Header = "" },
			"questions[0].header", `is required: a short tag of at most 12 characters shown above the question, such as "Database"`},
		{"header blank", func(r *Request) { r.Questions[0].Header = "   " },
			"questions[0].header", `must not be blank: a short tag of at most 12 characters shown above the question, such as "Database"`},
		{"header of 13 characters", func(r *Request) { r.Questions[0].Header = "Database name" },
			"questions[0].header", "is 13 characters long; the limit is 12"},
		{"label missing", func(r *Request) { r.Questions[0].Options[0].Label = "" },
			"questions[0].options[0].label", "is required: the text the user picks"},
		{"label blank", func(r *Request) { r.Questions[0].Options[0].Label = " " },
			"questions[0].options[0].label", "must not be blank: the text the user picks"},
		{"label duplicate", func(r *Request) { r.Questions[0].Options[2].Label = "Postgres" },
			"questions[0].options[2].label", `"Postgres" repeats the label of options[0]; labels must be unique within a question, whatever their case`},
		{"label duplicate in another case", func(r *Request) { r.Questions[0].Options[2].Label = " POSTGRES" },
			"questions[0].options[2].label", `" POSTGRES" repeats the label of options[0]; labels must be unique within a question, whatever their case`},
		{"description missing", func(r *Request) { r.Questions[1].Options[0].Description = "" },
			"questions[1].options[0].description", "is required: say what choosing this option means"},
		{"description blank", func(r *Request) { r.Questions[1].Options[0].Description = "\t" },
			"questions[1].options[0].description", "must not be blank: say what choosing this option means"},
		{"explicit Other", func(r *Request) { r.Questions[0].Options[2].Label = "Other" },
			"questions[0].options[2].label", `"Other" is not allowed: the tool adds an Other answer to every question by itself; remove this option`},
		{"explicit other...", func(r *Request) { r.Questions[0].Options[2].Label = " other..." },
			"questions[0].options[2].label", `" other..." is not allowed: the tool adds an Other answer to every question by itself; remove this option`},
		{"explicit OTHER…", func(r *Request) { r.Questions[0].Options[2].Label = "OTHER…" },
			"questions[0].options[2].label", `"OTHER…" is not allowed: the tool adds an Other answer to every question by itself; remove this option`},
		{"preview on multi-select", func(r *Request) { r.Questions[1].Options[1].Preview = "p" },
			"questions[1].options[1].preview", "is only allowed on a single-select question: remove it, or leave multiSelect out"},
		{"preview blank", func(r *Request) { r.Questions[0].Options[0].Preview = " \n " },
			"questions[0].options[0].preview", "must not be blank: leave preview out when the option has none"},
		{"two recommended", func(r *Request) { r.Questions[0].Options[2].Recommended = true },
			"questions[0].options[2].recommended", "options[0] is already recommended; at most one option per question may be"},
		{"17 tags", func(r *Request) { r.Metadata.Tags = make([]string, 17) },
			"metadata.tags", "has 17 tags; the limit is 16"},
		{"not UTF-8", func(r *Request) { r.Questions[0].Options[1].Description = "a\xffb" },
			"questions[0].options[1].description", ""},
	}
}

func TestRules(t *testing.T) {
	for _, tt := range ruleRows() {
		t.Run(tt.name, func(t *testing.T) {
			r := base()
			tt.edit(r)
			want := []Problem{{Path: tt.path, Message: tt.msg}}
			if tt.msg == "" {
				// encoding/json writes U+FFFD for invalid UTF-8, so
				// only Validate sees it.
				want[0].Message = "is not valid UTF-8"
				if diff := cmp.Diff(want, Problems(Validate(r))); diff != "" {
					t.Errorf("Validate problems (-want +got):\n%s", diff)
				}
				return
			}
			if diff := cmp.Diff(want, Problems(Validate(r))); diff != "" {
				t.Errorf("Validate problems (-want +got):\n%s", diff)
			}
			if m, ok := nullRules[tt.name]; ok {
				want[0].Message = m
			}
			got, err := Parse(encode(t, r))
			if got != nil {
				t.Errorf("Parse returned a request with an error")
			}
			if diff := cmp.Diff(want, Problems(err)); diff != "" {
				t.Errorf("Parse problems (-want +got):\n%s", diff)
			}
		})
	}
}

// nullRules are Parse's messages for the rows whose JSON has null where
// the request holds a nil slice: a value of the wrong type.
var nullRules = map[string]string{
	"no questions": "must be an array of question objects, got null; the field is required",
	"no options":   "must be an array of option objects, got null; the field is required",
}

func nQuestions(n int) []Question {
	qs := make([]Question, n)
	for i := range qs {
		qs[i] = Question{ID: "q" + strconv.Itoa(i), Question: "Which?", Header: "H", Options: nOptions(2)}
	}
	return qs
}

func nOptions(n int) []Option {
	os := make([]Option, n)
	for i := range os {
		s := strconv.Itoa(i)
		os[i] = Option{ID: "o" + s, Label: "Option " + s, Description: "d"}
	}
	return os
}

// decodingRows cover what only JSON can get wrong.
type decodingRow struct {
	name string
	in   string
	want []Problem
}

func decodingRows() []decodingRow {
	q := func(members string) string {
		return `{"questions":[{"id":"q","question":"Which?","header":"H","options":[{"id":"a","label":"A","description":"d"},{"id":"b","label":"B","description":"d"}]` + members + `}]}`
	}
	o := func(members string) string {
		return `{"questions":[{"id":"q","question":"Which?","header":"H","options":[{"id":"a","label":"A","description":"d"` + members + `},{"id":"b","label":"B","description":"d"}]}]}`
	}
	return []decodingRow{
		{"empty input", " \n", []Problem{{Message: `the request is empty; send a JSON object such as {"questions":[...]}`}}},
		{"not an object", `[1]`, []Problem{{Message: "the request must be a JSON object, got an array"}}},
		{"syntax error", `{"questions":[}`, []Problem{{Message: "invalid JSON at byte offset 14: unexpected character '}', expected a value"}}},
		{"trailing data", q("") + ` {}`, []Problem{{Message: "invalid JSON at byte offset 154: unexpected data after the top-level value"}}},
		{"too deep", `{"questions":[],"x":` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}`,
			[]Problem{{Message: "invalid JSON at byte offset 85: values are nested too deeply"}}},
		{"case-mismatched member", q(`,"MultiSelect":true`),
			[]Problem{{Path: "questions[0].MultiSelect", Message: `unknown field "MultiSelect"; did you mean "multiSelect"?`}}},
		{"near-miss member", o(`,"recomended":true`),
			[]Problem{{Path: "questions[0].options[0].recomended", Message: `unknown field "recomended"; did you mean "recommended"?`}}},
		{"member from ask_user", `{"questions":[{"id":"q","title":"Which?","header":"H","options":[{"id":"a","label":"A","description":"d"},{"id":"b","label":"B","description":"d"}]}]}`,
			[]Problem{{Path: "questions[0].title", Message: `unknown field "title"; use "question" for the question text, and "header" for its short tag`}}},
		{"unknown member", q(`,"colour":"red"`),
			[]Problem{{Path: "questions[0].colour", Message: `unknown field "colour"; the fields of a question are id, question, header, multiSelect, required, options`}}},
		{"unknown metadata member", `{"questions":[],"metadata":{"owner":"me"}}`,
			[]Problem{{Path: "metadata.owner", Message: `unknown field "owner"; the fields of metadata are source, flowId, tags`}, {Path: "questions", Message: "must hold at least 1 question (at most 8)"}}},
		{"unknown key with an escape", q(`,"a\u001bb":1`),
			[]Problem{{Path: `questions[0]["a\x1bb"]`, Message: `unknown field "a\x1bb"; the fields of a question are id, question, header, multiSelect, required, options`}}},
		{"duplicate member", q(`,"header":"G"`),
			[]Problem{{Path: "questions[0].header", Message: "appears more than once; send each field once"}}},
		{"wrong type", q(`,"multiSelect":"yes"`),
			[]Problem{{Path: "questions[0].multiSelect", Message: "must be a boolean (true or false), got a string"}}},
		{"null", q(`,"required":null`),
			[]Problem{{Path: "questions[0].required", Message: "must be a boolean (true or false), got null; leave the field out instead of sending null"}}},
		{"required member null", `{"questions":[{"id":null,"question":"Which?","header":"H","options":[{"id":"a","label":"A","description":"d"},{"id":"b","label":"B","description":"d"}]}]}`,
			[]Problem{{Path: "questions[0].id", Message: "must be a string, got null; the field is required"}}},
		{"question null", `{"questions":[null]}`,
			[]Problem{{Path: "questions[0]", Message: "must be a question object, got null"}}},
		{"question not an object", `{"questions":["Which?"]}`,
			[]Problem{{Path: "questions[0]", Message: "must be a question object, got a string"}}},
		{"options not an array", `{"questions":[{"id":"q","question":"Which?","header":"H","options":{}}]}`,
			[]Problem{{Path: "questions[0].options", Message: "must be an array of option objects, got an object"}}},
		{"metadata not an object", `{"questions":[],"metadata":[]}`,
			[]Problem{{Path: "metadata", Message: `must be an object such as {"source":"…","flowId":"…","tags":["…"]}, got an array`}, {Path: "questions", Message: "must hold at least 1 question (at most 8)"}}},
		{"tag not a string", `{"questions":[],"metadata":{"tags":["a",2]}}`,
			[]Problem{{Path: "metadata.tags[1]", Message: "must be a string, got a number"}, {Path: "questions", Message: "must hold at least 1 question (at most 8)"}}},
		{"invalid UTF-8", o(`,"preview":"a` + "\xff" + `"`),
			[]Problem{{Path: "questions[0].options[0].preview", Message: "is not valid UTF-8 (at byte offset 120); send text as UTF-8"}}},
		{"unpaired surrogate", o(`,"preview":"ab\ud800"`),
			[]Problem{{Path: "questions[0].options[0].preview", Message: "is not valid UTF-8 (at byte offset 121); send text as UTF-8"}}},
		{"empty preview", o(`,"preview":""`),
			[]Problem{{Path: "questions[0].options[0].preview", Message: "must not be empty: leave preview out when the option has none"}}},
		{"a misspelt member is not also missing", `{"questions":[{"id":"q","question":"Which?","Header":"H","options":[{"id":"a","label":"A","description":"d"},{"id":"b","label":"B","description":"d"}]}]}`,
			[]Problem{{Path: "questions[0].Header", Message: `unknown field "Header"; did you mean "header"?`}}},
		{"a member that did not decode is not judged", `{"questions":[{"id":"q","question":7,"header":"H","options":[{"id":"a","label":"A","description":"d"},{"id":"b","label":"B","description":"d"}]}]}`,
			[]Problem{{Path: "questions[0].question", Message: "must be a string, got a number"}}},
	}
}

func TestDecoding(t *testing.T) {
	for _, tt := range decodingRows() {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.in))
			if got != nil {
				t.Errorf("Parse returned a request with an error")
			}
			if diff := cmp.Diff(tt.want, Problems(err)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestEveryProblemAtOnce checks that problems come all at once, in
// order: the request's, then question by question, options in order.
func TestEveryProblemAtOnce(t *testing.T) {
	in := `{"questions":[
		{"id":"a","question":"No mark","header":"H","options":[{"id":"x","label":"Other","description":"d"},{"id":"x","label":"Y"}]},
		{"id":"a","question":"Fine?","header":"Much too long a header","multiSelect":true,"options":[{"id":"p","label":"P","description":"d","preview":"no"}]}],
		"metadata":{"tags":[` + strings.Repeat(`"t",`, 16) + `"t"]}}`
	want := []Problem{
		{Path: "metadata.tags", Message: "has 17 tags; the limit is 16"},
		{Path: "questions[0].question", Message: `must end with "?": phrase it as a question, such as "Which database should I use?"`},
		{Path: "questions[0].options[0].label", Message: `"Other" is not allowed: the tool adds an Other answer to every question by itself; remove this option`},
		{Path: "questions[0].options[1].id", Message: `"x" is already the id of options[0]; option ids must be unique within a question`},
		{Path: "questions[0].options[1].description", Message: "is required: say what choosing this option means"},
		{Path: "questions[1].id", Message: `"a" is already the id of questions[0]; question ids must be unique`},
		{Path: "questions[1].header", Message: "is 22 characters long; the limit is 12"},
		{Path: "questions[1].options", Message: "has 1 option; give at least 2 (at most 4), besides the Other answer the tool adds by itself"},
		{Path: "questions[1].options[0].preview", Message: "is only allowed on a single-select question: remove it, or leave multiSelect out"},
	}
	_, err := Parse([]byte(in))
	if diff := cmp.Diff(want, Problems(err)); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(err.Error(), "metadata.tags: has 17 tags; the limit is 16; questions[0].question: ") {
		t.Errorf("Error() = %q, want the problems joined with \"; \"", err.Error())
	}
}

func TestProblemsAreBounded(t *testing.T) {
	r := &Request{Questions: nQuestions(40)}
	for i := range r.Questions {
		r.Questions[i].Header = ""
		r.Questions[i].Question = ""
	}
	ps := Problems(Validate(r))
	if len(ps) != strictjson.MaxProblems+1 {
		t.Fatalf("got %d problems, want %d", len(ps), strictjson.MaxProblems+1)
	}
	if want := (Problem{Message: "and 31 more problems"}); ps[strictjson.MaxProblems] != want {
		t.Errorf("last problem = %v, want %v", ps[strictjson.MaxProblems], want)
	}
}

func TestValidateNil(t *testing.T) {
	want := []Problem{{Message: "the request is missing"}}
	if diff := cmp.Diff(want, Problems(Validate(nil))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestRequestErrorOwn checks that each contract's errors are its own, so
// that a host serving both can tell which contract refused a request.
func TestRequestErrorOwn(t *testing.T) {
	_, _, cerr := contract.Parse([]byte(`{}`))
	_, aerr := Parse([]byte(`{}`))
	if cerr == nil || aerr == nil {
		t.Fatalf("Parse of {}: contract %v, auq %v; want errors from both", cerr, aerr)
	}
	if ps := Problems(cerr); ps != nil {
		t.Errorf("auq.Problems of an ask_user error = %v, want nil", ps)
	}
	if ps := contract.Problems(aerr); ps != nil {
		t.Errorf("contract.Problems of an AskUserQuestion error = %v, want nil", ps)
	}
	if len(Problems(aerr)) == 0 || len(contract.Problems(cerr)) == 0 {
		t.Errorf("each contract's Problems of its own error is empty")
	}
}
