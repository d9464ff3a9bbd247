package mcpserver_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/askuser/askuser/contract"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// after answers a form with f once d has passed on the bubble's clock, as
// a person who takes d to answer: only for use inside synctest.Test.
func after(d time.Duration, f elicitFunc) elicitFunc {
	return func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		time.Sleep(d)
		return f(ctx, req)
	}
}

// A cancel or decline sooner than anyone could have read the form is the
// client failing to show it, as headless clients do: the model is told to
// ask in text. A slower one is the user's dismissal. The first form of a
// call is timed on both elicitation paths; on the InputRequests path the
// time it was sent travels in the sealed state.
func TestTooSoon(t *testing.T) {
	tests := []struct {
		action string
		took   time.Duration
		want   contract.Result
		text   []string
	}{
		{"decline", 0, uiFailed(), []string{`the client answered the form with "decline" 0 ms after it was sent, too soon for anyone to have read it; most likely it could not show the form`,
			"Ask the user yourself, in ordinary text in your reply", "1. Database", "Do not invent an answer"}},
		{"cancel", 53 * time.Millisecond, uiFailed(), []string{`with "cancel" 53 ms after it was sent`, "Ask the user yourself, in ordinary text in your reply"}},
		{"decline", 299 * time.Millisecond, uiFailed(), []string{"299 ms after it was sent"}},
		{"decline", 300 * time.Millisecond, dismissed(), []string{"The user declined", "Do not invent an answer"}},
		{"cancel", 4 * time.Second, dismissed(), []string{"The user cancelled", "Do not invent an answer"}},
	}
	for _, v := range versions {
		for _, tt := range tests {
			t.Run(v+"/"+tt.action+"/"+tt.took.String(), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					cs := connect(t, newServer(t, nil), v, after(tt.took, action(tt.action)), nil)
					r, got := callCoded(t, cs, single)
					if diff := cmp.Diff(tt.want, got); diff != "" {
						t.Errorf("result (-want +got):\n%s", diff)
					}
					for _, w := range tt.text {
						if !strings.Contains(text(r), w) {
							t.Errorf("text does not hold %q:\n%s", w, text(r))
						}
					}
				})
			})
		}
	}
}

// three has a choice question that takes free text (so neither of its
// properties can be required), a bool and a form with a required field.
const three = `{"questions":[
{"title":"Database","options":[{"label":"Postgres"},{"label":"SQLite"}]},
{"title":"Run the tests?","kind":"bool"},
{"id":"cfg","title":"Release","kind":"simple-form","fields":[
 {"name":"version","label":"Version","kind":"input","required":true},
 {"name":"arches","label":"Architectures","kind":"multi","options":[{"label":"amd64"},{"label":"arm64"}]}]}]}`

// forms records every form a client is sent and answers each with the
// next of answers, each after its delay.
type forms struct {
	mu      sync.Mutex
	got     []*mcp.ElicitParams
	answers []timedAnswer
}

type timedAnswer struct {
	took    time.Duration
	content string // "" for a decline
}

func (f *forms) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	f.mu.Lock()
	f.got = append(f.got, req.Params)
	a := f.answers[min(len(f.got), len(f.answers))-1]
	f.mu.Unlock()
	time.Sleep(a.took)
	if a.content == "" {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(a.content), &m); err != nil {
		return nil, err
	}
	return &mcp.ElicitResult{Action: "accept", Content: m}, nil
}

// schema returns the property names and the required names of form i.
func (f *forms) schema(t *testing.T, i int) (props, required []string) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if i >= len(f.got) {
		t.Fatalf("form %d was never sent; %d were", i+1, len(f.got))
	}
	b, err := json.Marshal(f.got[i].RequestedSchema)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties map[string]any `json:"properties"`
		Required   []string       `json:"required"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	for k := range s.Properties {
		props = append(props, k)
	}
	slices.Sort(props)
	return props, s.Required
}

func (f *forms) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.got)
}

func (f *forms) message(i int) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.got[i].Message
}

// An accepted form that leaves questions out is sent again holding only
// what is missing, within the same deadline; the answers given are kept,
// and merged in question order.
func TestAskAgain(t *testing.T) {
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := &forms{answers: []timedAnswer{
					// The user skips the choice and leaves blanks in the form.
					{70 * time.Second, `{"q2":true,"q3.version":"  ","q3.arches":["arm64"]}`},
					{10 * time.Second, `{"q1":"SQLite","q3.version":" 2.0 "}`},
				}}
				cs := connect(t, newServer(t, nil), v, f.handle, nil)
				r, err := call(context.Background(), cs, three)
				if err != nil {
					t.Fatal(err)
				}
				want := answered(
					contract.Answer{Index: 0, ID: "q1", Title: "Database", Kind: contract.KindSingle, Selections: []string{"SQLite"}},
					contract.Answer{Index: 1, ID: "q2", Title: "Run the tests?", Kind: contract.KindBool, Selections: []string{}, Value: boolValue(true)},
					contract.Answer{Index: 2, ID: "cfg", Title: "Release", Kind: contract.KindForm, Selections: []string{}, Value: formValue(
						contract.FormEntry{Name: "version", Value: contract.StringValue("2.0")},
						contract.FormEntry{Name: "arches", Value: contract.StringsValue("arm64")},
					)},
				)
				if diff := cmp.Diff(want, result(t, r), byName); diff != "" {
					t.Errorf("result (-want +got):\n%s", diff)
				}
				if n := f.count(); n != 2 {
					t.Fatalf("%d forms were sent; want 2", n)
				}
				props, required := f.schema(t, 0)
				if diff := cmp.Diff([]string{"q1", "q1_note", "q2", "q3.arches", "q3.version"}, props); diff != "" {
					t.Errorf("first form's properties (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff([]string{"q2", "q3.version"}, required); diff != "" {
					t.Errorf("first form's required properties (-want +got):\n%s", diff)
				}
				props, required = f.schema(t, 1)
				if diff := cmp.Diff([]string{"q1", "q1_note", "q3.version"}, props); diff != "" {
					t.Errorf("second form's properties (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff([]string{"q3.version"}, required); diff != "" {
					t.Errorf("second form's required properties (-want +got):\n%s", diff)
				}
				// Three questions have 180 s; the first form took 70 of them.
				wantMsg := "Some answers are still missing: question 1 (\"Database\") and question 3 (\"Release\": field \"version\"). The answers you gave are kept.\n\n(110 s to answer)"
				if got := f.message(1); got != wantMsg {
					t.Errorf("second form's message:\n%s\nwant:\n%s", got, wantMsg)
				}
			})
		})
	}
}

// Asking again is bounded: a form that keeps coming back incomplete, or
// comes back incomplete too soon for a person to have filled it in, ends
// the call with empty_answer naming what is missing. A dismissal of a
// later form is the user's, however quick, and a property the later form
// does not have is refused.
func TestAskAgainBounded(t *testing.T) {
	tests := []struct {
		name    string
		answers []timedAnswer
		forms   int
		want    contract.Result
		text    string
	}{
		{"always incomplete", []timedAnswer{{5 * time.Second, `{"q2":false,"q3.version":"1"}`}, {5 * time.Second, `{}`}},
			3, emptyAnswer(), `the form was sent 3 times and still came back without an answer to question 1 ("Database")`},
		{"incomplete at once", []timedAnswer{{time.Millisecond, `{"q2":false,"q3.version":"1"}`}},
			1, emptyAnswer(), `the client returned the form 1 ms after it was sent, too soon for anyone to have filled it in, without an answer to question 1 ("Database")`},
		{"the same form again at once", []timedAnswer{{time.Second, `{"q2":false,"q3.version":" "}`}, {0, `{"q3.version":" "}`}},
			2, emptyAnswer(), `without an answer to question 1 ("Database") and question 3 ("Release": field "version")`},
		{"declined later", []timedAnswer{{time.Second, `{"q2":false,"q3.version":"1"}`}, {0, ``}},
			2, dismissed(), "The user declined"},
		{"answers to what was not asked again", []timedAnswer{{time.Second, `{"q2":false,"q3.version":"1"}`}, {time.Second, `{"q1":"SQLite","q2":true}`}},
			2, uiFailed(), `properties it does not have: "q2"`},
	}
	for _, v := range versions {
		for _, tt := range tests {
			t.Run(v+"/"+tt.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					f := &forms{answers: tt.answers}
					cs := connect(t, newServer(t, nil), v, f.handle, nil)
					r, got := callCoded(t, cs, three)
					if diff := cmp.Diff(tt.want, got); diff != "" {
						t.Errorf("result (-want +got):\n%s", diff)
					}
					if !strings.Contains(text(r), tt.text) {
						t.Errorf("text does not hold %q:\n%s", tt.text, text(r))
					}
					if n := f.count(); n != tt.forms {
						t.Errorf("%d forms were sent; want %d", n, tt.forms)
					}
				})
			})
		}
	}
}

func emptyAnswer() contract.Result {
	return contract.Result{Status: contract.StatusError, Route: contract.RouteNative, Answers: []contract.Answer{}, Error: &contract.Error{Code: contract.ErrEmptyAnswer}}
}

// The deadline holds across the forms of a call. On the InputRequests
// path (2026-07-28) no call is in flight while the client shows the form,
// and nothing has reached the model: an answer to a form still on screen
// counts, however late (see TestLateAnswerOnScreen).
func TestAskAgainTimeout(t *testing.T) {
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := &forms{answers: []timedAnswer{{2 * time.Second, `{"q2":false,"q3.version":"1"}`}, {time.Hour, `{"q1":"SQLite"}`}}}
				cs := connect(t, newServer(t, nil), v, f.handle, nil)
				r, err := call(context.Background(), cs, `{"timeoutPerQuestionMs":10000,`+strings.TrimPrefix(three, "{"))
				if err != nil {
					t.Fatal(err)
				}
				want := contract.StatusTimeout
				if v >= "2026-07-28" {
					want = contract.StatusAnswered
				}
				if got := result(t, r).Status; got != want {
					t.Errorf("status %q; want %q", got, want)
				}
				if n := f.count(); n != 2 {
					t.Errorf("%d forms were sent; want 2", n)
				}
				if msg := f.message(1); !strings.HasSuffix(msg, "(28 s to answer)") {
					t.Errorf("second form's message %q; want 28 s left", msg)
				}
			})
		})
	}
}
