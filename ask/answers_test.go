package ask

import (
	"testing"

	"github.com/askuser/askuser/contract"
)

func TestCheckAnswersCodes(t *testing.T) {
	req, _, err := contract.Normalize(&contract.Request{Questions: []contract.Question{
		{Title: "Pick", Kind: contract.KindSingle, Options: []contract.Option{{Label: "a"}, {Label: "b"}}},
		{Title: "Name", Kind: contract.KindInput},
		{Title: "Go?", Kind: contract.KindBool},
		{Title: "Form", Kind: contract.KindForm, Fields: []contract.Field{
			{Name: "who", Label: "Who", Kind: contract.KindInput, Required: true},
			{Name: "tags", Label: "Tags", Kind: contract.KindMulti, Required: true, Options: []contract.Option{{Label: "x"}}},
			{Name: "opt", Label: "Optional", Kind: contract.KindInput},
		}},
		{Title: "Many", Kind: contract.KindMulti, Options: []contract.Option{{Label: "x"}, {Label: "y"}, {Label: "z"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	good := func() []contract.Answer {
		a := []contract.Answer{
			contract.NewAnswer(req, 0), contract.NewAnswer(req, 1), contract.NewAnswer(req, 2), contract.NewAnswer(req, 3),
			contract.NewAnswer(req, 4),
		}
		a[0].Selections = []string{"a"}
		a[1].FreeText = "ann"
		a[2].Value = &contract.AnswerValue{Bool: false}
		a[3].Value = &contract.AnswerValue{IsForm: true, Form: []contract.FormEntry{
			{Name: "who", Value: contract.StringValue("ann")},
			{Name: "tags", Value: contract.StringsValue("x")},
		}}
		a[4].Selections = []string{"x", "z"}
		return a
	}
	tests := []struct {
		name   string
		change func(a []contract.Answer)
		want   contract.ErrorCode
	}{
		{"valid", func([]contract.Answer) {}, ""},
		{"single without anything", func(a []contract.Answer) { a[0].Selections = []string{} }, contract.ErrEmptyAnswer},
		{"single with an unknown label", func(a []contract.Answer) { a[0].Selections = []string{"z"} }, contract.ErrInternal},
		{"input without text", func(a []contract.Answer) { a[1].FreeText = "" }, contract.ErrEmptyAnswer},
		{"input untrimmed", func(a []contract.Answer) { a[1].FreeText = " ann" }, contract.ErrInternal},
		{"bool without value", func(a []contract.Answer) { a[2].Value = nil }, contract.ErrEmptyAnswer},
		{"bool with a form value", func(a []contract.Answer) { a[2].Value = &contract.AnswerValue{IsForm: true} }, contract.ErrInternal},
		{"form without value", func(a []contract.Answer) { a[3].Value = nil }, contract.ErrEmptyAnswer},
		{"form missing a required field", func(a []contract.Answer) { a[3].Value.Form = a[3].Value.Form[1:] }, contract.ErrEmptyAnswer},
		{"form with empty required text", func(a []contract.Answer) { a[3].Value.Form[0].Value = contract.StringValue("") }, contract.ErrEmptyAnswer},
		{"form with empty required list", func(a []contract.Answer) { a[3].Value.Form[1].Value = contract.StringsValue() }, contract.ErrEmptyAnswer},
		{"form with a wrong type", func(a []contract.Answer) { a[3].Value.Form[0].Value = contract.BoolValue(true) }, contract.ErrInternal},
		{"form with empty optional text", func(a []contract.Answer) {
			a[3].Value.Form = append(a[3].Value.Form, contract.FormEntry{Name: "opt", Value: contract.StringValue("")})
		}, contract.ErrInternal},
		{"single with two selections", func(a []contract.Answer) { a[0].Selections = []string{"a", "b"} }, contract.ErrInternal},
		{"single with a value", func(a []contract.Answer) { a[0].Value = &contract.AnswerValue{Bool: true} }, contract.ErrInternal},
		{"single with a default it lacks", func(a []contract.Answer) { a[0].UsedDefault = true }, contract.ErrInternal},
		{"multi with a repeated label", func(a []contract.Answer) { a[4].Selections = []string{"x", "x"} }, contract.ErrInternal},
		{"multi out of option order", func(a []contract.Answer) { a[4].Selections = []string{"z", "x"} }, contract.ErrInternal},
		{"multi with only free text", func(a []contract.Answer) { a[4].Selections, a[4].FreeText = []string{}, "w" }, ""},
		{"input with selections", func(a []contract.Answer) { a[1].Selections = []string{"a"} }, contract.ErrInternal},
		{"input with a value", func(a []contract.Answer) { a[1].Value = &contract.AnswerValue{Bool: true} }, contract.ErrInternal},
		{"input with a default it lacks", func(a []contract.Answer) { a[1].UsedDefault = true }, contract.ErrInternal},
		{"bool with free text", func(a []contract.Answer) { a[2].FreeText = "yes" }, contract.ErrInternal},
		{"bool with a default it lacks", func(a []contract.Answer) { a[2].UsedDefault = true }, contract.ErrInternal},
		{"form with selections", func(a []contract.Answer) { a[3].Selections = []string{"x"} }, contract.ErrInternal},
		{"form with an unknown field", func(a []contract.Answer) {
			a[3].Value.Form = append(a[3].Value.Form, contract.FormEntry{Name: "else", Value: contract.StringValue("v")})
		}, contract.ErrInternal},
		{"form with a repeated field", func(a []contract.Answer) {
			a[3].Value.Form = append(a[3].Value.Form, contract.FormEntry{Name: "who", Value: contract.StringValue("bob")})
		}, contract.ErrInternal},
		{"form out of field order", func(a []contract.Answer) {
			a[3].Value.Form[0], a[3].Value.Form[1] = a[3].Value.Form[1], a[3].Value.Form[0]
		}, contract.ErrInternal},
		{"form with a default it lacks", func(a []contract.Answer) { a[3].UsedDefault = true }, contract.ErrInternal},
		{"wrong id", func(a []contract.Answer) { a[1].ID = "other" }, contract.ErrInternal},
		{"nil selections with text", func(a []contract.Answer) { a[0].Selections, a[0].FreeText = nil, "b" }, contract.ErrInternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := good()
			tt.change(a)
			code, err := checkAnswers(req, a)
			if code != tt.want || (err == nil) != (tt.want == "") {
				t.Errorf("checkAnswers = %q, %v; want %q", code, err, tt.want)
			}
		})
	}
	strict := *req
	strict.AllowFreeText = new(false)
	a := good()
	a[0].FreeText = "and c"
	if code, err := checkAnswers(&strict, a); code != contract.ErrInternal || err == nil {
		t.Errorf("checkAnswers with free text that the request forbids = %q, %v; want internal", code, err)
	}
	if code, err := checkAnswers(req, a); code != "" || err != nil {
		t.Errorf("checkAnswers with free text that the request allows = %q, %v; want valid", code, err)
	}
	if code, err := checkAnswers(req, good()[:2]); code != contract.ErrInternal || err == nil {
		t.Errorf("checkAnswers with too few answers = %q, %v; want internal", code, err)
	}
}
