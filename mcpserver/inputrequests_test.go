package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/mcpserver"
	"github.com/askuser/askuser/prefs"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A 2026-07-28 client gets the whole questionnaire as one input request,
// and the server checks the retry that carries the answer.
func TestInputRequestsRound(t *testing.T) {
	copts := &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}}
	cs := connect(t, newServer(t, nil), "2026-07-28", action("cancel"), copts)
	ctx := context.Background()
	first, err := call(ctx, cs, form)
	if err != nil {
		t.Fatal(err)
	}
	if !first.NeedsInput() || len(first.InputRequests) != 1 || first.RequestState == "" {
		t.Fatalf("first round: %+v; want one input request and a state", first)
	}
	ep, ok := first.InputRequests["questionnaire"].(*mcp.ElicitParams)
	if !ok {
		t.Fatalf("input requests %+v; want the form under \"questionnaire\"", first.InputRequests)
	}
	b, _ := json.Marshal(ep.RequestedSchema)
	for _, p := range []string{`"q1.version"`, `"q1.channel"`, `"q1.arches"`, `"q1.signed"`} {
		if !strings.Contains(string(b), p) {
			t.Errorf("the form lacks %s: %s", p, b)
		}
	}
	retry := func(state string, resp mcp.InputResponseMap, args string) contract.Result {
		t.Helper()
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: mcpserver.ToolName, Arguments: json.RawMessage(args), RequestState: state, InputResponses: resp})
		if err != nil {
			t.Fatal(err)
		}
		return result(t, r)
	}
	answer := mcp.InputResponseMap{"questionnaire": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1.version": "3"}}}
	if got := retry(first.RequestState, answer, form); got.Status != contract.StatusAnswered {
		t.Errorf("retry: %+v", got)
	}
	bad := []struct {
		name, state, args string
		resp              mcp.InputResponseMap
		want              string
	}{
		{"forged state", "eyJ2IjoxfQ.AAAA", form, answer, "not issued by this server"},
		{"other questionnaire", first.RequestState, single, answer, "another questionnaire"},
		{"no state", "", form, answer, "no request state"},
		{"wrong key", first.RequestState, form, mcp.InputResponseMap{"other": answer["questionnaire"]}, `no input response "questionnaire"`},
		{"replayed", first.RequestState, form, answer, "used already"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			got := retry(tt.state, tt.resp, tt.args)
			if got.Status != contract.StatusError || got.Error.Code != contract.ErrNativeUIFailed || !strings.Contains(got.Error.Message, tt.want) {
				t.Errorf("got %+v; want native_ui_failed holding %q", got, tt.want)
			}
		})
	}
}

// Preferences: a flag wins over the config file, which is read once; a
// bad file is invalid_config on every call.
func TestPreferences(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	native := write("native.json", `{"mode":"native"}`)
	custom := write("custom.json", `{"mode":"custom"}`)
	broken := write("broken.json", `{"mode":"sideways"}`)
	tests := []struct {
		name   string
		opts   ask.HostOptions
		status contract.Status
		code   contract.ErrorCode
	}{
		{"file native", ask.HostOptions{ConfigFile: native}, contract.StatusAnswered, ""},
		{"file custom, no popup", ask.HostOptions{ConfigFile: custom}, contract.StatusError, contract.ErrUnsupportedMode},
		{"flag native over file custom", ask.HostOptions{ConfigFile: custom, Options: prefs.Prefs{Mode: contract.RouteNative}}, contract.StatusAnswered, ""},
		{"broken file", ask.HostOptions{ConfigFile: broken}, contract.StatusError, contract.ErrInvalidConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, &mcpserver.Options{Host: tt.opts})
			// The file is read at start: changing it later changes nothing.
			os.WriteFile(native, []byte(`{"mode":"custom"}`), 0o600)
			defer os.WriteFile(native, []byte(`{"mode":"native"}`), 0o600)
			cs := connect(t, srv, "2025-11-25", accept(`{"q1":true}`), nil)
			r, err := call(context.Background(), cs, boolQ)
			if err != nil {
				t.Fatal(err)
			}
			got := result(t, r)
			if got.Status != tt.status || (got.Error != nil) != (tt.code != "") || (got.Error != nil && got.Error.Code != tt.code) {
				t.Errorf("got %+v; want %s %s", got, tt.status, tt.code)
			}
		})
	}
}

// modernQuestions drives AskUserQuestion at protocol 2026-07-28, the
// client's own fulfilment of InputRequests turned off so that the test
// answers each form itself.
type modernQuestions struct {
	t  *testing.T
	cs *mcp.ClientSession
}

func newModernQuestions(t *testing.T) modernQuestions {
	copts := &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}}
	return modernQuestions{t, connect(t, questionsServer(t), "2026-07-28", action("cancel"), copts)}
}

// first calls the tool and returns the form it asks for, with the state.
func (m modernQuestions) first() (*mcp.ElicitParams, string) {
	m.t.Helper()
	r, err := callQuestions(context.Background(), m.cs, auqRequest)
	if err != nil {
		m.t.Fatal(err)
	}
	return m.form(r)
}

// form is the one form r asks for, with its state.
func (m modernQuestions) form(r *mcp.CallToolResult) (*mcp.ElicitParams, string) {
	m.t.Helper()
	ep, ok := r.InputRequests["questionnaire"].(*mcp.ElicitParams)
	if !ok || len(r.InputRequests) != 1 || r.RequestState == "" {
		m.t.Fatalf("result %+v (%s); want one form under \"questionnaire\" and a state", r, text(r))
	}
	return ep, r.RequestState
}

// answer retries the call with state and the client's answer to the form.
func (m modernQuestions) answer(state string, res *mcp.ElicitResult) *mcp.CallToolResult {
	m.t.Helper()
	r, err := m.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: auq.ToolName, Arguments: json.RawMessage(auqRequest),
		RequestState: state, InputResponses: mcp.InputResponseMap{"questionnaire": res}})
	if err != nil {
		m.t.Fatal(err)
	}
	return r
}

// A 2026-07-28 client gets AskUserQuestion's form as InputRequests, the
// same form as by elicitation, and the retry's answer maps back as it
// does there.
func TestQuestionsInputRequests(t *testing.T) {
	m := newModernQuestions(t)
	form, state := m.first()
	schema, _ := json.Marshal(form.RequestedSchema)
	for _, p := range []string{`"q1"`, `"q1_other"`, `"q1_note"`, `"q2"`, `"q2_other"`, `"q2_note"`, `"required":["q1"]`} {
		if !strings.Contains(string(schema), p) {
			t.Errorf("the form lacks %s: %s", p, schema)
		}
	}
	r := m.answer(state, &mcp.ElicitResult{Action: "accept", Content: map[string]any{
		"q1": "Other", "q1_other": " MariaDB ", "q1_note": " fast ", "q2": []any{"Queue"}, "q2_note": "later"}})
	if r.IsError || r.NeedsInput() {
		t.Fatalf("got %s; want the answers", text(r))
	}
	sameJSON(t, structuredJSON(t, r), `{"cancelled":false,"answers":{
		"db":{"kind":"single","label":"Other","other":true,"text":"MariaDB"},
		"extras":{"kind":"multi","selections":[{"optionId":"queue","label":"Queue"}],"empty":false}},
		"annotations":{"db":{"questionNotes":"fast"},"extras":{"questionNotes":"later"}},
		"metadata":{"source":"test","flowId":"f-1"}}`)
	if !strings.Contains(text(r), "MariaDB") {
		t.Errorf("the text lacks the answer:\n%s", text(r))
	}
}

// A dismissal sooner than anyone could read the form is a form the
// client could not show; a later one is the user's.
func TestQuestionsInputRequestsDismissed(t *testing.T) {
	// In a synctest bubble the round trip takes no time at all, however
	// busy the machine.
	t.Run("too fast", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			m := newModernQuestions(t)
			_, state := m.first()
			r := m.answer(state, &mcp.ElicitResult{Action: "decline"})
			if !r.IsError || !strings.Contains(structuredJSON(t, r), `"code":"native_ui_failed"`) || !strings.Contains(text(r), "native_ui_failed") ||
				!strings.Contains(text(r), "too soon for anyone to have read it") || !strings.Contains(text(r), "in ordinary text") {
				t.Errorf("got %s (isError %v); want native_ui_failed with the advice to ask in text", text(r), r.IsError)
			}
		})
	})
	for _, a := range []string{"decline", "cancel"} {
		t.Run(a, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				m := newModernQuestions(t)
				_, state := m.first()
				time.Sleep(readTime)
				r := m.answer(state, &mcp.ElicitResult{Action: a})
				if r.IsError {
					t.Fatalf("error: %s", text(r))
				}
				sameJSON(t, structuredJSON(t, r), `{"cancelled":true,"metadata":{"source":"test","flowId":"f-1"}}`)
				want := map[string]string{"decline": "The user declined", "cancel": "The user cancelled"}[a]
				if !strings.Contains(text(r), want) {
					t.Errorf("the text lacks %q:\n%s", want, text(r))
				}
			})
		})
	}
}

// A form that comes back without a required answer is followed by one
// asking only for it; the answers given are kept, and the state of the
// second form carries them.
func TestQuestionsInputRequestsAgain(t *testing.T) {
	synctest.Test(t, questionsInputRequestsAgain)
}

// questionsInputRequestsAgain is TestQuestionsInputRequestsAgain on a
// synctest bubble's clock.
func questionsInputRequestsAgain(t *testing.T) {
	m := newModernQuestions(t)
	_, state := m.first()
	time.Sleep(readTime)
	r := m.answer(state, &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1": "Other", "q2": []any{"Cache"}, "q2_note": "small"}})
	form, state2 := m.form(r)
	props, _ := json.Marshal(form.RequestedSchema)
	if !strings.Contains(form.Message, `question 1 ("Database": Other is chosen without your own answer)`) ||
		strings.Contains(string(props), `"q2"`) || !strings.Contains(string(props), `"q1_other"`) {
		t.Errorf("the second form asks %s with %q", props, form.Message)
	}
	// The second form answered at once is no dismissal and needs no wait:
	// only the first form's answer can be too fast.
	r = m.answer(state2, &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1": "Other", "q1_other": "Mongo"}})
	if r.IsError || r.NeedsInput() {
		t.Fatalf("got %s; want the answers", text(r))
	}
	sameJSON(t, structuredJSON(t, r), `{"cancelled":false,"answers":{
		"db":{"kind":"single","label":"Other","other":true,"text":"Mongo"},
		"extras":{"kind":"multi","selections":[{"optionId":"cache","label":"Cache"}],"empty":false}},
		"annotations":{"extras":{"questionNotes":"small"}},
		"metadata":{"source":"test","flowId":"f-1"}}`)
	// A property the second form does not have is refused.
	_, state = m.first()
	time.Sleep(readTime)
	_, state2 = m.form(m.answer(state, &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1": "Other", "q2": []any{"Cache"}}}))
	r = m.answer(state2, &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1": "SQLite", "q2": []any{"Queue"}}})
	if !r.IsError || !strings.Contains(text(r), `properties it does not have: "q2"`) {
		t.Errorf("got %s; want the unknown property refused", text(r))
	}
}

// A state this server did not issue, or issued for another request, is
// refused, as is a retry without one.
func TestQuestionsInputRequestsState(t *testing.T) {
	m := newModernQuestions(t)
	_, state := m.first()
	payload, sig, _ := strings.Cut(state, ".")
	answer := &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1": "SQLite"}}
	for _, tt := range []struct{ name, state, want string }{
		{"tampered", payload + "x." + sig, "not issued by this server"},
		{"forged", "eyJ2IjoxfQ.AAAA", "not issued by this server"},
		{"none", "", "no request state"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := m.answer(tt.state, answer)
			if !r.IsError || !strings.Contains(text(r), "native_ui_failed") || !strings.Contains(text(r), tt.want) {
				t.Errorf("got %s; want native_ui_failed holding %q", text(r), tt.want)
			}
		})
	}
	t.Run("another session", func(t *testing.T) {
		// A second client of the same server cannot answer the first's
		// form with its state.
		srv := questionsServer(t)
		copts := &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}}
		a := modernQuestions{t, connect(t, srv, "2026-07-28", action("cancel"), copts)}
		b := modernQuestions{t, connect(t, srv, "2026-07-28", action("cancel"), copts)}
		_, state := a.first()
		if r := b.answer(state, answer); !r.IsError || !strings.Contains(text(r), "issued to another client session") {
			t.Errorf("got %s; want the state refused", text(r))
		}
	})
	t.Run("replayed", func(t *testing.T) {
		_, state := m.first()
		if r := m.answer(state, &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1": "SQLite"}}); r.IsError {
			t.Fatalf("the first answer: %s", text(r))
		}
		if r := m.answer(state, answer); !r.IsError || !strings.Contains(text(r), "used already") {
			t.Errorf("got %s; want the state refused", text(r))
		}
	})
	t.Run("another request", func(t *testing.T) {
		r, err := m.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: auq.ToolName,
			Arguments:    json.RawMessage(strings.Replace(auqRequest, "Which database?", "Which store?", 1)),
			RequestState: state, InputResponses: mcp.InputResponseMap{"questionnaire": answer}})
		if err != nil {
			t.Fatal(err)
		}
		if !r.IsError || !strings.Contains(text(r), "another questionnaire") {
			t.Errorf("got %s; want the state refused", text(r))
		}
	})
}
