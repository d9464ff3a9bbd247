package mcpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connectRaw is connect with a client that sends its answers to forms as
// f gives them, unchecked, as clients that enforce no schema do (the
// client of github.com/mark3labs/mcp-go, for one): the go-sdk's own
// client checks an answer against the form's schema before it leaves.
// At 2026-07-28 the client does not fulfil input requests itself; see
// drive.
func connectRaw(t *testing.T, srv *mcpserver.Server, v string, f *forms) *mcp.ClientSession {
	t.Helper()
	copts := &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}}
	raw := func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "elicitation/create" {
				return next(ctx, method, req)
			}
			res, err := f.handle(ctx, req.(*mcp.ElicitRequest))
			if err != nil || res.Content == nil {
				return res, err
			}
			return wireAnswer{res, res.Content}, nil
		}
	}
	return connectClient(t, srv, v, f.handle, copts, raw)
}

// wireAnswer is an accepted form's answer as a client that enforces no
// schema sends it: its content always present, also when it is {}.
type wireAnswer struct {
	*mcp.ElicitResult
	Content map[string]any `json:"content"`
}

// drive calls tool with args and, while the result asks for a form (at
// 2026-07-28), answers it through f and retries with the state, as a
// client does; it returns the last result.
func drive(t *testing.T, cs *mcp.ClientSession, f *forms, tool, args string) *mcp.CallToolResult {
	t.Helper()
	p := &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)}
	for {
		r, err := cs.CallTool(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if !r.NeedsInput() {
			return r
		}
		ep, ok := r.InputRequests["questionnaire"].(*mcp.ElicitParams)
		if !ok {
			t.Fatalf("input requests %+v; want a form", r.InputRequests)
		}
		res, err := f.handle(context.Background(), &mcp.ElicitRequest{Params: ep})
		if err != nil {
			t.Fatal(err)
		}
		p = &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args), RequestState: r.RequestState,
			InputResponses: mcp.InputResponseMap{"questionnaire": res}}
	}
}

// A form the client returns with answers missing, or with values of the
// wrong type, on any protocol, is followed by one that asks for those
// alone and names what was wrong; the answers that could be used are
// kept. The SDK would have refused the whole answer at 2025-06-18 and
// 2025-11-25, and the call would have ended in native_ui_failed.
func TestPartialForm(t *testing.T) {
	const migrate = `{"questions":[{"title":"Run the migrations?","kind":"bool"}]}`
	tests := []struct {
		name, tool, args string
		answers          []timedAnswer
		again            string // the second form's message, up to its time
		want             string // the structured content, guidance left out
	}{
		{"ask_user: nothing", mcpserver.ToolName, migrate,
			[]timedAnswer{{5 * time.Second, `{}`}, {5 * time.Second, `{"q1":false}`}},
			`Some answers are still missing: question 1 ("Run the migrations?"). The answers you gave are kept.`,
			`{"status":"answered","route":"native","answers":[{"index":0,"id":"q1","title":"Run the migrations?","kind":"bool","selections":[],"usedDefault":false,"value":false}]}`},
		{"ask_user: a string for a boolean", mcpserver.ToolName, migrate,
			[]timedAnswer{{5 * time.Second, `{"q1":"true"}`}, {5 * time.Second, `{"q1":true}`}},
			`Some answers are missing or could not be used: question 1 ("Run the migrations?": the form sent a string where it needs yes or no). Your other answers are kept.`,
			`{"status":"answered","route":"native","answers":[{"index":0,"id":"q1","title":"Run the migrations?","kind":"bool","selections":[],"usedDefault":false,"value":true}]}`},
		{"ask_user: a default is no answer to a wrong value", mcpserver.ToolName, `{"questions":[{"title":"Run the tests?","kind":"bool","default":true}]}`,
			[]timedAnswer{{5 * time.Second, `{"q1":"false"}`}, {5 * time.Second, `{"q1":false}`}},
			`Some answers are missing or could not be used: question 1 ("Run the tests?": the form sent a string where it needs yes or no). Your other answers are kept.`,
			`{"status":"answered","route":"native","answers":[{"index":0,"id":"q1","title":"Run the tests?","kind":"bool","selections":[],"usedDefault":false,"value":false}]}`},
		{"ask_user: several", mcpserver.ToolName, three,
			[]timedAnswer{{5 * time.Second, `{"q1":"MySQL","q2":1,"q3.version":"2","q3.arches":["arm64","arm64"]}`}, {5 * time.Second, `{"q1":"SQLite","q2":true,"q3.arches":[]}`}},
			`Some answers are missing or could not be used: question 1 ("Database": "MySQL" is not one of the options), question 2 ("Run the tests?": the form sent a number where it needs yes or no) and question 3 ("Release": field "arches": "arm64" is chosen twice). Your other answers are kept.`,
			`{"status":"answered","route":"native","answers":[{"index":0,"id":"q1","title":"Database","kind":"single","selections":["SQLite"],"usedDefault":false},` +
				`{"index":1,"id":"q2","title":"Run the tests?","kind":"bool","selections":[],"usedDefault":false,"value":true},` +
				`{"index":2,"id":"cfg","title":"Release","kind":"simple-form","selections":[],"usedDefault":false,"value":{"version":"2"}}]}`},
		{"AskUserQuestion: nothing", auq.ToolName, auqRequest,
			[]timedAnswer{{5 * time.Second, `{}`}, {5 * time.Second, `{"q1":"SQLite"}`}},
			`Some answers still need you: question 1 ("Database": no answer). The answers you gave are kept.`,
			`{"cancelled":false,"answers":{"db":{"kind":"single","optionId":"lite","label":"SQLite"}},"metadata":{"source":"test","flowId":"f-1"}}`},
		{"AskUserQuestion: wrong types", auq.ToolName, auqRequest,
			[]timedAnswer{{5 * time.Second, `{"q1":["SQLite"],"q2":"Cache"}`}, {5 * time.Second, `{"q1":"SQLite","q2":["Cache"]}`}},
			`Some answers still need you: question 1 ("Database": the form sent an array where it needs one of the choices) and question 2 ("Extras": the form sent a string where it needs a list of choices). The answers you gave are kept.`,
			`{"cancelled":false,"answers":{"db":{"kind":"single","optionId":"lite","label":"SQLite"},` +
				`"extras":{"kind":"multi","selections":[{"optionId":"cache","label":"Cache"}],"empty":false}},"metadata":{"source":"test","flowId":"f-1"}}`},
	}
	for _, v := range versions {
		for _, tt := range tests {
			t.Run(v+"/"+tt.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					srv := newServer(t, nil)
					if tt.tool == auq.ToolName {
						srv = questionsServer(t)
					}
					f := &forms{answers: tt.answers}
					r := drive(t, connectRaw(t, srv, v, f), f, tt.tool, tt.args)
					if r.IsError {
						t.Fatalf("error: %s", text(r))
					}
					got := structuredJSON(t, r)
					sameJSON(t, got, tt.want)
					if n := f.count(); n != 2 {
						t.Fatalf("%d forms were sent; want 2", n)
					}
					if msg, _, _ := strings.Cut(f.message(1), "\n\n("); msg != tt.again {
						t.Errorf("second form's message:\n%s\nwant:\n%s", msg, tt.again)
					}
				})
			})
		}
	}
}

// A client that keeps sending what cannot be used ends the call with
// empty_answer after the last form, naming the problem, as one that keeps
// leaving answers out does.
func TestPartialFormBounded(t *testing.T) {
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := &forms{answers: []timedAnswer{{5 * time.Second, `{"q1":"true"}`}}}
				r := drive(t, connectRaw(t, newServer(t, nil), v, f), f, mcpserver.ToolName, `{"questions":[{"title":"Run the migrations?","kind":"bool"}]}`)
				got := result(t, r)
				if got.Error == nil || got.Error.Code != "empty_answer" ||
					!strings.Contains(got.Error.Message, `the form was sent 3 times and still came back without a usable answer to question 1 ("Run the migrations?": the form sent a string where it needs yes or no)`) {
					t.Errorf("got %+v; want empty_answer naming the problem", got.Error)
				}
				if n := f.count(); n != 3 {
					t.Errorf("%d forms were sent; want 3", n)
				}
			})
		})
	}
}

// On the InputRequests path nothing reaches the model while the client
// shows the form, and the server cannot take it off the screen: an answer
// to it counts, also after the deadline, until the request state expires
// a day later. A form sent again after the deadline says nothing of time.
func TestLateAnswerOnScreen(t *testing.T) {
	const migrate = `{"timeoutPerQuestionMs":60000,"questions":[{"title":"Run the migrations?","kind":"bool"}]}`
	tests := []struct {
		name    string
		answers []timedAnswer
		want    string
		forms   int
	}{
		{"answered at 81 s of 60", []timedAnswer{{81 * time.Second, `{"q1":true}`}},
			`{"status":"answered","route":"native","answers":[{"index":0,"id":"q1","title":"Run the migrations?","kind":"bool","selections":[],"usedDefault":false,"value":true}]}`, 1},
		{"asked again after the deadline", []timedAnswer{{70 * time.Second, `{}`}, {time.Hour, `{"q1":false}`}},
			`{"status":"answered","route":"native","answers":[{"index":0,"id":"q1","title":"Run the migrations?","kind":"bool","selections":[],"usedDefault":false,"value":false}]}`, 2},
		{"after the state expired", []timedAnswer{{60*time.Second + 24*time.Hour, `{"q1":true}`}},
			`{"status":"timeout","route":"native","answers":[]}`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := &forms{answers: tt.answers}
				r := drive(t, connectRaw(t, newServer(t, nil), "2026-07-28", f), f, mcpserver.ToolName, migrate)
				sameJSON(t, structuredJSON(t, r), tt.want)
				if n := f.count(); n != tt.forms {
					t.Fatalf("%d forms were sent; want %d", n, tt.forms)
				}
				if tt.forms > 1 && strings.Contains(f.message(1), "to answer)") {
					t.Errorf("the form sent after the deadline gives a time to answer: %q", f.message(1))
				}
			})
		})
	}
	t.Run("AskUserQuestion", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			// Two questions have 120 s.
			f := &forms{answers: []timedAnswer{{150 * time.Second, `{"q1":"SQLite"}`}}}
			cs := connectRaw(t, questionsServer(t), "2026-07-28", f)
			r := drive(t, cs, f, auq.ToolName, auqRequest)
			sameJSON(t, structuredJSON(t, r), `{"cancelled":false,"answers":{"db":{"kind":"single","optionId":"lite","label":"SQLite"}},"metadata":{"source":"test","flowId":"f-1"}}`)
		})
	})
}
