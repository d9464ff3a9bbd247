package claudecode_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/claudecode"
)

// questionInput is the input of Claude Code 2.1.332's AskUserQuestion
// tool, as its PreToolUse hook receives it, with metadata it may carry.
const questionInput = `{"questions":[` +
	`{"question":"Which database \u001b[2J \u202eevil <b>x</b>?","header":"DB","options":[{"label":"SQLite","description":"a file"},{"label":"Postgres","description":"a server","preview":"CREATE TABLE t();"}],"multiSelect":false},` +
	`{"question":"Which extras?","header":"Extras","options":[{"label":"Cache","description":"in memory"},{"label":"Queue, \"later\"","description":"x"}],"multiSelect":true}],` +
	`"metadata":{"source":"remember"}}`

const (
	q1 = "Which database \x1b[2J \u202eevil <b>x</b>?"
	q2 = "Which extras?"
)

func decodeQuestions(t *testing.T) (*claudecode.Questions, *auq.Request) {
	t.Helper()
	q, err := claudecode.DecodeQuestions([]byte(questionInput))
	if err != nil {
		t.Fatal(err)
	}
	shown, err := q.Show()
	if err != nil {
		t.Fatal(err)
	}
	return q, shown
}

func TestQuestionsShow(t *testing.T) {
	_, shown := decodeQuestions(t)
	want := &auq.Request{Questions: []auq.Question{
		{ID: "q1", Question: q1, Header: "DB", Options: []auq.Option{
			{ID: "o1", Label: "SQLite", Description: "a file"},
			{ID: "o2", Label: "Postgres", Description: "a server", Preview: "CREATE TABLE t();"},
		}},
		{ID: "q2", Question: q2, Header: "Extras", MultiSelect: true, Options: []auq.Option{
			{ID: "o1", Label: "Cache", Description: "in memory"},
			{ID: "o2", Label: `Queue, "later"`, Description: "x"},
		}},
	}}
	if diff := cmp.Diff(want, shown); diff != "" {
		t.Errorf("Show (-want +got):\n%s", diff)
	}
}

func single(id, label string) auq.Answer {
	return auq.Answer{Kind: auq.KindSingle, Choice: auq.Choice{OptionID: id, Label: label}}
}

func multi(cs ...auq.Choice) auq.Answer { return auq.Answer{Kind: auq.KindMulti, Selections: cs} }

func TestQuestionsRead(t *testing.T) {
	tests := []struct {
		name    string
		res     auq.Result
		want    claudecode.Answers
		wantErr string
	}{
		{
			name: "labels, with the preview of the option chosen",
			res: auq.Result{Answers: map[string]auq.Answer{
				"q1": single("o2", "Postgres"),
				"q2": multi(auq.Choice{OptionID: "o1", Label: "Cache"}),
			}},
			want: claudecode.Answers{
				Answers:     map[string]string{q1: "Postgres", q2: "Cache"},
				Annotations: map[string]claudecode.Annotation{q1: {Preview: "CREATE TABLE t();"}},
			},
		},
		{
			name: "several options, one quoted, the Other text, and notes",
			res: auq.Result{
				Answers: map[string]auq.Answer{
					"q1": single("o1", "SQLite"),
					"q2": multi(auq.Choice{OptionID: "o2", Label: `Queue, "later"`}, auq.Choice{OptionID: "o1", Label: "Cache"},
						auq.Choice{OptionID: auq.OtherID, Label: auq.OtherLabel, Other: true, Text: "a log"}),
				},
				Annotations: map[string]auq.Annotations{
					"q1": {QuestionNotes: "  fast  "},
					"q2": {OptionNotes: map[string]string{"o1": "small", auq.OtherNoteKey: "json lines"}, QuestionNotes: "soon"},
				},
			},
			want: claudecode.Answers{
				Answers: map[string]string{q1: "SQLite", q2: `"Queue, \"later\"", Cache, a log`},
				Annotations: map[string]claudecode.Annotation{
					q1: {Notes: "fast"},
					q2: {Notes: "small\njson lines\nsoon"},
				},
			},
		},
		{
			name: "the Other answer of a single question",
			res: auq.Result{Answers: map[string]auq.Answer{
				"q1": {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: auq.OtherID, Label: auq.OtherLabel, Other: true, Text: "DuckDB \u202e"}},
				"q2": multi(auq.Choice{OptionID: "o1", Label: "Cache"}),
			}},
			want: claudecode.Answers{
				Answers:     map[string]string{q1: "DuckDB \u202e", q2: "Cache"},
				Annotations: map[string]claudecode.Annotation{},
			},
		},
		{
			name:    "cancelled",
			res:     auq.Result{Cancelled: true},
			wantErr: "not submitted",
		},
		{
			name:    "a question unanswered",
			res:     auq.Result{Answers: map[string]auq.Answer{"q1": single("o1", "SQLite")}},
			wantErr: `question "q2" has no answer`,
		},
		{
			name: "an option not offered",
			res: auq.Result{Answers: map[string]auq.Answer{
				"q1": single("o3", "MySQL"),
				"q2": multi(auq.Choice{OptionID: "o1", Label: "Cache"}),
			}},
			wantErr: "not one it offers",
		},
		{
			name: "an option id of another form",
			res: auq.Result{Answers: map[string]auq.Answer{
				"q1": single("o01", "SQLite"),
				"q2": multi(auq.Choice{OptionID: "o1", Label: "Cache"}),
			}},
			wantErr: "not one it offers",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, shown := decodeQuestions(t)
			got, err := q.Read(shown, tt.res)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Read = %+v, %v; want an error with %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Read (-want +got):\n%s", diff)
			}
		})
	}
}

func TestQuestionsNotesCut(t *testing.T) {
	q, shown := decodeQuestions(t)
	long := strings.Repeat("é", auq.MaxNoteLen)
	got, err := q.Read(shown, auq.Result{
		Answers: map[string]auq.Answer{
			"q1": single("o1", "SQLite"),
			"q2": multi(auq.Choice{OptionID: "o1", Label: "Cache"}, auq.Choice{OptionID: "o2", Label: `Queue, "later"`}),
		},
		Annotations: map[string]auq.Annotations{"q2": {
			OptionNotes:   map[string]string{"o1": long, "o2": long, auq.OtherNoteKey: long},
			QuestionNotes: long + long + long,
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	notes := []rune(got.Annotations[q2].Notes)
	if len(notes) != claudecode.MaxNotesLen || notes[len(notes)-1] != '…' {
		t.Errorf("the notes have %d characters, ending %q; want %d ending in …", len(notes), notes[len(notes)-1], claudecode.MaxNotesLen)
	}
}

func TestPreToolUseOutput(t *testing.T) {
	q, _ := decodeQuestions(t)
	out := q.PreToolUseOutput(claudecode.Answers{
		Answers:     map[string]string{q1: "Postgres", q2: "Cache"},
		Annotations: map[string]claudecode.Annotation{q2: {Notes: "soon <b>"}},
	})
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{` +
		`"annotations":{"Which extras?":{"notes":"soon <b>"}},` +
		`"answers":{"Which database \u001b[2J ` + "\u202e" + `evil <b>x</b>?":"Postgres","Which extras?":"Cache"},` +
		`"questions":[{"question":"Which database \u001b[2J \u202eevil <b>x</b>?","header":"DB","options":[{"label":"SQLite","description":"a file"},{"label":"Postgres","description":"a server","preview":"CREATE TABLE t();"}],"multiSelect":false},` +
		`{"question":"Which extras?","header":"Extras","options":[{"label":"Cache","description":"in memory"},{"label":"Queue, \"later\"","description":"x"}],"multiSelect":true}]}}}`
	if string(out) != want {
		t.Errorf("PreToolUseOutput =\n%s\nwant\n%s", out, want)
	}
	if strings.ContainsRune(string(out), 0x1b) {
		t.Error("the output holds a raw escape")
	}
}

func TestJoinLabels(t *testing.T) {
	tests := []struct {
		labels []string
		want   string
	}{
		{[]string{"a"}, "a"},
		{[]string{"a", "b c"}, "a, b c"},
		{[]string{"a,b", "c"}, "a,b, c"},
		{[]string{"a, b", "c"}, `"a, b", c`},
		{[]string{`say "hi"`, "tab\there"}, `"say \"hi\"", tab` + "\t" + `here`},
		{[]string{"x, \n\\"}, `"x, \n\\"`},
	}
	for _, tt := range tests {
		if got := claudecode.JoinLabels(tt.labels); got != tt.want {
			t.Errorf("JoinLabels(%q) = %q, want %q", tt.labels, got, tt.want)
		}
	}
}

func TestDecodeQuestionsFails(t *testing.T) {
	opts := `"options":[{"label":"a","description":"x"},{"label":"b","description":"y"}]`
	big := strings.Repeat("x", 1<<20)
	tests := []struct {
		name, input, want string
	}{
		{"not JSON", `{"questions":`, "JSON"},
		{"no questions", `{"questions":[]}`, "no questions"},
		{"a question twice", `{"questions":[{"question":"Q?","header":"H",` + opts + `},{"question":"Q?","header":"H",` + opts + `}]}`, "repeats"},
		{"a label twice", `{"questions":[{"question":"Q?","header":"H","options":[{"label":"a","description":""},{"label":"a","description":""}]}]}`, "repeated"},
		{"a text question", `{"questions":[{"question":"Q?","header":"H","kind":"text"}]}`, `"text" question`},
		{"answered already", `{"questions":[{"question":"Q?","header":"H",` + opts + `}],"answers":{"Q?":"a"}}`, "answer already"},
		{"multiSelect not a boolean", `{"questions":[{"question":"Q?","header":"H",` + opts + `,"multiSelect":"yes"}]}`, "does not decode"},
		{"a duplicate key", `{"questions":[{"question":"Q?","question":"R?","header":"H",` + opts + `}]}`, "question"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := claudecode.DecodeQuestions([]byte(tt.input))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("DecodeQuestions = %+v, %v; want an error with %q", q, err, tt.want)
			}
		})
	}
	// A megabyte of question decodes, but is not shown, never cut.
	q, err := claudecode.DecodeQuestions([]byte(`{"questions":[{"question":"` + big + `?","header":"H",` + opts + `}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if r, err := q.Show(); err == nil {
		t.Errorf("Show of a megabyte of question = %d questions, want an error", len(r.Questions))
	}
}

func TestDecodePreToolUse(t *testing.T) {
	in := `{"session_id":"s","transcript_path":"/t","cwd":"/w","prompt_id":"p","permission_mode":"default","effort":"high",` +
		`"hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_input":` + questionInput + `,"tool_use_id":"toolu_1","future":{"x":1}}`
	if ev, err := claudecode.HookEvent([]byte(in)); err != nil || ev != "PreToolUse" {
		t.Fatalf("HookEvent = %q, %v", ev, err)
	}
	h, err := claudecode.DecodePreToolUse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if h.ToolName != claudecode.QuestionTool || h.Cwd != "/w" || h.ToolUseID != "toolu_1" || string(h.ToolInput) != questionInput {
		t.Errorf("decoded %+v", h)
	}
	for _, bad := range []string{`{}`, `{"hook_event_name":"PermissionRequest","tool_name":"X","tool_input":{}}`, `{"hook_event_name":"PreToolUse","tool_name":"X"}`, `[]`} {
		if _, err := claudecode.DecodePreToolUse([]byte(bad)); err == nil {
			t.Errorf("DecodePreToolUse(%s) succeeded", bad)
		}
	}
}

// FuzzDecodeQuestions checks the decoders of the PreToolUse hook: they
// never panic, and questions that decode and can be shown answer with
// their first options as JSON that holds the questions as given.
func FuzzDecodeQuestions(f *testing.F) {
	f.Add([]byte(questionInput))
	f.Add([]byte(`{"questions":[{"question":"Q?","header":"H","options":[{"label":"a","description":"x"},{"label":"b","description":"y"}]}]}`))
	f.Add([]byte(`{"questions":[{"question":"Q?","kind":"number"}],"answers":null}`))
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_input":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = claudecode.HookEvent(data)
		_, _ = claudecode.DecodePreToolUse(data)
		q, err := claudecode.DecodeQuestions(data)
		if err != nil {
			return
		}
		shown, err := q.Show()
		if err != nil {
			return
		}
		res := auq.Result{Answers: map[string]auq.Answer{}}
		for _, sq := range shown.Questions {
			a := single(sq.Options[0].ID, sq.Options[0].Label)
			if sq.MultiSelect {
				a = multi(auq.Choice{OptionID: sq.Options[0].ID, Label: sq.Options[0].Label})
			}
			res.Answers[sq.ID] = a
		}
		a, err := q.Read(shown, res)
		if err != nil {
			t.Fatalf("Read of the first options: %v", err)
		}
		var out struct {
			HookSpecificOutput struct {
				UpdatedInput struct {
					Questions json.RawMessage   `json:"questions"`
					Answers   map[string]string `json:"answers"`
				} `json:"updatedInput"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(q.PreToolUseOutput(a), &out); err != nil {
			t.Fatalf("the output is not JSON: %v", err)
		}
		if len(out.HookSpecificOutput.UpdatedInput.Answers) != len(q.Questions) {
			t.Errorf("the output answers %d of %d questions", len(out.HookSpecificOutput.UpdatedInput.Answers), len(q.Questions))
		}
	})
}
