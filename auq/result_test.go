package auq_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/askuser/askuser/auq"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/<test>/<name>.golden, or rewrites it
// with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testkit.Golden(t, filepath.Join("testdata", strings.Split(t.Name(), "/")[0], name+".golden"), string(got), *update)
}

// results are results that fit Base(), for the golden files and the
// round trip.
var results = []struct {
	name string
	res  Result
}{
	{"single", Result{
		Answers:     map[string]Answer{"db": {Kind: KindSingle, Choice: Choice{OptionID: "pg", Label: "Postgres"}}},
		Annotations: map[string]Annotations{"db": {SelectedPreview: "docker run postgres"}},
		Metadata:    &ResultMetadata{Source: Ptr("planner"), FlowID: Ptr("flow-1")},
	}},
	{"other and notes", Result{
		Answers: map[string]Answer{
			"db":     {Kind: KindSingle, Choice: Choice{Label: OtherLabel, Other: true, Text: "MySQL, as on the old host"}},
			"checks": {Kind: KindMulti, Selections: []Choice{{OptionID: "unit", Label: "Unit tests"}, {Label: OtherLabel, Other: true, Text: "lint"}}},
		},
		Annotations: map[string]Annotations{
			"db":     {QuestionNotes: "we may move later", OptionNotes: map[string]string{"lite": "too small", OtherNoteKey: "8.0 only"}},
			"checks": {OptionNotes: map[string]string{"e2e": "not yet"}},
		},
		Metadata: &ResultMetadata{Source: Ptr("planner"), FlowID: Ptr("flow-1")},
	}},
	{"empty multi", Result{
		Answers: map[string]Answer{
			"db":     {Kind: KindSingle, Choice: Choice{OptionID: "none", Label: "None"}},
			"checks": {Kind: KindMulti, Selections: []Choice{}, Empty: true},
		},
		Metadata: &ResultMetadata{Source: Ptr("planner"), FlowID: Ptr("flow-1")},
	}},
	{"cancelled", Result{Cancelled: true, Metadata: &ResultMetadata{Source: Ptr("planner"), FlowID: Ptr("flow-1")}}},
}

func TestResultJSON(t *testing.T) {
	req := Base()
	for _, tt := range results {
		t.Run(tt.name, func(t *testing.T) {
			if err := CheckResult(req, tt.res); err != nil {
				t.Fatalf("CheckResult: %v", err)
			}
			data, err := json.MarshalIndent(tt.res, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, strings.ReplaceAll(tt.name, " ", "-"), append(data, '\n'))
			var back Result
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatalf("Unmarshal: %v", err)
			}
			want := tt.res
			if a, ok := want.Answers["checks"]; ok && a.Selections != nil && len(a.Selections) == 0 {
				a.Selections = []Choice{}
				want.Answers["checks"] = a
			}
			if diff := cmp.Diff(want, back); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSeedResult checks the contract's own example result, member for
// member, in the order it lists them.
func TestSeedResult(t *testing.T) {
	res := Result{
		Answers:     map[string]Answer{"framework": {Kind: KindSingle, Choice: Choice{OptionID: "react", Label: "React"}}},
		Annotations: map[string]Annotations{"framework": {SelectedPreview: "Best if you want broad ecosystem support."}},
	}
	got, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"cancelled":false,"answers":{"framework":{"kind":"single","optionId":"react","label":"React"}},"annotations":{"framework":{"selectedPreview":"Best if you want broad ecosystem support."}}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestAnswerMarshalRefuses(t *testing.T) {
	tests := []struct {
		name string
		a    Answer
		want string
	}{
		{"no kind", Answer{Choice: Choice{Label: "x"}}, `auq: an answer has kind ""; want single or multi`},
		{"single with selections", Answer{Kind: KindSingle, Selections: []Choice{{Label: "x"}}}, "auq: a single answer has selections or empty set; they belong to a multi answer"},
		{"multi with a choice", Answer{Kind: KindMulti, Choice: Choice{Label: "x"}}, "auq: a multi answer has a choice set; its choices belong in selections"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.a.MarshalJSON()
			if err == nil || err.Error() != tt.want {
				t.Errorf("MarshalJSON error = %v, want %q", err, tt.want)
			}
		})
	}
	if data, err := (Answer{Kind: KindMulti}).MarshalJSON(); err != nil || !bytes.Equal(data, []byte(`{"kind":"multi","selections":[],"empty":false}`)) {
		t.Errorf("nil selections: %s, %v; want an empty array", data, err)
	}
}

func TestAnswerUnmarshal(t *testing.T) {
	tests := []struct {
		in   string
		want Answer
		err  string
	}{
		{in: `{"kind":"single","optionId":"a","label":"A"}`, want: Answer{Kind: KindSingle, Choice: Choice{OptionID: "a", Label: "A"}}},
		{in: `{"label":"Other","other":true,"text":"t\u00e9","kind":"single"}`, want: Answer{Kind: KindSingle, Choice: Choice{Label: "Other", Other: true, Text: "té"}}},
		{in: `{"kind":"multi","selections":[{"optionId":"a","label":"A"}],"empty":false}`, want: Answer{Kind: KindMulti, Selections: []Choice{{OptionID: "a", Label: "A"}}}},
		{in: `{"kind":"multi","selections":[],"empty":true}`, want: Answer{Kind: KindMulti, Selections: []Choice{}, Empty: true}},
		{in: `[]`, err: "auq: answer: must be an object, got an array"},
		{in: `{"label":"A"}`, err: "auq: answer: kind is required"},
		{in: `{"kind":"both","label":"A"}`, err: `auq: answer: kind must be single or multi, got "both"`},
		{in: `{"kind":"single"}`, err: "auq: answer: a single answer needs a label"},
		{in: `{"kind":"single","label":"A","empty":false}`, err: "auq: answer: a single answer has no selections or empty"},
		{in: `{"kind":"multi","selections":[]}`, err: "auq: answer: a multi answer needs selections and empty"},
		{in: `{"kind":"multi","label":"A","selections":[],"empty":true}`, err: "auq: answer: a multi answer has only kind, selections and empty"},
		{in: `{"kind":"single","Label":"A"}`, err: `auq: answer: unknown field "Label"`},
		{in: `{"kind":"single","label":"A","label":"B"}`, err: `auq: answer: "label" appears more than once`},
		{in: `{"kind":"single","label":1}`, err: "auq: answer: label must be a string, got a number"},
		{in: `{"kind":"single","label":"A","other":"yes"}`, err: "auq: answer: other must be a boolean, got a string"},
		{in: `{"kind":"single","label":"\ud800"}`, err: "auq: answer: label is not valid UTF-8"},
		{in: `{"kind":"multi","selections":[{"optionId":"a"}],"empty":false}`, err: "auq: answer: selections[0]: label is required"},
		{in: `{"kind":"multi","selections":[{"label":"A","note":"x"}],"empty":false}`, err: `auq: answer: selections[0]: unknown field "note"`},
		{in: `{"kind":"multi","selections":"A","empty":false}`, err: "auq: answer: selections must be an array, got a string"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var got Answer
			err := json.Unmarshal([]byte(tt.in), &got)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Errorf("error = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestUnmarshalWhiteSpace calls the decoders as a caller other than
// encoding/json may, with the white space JSON allows around a value.
func TestUnmarshalWhiteSpace(t *testing.T) {
	for _, in := range []string{` {"label":"A"}`, "\t\r\n{ \"label\" : \"A\" }\n", `{"label":"A"} `} {
		var c Choice
		if err := c.UnmarshalJSON([]byte(in)); err != nil {
			t.Errorf("Choice.UnmarshalJSON(%q) = %v", in, err)
		} else if diff := cmp.Diff(Choice{Label: "A"}, c); diff != "" {
			t.Errorf("Choice.UnmarshalJSON(%q) (-want +got):\n%s", in, diff)
		}
		in = strings.Replace(in, "{", `{"kind":"single",`, 1)
		var a Answer
		if err := a.UnmarshalJSON([]byte(in)); err != nil {
			t.Errorf("Answer.UnmarshalJSON(%q) = %v", in, err)
		} else if diff := cmp.Diff(Answer{Kind: KindSingle, Choice: Choice{Label: "A"}}, a); diff != "" {
			t.Errorf("Answer.UnmarshalJSON(%q) (-want +got):\n%s", in, diff)
		}
	}
}

// TestCheckResult has one row per rule a result must follow.
func TestCheckResult(t *testing.T) {
	md := &ResultMetadata{Source: Ptr("planner"), FlowID: Ptr("flow-1")}
	valid := func() Result {
		return Result{
			Answers: map[string]Answer{
				"db":     {Kind: KindSingle, Choice: Choice{OptionID: "lite", Label: "SQLite"}},
				"checks": {Kind: KindMulti, Selections: []Choice{{OptionID: "e2e", Label: "End to end"}}},
			},
			Annotations: map[string]Annotations{"db": {SelectedPreview: "sqlite3 app.db"}},
			Metadata:    &ResultMetadata{Source: Ptr("planner"), FlowID: Ptr("flow-1")},
		}
	}
	single := func(r *Result, c Choice) { r.Answers["db"] = Answer{Kind: KindSingle, Choice: c} }
	multi := func(r *Result, empty bool, cs ...Choice) {
		r.Answers["checks"] = Answer{Kind: KindMulti, Selections: cs, Empty: empty}
	}
	tests := []struct {
		name string
		edit func(r *Result)
		want []Problem
	}{
		{"valid", func(r *Result) {}, nil},
		{"optional question unanswered", func(r *Result) { delete(r.Answers, "checks") }, nil},
		{"required question unanswered", func(r *Result) { delete(r.Answers, "db"); delete(r.Annotations, "db") },
			[]Problem{{Path: "answers.db", Message: "is missing: questions[0] is required"}}},
		{"unknown question", func(r *Result) { r.Answers["x y"] = r.Answers["db"] },
			[]Problem{{Path: `answers["x y"]`, Message: `no question has the id "x y"`}}},
		{"wrong kind", func(r *Result) {
			r.Answers["checks"] = Answer{Kind: KindSingle, Choice: Choice{OptionID: "e2e", Label: "End to end"}}
		},
			[]Problem{{Path: "answers.checks.kind", Message: `must be "multi" for this question, got "single"`}}},
		{"unknown option", func(r *Result) { single(r, Choice{OptionID: "mysql", Label: "MySQL"}); delete(r.Annotations, "db") },
			[]Problem{{Path: "answers.db.optionId", Message: `the question has no option "mysql"`}}},
		{"label that does not match", func(r *Result) { single(r, Choice{OptionID: "lite", Label: "sqlite"}) },
			[]Problem{{Path: "answers.db.label", Message: `must be the label of option "lite", "SQLite", got "sqlite"`}}},
		{"no option id", func(r *Result) { single(r, Choice{Label: "SQLite"}); delete(r.Annotations, "db") },
			[]Problem{{Path: "answers.db.optionId", Message: "is missing: a choice is an option id, or the Other answer"}}},
		{"text on an option", func(r *Result) { single(r, Choice{OptionID: "lite", Label: "SQLite", Text: "x"}) },
			[]Problem{{Path: "answers.db.text", Message: "only the Other answer has text"}}},
		{"Other without text", func(r *Result) {
			single(r, Choice{Label: OtherLabel, Other: true, Text: " "})
			delete(r.Annotations, "db")
		},
			[]Problem{{Path: "answers.db.text", Message: "is blank: the Other answer needs the user's text"}}},
		{"Other with an option id and another label", func(r *Result) {
			single(r, Choice{OptionID: "lite", Label: "Mine", Other: true, Text: "x"})
			delete(r.Annotations, "db")
		}, []Problem{
			{Path: "answers.db.optionId", Message: "the Other answer has no option id"},
			{Path: "answers.db.label", Message: `must be "Other" for the Other answer, got "Mine"`},
		}},
		{"Other text too long", func(r *Result) {
			single(r, Choice{Label: OtherLabel, Other: true, Text: Text(MaxOtherTextLen + 1)})
			delete(r.Annotations, "db")
		}, []Problem{{Path: "answers.db.text", Message: "is 2001 characters long; the limit is 2000"}}},
		{"multi: empty but with selections", func(r *Result) { multi(r, true, Choice{OptionID: "e2e", Label: "End to end"}) },
			[]Problem{{Path: "answers.checks.empty", Message: "is true, but the answer has selections"}}},
		{"multi: no selections, not empty", func(r *Result) { multi(r, false) },
			[]Problem{{Path: "answers.checks.empty", Message: "is false, but the answer has no selections"}}},
		{"multi: an option twice", func(r *Result) {
			multi(r, false, Choice{OptionID: "e2e", Label: "End to end"}, Choice{OptionID: "e2e", Label: "End to end"})
		}, []Problem{{Path: "answers.checks.selections[1].optionId", Message: `"e2e" is already selections[0]`}}},
		{"multi: Other twice", func(r *Result) {
			multi(r, false, Choice{Label: OtherLabel, Other: true, Text: "a"}, Choice{Label: OtherLabel, Other: true, Text: "b"})
		}, []Problem{{Path: "answers.checks.selections[1]", Message: "repeats the Other answer of selections[0]"}}},
		{"multi: a broken selection", func(r *Result) { multi(r, false, Choice{OptionID: "pg", Label: "Postgres"}) },
			[]Problem{{Path: "answers.checks.selections[0].optionId", Message: `the question has no option "pg"`}}},
		{"note on an unknown option", func(r *Result) {
			r.Annotations["checks"] = Annotations{OptionNotes: map[string]string{"pg": "x"}}
		}, []Problem{{Path: "annotations.checks.optionNotes.pg", Message: `the question has no option "pg"; notes are keyed by option id, or "$other" for the Other answer`}}},
		{"notes on an option and on Other", func(r *Result) {
			r.Annotations["checks"] = Annotations{QuestionNotes: "q", OptionNotes: map[string]string{"unit": "u", OtherNoteKey: "o"}}
		}, nil},
		{"blank question note", func(r *Result) { r.Annotations["checks"] = Annotations{QuestionNotes: "\n"} },
			[]Problem{{Path: "annotations.checks.questionNotes", Message: "is blank: leave an empty note out"}}},
		{"blank option note", func(r *Result) { r.Annotations["checks"] = Annotations{OptionNotes: map[string]string{"unit": ""}} },
			[]Problem{{Path: "annotations.checks.optionNotes.unit", Message: "is blank: leave an empty note out"}}},
		{"note too long", func(r *Result) { r.Annotations["checks"] = Annotations{QuestionNotes: Text(MaxNoteLen + 1)} },
			[]Problem{{Path: "annotations.checks.questionNotes", Message: "is 2001 characters long; the limit is 2000"}}},
		{"note not UTF-8", func(r *Result) { r.Annotations["checks"] = Annotations{QuestionNotes: "\xff"} },
			[]Problem{{Path: "annotations.checks.questionNotes", Message: "is not valid UTF-8"}}},
		{"empty annotations", func(r *Result) { r.Annotations["checks"] = Annotations{} },
			[]Problem{{Path: "annotations.checks", Message: "holds no note and no preview; leave the question out of annotations"}}},
		{"annotations of an unknown question", func(r *Result) { r.Annotations["x"] = Annotations{QuestionNotes: "n"} },
			[]Problem{{Path: "annotations.x", Message: `no question has the id "x"`}}},
		{"selected preview missing", func(r *Result) { delete(r.Annotations, "db") },
			[]Problem{{Path: "annotations.db.selectedPreview", Message: "is missing: the chosen option has a preview, which comes back with the answer"}}},
		{"selected preview missing beside a note", func(r *Result) { r.Annotations["db"] = Annotations{QuestionNotes: "n"} },
			[]Problem{{Path: "annotations.db.selectedPreview", Message: "is missing: the chosen option has a preview, which comes back with the answer"}}},
		{"selected preview of another option", func(r *Result) { r.Annotations["db"] = Annotations{SelectedPreview: "docker run postgres"} },
			[]Problem{{Path: "annotations.db.selectedPreview", Message: "differs from the preview of the chosen option"}}},
		{"selected preview without one", func(r *Result) {
			single(r, Choice{OptionID: "none", Label: "None"})
		}, []Problem{{Path: "annotations.db.selectedPreview", Message: "the question has no chosen option with a preview"}}},
		{"selected preview on multi-select", func(r *Result) { r.Annotations["checks"] = Annotations{SelectedPreview: "p"} },
			[]Problem{{Path: "annotations.checks.selectedPreview", Message: "a multi-select question has no previews"}}},
		{"metadata missing", func(r *Result) { r.Metadata = nil },
			[]Problem{{Path: "metadata", Message: "is missing: the request's source and flowId come back unchanged"}}},
		{"metadata changed", func(r *Result) { r.Metadata = &ResultMetadata{Source: Ptr("planner"), FlowID: Ptr("flow-2")} },
			[]Problem{{Path: "metadata.flowId", Message: "differs from the request's flowId; it comes back unchanged"}}},
		{"metadata partly lost", func(r *Result) { r.Metadata = &ResultMetadata{FlowID: Ptr("flow-1")} },
			[]Problem{{Path: "metadata.source", Message: "differs from the request's source; it comes back unchanged"}}},
		{"cancelled with answers", func(r *Result) { r.Cancelled = true }, []Problem{
			{Path: "answers", Message: "a cancelled result has no answers"},
			{Path: "annotations", Message: "a cancelled result has no annotations"},
		}},
		{"cancelled", func(r *Result) { *r = Result{Cancelled: true, Metadata: md} }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := valid()
			tt.edit(&res)
			err := CheckResult(Base(), res)
			var got []Problem
			if err != nil {
				re, ok := err.(*ResultError)
				if !ok {
					t.Fatalf("error %v is a %T, not a *ResultError", err, err)
				}
				got = re.Problems
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheckResultMetadataAbsent(t *testing.T) {
	req := Base()
	req.Metadata = &Metadata{Tags: []string{"t"}}
	res := Result{Cancelled: true, Metadata: &ResultMetadata{}}
	want := "the result does not fit the request: metadata: the request sent no source or flowId, so the result carries no metadata"
	if err := CheckResult(req, res); err == nil || err.Error() != want {
		t.Errorf("CheckResult = %v, want %q", err, want)
	}
	res.Metadata = nil
	if err := CheckResult(req, res); err != nil {
		t.Errorf("CheckResult = %v", err)
	}
	if req.ResultMetadata() != nil {
		t.Errorf("ResultMetadata of tags alone = %+v, want nil", req.ResultMetadata())
	}
}
