package mcpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/mcpserver"
)

const auqRequest = `{"questions":[
 {"id":"db","question":"Which database?","header":"Database","options":[
   {"id":"pg","label":"Postgres","description":"Relational","preview":"SELECT 1;","recommended":true},
   {"id":"lite","label":"SQLite","description":"Embedded"}]},
 {"id":"extras","question":"Which extras?","header":"Extras","multiSelect":true,"required":false,"options":[
   {"id":"cache","label":"Cache","description":"Redis"},{"id":"queue","label":"Queue","description":"NATS"}]}],
 "metadata":{"source":"test","flowId":"f-1","tags":["x"]}}`

func questionsServer(t *testing.T) *mcpserver.Server {
	t.Helper()
	return newServer(t, &mcpserver.Options{Tool: auq.ToolName})
}

func callQuestions(ctx context.Context, cs *mcp.ClientSession, args string) (*mcp.CallToolResult, error) {
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: auq.ToolName, Arguments: json.RawMessage(args)})
}

// structuredJSON is the structured content of r as JSON, its guidance
// checked to be the text content and then left out.
func structuredJSON(t *testing.T, r *mcp.CallToolResult) string {
	t.Helper()
	b, err := json.Marshal(r.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
	if m["guidance"] != text(r) {
		t.Errorf("guidance %q is not the text content %q", m["guidance"], text(r))
	}
	delete(m, "guidance")
	out, _ := json.Marshal(m)
	return string(out)
}

func sameJSON(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// readTime is longer than the least time in which a person can read a
// form: a form answered after it was seen. Only for a synctest bubble's
// clock, on which the wait takes no time.
const readTime = 350 * time.Millisecond

// slowly answers with action after readTime, as a person would: only for
// use inside synctest.Test.
func slowly(a string) elicitFunc { return after(readTime, action(a)) }

func TestQuestionsTool(t *testing.T) {
	cs := connect(t, questionsServer(t), versions[1], accept(`{}`), nil)
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(lt.Tools) != 1 || lt.Tools[0].Name != auq.ToolName {
		t.Fatalf("tools %+v; want AskUserQuestion alone", lt.Tools)
	}
	tool := lt.Tools[0]
	in, _ := json.Marshal(tool.InputSchema)
	var want, got any
	json.Unmarshal(auq.Schema(), &want)
	json.Unmarshal(in, &got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("input schema is not auq.Schema() (-want +got):\n%s", diff)
	}
	if tool.OutputSchema == nil || !strings.Contains(tool.Description, "") {
		t.Error("no output schema")
	}
	init := cs.InitializeResult()
	if !strings.HasPrefix(init.Instructions, "Guidelines for AskUserQuestion:") {
		t.Errorf("instructions %q", init.Instructions)
	}
	// ask_user is not served.
	r, err := call(context.Background(), cs, single)
	if err == nil && !r.IsError {
		t.Error("ask_user is served beside AskUserQuestion")
	}
}

func TestQuestionsNative(t *testing.T) {
	tests := []struct {
		name   string
		elicit elicitFunc
		want   string // the structured content but guidance
		text   string
		forms  int
	}{
		{"options with a note", accept(`{"q1":"Postgres","q1_note":" fast ","q2":["Queue","Cache"]}`),
			`{"cancelled":false,"answers":{"db":{"kind":"single","optionId":"pg","label":"Postgres"},
			  "extras":{"kind":"multi","selections":[{"optionId":"cache","label":"Cache"},{"optionId":"queue","label":"Queue"}],"empty":false}},
			  "annotations":{"db":{"questionNotes":"fast","selectedPreview":"SELECT 1;"}},"metadata":{"source":"test","flowId":"f-1"}}`,
			`"questionNotes":"fast"`, 1},
		{"Other by its text, optional left out", accept(`{"q1":"Other","q1_other":" MariaDB "}`),
			`{"cancelled":false,"answers":{"db":{"kind":"single","label":"Other","other":true,"text":"MariaDB"}},"metadata":{"source":"test","flowId":"f-1"}}`,
			`MariaDB`, 1},
		{"Other text alone on a multi-select", accept(`{"q1":"SQLite","q2":[],"q2_other":"Kafka"}`),
			`{"cancelled":false,"answers":{"db":{"kind":"single","optionId":"lite","label":"SQLite"},
			  "extras":{"kind":"multi","selections":[{"label":"Other","other":true,"text":"Kafka"}],"empty":false}},"metadata":{"source":"test","flowId":"f-1"}}`,
			`Kafka`, 1},
		{"an empty multi-select", accept(`{"q1":"SQLite","q2":[]}`),
			`{"cancelled":false,"answers":{"db":{"kind":"single","optionId":"lite","label":"SQLite"},
			  "extras":{"kind":"multi","selections":[],"empty":true}},"metadata":{"source":"test","flowId":"f-1"}}`,
			`"empty":true`, 1},
		{"declined", slowly("decline"), `{"cancelled":true,"metadata":{"source":"test","flowId":"f-1"}}`, "The user declined", 1},
		{"cancelled", slowly("cancel"), `{"cancelled":true,"metadata":{"source":"test","flowId":"f-1"}}`, "The user cancelled", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var mu sync.Mutex
				var forms []*mcp.ElicitParams
				h := func(ctx context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					mu.Lock()
					forms = append(forms, r.Params)
					mu.Unlock()
					return tt.elicit(ctx, r)
				}
				cs := connect(t, questionsServer(t), versions[1], h, nil)
				r, err := callQuestions(context.Background(), cs, auqRequest)
				if err != nil {
					t.Fatal(err)
				}
				if r.IsError {
					t.Fatalf("error: %s", text(r))
				}
				sameJSON(t, structuredJSON(t, r), tt.want)
				if !strings.Contains(text(r), tt.text) {
					t.Errorf("the text does not hold %q:\n%s", tt.text, text(r))
				}
				mu.Lock()
				defer mu.Unlock()
				if len(forms) != tt.forms {
					t.Fatalf("%d forms, want %d", len(forms), tt.forms)
				}
				schema, _ := json.Marshal(forms[0].RequestedSchema)
				sameJSON(t, string(schema), `{"type":"object","properties":{
					"q1":{"type":"string","title":"Database: Which database?","description":"Postgres:\nSELECT 1;","oneOf":[
					  {"const":"Postgres","title":"Postgres — Relational (recommended)"},
					  {"const":"SQLite","title":"SQLite — Embedded"},
					  {"const":"Other","title":"Other — type your own answer below"}]},
					"q1_other":{"type":"string","title":"Database: your own answer","description":"The text of your Other answer; choose Other above to use it."},
					"q1_note":{"type":"string","title":"Database: note","description":"Optional. A note to go with your answer."},
					"q2":{"type":"array","title":"Extras: Which extras?","description":"Choose any number of options, or none. Optional.","items":{"anyOf":[
					  {"const":"Cache","title":"Cache — Redis"},{"const":"Queue","title":"Queue — NATS"},{"const":"Other","title":"Other — type your own answer below"}]}},
					"q2_other":{"type":"string","title":"Extras: your own answer","description":"The text of your Other answer; choose Other above to use it."},
					"q2_note":{"type":"string","title":"Extras: note","description":"Optional. A note to go with your answer."}},
					"required":["q1"]}`)
			})
		})
	}
}

// TestQuestionsAgain asks again, in a second form, for what an accepted
// one left unusable, keeping the rest; a form dismissed too soon for a
// person is a form the client could not show.
func TestQuestionsAgain(t *testing.T) {
	t.Run("missing and Other without text", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			var mu sync.Mutex
			var forms []*mcp.ElicitParams
			h := func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				mu.Lock()
				defer mu.Unlock()
				forms = append(forms, r.Params)
				if len(forms) == 1 {
					time.Sleep(readTime)
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1": "Other", "q2": []any{"Cache"}}}, nil
				}
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"q1": "Other", "q1_other": "Mongo"}}, nil
			}
			cs := connect(t, questionsServer(t), versions[0], h, nil)
			r, err := callQuestions(context.Background(), cs, auqRequest)
			if err != nil {
				t.Fatal(err)
			}
			sameJSON(t, structuredJSON(t, r), `{"cancelled":false,"answers":{
				"db":{"kind":"single","label":"Other","other":true,"text":"Mongo"},
				"extras":{"kind":"multi","selections":[{"optionId":"cache","label":"Cache"}],"empty":false}},
				"metadata":{"source":"test","flowId":"f-1"}}`)
			mu.Lock()
			defer mu.Unlock()
			if len(forms) != 2 {
				t.Fatalf("%d forms, want 2", len(forms))
			}
			props, _ := json.Marshal(forms[1].RequestedSchema)
			if !strings.Contains(forms[1].Message, `question 1 ("Database": Other is chosen without your own answer)`) ||
				strings.Contains(string(props), `"q2"`) || !strings.Contains(string(props), `"q1_other"`) {
				t.Errorf("the second form asks %s with %q", props, forms[1].Message)
			}
		})
	})
	t.Run("too fast a dismissal", func(t *testing.T) {
		cs := connect(t, questionsServer(t), versions[1], action("cancel"), nil)
		r, err := callQuestions(context.Background(), cs, auqRequest)
		if err != nil {
			t.Fatal(err)
		}
		if !r.IsError || !strings.Contains(structuredJSON(t, r), `"code":"native_ui_failed"`) || !strings.Contains(text(r), "native_ui_failed") {
			t.Errorf("got %s (isError %v, structured %v); want native_ui_failed", text(r), r.IsError, r.StructuredContent)
		}
	})
	t.Run("a label the form does not have", func(t *testing.T) {
		// The SDK holds the answer to the form's schema before the server
		// reads it; the server refuses it too (see the unit tests).
		cs := connect(t, questionsServer(t), versions[1], accept(`{"q1":"MySQL"}`), nil)
		r, err := callQuestions(context.Background(), cs, auqRequest)
		if err != nil {
			t.Fatal(err)
		}
		if !r.IsError || !strings.Contains(text(r), "native_ui_failed") {
			t.Errorf("got %s", text(r))
		}
	})
	t.Run("an invalid request", func(t *testing.T) {
		cs := connect(t, questionsServer(t), versions[1], accept(`{}`), nil)
		r, err := callQuestions(context.Background(), cs, `{"questions":[{"title":"Deploy?"}]}`)
		if err != nil {
			t.Fatal(err)
		}
		if !r.IsError || !strings.Contains(text(r), "questions[0].title") {
			t.Errorf("got %s", text(r))
		}
	})
	t.Run("no elicitation and no popup", func(t *testing.T) {
		cs := connect(t, questionsServer(t), versions[1], nil, nil)
		r, err := callQuestions(context.Background(), cs, auqRequest)
		if err != nil {
			t.Fatal(err)
		}
		if !r.IsError || !strings.Contains(text(r), "unsupported_mode") {
			t.Errorf("got %s", text(r))
		}
	})
}

// TestQuestionsProgress sends the milestones as progress notifications
// whose messages are their names alone.
func TestQuestionsProgress(t *testing.T) {
	msgs := make(chan string, 100)
	copts := &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		msgs <- r.Params.Message
	}}
	cs := connect(t, questionsServer(t), versions[1], accept(`{"q1":"SQLite","q1_note":"secret note"}`), copts)
	p := &mcp.CallToolParams{Name: auq.ToolName, Arguments: json.RawMessage(auqRequest)}
	p.SetProgressToken("tok")
	if _, err := cs.CallTool(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	// The client may handle a notification after the result that
	// followed it.
	var milestones []string
	for len(milestones) < 2 {
		select {
		case m := <-msgs:
			if strings.Contains(m, "secret") || strings.Contains(m, "SQLite") || strings.Contains(m, "database") {
				t.Errorf("a progress message holds content: %q", m)
			}
			if !strings.HasPrefix(m, "waiting") {
				milestones = append(milestones, m)
			}
		case <-time.After(testkit.Patience(t)):
			t.Fatalf("milestones %v, and no more", milestones)
		}
	}
	if diff := cmp.Diff([]string{"dialog_opened", "submitted"}, milestones); diff != "" {
		t.Errorf("milestones (-want +got):\n%s", diff)
	}
}
