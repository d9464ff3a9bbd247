package approval_test

import (
	"strings"
	"testing"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/auq"
)

func run() *approval.Request {
	return &approval.Request{Agent: "claude-code", Tool: "Bash", Action: approval.ActionRun, Command: "npm publish --tag next"}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(r *approval.Request)
		want string // a part of the error; "" for none
	}{
		{"a command", func(*approval.Request) {}, ""},
		{"no agent", func(r *approval.Request) { r.Agent = " " }, "agent: is required"},
		{"no tool", func(r *approval.Request) { r.Tool = "" }, "tool: is required"},
		{"no command to run", func(r *approval.Request) { r.Command = "" }, "command: is required"},
		{"no action", func(r *approval.Request) { r.Action = "" }, "action: is required"},
		{"unknown action", func(r *approval.Request) { r.Action = "launch" }, `action: is "launch"`},
		{"edit without a path", func(r *approval.Request) { r.Action = approval.ActionEdit }, "path: is required"},
		{"fetch without a domain", func(r *approval.Request) { r.Action = approval.ActionFetch }, "domain: is required for a fetch"},
		{"fetch of a URL", func(r *approval.Request) { r.Action, r.Detail = approval.ActionFetch, "https://example.com/x" }, ""},
		{"use without input", func(r *approval.Request) { r.Action = approval.ActionUse }, "detail: is required"},
		{"bad UTF-8", func(r *approval.Request) { r.Command = "rm \xff" }, "command: is not valid UTF-8"},
		{"command too long", func(r *approval.Request) { r.Command = strings.Repeat("x", approval.MaxCommandLen+1) }, "the limit is 65536"},
		{"three standing choices", func(r *approval.Request) { r.Always = []string{"a", "b", "c"} }, "always: has 3 choices"},
		{"a blank standing choice", func(r *approval.Request) { r.Always = []string{"a", ""} }, "always[1]: is required"},
		{"every problem at once", func(r *approval.Request) { r.Agent, r.Tool = "", "" }, "agent: is required; tool: is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run()
			tt.edit(r)
			err := approval.Validate(r)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Validate: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("Validate = %v, want an error holding %q", err, tt.want)
			}
		})
	}
	if approval.Validate(nil) == nil {
		t.Fatal("Validate(nil) passed")
	}
}

func TestShowIsAValidQuestionnaire(t *testing.T) {
	hostile := "\x1b]52;c;AAAA\x07echo \u202e<script>alert(1)</script> " + strings.Repeat("long ", 5000)
	reqs := []*approval.Request{
		run(),
		{Agent: "codex", Tool: "Bash", Action: approval.ActionRun, Command: hostile, Always: []string{"always allow echo"}},
		{Agent: "claude-code", Tool: "Edit", Action: approval.ActionEdit, Path: "/src/main.go", Diff: strings.Repeat("+line\n", 9000), Always: []string{"allow edits this session", strings.Repeat("y", approval.MaxAlwaysLen)}},
		{Agent: strings.Repeat("a", approval.MaxAgentLen), Tool: "WebFetch", Action: approval.ActionFetch, Domain: "example.com"},
	}
	for i, r := range reqs {
		q, err := approval.Show(r)
		if err != nil {
			t.Fatalf("%d: Show: %v", i, err)
		}
		if err := auq.Validate(q); err != nil {
			t.Fatalf("%d: the questionnaire shown breaks AskUserQuestion's rules: %v", i, err)
		}
		opts := q.Questions[0].Options
		if len(opts) != 2+len(r.Always) || opts[0].ID != approval.DenyID || opts[1].ID != approval.AllowID {
			t.Fatalf("%d: options %+v", i, opts)
		}
		for _, o := range opts {
			if o.Recommended {
				t.Fatalf("%d: option %q is recommended", i, o.ID)
			}
		}
		if p := opts[0].Preview; len(r.Command) < 500 && !strings.Contains(p, r.Command) {
			t.Fatalf("%d: the preview %q does not show the command whole", i, p)
		}
	}
	if _, err := approval.Show(&approval.Request{}); err == nil {
		t.Fatal("Show took an invalid request")
	}
}

func TestDetailsSaysWhatIsLeftOut(t *testing.T) {
	r := run()
	r.Command = strings.Repeat("0123456789\n", 200)
	got := approval.Details(r, 600)
	if n := len([]rune(got)); n > 600 {
		t.Fatalf("Details is %d characters, over 600", n)
	}
	if !strings.Contains(got, "more characters not shown") {
		t.Fatalf("Details %q does not say what it left out", got)
	}
	if short := approval.Details(run(), 600); short != "Command:\nnpm publish --tag next\n\nTool:\nBash" {
		t.Fatalf("Details = %q", short)
	}
}

func TestRead(t *testing.T) {
	r := run()
	r.Always = []string{"always allow npm publish", "allow everything this session"}
	shown, err := approval.Show(r)
	if err != nil {
		t.Fatal(err)
	}
	choice := func(id string) auq.Answer {
		o := shown.Questions[0].OptionByID(id)
		if o == nil {
			return auq.Answer{Kind: auq.KindSingle, Choice: auq.Choice{OptionID: id, Label: id}}
		}
		return auq.Answer{Kind: auq.KindSingle, Choice: auq.Choice{OptionID: id, Label: o.Label}}
	}
	answered := func(a auq.Answer, notes *auq.Annotations) auq.Result {
		res := auq.Result{Answers: map[string]auq.Answer{approval.QuestionID: a}}
		if notes != nil {
			res.Annotations = map[string]auq.Annotations{approval.QuestionID: *notes}
		}
		return res
	}
	other := auq.Answer{Kind: auq.KindSingle, Choice: auq.Choice{Other: true, Label: auq.OtherLabel, Text: "use pnpm instead"}}
	tests := []struct {
		name    string
		res     auq.Result
		want    approval.Decision
		wantErr string
	}{
		{"allow once", answered(choice("allow"), nil), approval.Decision{Allow: true}, ""},
		{"a note on an allow is not passed on", answered(choice("allow"), &auq.Annotations{QuestionNotes: "ok"}), approval.Decision{Allow: true}, ""},
		{"the second standing choice", answered(choice("always2"), nil), approval.Decision{Allow: true, Always: 2}, ""},
		{"deny", answered(choice("deny"), nil), approval.Decision{}, ""},
		{"deny with a note", answered(choice("deny"), &auq.Annotations{OptionNotes: map[string]string{"deny": " not on Fridays "}}), approval.Decision{Reason: "not on Fridays"}, ""},
		{"Other denies with its text", answered(other, &auq.Annotations{QuestionNotes: "and add a test"}), approval.Decision{Reason: "use pnpm instead\nand add a test"}, ""},
		{"cancelled", auq.Result{Cancelled: true}, approval.Decision{}, "not submitted"},
		{"no answer", auq.Result{Answers: map[string]auq.Answer{}}, approval.Decision{}, "missing"},
		{"an option not offered", answered(choice("always3"), nil), approval.Decision{}, "not one the approval offers"},
		{"an unknown option", answered(choice("yes"), nil), approval.Decision{}, "not one the approval offers"},
		{"a multi answer", answered(auq.Answer{Kind: auq.KindMulti}, nil), approval.Decision{}, "missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := approval.Read(r, shown, tt.res)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Read = %+v, %v; want an error holding %q", got, err, tt.wantErr)
				}
				if got.Allow {
					t.Fatal("a refused answer came back as an allow")
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Read = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestCheckDecision(t *testing.T) {
	r := run()
	r.Always = []string{"always"}
	for _, tt := range []struct {
		d  approval.Decision
		ok bool
	}{
		{approval.Decision{Allow: true}, true},
		{approval.Decision{Allow: true, Always: 1}, true},
		{approval.Decision{Reason: "no"}, true},
		{approval.Decision{Allow: true, Always: 2}, false},
		{approval.Decision{Always: 1}, false},
		{approval.Decision{Allow: true, Reason: "why"}, false},
		{approval.Decision{Reason: strings.Repeat("n", approval.MaxReasonLen+1)}, false},
		{approval.Decision{Reason: "\xff"}, false},
	} {
		if err := approval.CheckDecision(r, tt.d); (err == nil) != tt.ok {
			t.Errorf("CheckDecision(%+v) = %v, want ok %v", tt.d, err, tt.ok)
		}
	}
}

func TestOutcomeAllowed(t *testing.T) {
	for _, tt := range []struct {
		o    approval.Outcome
		want bool
	}{
		{approval.Outcome{Status: approval.StatusDecided, Decision: &approval.Decision{Allow: true}}, true},
		{approval.Outcome{Status: approval.StatusDecided, Decision: &approval.Decision{}}, false},
		{approval.Outcome{Status: approval.StatusDecided}, false},
		{approval.Outcome{Status: approval.StatusTimeout, Decision: &approval.Decision{Allow: true}}, false},
		{approval.Outcome{Status: approval.StatusError}, false},
	} {
		if got := tt.o.Allowed(); got != tt.want {
			t.Errorf("%+v.Allowed() = %v", tt.o, got)
		}
	}
}

func TestWhat(t *testing.T) {
	tests := []struct {
		name string
		edit func(r *approval.Request)
		want string
	}{
		{"a command", func(*approval.Request) {}, "run a command"},
		{"an edit", func(r *approval.Request) { r.Action, r.Path = approval.ActionEdit, "main.go" }, "edit a file"},
		{"a fetch", func(r *approval.Request) { r.Action, r.Domain = approval.ActionFetch, "example.com" }, "reach the network"},
		{"another tool", func(r *approval.Request) {
			r.Action, r.Tool, r.Detail = approval.ActionUse, "mcp__github__create_issue", "{}"
		}, "use mcp__github__create_issue"},
		{"the longest agent and tool", func(r *approval.Request) {
			r.Action, r.Agent, r.Tool, r.Detail = approval.ActionUse, strings.Repeat("a", approval.MaxAgentLen), strings.Repeat("t", approval.MaxToolLen), "{}"
		}, "use " + strings.Repeat("t", approval.MaxToolLen)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run()
			tt.edit(r)
			if got := r.What(); got != tt.want {
				t.Errorf("What() = %q, want %q", got, tt.want)
			}
			if got, want := r.Wants(), r.Agent+" wants to "+tt.want; got != want {
				t.Errorf("Wants() = %q, want %q", got, want)
			}
			shown, err := approval.Show(r)
			if err != nil {
				t.Fatal(err)
			}
			if q := shown.Questions[0].Question; len(r.Wants()) < auq.MaxQuestionLen-20 && !strings.HasPrefix(q, r.Wants()) {
				t.Errorf("the question %q does not say %q", q, r.Wants())
			}
		})
	}
}

func TestAllows(t *testing.T) {
	single := func(c auq.Choice) auq.Result {
		return auq.Result{Answers: map[string]auq.Answer{approval.QuestionID: {Kind: auq.KindSingle, Choice: c}}}
	}
	for _, tt := range []struct {
		name string
		res  auq.Result
		want bool
	}{
		{"allow once", single(auq.Choice{OptionID: approval.AllowID}), true},
		{"a standing choice", single(auq.Choice{OptionID: "always1"}), true},
		{"deny", single(auq.Choice{OptionID: approval.DenyID}), false},
		{"Other", single(auq.Choice{Other: true, Text: "allow"}), false},
		{"cancelled", auq.Result{Cancelled: true}, false},
		{"another question", auq.Result{Answers: map[string]auq.Answer{"q": {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: approval.AllowID}}}}, false},
		{"a multi answer", auq.Result{Answers: map[string]auq.Answer{approval.QuestionID: {Kind: auq.KindMulti, Selections: []auq.Choice{{OptionID: approval.AllowID}}}}}, false},
	} {
		if got := approval.Allows(tt.res); got != tt.want {
			t.Errorf("%s: Allows = %v, want %v", tt.name, got, tt.want)
		}
	}
}
