package contract_test

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/askuser/askuser/contract"

	"github.com/askuser/askuser/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// release is a normalized questionnaire with every kind of question.
func release() *Request {
	return &Request{
		Header: "Release",
		Questions: []Question{
			{ID: "q1", Title: "Deploy where?", Prompt: "Pick the first target.\nProduction needs a change ticket.", Kind: KindSingle,
				Options: []Option{{Label: "staging", Description: "Internal smoke test"}, {Label: "production"}},
				Default: Ptr(StringValue("staging"))},
			{ID: "q2", Title: "Which checks?", Kind: KindMulti,
				Options: []Option{{Label: "unit"}, {Label: "integration"}}},
			{ID: "q3", Title: "Proceed with deployment?", Kind: KindBool, Default: Ptr(BoolValue(false))},
			{ID: "q4", Title: "Deployment settings", Kind: KindForm, Fields: []Field{
				{Name: "confirmed", Label: "Confirm", Kind: KindBool, Required: true},
				{Name: "target", Label: "Target", Kind: KindSingle, Required: true,
					Options: []Option{{Label: "staging", Description: "Internal smoke test"}, {Label: "production", Description: "Customer-facing"}}},
				{Name: "checks", Label: "Checks", Kind: KindMulti,
					Options: []Option{{Label: "unit"}, {Label: "integration"}}, Default: Ptr(StringsValue("unit"))},
				{Name: "note", Label: "Release note", Kind: KindInput},
			}},
			{ID: "q5", Title: "Anything else?", Kind: KindInput, Default: Ptr(StringValue("no"))},
		},
	}
}

func releaseAnswers() []Answer {
	return []Answer{
		{Index: 0, ID: "q1", Title: "Deploy where?", Kind: KindSingle, Selections: []string{"staging"}, FreeText: "after \"lunch\"\nplease"},
		{Index: 1, ID: "q2", Title: "Which checks?", Kind: KindMulti, Selections: []string{}, FreeText: "all of them"},
		{Index: 2, ID: "q3", Title: "Proceed with deployment?", Kind: KindBool, Selections: []string{}, UsedDefault: true,
			Value: &AnswerValue{Bool: false}},
		{Index: 3, ID: "q4", Title: "Deployment settings", Kind: KindForm, Selections: []string{}, UsedDefault: true,
			Value: &AnswerValue{IsForm: true, Form: []FormEntry{
				{Name: "confirmed", Value: BoolValue(true)},
				{Name: "target", Value: StringValue("production")},
				{Name: "checks", Value: StringsValue("unit", "integration")},
			}}},
		{Index: 4, ID: "q5", Title: "Anything else?", Kind: KindInput, Selections: []string{}, FreeText: "ship it"},
	}
}

func TestResultText(t *testing.T) {
	strict := release()
	strict.AllowFreeText = Ptr(false)
	small := &Request{Questions: []Question{{ID: "q1", Title: "Name the branch", Kind: KindInput}}}
	raw := &Request{Questions: []Question{{Title: "Pick", Options: []Option{{Label: "x"}}}, {Title: "Say"}}}
	errRes := func(code ErrorCode, msg string) Result { return ErrorResult(code, msg) }

	tests := []struct {
		name string
		req  *Request
		res  Result
	}{
		{"answered", release(), Result{Status: StatusAnswered, Route: "custom", Answers: releaseAnswers(),
			Warnings: []string{`questions[1].options: duplicate label "unit" merged`}}},
		{"answered_without_request", nil, Result{Status: StatusAnswered, Route: "native", Answers: releaseAnswers()}},
		{"answered_single", small, Result{Status: StatusAnswered, Answers: []Answer{
			{Index: 0, ID: "q1", Title: "Name the branch", Kind: KindInput, Selections: []string{}, FreeText: "fix/login"}}}},
		{"dismissed", release(), Result{Status: StatusAborted, Route: "custom", Answers: []Answer{}, CancelledReason: CancelUser}},
		{"aborted", release(), Result{Status: StatusAborted, Answers: []Answer{}, CancelledReason: CancelAbort}},
		{"timeout", release(), Result{Status: StatusTimeout, Route: "native", Answers: []Answer{}}},
		{"unsupported_mode", release(), errRes(ErrUnsupportedMode, "no interactive UI can run here")},
		{"unsupported_mode_no_free_text", strict, errRes(ErrUnsupportedMode, "native dialogs cannot show this request: no selector")},
		{"unsupported_mode_raw_request", raw, errRes(ErrUnsupportedMode, "no interactive UI can run here")},
		{"invalid_config", small, errRes(ErrInvalidConfig, `invalid configuration: ask-user.json: mode: "tui" is not a route`)},
		{"not_initialized", small, errRes(ErrNotInitialized, "ask_user is not initialized")},
		{"custom_ui_failed", small, errRes(ErrCustomUIFailed, "the custom dialog failed: tty lost")},
		{"native_ui_failed_without_request", nil, errRes(ErrNativeUIFailed, "the native dialog panicked: boom")},
		{"invalid_request", nil, InvalidRequestResult(invalidRequest(t))},
		{"empty_answer", small, errRes(ErrEmptyAnswer, "answers[0]: the text is empty")},
		{"internal", small, errRes(ErrInternal, "something broke")},
		{"error_without_details", small, Result{Status: StatusError, Answers: []Answer{}}},
		{"unknown_status", small, Result{Status: "paused", Answers: []Answer{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ResultText(tt.req, tt.res)
			testkit.Golden(t, filepath.Join("testdata", "TestResultText", tt.name+".golden"), got, *update)
			if !strings.Contains(got, "not invent") {
				t.Errorf("the text does not tell the model not to invent an answer:\n%s", got)
			}
			reask := strings.Contains(got, "ordinary text")
			wantReask := tt.res.Error != nil && map[ErrorCode]bool{
				ErrUnsupportedMode: true, ErrInvalidConfig: true, ErrNotInitialized: true,
				ErrCustomUIFailed: true, ErrNativeUIFailed: true,
			}[tt.res.Error.Code]
			if reask != wantReask {
				t.Errorf("advice to ask in ordinary text = %v; want %v:\n%s", reask, wantReask, got)
			}
		})
	}
}

func TestResultTextListsEveryOption(t *testing.T) {
	req := release()
	got := ResultText(req, ErrorResult(ErrCustomUIFailed, "x"))
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

func TestDescriptionAndGuidelines(t *testing.T) {
	d := Description()
	if d == "" || strings.Contains(d, "\n") {
		t.Errorf("Description() = %q; want one non-empty paragraph", d)
	}
	g := Guidelines()
	if len(g) < 5 {
		t.Fatalf("Guidelines() has %d entries; want at least 5", len(g))
	}
	for i, s := range g {
		if s == "" || strings.HasPrefix(s, "-") || !strings.HasSuffix(s, ".") {
			t.Errorf("Guidelines()[%d] = %q; want a sentence without its bullet", i, s)
		}
	}
	if !strings.Contains(strings.Join(g, " "), "invent") {
		t.Error("Guidelines() never says not to invent an answer")
	}
	g[0] = "changed"
	if Guidelines()[0] == "changed" {
		t.Error("Guidelines() returned shared storage")
	}
}

// invalidRequest is Parse's error for a request with two problems.
func invalidRequest(t *testing.T) error {
	t.Helper()
	_, _, err := Parse([]byte(`{"questions":[{"title":""}],"x":1}`))
	if err == nil {
		t.Fatal("the request was accepted")
	}
	return err
}

func TestNoDialog(t *testing.T) {
	for _, tt := range []struct {
		code ErrorCode
		want bool
	}{
		{ErrUnsupportedMode, true}, {ErrInvalidConfig, true}, {ErrNotInitialized, true},
		{ErrCustomUIFailed, true}, {ErrNativeUIFailed, true},
		{ErrInvalidRequest, false}, {ErrEmptyAnswer, false}, {ErrInternal, false}, {"other", false},
	} {
		if got := tt.code.NoDialog(); got != tt.want {
			t.Errorf("%s.NoDialog() = %v; want %v", tt.code, got, tt.want)
		}
	}
}
