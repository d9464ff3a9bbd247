package auq_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	. "github.com/askuser/askuser/auq"

	"github.com/google/go-cmp/cmp"
)

func request() *Request {
	return &Request{
		Questions: []Question{
			{ID: "db", Question: "Which database should I use?", Header: "Database", Options: []Option{
				{ID: "pg", Label: "Postgres", Description: "A server, for many writers", Preview: "docker run postgres", Recommended: true},
				{ID: "lite", Label: "SQLite", Description: "A file, for one writer"},
			}},
			{ID: "checks", Question: "Which checks should run?", Header: "Checks", MultiSelect: true, Required: Ptr(false), Options: []Option{
				{ID: "unit", Label: "Unit tests", Description: "Fast"},
				{ID: "e2e", Label: "End to end", Description: "Slow"},
			}},
		},
		Metadata: &Metadata{Source: Ptr("planner"), FlowID: Ptr("flow-1"), Tags: []string{"setup"}},
	}
}

func submitted() Outcome {
	return Outcome{Status: StatusSubmitted, Route: "custom", Result: Result{
		Answers: map[string]Answer{
			"db":     {Kind: KindSingle, Choice: Choice{OptionID: "pg", Label: "Postgres"}},
			"checks": {Kind: KindMulti, Selections: []Choice{{Label: OtherLabel, Other: true, Text: "lint <all>"}}},
		},
		Annotations: map[string]Annotations{"db": {SelectedPreview: "docker run postgres", QuestionNotes: "for now"}},
		Metadata:    &ResultMetadata{Source: Ptr("planner"), FlowID: Ptr("flow-1")},
	}}
}

func cancelledOutcome(s Status) Outcome {
	return Outcome{Status: s, Route: "custom", Result: Result{Cancelled: true, Metadata: &ResultMetadata{FlowID: Ptr("flow-1")}}}
}

func failure(code, msg string) Outcome {
	return Outcome{Status: StatusError, Error: &Error{Code: code, Message: msg}}
}

func TestResultText(t *testing.T) {
	_, perr := Parse([]byte(`{"questions":[{"id":"$q","question":"Which","header":"h","options":[]}]}`))
	tests := []struct {
		name string
		req  *Request
		out  Outcome
	}{
		{"submitted", request(), submitted()},
		{"dismissed", request(), cancelledOutcome(StatusDismissed)},
		{"timeout", request(), cancelledOutcome(StatusTimeout)},
		{"aborted", request(), cancelledOutcome(StatusAborted)},
		{"unsupported_mode", request(), failure("unsupported_mode", "no interactive UI can run here")},
		{"custom_ui_failed", request(), failure("custom_ui_failed", "the dialog failed: tty lost")},
		{"native_ui_failed_without_request", nil, failure("native_ui_failed", "the form was refused")},
		{"invalid_config", request(), failure("invalid_config", `ask-user.json: mode: "tui" is not a route`)},
		{"not_initialized", request(), failure("not_initialized", "the host is not ready")},
		{"invalid_request", nil, InvalidRequestOutcome(perr)},
		{"internal", request(), failure("internal", "something broke")},
		{"error_without_details", request(), Outcome{Status: StatusError}},
		{"unknown_status", request(), Outcome{Status: "paused"}},
	}
	reasks := map[string]bool{"unsupported_mode": true, "custom_ui_failed": true, "native_ui_failed_without_request": true, "invalid_config": true, "not_initialized": true}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ResultText(tt.req, tt.out)
			golden(t, tt.name, []byte(got))
			if !strings.Contains(got, "not invent") {
				t.Errorf("the text does not tell the model not to invent an answer:\n%s", got)
			}
			if reask := strings.Contains(got, "ordinary text"); reask != reasks[tt.name] {
				t.Errorf("advice to ask in ordinary text = %v; want %v:\n%s", reask, reasks[tt.name], got)
			}
		})
	}
}

// TestResultTextHoldsTheResult checks that the model sees the complete
// structured result: the JSON line in the text is the result.
func TestResultTextHoldsTheResult(t *testing.T) {
	for _, out := range []Outcome{submitted(), cancelledOutcome(StatusDismissed), cancelledOutcome(StatusTimeout)} {
		text := ResultText(request(), out)
		line := strings.Split(text, "\n")[0]
		if out.Status == StatusSubmitted {
			line = strings.Split(text, "\n")[1]
		}
		var got Result
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatalf("%s: no result JSON in %q: %v", out.Status, line, err)
		}
		if diff := cmp.Diff(out.Result, got); diff != "" {
			t.Errorf("%s: result in the text (-want +got):\n%s", out.Status, diff)
		}
	}
}

func TestResultTextListsEveryOption(t *testing.T) {
	req := request()
	got := ResultText(req, failure("custom_ui_failed", "x"))
	for _, q := range req.Questions {
		want := []string{`"` + q.ID + `"`, `"` + q.Question + `"`, `"` + q.Header + `"`}
		for _, o := range q.Options {
			want = append(want, `"`+o.ID+`"`, `"`+o.Label+`"`, `"`+o.Description+`"`)
		}
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("the listing lacks %s:\n%s", w, got)
			}
		}
	}
}

// TestResultTextHasNoControls feeds control characters everywhere the
// model or a renderer can put text, and finds none in the result text.
func TestResultTextHasNoControls(t *testing.T) {
	const hostile = "a\x1b]52;c;eA==\x07b\u009b2Jc\x7fd\te\rf\x00"
	req := request()
	req.Questions[0].Question = hostile + "?"
	req.Questions[0].Options[0].Label = hostile
	req.Questions[0].Options[1].Description = hostile
	req.Questions[0].Options[0].Preview = hostile
	sub := submitted()
	sub.Result.Answers["checks"] = Answer{Kind: KindMulti, Selections: []Choice{{Label: OtherLabel, Other: true, Text: hostile}}}
	sub.Result.Metadata.Source = Ptr(hostile)
	dis := cancelledOutcome(StatusDismissed)
	dis.Result.Metadata.FlowID = Ptr(hostile)
	for _, out := range []Outcome{sub, dis, failure("custom_ui_failed", hostile), failure("internal", hostile+"\xff"), failure(hostile, hostile)} {
		got := ResultText(req, out)
		for _, r := range got {
			if r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f {
				t.Errorf("%s: the text holds the control character %U:\n%q", out.Status, r, got)
				break
			}
		}
		if !strings.Contains(got, `\u001b`) {
			t.Errorf("%s: the escape is not shown escaped:\n%q", out.Status, got)
		}
	}
	// Escaped inside JSON, the text is the same text.
	got := ResultText(req, sub)
	var res Result
	if err := json.Unmarshal([]byte(strings.Split(got, "\n")[1]), &res); err != nil {
		t.Fatal(err)
	}
	if res.Answers["checks"].Selections[0].Text != hostile {
		t.Errorf("the Other text came back as %q, want %q", res.Answers["checks"].Selections[0].Text, hostile)
	}
}

func TestDescription(t *testing.T) {
	d := Description()
	for _, w := range []string{"one to eight", "12 characters", "two to four", "recommended", "preview", "multiSelect", "Other", "Do not use it"} {
		if !strings.Contains(d, w) {
			t.Errorf("the description does not mention %q", w)
		}
	}
	if len(Guidelines()) == 0 {
		t.Error("no guidelines")
	}
}

func TestInvalidRequestMessageText(t *testing.T) {
	got := InvalidRequestMessage(errors.New("boom"))
	if want := "the request is invalid and was not shown to the user:\n- boom"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
