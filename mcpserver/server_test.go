package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/mcpserver"
	"github.com/askuser/askuser/prefs"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The protocol versions the server is tested with: the two that take a
// server-sent elicitation request and the first that takes InputRequests.
var versions = []string{"2025-06-18", "2025-11-25", "2026-07-28"}

type elicitFunc func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)

// connect runs srv and returns a client session at protocol version v.
// A nil elicit declares no elicitation.
func connect(t *testing.T, srv *mcpserver.Server, v string, elicit elicitFunc, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return connectClient(t, srv, v, elicit, copts)
}

// connectClient is connect with receiving middleware on the client.
func connectClient(t *testing.T, srv *mcpserver.Server, v string, elicit elicitFunc, copts *mcp.ClientOptions, mw ...mcp.Middleware) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ct, st := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, st) }()
	o := &mcp.ClientOptions{}
	if copts != nil {
		o = copts
	}
	if elicit != nil {
		o.ElicitationHandler = elicit
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, o)
	c.AddReceivingMiddleware(mw...)
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: v})
	if err != nil {
		cancel()
		t.Fatalf("connect at %s: %v", v, err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-done
	})
	return cs
}

func newServer(t *testing.T, opts *mcpserver.Options) *mcpserver.Server {
	t.Helper()
	srv, err := mcpserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

func call(ctx context.Context, cs *mcp.ClientSession, args string) (*mcp.CallToolResult, error) {
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: mcpserver.ToolName, Arguments: json.RawMessage(args)})
}

// result decodes the structured content of a tool result.
func result(t *testing.T, r *mcp.CallToolResult) contract.Result {
	t.Helper()
	b, err := json.Marshal(r.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var res contract.Result
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
	return res
}

// callCoded calls the tool with args and decodes its result, with the
// error's message blanked, for comparing codes.
func callCoded(t *testing.T, cs *mcp.ClientSession, args string) (*mcp.CallToolResult, contract.Result) {
	t.Helper()
	r, err := call(context.Background(), cs, args)
	if err != nil {
		t.Fatal(err)
	}
	got := result(t, r)
	if got.Error != nil {
		got.Error.Message = ""
	}
	return r, got
}

func text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// byName compares form entries whatever their order: the structured
// content reaches the test as a Go map, which does not keep it.
var byName = cmpopts.SortSlices(func(a, b contract.FormEntry) bool { return a.Name < b.Name })

func formValue(entries ...contract.FormEntry) *contract.AnswerValue {
	return &contract.AnswerValue{IsForm: true, Form: append([]contract.FormEntry{}, entries...)}
}

func boolValue(b bool) *contract.AnswerValue { return &contract.AnswerValue{Bool: b} }

func answered(answers ...contract.Answer) contract.Result {
	return contract.Result{Status: contract.StatusAnswered, Route: contract.RouteNative, Answers: answers}
}

func dismissed() contract.Result {
	return contract.Result{Status: contract.StatusAborted, Route: contract.RouteNative, Answers: []contract.Answer{}, CancelledReason: contract.CancelUser}
}

func uiFailed() contract.Result {
	return contract.Result{Status: contract.StatusError, Route: contract.RouteNative, Answers: []contract.Answer{}, Error: &contract.Error{Code: contract.ErrNativeUIFailed}}
}

func accept(content string) elicitFunc {
	return func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		var m map[string]any
		if err := json.Unmarshal([]byte(content), &m); err != nil {
			return nil, err
		}
		return &mcp.ElicitResult{Action: "accept", Content: m}, nil
	}
}

func action(a string) elicitFunc {
	return func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: a}, nil
	}
}

const (
	single = `{"questions":[{"title":"Database","options":[{"label":"Postgres","description":"the default"},{"label":"SQLite"}],"default":"Postgres"}]}`
	multi  = `{"questions":[{"title":"Targets","kind":"multi","options":[{"label":"linux"},{"label":"mac"},{"label":"windows"}]}]}`
	input  = `{"questions":[{"id":"name","title":"Project name","kind":"input","default":"demo"}]}`
	boolQ  = `{"questions":[{"title":"Run the tests?","kind":"bool","default":true}]}`
	form   = `{"questions":[{"id":"cfg","title":"Release","kind":"simple-form","fields":[` +
		`{"name":"version","label":"Version","kind":"input","required":true},` +
		`{"name":"channel","label":"Channel","kind":"single","options":[{"label":"stable"},{"label":"beta"}],"default":"stable"},` +
		`{"name":"arches","label":"Architectures","kind":"multi","options":[{"label":"amd64"},{"label":"arm64"}]},` +
		`{"name":"signed","label":"Signed","kind":"bool"}]}]}`
	strict = `{"allowFreeText":false,"questions":[{"title":"Pick","options":[{"label":"A"},{"label":"B"}]}]}`
)

func TestAskUserNative(t *testing.T) {
	tests := []struct {
		name   string
		args   string
		elicit elicitFunc
		want   contract.Result
		text   string // a phrase the model's text must hold
	}{
		{"single", single, accept(`{"q1":"SQLite"}`), answered(contract.Answer{Index: 0, ID: "q1", Title: "Database", Kind: contract.KindSingle, Selections: []string{"SQLite"}}), `SQLite`},
		{"single default", single, accept(`{"q1":"Postgres"}`), answered(contract.Answer{Index: 0, ID: "q1", Title: "Database", Kind: contract.KindSingle, Selections: []string{"Postgres"}, UsedDefault: true}), `Postgres`},
		{"free text", multi, accept(`{"q1_note":"  BSD  "}`), answered(contract.Answer{Index: 0, ID: "q1", Title: "Targets", Kind: contract.KindMulti, Selections: []string{}, FreeText: "BSD"}), `BSD`},
		// The form shows the default preselected, and the SDK fills it in
		// when the user leaves it: a note comes with it.
		{"single default and note", single, accept(`{"q1_note":"  MySQL  "}`), answered(contract.Answer{Index: 0, ID: "q1", Title: "Database", Kind: contract.KindSingle, Selections: []string{"Postgres"}, FreeText: "MySQL"}), `MySQL`},
		{"single with note", single, accept(`{"q1":"SQLite","q1_note":"for tests"}`), answered(contract.Answer{Index: 0, ID: "q1", Title: "Database", Kind: contract.KindSingle, Selections: []string{"SQLite"}, FreeText: "for tests"}), `for tests`},
		{"multi in option order", multi, accept(`{"q1":["windows","linux"]}`), answered(contract.Answer{Index: 0, ID: "q1", Title: "Targets", Kind: contract.KindMulti, Selections: []string{"linux", "windows"}}), `windows`},
		{"input", input, accept(`{"q1":" hello "}`), answered(contract.Answer{Index: 0, ID: "name", Title: "Project name", Kind: contract.KindInput, Selections: []string{}, FreeText: "hello"}), `hello`},
		{"bool false", boolQ, accept(`{"q1":false}`), answered(contract.Answer{Index: 0, ID: "q1", Title: "Run the tests?", Kind: contract.KindBool, Selections: []string{}, Value: boolValue(false)}), `Run the tests?`},
		{"form", form, accept(`{"q1.version":"1.2","q1.channel":"beta","q1.arches":["arm64","amd64"],"q1.signed":true}`),
			answered(contract.Answer{Index: 0, ID: "cfg", Title: "Release", Kind: contract.KindForm, Selections: []string{}, Value: formValue(
				contract.FormEntry{Name: "version", Value: contract.StringValue("1.2")},
				contract.FormEntry{Name: "channel", Value: contract.StringValue("beta")},
				contract.FormEntry{Name: "arches", Value: contract.StringsValue("amd64", "arm64")},
				contract.FormEntry{Name: "signed", Value: contract.BoolValue(true)},
			)}), `1.2`},
		{"form optional fields left out", form, accept(`{"q1.version":"2"}`),
			// The SDK fills in the default of channel before the server sees it.
			answered(contract.Answer{Index: 0, ID: "cfg", Title: "Release", Kind: contract.KindForm, Selections: []string{}, UsedDefault: true, Value: formValue(
				contract.FormEntry{Name: "version", Value: contract.StringValue("2")},
				contract.FormEntry{Name: "channel", Value: contract.StringValue("stable")},
			)}), `2`},
		{"strict single", strict, accept(`{"q1":"B"}`), answered(contract.Answer{Index: 0, ID: "q1", Title: "Pick", Kind: contract.KindSingle, Selections: []string{"B"}}), `B`},
		// A form answered at once was seen by nobody (see TestTooSoon).
		{"decline at once", single, action("decline"), uiFailed(), "Ask the user yourself, in ordinary text in your reply"},
		{"cancel at once", form, action("cancel"), uiFailed(), "too soon for anyone to have read it"},
		{"empty accept", multi, accept(`{}`), contract.Result{Status: contract.StatusError, Route: contract.RouteNative, Answers: []contract.Answer{}, Error: &contract.Error{Code: contract.ErrEmptyAnswer}}, "empty"},
	}
	for _, v := range versions {
		for _, tt := range tests {
			t.Run(v+"/"+tt.name, func(t *testing.T) {
				cs := connect(t, newServer(t, nil), v, tt.elicit, nil)
				r, got := callCoded(t, cs, tt.args)
				if diff := cmp.Diff(tt.want, got, byName); diff != "" {
					t.Errorf("result (-want +got):\n%s", diff)
				}
				if !strings.Contains(text(r), tt.text) {
					t.Errorf("text does not hold %q:\n%s", tt.text, text(r))
				}
				if r.IsError != (tt.want.Status == contract.StatusError) {
					t.Errorf("isError = %v for status %s", r.IsError, got.Status)
				}
			})
		}
	}
}

// An elicitation that fails is an error: never an answer, never silence.
func TestElicitationError(t *testing.T) {
	fail := func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return nil, errors.New("the form broke")
	}
	badLabel := accept(`{"q1":"Oracle"}`)
	for _, v := range versions {
		for name, h := range map[string]elicitFunc{"handler error": fail, "bad label": badLabel} {
			t.Run(v+"/"+name, func(t *testing.T) {
				cs := connect(t, newServer(t, nil), v, h, nil)
				r, err := call(context.Background(), cs, single)
				if v >= "2026-07-28" {
					// The client fulfils the form itself and fails the call.
					if err == nil {
						t.Fatalf("call succeeded with %+v; want the client's error", result(t, r))
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				got := result(t, r)
				if got.Status != contract.StatusError || got.Error.Code != contract.ErrNativeUIFailed || !r.IsError {
					t.Errorf("got %+v, isError %v; want native_ui_failed", got, r.IsError)
				}
			})
		}
	}
}

func TestInvalidRequest(t *testing.T) {
	tests := []struct {
		name, args string
		paths      []string
	}{
		{"unknown arguments", `{"questions":[{"title":"x"}],"colour":"red"}`, []string{"colour"}},
		{"every problem", `{"questions":[{"title":" ","kind":"multi"},{"title":"b","kind":"bool","default":"yes"}]}`, []string{"questions[0].title", "questions[0].options", "questions[1].default"}},
		{"no arguments", ``, []string{"questions"}},
	}
	for _, v := range versions {
		for _, tt := range tests {
			t.Run(v+"/"+tt.name, func(t *testing.T) {
				shown := false
				cs := connect(t, newServer(t, nil), v, func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					shown = true
					return &mcp.ElicitResult{Action: "cancel"}, nil
				}, nil)
				args := tt.args
				if args == "" {
					args = "{}"
				}
				r, err := call(context.Background(), cs, args)
				if err != nil {
					t.Fatalf("a bad questionnaire is a tool error, not %v", err)
				}
				got := result(t, r)
				if !r.IsError || got.Error == nil || got.Error.Code != contract.ErrInvalidRequest {
					t.Fatalf("got %+v, isError %v; want invalid_request", got, r.IsError)
				}
				for _, p := range tt.paths {
					if !strings.Contains(got.Error.Message, p) || !strings.Contains(text(r), p) {
						t.Errorf("problem %s missing from\n%s", p, text(r))
					}
				}
				if shown {
					t.Error("the form was shown for an invalid questionnaire")
				}
			})
		}
	}
}

func TestNoRoute(t *testing.T) {
	mode := func(m contract.Route) *mcpserver.Options {
		return &mcpserver.Options{Host: ask.HostOptions{Options: prefs.Prefs{Mode: m}}}
	}
	tests := []struct {
		name      string
		opts      *mcpserver.Options
		elicit    elicitFunc
		wantRoute contract.Route
		text      string
	}{
		{"no elicitation, no popup", nil, nil, "", "in ordinary text"},
		{"custom configured, not available", mode(contract.RouteCustom), action("accept"), contract.RouteCustom, `mode "custom" is configured`},
		{"native configured, client cannot", mode(contract.RouteNative), nil, contract.RouteNative, "does not declare the elicitation capability"},
	}
	for _, v := range versions {
		for _, tt := range tests {
			t.Run(v+"/"+tt.name, func(t *testing.T) {
				cs := connect(t, newServer(t, tt.opts), v, tt.elicit, nil)
				r, err := call(context.Background(), cs, single)
				if err != nil {
					t.Fatal(err)
				}
				got := result(t, r)
				if got.Status != contract.StatusError || got.Error.Code != contract.ErrUnsupportedMode || got.Route != tt.wantRoute {
					t.Errorf("got %+v; want unsupported_mode with route %q", got, tt.wantRoute)
				}
				if !strings.Contains(text(r), tt.text) {
					t.Errorf("text does not hold %q:\n%s", tt.text, text(r))
				}
			})
		}
	}
}

// Progress reports the time left while the user thinks, in numbers that
// mean what they say: seconds since the call began, out of the seconds to
// its deadline. On a synctest bubble's clock, a loaded machine cannot
// make the first report come late.
func TestProgress(t *testing.T) {
	for _, v := range versions[:2] {
		t.Run(v, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				msgs := make(chan *mcp.ProgressNotificationParams, 100)
				copts := &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
					msgs <- r.Params
				}}
				h := func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					select {
					case pn := <-msgs:
						m := pn.Message
						if !strings.HasPrefix(m, "waiting for the user, ") || !strings.HasSuffix(m, " s left") {
							return nil, errors.New("unexpected progress: " + m)
						}
						left, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(m, "waiting for the user, "), " s left"))
						if err != nil {
							return nil, err
						}
						// The deadline is 60 s away at the start; progress is
						// the seconds since then, total the seconds to it.
						if pn.Total <= pn.Progress || pn.Progress < 0 || pn.Progress > 5 {
							return nil, fmt.Errorf("progress %v of %v, %d s left: not seconds since the start out of seconds to the deadline", pn.Progress, pn.Total, left)
						}
						if d := pn.Total - pn.Progress - float64(left); d > 0.01 || d < -1.01 {
							return nil, fmt.Errorf("progress %v of %v leaves %v s, the message says %d s", pn.Progress, pn.Total, pn.Total-pn.Progress, left)
						}
					case <-ctx.Done():
						return nil, ctx.Err()
					}
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1": "SQLite"}}, nil
				}
				srv := newServer(t, &mcpserver.Options{ProgressInterval: time.Millisecond})
				cs := connect(t, srv, v, h, copts)
				p := &mcp.CallToolParams{Name: mcpserver.ToolName, Arguments: json.RawMessage(single)}
				p.SetProgressToken("tok")
				r, err := cs.CallTool(context.Background(), p)
				if err != nil {
					t.Fatal(err)
				}
				if got := result(t, r); got.Status != contract.StatusAnswered {
					t.Fatalf("got %+v; want answered after a progress notification", got)
				}
			})
		})
	}
}

// A cancelled call is aborted: the form is withdrawn, and the server
// serves the next call.
func TestCancel(t *testing.T) {
	for _, v := range versions[:2] {
		t.Run(v, func(t *testing.T) {
			shown := make(chan struct{})
			withdrawn := make(chan struct{})
			var once sync.Once
			h := func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				first := false
				once.Do(func() { first = true })
				if !first {
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1": "SQLite"}}, nil
				}
				close(shown)
				<-ctx.Done()
				close(withdrawn)
				return nil, ctx.Err()
			}
			cs := connect(t, newServer(t, nil), v, h, nil)
			ctx, cancel := context.WithCancel(context.Background())
			errc := make(chan error, 1)
			go func() {
				_, err := call(ctx, cs, single)
				errc <- err
			}()
			<-shown
			cancel()
			if err := <-errc; !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled call returned %v", err)
			}
			<-withdrawn
			r, err := call(context.Background(), cs, single)
			if err != nil {
				t.Fatal(err)
			}
			if got := result(t, r); got.Status != contract.StatusAnswered {
				t.Errorf("next call: %+v", got)
			}
		})
	}
}

// The deadline holds while the client shows the form.
func TestTimeout(t *testing.T) {
	for _, v := range versions[:2] {
		t.Run(v, func(t *testing.T) {
			h := func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				<-ctx.Done()
				return nil, ctx.Err()
			}
			cs := connect(t, newServer(t, nil), v, h, nil)
			r, err := call(context.Background(), cs, `{"timeoutPerQuestionMs":5,"questions":[{"title":"t","kind":"bool"}]}`)
			if err != nil {
				t.Fatal(err)
			}
			want := contract.Result{Status: contract.StatusTimeout, Route: contract.RouteNative, Answers: []contract.Answer{}}
			if diff := cmp.Diff(want, result(t, r)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

// A second call waits for the first and says so in its progress.
func TestOneAtATime(t *testing.T) {
	v := "2025-11-25"
	queued := make(chan string, 10)
	copts := &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		if r.Params.ProgressToken == "second" && strings.Contains(r.Params.Message, "another question") {
			select {
			case queued <- r.Params.Message:
			default:
			}
		}
	}}
	var mu sync.Mutex
	active := 0
	first := make(chan struct{})
	h := func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		mu.Lock()
		active++
		n := active
		mu.Unlock()
		defer func() { mu.Lock(); active--; mu.Unlock() }()
		if n > 1 {
			return nil, errors.New("two forms at once")
		}
		if strings.HasPrefix(req.Params.Message, "Database") {
			close(first)
			select {
			case <-queued:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1": true}}, nil
	}
	srv := newServer(t, &mcpserver.Options{ProgressInterval: time.Hour})
	cs := connect(t, srv, v, func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		if strings.HasPrefix(req.Params.Message, "Database") {
			r, err := h(ctx, req)
			if r != nil {
				r.Content = map[string]any{"q1": "SQLite"}
			}
			return r, err
		}
		return h(ctx, req)
	}, copts)
	// A wrong turn fails the test instead of hanging it.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	errc := make(chan error, 2)
	go func() {
		r, err := call(ctx, cs, single)
		if err == nil && result(t, r).Status != contract.StatusAnswered {
			err = errors.New("first call: " + text(r))
		}
		errc <- err
	}()
	select {
	case <-first:
	case <-ctx.Done():
		t.Fatal("the first form never came")
	}
	go func() {
		p := &mcp.CallToolParams{Name: mcpserver.ToolName, Arguments: json.RawMessage(boolQ)}
		p.SetProgressToken("second")
		r, err := cs.CallTool(ctx, p)
		if err == nil && result(t, r).Status != contract.StatusAnswered {
			err = errors.New("second call: " + text(r))
		}
		errc <- err
	}()
	for range 2 {
		if err := <-errc; err != nil {
			t.Error(err)
		}
	}
}
