package native

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/google/go-cmp/cmp"
)

// step is one scripted user action: a reply typed into a box, a choice
// picked by its index, or a dismissal of whichever dialog is open.
type step struct {
	box     bool
	reply   string
	pick    int
	dismiss bool
}

func typed(s string) step { return step{box: true, reply: s} }
func picked(i int) step   { return step{pick: i} }
func esc() step           { return step{dismiss: true} }

// dialogCall records one dialog the flow opened.
type dialogCall struct {
	Kind        string // "input" or "select"
	Title       string
	Placeholder string
	Choices     []string
}

// scripted plays steps as the user and records every dialog.
type scripted struct {
	steps []step
	calls []dialogCall
}

func (s *scripted) next(kind string) (step, error) {
	if len(s.steps) == 0 {
		return step{}, fmt.Errorf("unexpected %s dialog: the script is over", kind)
	}
	st := s.steps[0]
	s.steps = s.steps[1:]
	if !st.dismiss && st.box != (kind == "input") {
		return step{}, fmt.Errorf("the flow opened a %s dialog, the script expected the other kind", kind)
	}
	return st, nil
}

func (s *scripted) Input(ctx context.Context, title, placeholder string) (string, bool, error) {
	s.calls = append(s.calls, dialogCall{Kind: "input", Title: title, Placeholder: placeholder})
	st, err := s.next("input")
	if err != nil {
		return "", false, err
	}
	return st.reply, !st.dismiss, nil
}

func (s *scripted) Select(ctx context.Context, title string, choices []string) (string, bool, error) {
	s.calls = append(s.calls, dialogCall{Kind: "select", Title: title, Choices: choices})
	st, err := s.next("select")
	if err != nil {
		return "", false, err
	}
	if st.dismiss {
		return "", false, nil
	}
	if st.pick < 0 || st.pick >= len(choices) {
		return "", false, fmt.Errorf("pick %d of %d choices", st.pick, len(choices))
	}
	return choices[st.pick], true, nil
}

func ptr[T any](v T) *T { return &v }

func val(v contract.Value) *contract.Value { return &v }

func opts(labels ...string) []contract.Option {
	out := make([]contract.Option, len(labels))
	for i, l := range labels {
		out[i] = contract.Option{Label: l}
	}
	return out
}

// req returns a normalized request: every question has its id and kind.
func req(free bool, qs ...contract.Question) *contract.Request {
	r := &contract.Request{Questions: qs}
	if !free {
		r.AllowFreeText = ptr(false)
	}
	for i := range r.Questions {
		if r.Questions[i].ID == "" {
			r.Questions[i].ID = fmt.Sprintf("q%d", i+1)
		}
	}
	return r
}

func answer(i int, q contract.Question, mod func(*contract.Answer)) contract.Answer {
	a := contract.Answer{Index: i, ID: fmt.Sprintf("q%d", i+1), Title: q.Title, Kind: q.Kind, Selections: []string{}}
	if mod != nil {
		mod(&a)
	}
	return a
}

var (
	envQ    = contract.Question{Title: "Environment", Kind: contract.KindSingle, Options: []contract.Option{{Label: "dev", Description: "local"}, {Label: "staging"}, {Label: "prod"}}}
	checksQ = contract.Question{Title: "Checks", Kind: contract.KindMulti, Options: opts("unit", "integration", "e2e")}
	nameQ   = contract.Question{Title: "Release name", Kind: contract.KindInput}
	goQ     = contract.Question{Title: "Proceed?", Kind: contract.KindBool}
)

func with(q contract.Question, mod func(*contract.Question)) contract.Question {
	q.Options = append([]contract.Option(nil), q.Options...)
	mod(&q)
	return q
}

func TestRender(t *testing.T) {
	envDef := with(envQ, func(q *contract.Question) { q.Default = val(contract.StringValue("staging")) })
	envTextDef := with(envQ, func(q *contract.Question) { q.Default = val(contract.StringValue("qa cluster")) })
	checksDef := with(checksQ, func(q *contract.Question) { q.Default = val(contract.StringValue("e2e")) })
	nameDef := with(nameQ, func(q *contract.Question) { q.Default = val(contract.StringValue("  v2  ")) })
	goDefFalse := with(goQ, func(q *contract.Question) { q.Default = val(contract.BoolValue(false)) })
	tests := []struct {
		name    string
		req     *contract.Request
		sel     bool // give the renderer a selector
		steps   []step
		want    ask.Outcome[[]contract.Answer]
		reasons []string // the "Not accepted" lines of re-prompts, in order
	}{
		{
			name:  "single by number",
			req:   req(true, envQ),
			steps: []step{typed("2")},
			want:  ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, envQ, func(a *contract.Answer) { a.Selections = []string{"staging"} })}},
		},
		{
			name:  "single with a note",
			req:   req(true, envQ),
			steps: []step{typed("3 |  after lunch ")},
			want: ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, envQ, func(a *contract.Answer) {
				a.Selections, a.FreeText = []string{"prod"}, "after lunch"
			})}},
		},
		{
			name:  "single free text",
			req:   req(true, envQ),
			steps: []step{typed(" my laptop ")},
			want:  ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, envQ, func(a *contract.Answer) { a.FreeText = "my laptop" })}},
		},
		{
			name:    "single re-prompts out of range, malformed and empty",
			req:     req(true, envQ),
			steps:   []step{typed("4"), typed("1.5"), typed(""), typed("1")},
			want:    ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, envQ, func(a *contract.Answer) { a.Selections = []string{"dev"} })}},
			reasons: []string{"there is no option 4: type a number from 1 to 3", `"1.5" is not a list of option numbers: type a number from 1 to 3`, "an answer is required"},
		},
		{
			name:  "single default by empty box",
			req:   req(true, envDef),
			steps: []step{typed("  ")},
			want: ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, envDef, func(a *contract.Answer) {
				a.Selections, a.UsedDefault = []string{"staging"}, true
			})}},
		},
		{
			name:  "single default typed again counts as the default",
			req:   req(true, envDef),
			steps: []step{typed("2")},
			want: ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, envDef, func(a *contract.Answer) {
				a.Selections, a.UsedDefault = []string{"staging"}, true
			})}},
		},
		{
			name:  "single default changed",
			req:   req(true, envDef),
			steps: []step{typed("2 | but quickly")},
			want: ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, envDef, func(a *contract.Answer) {
				a.Selections, a.FreeText = []string{"staging"}, "but quickly"
			})}},
		},
		{
			name:  "single default that is no label pre-fills free text",
			req:   req(true, envTextDef),
			steps: []step{typed("")},
			want: ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, envTextDef, func(a *contract.Answer) {
				a.FreeText, a.UsedDefault = "qa cluster", true
			})}},
		},
		{
			name:  "multi list",
			req:   req(true, checksQ),
			steps: []step{typed("3、1 | fast ones")},
			want: ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, checksQ, func(a *contract.Answer) {
				a.Selections, a.FreeText = []string{"unit", "e2e"}, "fast ones"
			})}},
		},
		{
			name:  "multi free text",
			req:   req(true, checksQ),
			steps: []step{typed("whatever CI runs")},
			want:  ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, checksQ, func(a *contract.Answer) { a.FreeText = "whatever CI runs" })}},
		},
		{
			name:    "multi re-prompts a duplicate",
			req:     req(true, checksQ),
			steps:   []step{typed("1 1"), typed("1 2")},
			want:    ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, checksQ, func(a *contract.Answer) { a.Selections = []string{"unit", "integration"} })}},
			reasons: []string{"option 1 is listed twice"},
		},
		{
			name:  "multi default",
			req:   req(true, checksDef),
			steps: []step{typed("")},
			want: ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, checksDef, func(a *contract.Answer) {
				a.Selections, a.UsedDefault = []string{"e2e"}, true
			})}},
		},
		{
			name:  "input trimmed",
			req:   req(true, nameQ),
			steps: []step{typed("  Orca 2 | final ")},
			want:  ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, nameQ, func(a *contract.Answer) { a.FreeText = "Orca 2 | final" })}},
		},
		{
			name:    "input empty re-prompts",
			req:     req(true, nameQ),
			steps:   []step{typed(" "), typed("x")},
			want:    ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, nameQ, func(a *contract.Answer) { a.FreeText = "x" })}},
			reasons: []string{"an answer is required"},
		},
		{
			name:  "input default",
			req:   req(true, nameDef),
			steps: []step{typed("")},
			want:  ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, nameDef, func(a *contract.Answer) { a.FreeText, a.UsedDefault = "v2", true })}},
		},
		{
			name:    "bool typed",
			req:     req(true, goQ),
			steps:   []step{typed("maybe"), typed("No")},
			want:    ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, goQ, func(a *contract.Answer) { a.Value = &contract.AnswerValue{Bool: false} })}},
			reasons: []string{"type true or false (yes/no and y/n work too)"},
		},
		{
			name:  "bool default false",
			req:   req(true, goDefFalse),
			steps: []step{typed("")},
			want: ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, goDefFalse, func(a *contract.Answer) {
				a.Value, a.UsedDefault = &contract.AnswerValue{Bool: false}, true
			})}},
		},
		{
			name:  "bool default overridden",
			req:   req(true, goDefFalse),
			steps: []step{typed("y")},
			want:  ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, goDefFalse, func(a *contract.Answer) { a.Value = &contract.AnswerValue{Bool: true} })}},
		},
		{
			name:  "selector single",
			req:   req(false, envQ),
			sel:   true,
			steps: []step{picked(2)},
			want:  ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, envQ, func(a *contract.Answer) { a.Selections = []string{"prod"} })}},
		},
		{
			name:  "selector single keeps default",
			req:   req(false, envDef),
			sel:   true,
			steps: []step{picked(0)},
			want: ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, envDef, func(a *contract.Answer) {
				a.Selections, a.UsedDefault = []string{"staging"}, true
			})}},
		},
		{
			name:  "selector single away from default",
			req:   req(false, envDef),
			sel:   true,
			steps: []step{picked(1)},
			want:  ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, envDef, func(a *contract.Answer) { a.Selections = []string{"dev"} })}},
		},
		{
			name:  "selector bool",
			req:   req(false, goQ),
			sel:   true,
			steps: []step{picked(1)},
			want:  ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, goQ, func(a *contract.Answer) { a.Value = &contract.AnswerValue{Bool: false} })}},
		},
		{
			name:  "selector bool keeps default",
			req:   req(false, goDefFalse),
			sel:   true,
			steps: []step{picked(0)},
			want: ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, goDefFalse, func(a *contract.Answer) {
				a.Value, a.UsedDefault = &contract.AnswerValue{Bool: false}, true
			})}},
		},
		{
			name:    "numbers-only multi rejects prose and notes",
			req:     req(false, checksQ),
			sel:     true,
			steps:   []step{typed("all"), typed("1 | n"), typed("2,3")},
			want:    ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, checksQ, func(a *contract.Answer) { a.Selections = []string{"integration", "e2e"} })}},
			reasons: []string{"type option numbers only: type numbers from 1 to 3, such as 1,3", "notes are off for this question: type only option numbers"},
		},
		{
			name:  "text stays a text box without free text",
			req:   req(false, nameQ),
			steps: []step{typed("anything | goes")},
			want:  ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, nameQ, func(a *contract.Answer) { a.FreeText = "anything | goes" })}},
		},
		{
			name:  "several questions in order",
			req:   req(true, envQ, checksQ, nameQ, goQ),
			steps: []step{typed("1"), typed("1,2"), typed("n"), typed("true")},
			want: ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{
				answer(0, envQ, func(a *contract.Answer) { a.Selections = []string{"dev"} }),
				answer(1, checksQ, func(a *contract.Answer) { a.Selections = []string{"unit", "integration"} }),
				answer(2, nameQ, func(a *contract.Answer) { a.FreeText = "n" }),
				answer(3, goQ, func(a *contract.Answer) { a.Value = &contract.AnswerValue{Bool: true} }),
			}},
		},
		{
			name:  "dismiss at the second question",
			req:   req(true, envQ, checksQ, nameQ),
			steps: []step{typed("1"), esc()},
			want:  ask.Outcome[[]contract.Answer]{Dismissed: true},
		},
		{
			name:  "dismiss a selector",
			req:   req(false, envQ),
			sel:   true,
			steps: []step{esc()},
			want:  ask.Outcome[[]contract.Answer]{Dismissed: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ui := &scripted{steps: tt.steps}
			var sel Selector
			if tt.sel {
				sel = ui
			}
			got, err := New(ui, sel).Render(t.Context(), &ask.Session[*contract.Request]{Request: tt.req})
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Render mismatch (-want +got):\n%s", diff)
			}
			if len(ui.steps) > 0 {
				t.Errorf("%d scripted steps left over", len(ui.steps))
			}
			if diff := cmp.Diff(tt.reasons, reasons(ui.calls)); diff != "" {
				t.Errorf("re-prompt reasons mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// reasons returns the reason of every re-prompt, without "Not accepted: ".
func reasons(calls []dialogCall) []string {
	var out []string
	for _, c := range calls {
		first, _, _ := strings.Cut(c.Title, "\n")
		if r, ok := strings.CutPrefix(first, "Not accepted: "); ok {
			out = append(out, strings.TrimSuffix(r, "."))
		}
	}
	return out
}

func deployForm() contract.Question {
	return contract.Question{Title: "Deployment settings", Kind: contract.KindForm, Fields: []contract.Field{
		{Name: "confirmed", Label: "Confirm", Kind: contract.KindBool, Required: true},
		{Name: "target", Label: "Target", Kind: contract.KindSingle, Required: true, Options: []contract.Option{
			{Label: "staging", Description: "Internal smoke test"}, {Label: "production", Description: "Customer-facing"}}},
		{Name: "checks", Label: "Checks", Kind: contract.KindMulti, Options: opts("unit", "integration"), Default: val(contract.StringsValue("unit"))},
		{Name: "note", Label: "Release note", Kind: contract.KindInput},
		{Name: "notify", Label: "Notify", Kind: contract.KindBool},
		{Name: "region", Label: "Region", Kind: contract.KindSingle, Options: opts("eu", "us")},
	}}
}

func form(entries ...contract.FormEntry) *contract.AnswerValue {
	if entries == nil {
		entries = []contract.FormEntry{}
	}
	return &contract.AnswerValue{IsForm: true, Form: entries}
}

func TestRenderForm(t *testing.T) {
	fq := deployForm()
	tests := []struct {
		name    string
		free    bool
		sel     bool
		steps   []step
		want    ask.Outcome[[]contract.Answer]
		reasons []string
	}{
		{
			name:  "every field typed",
			free:  true,
			steps: []step{typed("yes"), typed("2"), typed("1,2"), typed(" ship it "), typed("false"), typed("1")},
			want: ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, fq, func(a *contract.Answer) {
				a.Value = form(
					contract.FormEntry{Name: "confirmed", Value: contract.BoolValue(true)},
					contract.FormEntry{Name: "target", Value: contract.StringValue("production")},
					contract.FormEntry{Name: "checks", Value: contract.StringsValue("unit", "integration")},
					contract.FormEntry{Name: "note", Value: contract.StringValue("ship it")},
					contract.FormEntry{Name: "notify", Value: contract.BoolValue(false)},
					contract.FormEntry{Name: "region", Value: contract.StringValue("eu")},
				)
			})}},
		},
		{
			name:  "optional fields empty: default used, others omitted",
			free:  true,
			steps: []step{typed("false"), typed("1"), typed(""), typed(""), typed(""), typed("")},
			want: ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, fq, func(a *contract.Answer) {
				a.Value = form(
					contract.FormEntry{Name: "confirmed", Value: contract.BoolValue(false)},
					contract.FormEntry{Name: "target", Value: contract.StringValue("staging")},
					contract.FormEntry{Name: "checks", Value: contract.StringsValue("unit")},
				)
				a.UsedDefault = true
			})}},
		},
		{
			name: "required fields re-prompt; choices take only numbers",
			free: true,
			steps: []step{typed(""), typed("true"), typed(""), typed("staging"), typed("1 | note"), typed("3"), typed("1"),
				typed("2"), typed(""), typed(""), typed("")},
			want: ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, fq, func(a *contract.Answer) {
				a.Value = form(
					contract.FormEntry{Name: "confirmed", Value: contract.BoolValue(true)},
					contract.FormEntry{Name: "target", Value: contract.StringValue("staging")},
					contract.FormEntry{Name: "checks", Value: contract.StringsValue("integration")},
				)
			})}},
			reasons: []string{
				"an answer is required",
				"an answer is required",
				"type option numbers only: type a number from 1 to 2",
				"notes are off for this question: type only option numbers",
				"there is no option 3: type a number from 1 to 2",
			},
		},
		{
			name:  "selectors without free text, with skip",
			sel:   true,
			steps: []step{picked(1), picked(0), typed("2"), typed("n"), picked(2), picked(2)},
			want: ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, fq, func(a *contract.Answer) {
				a.Value = form(
					contract.FormEntry{Name: "confirmed", Value: contract.BoolValue(false)},
					contract.FormEntry{Name: "target", Value: contract.StringValue("staging")},
					contract.FormEntry{Name: "checks", Value: contract.StringsValue("integration")},
					contract.FormEntry{Name: "note", Value: contract.StringValue("n")},
				)
			})}},
		},
		{
			name:  "dismiss in the middle ends the form",
			free:  true,
			steps: []step{typed("true"), esc()},
			want:  ask.Outcome[[]contract.Answer]{Dismissed: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ui := &scripted{steps: tt.steps}
			var sel Selector
			if tt.sel {
				sel = ui
			}
			got, err := New(ui, sel).Render(t.Context(), &ask.Session[*contract.Request]{Request: req(tt.free, fq)})
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Render mismatch (-want +got):\n%s", diff)
			}
			if len(ui.steps) > 0 {
				t.Errorf("%d scripted steps left over", len(ui.steps))
			}
			if diff := cmp.Diff(tt.reasons, reasons(ui.calls)); diff != "" {
				t.Errorf("re-prompt reasons mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTitles(t *testing.T) {
	r := req(true, with(envQ, func(q *contract.Question) {
		q.Prompt = "Where should it run?"
		q.Default = val(contract.StringValue("staging"))
	}), goQ)
	r.Header = "Release"
	ui := &scripted{steps: []step{typed("9"), typed("1"), typed("yes")}}
	if _, err := New(ui, nil).Render(t.Context(), &ask.Session[*contract.Request]{Request: r}); err != nil {
		t.Fatal(err)
	}
	want := []dialogCall{
		{Kind: "input", Placeholder: "number, number | note, or your own answer", Title: strings.Join([]string{
			"Release",
			"Question 1 of 2: Environment",
			"Where should it run?",
			"  1. dev — local",
			"  2. staging",
			"  3. prod",
			"Default: 2 (staging), press Enter to keep it",
			"Type an option number, a number and a note (2 | note), or your own answer.",
		}, "\n")},
		{Kind: "input", Placeholder: "number, number | note, or your own answer", Title: strings.Join([]string{
			"Not accepted: there is no option 9: type a number from 1 to 3.",
			"Release",
			"Question 1 of 2: Environment",
			"Where should it run?",
			"  1. dev — local",
			"  2. staging",
			"  3. prod",
			"Default: 2 (staging), press Enter to keep it",
			"Type an option number, a number and a note (2 | note), or your own answer.",
		}, "\n")},
		{Kind: "input", Placeholder: "true or false", Title: "Release\nQuestion 2 of 2: Proceed?\nType true or false."},
	}
	if diff := cmp.Diff(want, ui.calls); diff != "" {
		t.Errorf("dialogs mismatch (-want +got):\n%s", diff)
	}
}

func TestSelectorChoices(t *testing.T) {
	fq := deployForm()
	ui := &scripted{steps: []step{picked(0), picked(1), typed(""), typed(""), picked(2), esc()}}
	_, err := New(ui, ui).Render(t.Context(), &ask.Session[*contract.Request]{Request: req(false, fq)})
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, c := range ui.calls {
		if c.Kind == "select" {
			got = append(got, c.Choices)
		}
	}
	want := [][]string{
		{"True", "False"},
		{"staging — Internal smoke test", "production — Customer-facing"},
		{"True", "False", "Skip (leave unset)"},
		{"eu", "us", "Skip (leave unset)"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("selector choices mismatch (-want +got):\n%s", diff)
	}
}

func TestUniqueChoices(t *testing.T) {
	got := uniqueChoices([]string{"Keep default: a", "a", "Keep default: a"})
	want := []string{"1. Keep default: a", "2. a", "3. Keep default: a"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("uniqueChoices mismatch (-want +got):\n%s", diff)
	}
}

func TestCheck(t *testing.T) {
	fq := deployForm()
	inputOnly := with(fq, func(q *contract.Question) {
		q.Fields = []contract.Field{{Name: "n", Label: "N", Kind: contract.KindInput}, {Name: "m", Label: "M", Kind: contract.KindMulti, Options: opts("a")}}
	})
	tests := []struct {
		name    string
		req     *contract.Request
		sel     bool
		wantErr string
	}{
		{name: "free text needs no selector", req: req(true, envQ, goQ, fq)},
		{name: "selector present", req: req(false, envQ, goQ, fq), sel: true},
		{name: "multi, text and text-only forms need none", req: req(false, checksQ, nameQ, inputOnly)},
		{name: "single refused", req: req(false, nameQ, envQ), wantErr: "questions[1] is a single question and allowFreeText is false, which needs a selector, and this host's native dialogs have none"},
		{name: "bool refused", req: req(false, goQ), wantErr: "questions[0] is a bool question and allowFreeText is false, which needs a selector, and this host's native dialogs have none"},
		{name: "form bool field refused", req: req(false, fq), wantErr: "questions[0].fields[0] is a bool field and allowFreeText is false, which needs a selector, and this host's native dialogs have none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ui := &scripted{}
			var sel Selector
			if tt.sel {
				sel = ui
			}
			r := New(ui, sel)
			err := r.Check(tt.req)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.wantErr {
				t.Errorf("Check() = %q, want %q", got, tt.wantErr)
			}
			if tt.wantErr != "" {
				// Render refuses too, before any dialog.
				if _, err := r.Render(t.Context(), &ask.Session[*contract.Request]{Request: tt.req}); err == nil || len(ui.calls) > 0 {
					t.Errorf("Render: err = %v after %d dialogs, want a refusal before any", err, len(ui.calls))
				}
			}
		})
	}
}

// blocking is an Inputter that waits for its context, as a host whose
// user never answers.
type blocking struct{ opened int }

func (b *blocking) Input(ctx context.Context, title, placeholder string) (string, bool, error) {
	b.opened++
	<-ctx.Done()
	return "", false, context.Cause(ctx)
}

func TestRenderStopsWhenContextEnds(t *testing.T) {
	cause := errors.New("caller went away")
	ctx, cancel := context.WithCancelCause(t.Context())
	in := &blocking{}
	done := make(chan error)
	go func() {
		_, err := New(in, nil).Render(ctx, &ask.Session[*contract.Request]{Request: req(true, envQ, nameQ)})
		done <- err
	}()
	cancel(cause)
	if err := <-done; !errors.Is(err, cause) {
		t.Errorf("Render error = %v, want the context's cause %v", err, cause)
	}
	if in.opened > 1 {
		t.Errorf("%d dialogs opened, want at most 1", in.opened)
	}
}

// dismissLate reports a dismissal only after the context ended, as a host
// that closes its box on abort; that must not read as the user's choice.
type dismissLate struct{ cancel context.CancelFunc }

func (d dismissLate) Input(ctx context.Context, title, placeholder string) (string, bool, error) {
	d.cancel()
	return "", false, nil
}

func TestRenderDismissAfterAbortIsNotAUserChoice(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	out, err := New(dismissLate{cancel}, nil).Render(ctx, &ask.Session[*contract.Request]{Request: req(true, envQ)})
	if !errors.Is(err, context.Canceled) || out.Dismissed {
		t.Errorf("Render = %+v, %v; want no outcome and context.Canceled", out, err)
	}
}

func TestRenderAlreadyCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	ui := &scripted{}
	if _, err := New(ui, nil).Render(ctx, &ask.Session[*contract.Request]{Request: req(true, envQ)}); !errors.Is(err, context.Canceled) {
		t.Errorf("Render error = %v, want context.Canceled", err)
	}
	if len(ui.calls) != 0 {
		t.Errorf("%d dialogs opened on a cancelled context, want 0", len(ui.calls))
	}
}

func TestRenderInputterError(t *testing.T) {
	ui := &scripted{} // no steps: the first Input fails
	_, err := New(ui, nil).Render(t.Context(), &ask.Session[*contract.Request]{Request: req(true, envQ)})
	if err == nil || !strings.Contains(err.Error(), "the script is over") {
		t.Errorf("Render error = %v, want the Inputter's error", err)
	}
}

// TestSelectorKeepDefault covers the default actions of selectors: a form
// single field and a bool field with defaults offer "Keep default" first,
// picking it returns the default with usedDefault, and picking an option
// equal to the default counts as the default too.
func TestSelectorKeepDefault(t *testing.T) {
	fq := contract.Question{Title: "Settings", Kind: contract.KindForm, Fields: []contract.Field{
		{Name: "region", Label: "Region", Kind: contract.KindSingle, Options: opts("eu", "us"), Default: val(contract.StringValue("us"))},
		{Name: "notify", Label: "Notify", Kind: contract.KindBool, Default: val(contract.BoolValue(false))},
	}}
	tests := []struct {
		name    string
		steps   []step
		want    []contract.FormEntry
		usedDef bool
	}{
		{
			name:  "keep both defaults",
			steps: []step{picked(0), picked(0)},
			want: []contract.FormEntry{
				{Name: "region", Value: contract.StringValue("us")},
				{Name: "notify", Value: contract.BoolValue(false)},
			},
			usedDef: true,
		},
		{
			name:  "the default picked as an option",
			steps: []step{picked(2), picked(2)},
			want: []contract.FormEntry{
				{Name: "region", Value: contract.StringValue("us")},
				{Name: "notify", Value: contract.BoolValue(false)},
			},
			usedDef: true,
		},
		{
			name:  "other choices",
			steps: []step{picked(1), picked(1)},
			want: []contract.FormEntry{
				{Name: "region", Value: contract.StringValue("eu")},
				{Name: "notify", Value: contract.BoolValue(true)},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ui := &scripted{steps: tt.steps}
			got, err := New(ui, ui).Render(t.Context(), &ask.Session[*contract.Request]{Request: req(false, fq)})
			if err != nil {
				t.Fatal(err)
			}
			want := ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{answer(0, fq, func(a *contract.Answer) {
				a.Value = form(tt.want...)
				a.UsedDefault = tt.usedDef
			})}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("outcome mismatch (-want +got):\n%s", diff)
			}
			var choices [][]string
			for _, c := range ui.calls {
				choices = append(choices, c.Choices)
			}
			wantChoices := [][]string{
				{"Keep default: us", "eu", "us"},
				{"Keep default: False", "True", "False"},
			}
			if diff := cmp.Diff(wantChoices, choices); diff != "" {
				t.Errorf("selector choices mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
