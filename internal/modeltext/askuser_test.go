package modeltext

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/askuser/askuser/contract"
)

// release is a normalized questionnaire with every kind of question.
func release() *contract.Request {
	return &contract.Request{
		Header: "Release",
		Questions: []contract.Question{
			{ID: "q1", Title: "Deploy where?", Prompt: "Pick the first target.\nProduction needs a change ticket.", Kind: contract.KindSingle,
				Options: []contract.Option{{Label: "staging", Description: "Internal smoke test"}, {Label: "production"}},
				Default: ptr(contract.StringValue("staging"))},
			{ID: "q2", Title: "Which checks?", Kind: contract.KindMulti,
				Options: []contract.Option{{Label: "unit"}, {Label: "integration"}}},
			{ID: "q3", Title: "Proceed with deployment?", Kind: contract.KindBool, Default: ptr(contract.BoolValue(false))},
			{ID: "q4", Title: "Deployment settings", Kind: contract.KindForm, Fields: []contract.Field{
				{Name: "confirmed", Label: "Confirm", Kind: contract.KindBool, Required: true},
				{Name: "target", Label: "Target", Kind: contract.KindSingle, Required: true,
					Options: []contract.Option{{Label: "staging", Description: "Internal smoke test"}, {Label: "production", Description: "Customer-facing"}}},
				{Name: "checks", Label: "Checks", Kind: contract.KindMulti,
					Options: []contract.Option{{Label: "unit"}, {Label: "integration"}}, Default: ptr(contract.StringsValue("unit"))},
				{Name: "note", Label: "Release note", Kind: contract.KindInput},
			}},
			{ID: "q5", Title: "Anything else?", Kind: contract.KindInput, Default: ptr(contract.StringValue("no"))},
		},
	}
}

func releaseAnswers() []contract.Answer {
	return []contract.Answer{
		{Index: 0, ID: "q1", Title: "Deploy where?", Kind: contract.KindSingle, Selections: []string{"staging"}, FreeText: "after \"lunch\"\nplease"},
		{Index: 1, ID: "q2", Title: "Which checks?", Kind: contract.KindMulti, Selections: []string{}, FreeText: "all of them"},
		{Index: 2, ID: "q3", Title: "Proceed with deployment?", Kind: contract.KindBool, Selections: []string{}, UsedDefault: true,
			Value: &contract.AnswerValue{Bool: false}},
		{Index: 3, ID: "q4", Title: "Deployment settings", Kind: contract.KindForm, Selections: []string{}, UsedDefault: true,
			Value: &contract.AnswerValue{IsForm: true, Form: []contract.FormEntry{
				{Name: "confirmed", Value: contract.BoolValue(true)},
				{Name: "target", Value: contract.StringValue("production")},
				{Name: "checks", Value: contract.StringsValue("unit", "integration")},
			}}},
		{Index: 4, ID: "q5", Title: "Anything else?", Kind: contract.KindInput, Selections: []string{}, FreeText: "ship it"},
	}
}

func TestAskUserResult(t *testing.T) {
	strict := release()
	strict.AllowFreeText = ptr(false)
	small := &contract.Request{Questions: []contract.Question{{ID: "q1", Title: "Name the branch", Kind: contract.KindInput}}}
	raw := &contract.Request{Questions: []contract.Question{{Title: "Pick", Options: []contract.Option{{Label: "x"}}}, {Title: "Say"}}}
	errRes := func(code contract.ErrorCode, msg string) contract.Result { return contract.ErrorResult(code, msg) }

	tests := []struct {
		name string
		req  *contract.Request
		res  contract.Result
	}{
		{"answered", release(), contract.Result{Status: contract.StatusAnswered, Route: "custom", Answers: releaseAnswers(),
			Warnings: []string{`questions[1].options: duplicate label "unit" merged`}}},
		{"answered_without_request", nil, contract.Result{Status: contract.StatusAnswered, Route: "native", Answers: releaseAnswers()}},
		{"answered_single", small, contract.Result{Status: contract.StatusAnswered, Answers: []contract.Answer{
			{Index: 0, ID: "q1", Title: "Name the branch", Kind: contract.KindInput, Selections: []string{}, FreeText: "fix/login"}}}},
		{"dismissed", release(), contract.Result{Status: contract.StatusAborted, Route: "custom", Answers: []contract.Answer{}, CancelledReason: contract.CancelUser}},
		{"aborted", release(), contract.Result{Status: contract.StatusAborted, Answers: []contract.Answer{}, CancelledReason: contract.CancelAbort}},
		{"timeout", release(), contract.Result{Status: contract.StatusTimeout, Route: "native", Answers: []contract.Answer{}}},
		{"unsupported_mode", release(), errRes(contract.ErrUnsupportedMode, "no interactive UI can run here")},
		{"unsupported_mode_no_free_text", strict, errRes(contract.ErrUnsupportedMode, "native dialogs cannot show this request: no selector")},
		{"unsupported_mode_raw_request", raw, errRes(contract.ErrUnsupportedMode, "no interactive UI can run here")},
		{"invalid_config", small, errRes(contract.ErrInvalidConfig, `invalid configuration: ask-user.json: mode: "tui" is not a route`)},
		{"not_initialized", small, errRes(contract.ErrNotInitialized, "ask_user is not initialized")},
		{"custom_ui_failed", small, errRes(contract.ErrCustomUIFailed, "the custom dialog failed: tty lost")},
		{"native_ui_failed_without_request", nil, errRes(contract.ErrNativeUIFailed, "the native dialog panicked: boom")},
		{"invalid_request", nil, contract.InvalidRequestResult(invalidRequest(t))},
		{"empty_answer", small, errRes(contract.ErrEmptyAnswer, "answers[0]: the text is empty")},
		{"internal", small, errRes(contract.ErrInternal, "something broke")},
		{"error_without_details", small, contract.Result{Status: contract.StatusError, Answers: []contract.Answer{}}},
		{"unknown_status", small, contract.Result{Status: "paused", Answers: []contract.Answer{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AskUserResult(tt.req, tt.res)
			golden(t, filepath.Join("testdata", "TestAskUserResult", tt.name+".golden"), got)
			if !strings.Contains(got, "not invent") {
				t.Errorf("the text does not tell the model not to invent an answer:\n%s", got)
			}
			reask := strings.Contains(got, "ordinary text")
			wantReask := tt.res.Error != nil && map[contract.ErrorCode]bool{
				contract.ErrUnsupportedMode: true, contract.ErrInvalidConfig: true, contract.ErrNotInitialized: true,
				contract.ErrCustomUIFailed: true, contract.ErrNativeUIFailed: true,
			}[tt.res.Error.Code]
			if reask != wantReask {
				t.Errorf("advice to ask in ordinary text = %v; want %v:\n%s", reask, wantReask, got)
			}
		})
	}
}

func TestAskUserResultListsEveryOption(t *testing.T) {
	req := release()
	got := AskUserResult(req, contract.ErrorResult(contract.ErrCustomUIFailed, "x"))
	for _, q := range req.Questions {
		want := []string{q.Title}
		for _, o := range q.Options {
			want = append(want, o.Label)
		}
		for _, f := range q.Fields {
			want = append(want, f.Label, f.Name)
			for _, o := range f.Options {
				want = append(want, o.Label, o.Description)
			}
		}
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("the fallback text lacks %q", w)
			}
		}
	}
}

func TestAskUserDescriptionAndGuidelines(t *testing.T) {
	d := AskUser.Description()
	if d == "" || strings.Contains(d, "\n") {
		t.Errorf("AskUser.Description() = %q; want one non-empty paragraph", d)
	}
	g := AskUser.Guidelines()
	if len(g) < 5 {
		t.Fatalf("AskUser.Guidelines() has %d entries; want at least 5", len(g))
	}
	for i, s := range g {
		if s == "" || strings.HasPrefix(s, "-") || !strings.HasSuffix(s, ".") {
			t.Errorf("AskUser.Guidelines()[%d] = %q; want a sentence without its bullet", i, s)
		}
	}
	if !strings.Contains(strings.Join(g, " "), "invent") {
		t.Error("AskUser.Guidelines() never says not to invent an answer")
	}
	g[0] = "changed"
	if AskUser.Guidelines()[0] == "changed" {
		t.Error("AskUser.Guidelines() returned shared storage")
	}
}

// invalidRequest is Parse's error for a request with two problems.
func invalidRequest(t *testing.T) error {
	t.Helper()
	_, _, err := contract.Parse([]byte(`{"questions":[{"title":""}],"x":1}`))
	if err == nil {
		t.Fatal("the request was accepted")
	}
	return err
}

// The text of an invalid_request result says what to do once, and each
// of its lines starts as a sentence or a list item does, whatever the
// number of problems.
func TestAskUserInvalidRequestSaysItOnce(t *testing.T) {
	_, _, one := contract.Parse([]byte(`{"questions":[]}`))
	for name, err := range map[string]error{"one problem": one, "two problems": invalidRequest(t)} {
		t.Run(name, func(t *testing.T) {
			got := AskUserResult(nil, contract.InvalidRequestResult(err))
			for _, w := range []string{"Fix th", "call ask_user again", "No answer was given", "not shown to the user"} {
				if n := strings.Count(got, w); n != 1 {
					t.Errorf("the text says %q %d times; want once:\n%s", w, n, got)
				}
			}
			for _, l := range strings.Split(strings.TrimSpace(got), "\n") {
				if r, _ := utf8.DecodeRuneInString(l); !unicode.IsUpper(r) && !strings.HasPrefix(l, "- ") {
					t.Errorf("the line %q starts with neither a capital nor a list item's dash:\n%s", l, got)
				}
			}
		})
	}
}
