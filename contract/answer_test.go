package contract

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// gapsBefore is the empty-answer rule the MCP server applied on its own
// before Unanswered: a form's required field counted as answered when it
// had an entry, whatever its value, and a choice or input answer was
// judged by its selections and text alone. It is kept to show, case by
// case, where the two rules part.
func gapsBefore(q *Question, a *Answer) (bool, []string) {
	switch q.Kind {
	case KindBool:
		return a.Value == nil, nil
	case KindForm:
		var names []string
		for _, f := range q.Fields {
			if !f.Required {
				continue
			}
			found := false
			if a.Value != nil {
				_, found = a.Value.Field(f.Name)
			}
			if !found {
				names = append(names, f.Name)
			}
		}
		return len(names) > 0, names
	}
	return len(a.Selections) == 0 && a.FreeText == "", nil
}

func TestUnanswered(t *testing.T) {
	req, _, err := Normalize(&Request{Questions: []Question{
		{Title: "Pick", Kind: KindSingle, Options: []Option{{Label: "a"}, {Label: "b"}}},
		{Title: "Name", Kind: KindInput},
		{Title: "Go?", Kind: KindBool},
		{Title: "Form", Kind: KindForm, Fields: []Field{
			{Name: "who", Label: "Who", Kind: KindInput, Required: true},
			{Name: "tags", Label: "Tags", Kind: KindMulti, Required: true, Options: []Option{{Label: "x"}}},
			{Name: "sure", Label: "Sure", Kind: KindBool, Required: true},
			{Name: "opt", Label: "Optional", Kind: KindInput},
		}},
		{Title: "Loose", Kind: KindForm, Fields: []Field{{Name: "note", Label: "Note", Kind: KindInput}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	form := func(entries ...FormEntry) *AnswerValue { return &AnswerValue{IsForm: true, Form: entries} }
	full := []FormEntry{
		{Name: "who", Value: StringValue("ann")},
		{Name: "tags", Value: StringsValue("x")},
		{Name: "sure", Value: BoolValue(false)},
	}
	tests := []struct {
		name   string
		q      int
		answer func(a *Answer)
		empty  bool
		fields []string
		// before tells whether gapsBefore agrees.
		before bool
	}{
		{"single chosen", 0, func(a *Answer) { a.Selections = []string{"a"} }, false, nil, true},
		{"single with free text alone", 0, func(a *Answer) { a.FreeText = "c" }, false, nil, true},
		{"single without anything", 0, func(*Answer) {}, true, nil, true},
		{"single with a value alone", 0, func(a *Answer) { a.Value = &AnswerValue{Bool: true} }, false, nil, false},
		{"input with text", 1, func(a *Answer) { a.FreeText = "ann" }, false, nil, true},
		{"input without text", 1, func(*Answer) {}, true, nil, true},
		{"bool false", 2, func(a *Answer) { a.Value = &AnswerValue{Bool: false} }, false, nil, true},
		{"bool without value", 2, func(*Answer) {}, true, nil, true},
		{"form complete", 3, func(a *Answer) { a.Value = form(full...) }, false, nil, true},
		{"form without value", 3, func(*Answer) {}, true, []string{"who", "tags", "sure"}, true},
		{"form missing a required field", 3, func(a *Answer) { a.Value = form(full[1:]...) }, true, []string{"who"}, true},
		{"form with empty required text", 3, func(a *Answer) {
			a.Value = form(FormEntry{Name: "who", Value: StringValue("")}, full[1], full[2])
		}, true, []string{"who"}, false},
		{"form with empty required list", 3, func(a *Answer) {
			a.Value = form(full[0], FormEntry{Name: "tags", Value: StringsValue()}, full[2])
		}, true, []string{"tags"}, false},
		{"form with a required field of no value", 3, func(a *Answer) {
			a.Value = form(full[0], full[1], FormEntry{Name: "sure"})
		}, true, []string{"sure"}, false},
		{"form with only optional fields, empty", 4, func(a *Answer) { a.Value = form() }, false, nil, true},
		{"form with only optional fields, no value", 4, func(*Answer) {}, true, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := NewAnswer(req, tt.q)
			tt.answer(&a)
			q := &req.Questions[tt.q]
			empty, fields := q.Unanswered(&a)
			if empty != tt.empty {
				t.Errorf("empty = %v, want %v", empty, tt.empty)
			}
			if diff := cmp.Diff(tt.fields, fields); diff != "" {
				t.Errorf("fields mismatch (-want +got):\n%s", diff)
			}
			oldEmpty, oldFields := gapsBefore(q, &a)
			if agree := oldEmpty == empty && cmp.Equal(oldFields, fields); agree != tt.before {
				t.Errorf("the rule before gave %v %q; agreement is %v, want %v", oldEmpty, oldFields, agree, tt.before)
			}
		})
	}
}
