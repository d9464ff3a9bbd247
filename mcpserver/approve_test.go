package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/mcpserver"
	"github.com/askuser/askuser/prefs"
)

// touch is what Claude Code 2.1.332 sends its permission-prompt tool
// for a Bash call.
const touch = `{"tool_name":"Bash","input":{"command":"touch /tmp/ran","description":"Create a file"},"tool_use_id":"toolu_01"}`

// pick is a popup's AskUserQuestion renderer that picks the option id,
// with a note on it when note is not "", and counts its calls.
func pick(id, note string, calls *atomic.Int32) ask.Renderer[*auq.Request, auq.Result] {
	return ask.RendererFunc[*auq.Request, auq.Result](func(_ context.Context, s *ask.Session[*auq.Request]) (ask.Outcome[auq.Result], error) {
		calls.Add(1)
		if s.Kind != ask.KindApproval {
			return ask.Outcome[auq.Result]{}, errors.New("not shown as an approval")
		}
		o := s.Request.Questions[0].OptionByID(id)
		ann := auq.Annotations{SelectedPreview: o.Preview}
		if note != "" {
			ann.OptionNotes = map[string]string{id: note}
		}
		return ask.Outcome[auq.Result]{Answer: auq.Result{
			Answers:     map[string]auq.Answer{approval.QuestionID: {Kind: auq.KindSingle, Choice: auq.Choice{OptionID: id, Label: o.Label}}},
			Annotations: map[string]auq.Annotations{approval.QuestionID: ann},
		}}, nil
	})
}

func popup(r ask.Renderer[*auq.Request, auq.Result]) ask.Capabilities {
	return ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUserQuestion, r)
}

func TestApproveTool(t *testing.T) {
	var calls atomic.Int32
	never := ask.RendererFunc[*auq.Request, auq.Result](func(ctx context.Context, _ *ask.Session[*auq.Request]) (ask.Outcome[auq.Result], error) {
		calls.Add(1)
		<-ctx.Done()
		return ask.Outcome[auq.Result]{}, ctx.Err()
	})
	dismiss := ask.RendererFunc[*auq.Request, auq.Result](func(context.Context, *ask.Session[*auq.Request]) (ask.Outcome[auq.Result], error) {
		calls.Add(1)
		return ask.Outcome[auq.Result]{Dismissed: true}, nil
	})
	ms := int64(30)
	tests := []struct {
		name  string
		opts  mcpserver.Options
		args  string
		want  string
		calls int32 // of the popup's renderer
	}{
		{
			name: "allow once", opts: mcpserver.Options{Custom: popup(pick(approval.AllowID, "", &calls))},
			args: touch, calls: 1,
			want: `{"behavior":"allow","updatedInput":{"command":"touch /tmp/ran","description":"Create a file"}}`,
		},
		{
			name: "deny with a reason", opts: mcpserver.Options{Custom: popup(pick(approval.DenyID, "not in /tmp", &calls))},
			args: touch, calls: 1,
			want: `{"behavior":"deny","message":"The person denied this call: not in /tmp"}`,
		},
		{
			name: "dismissed", opts: mcpserver.Options{Custom: popup(dismiss)},
			args: touch, calls: 1,
			want: `{"behavior":"deny","message":"The person dismissed the approval without deciding, so the call is denied."}`,
		},
		{
			name: "timed out", opts: mcpserver.Options{Custom: popup(never), Host: ask.HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: &ms}}},
			args: touch, calls: 1,
			want: `{"behavior":"deny","message":"Nobody answered the approval in time, so the call is denied."}`,
		},
		{
			name: "the client's form is not a route", opts: mcpserver.Options{Custom: ask.Capabilities{CustomReason: "no tmux"}},
			args: touch,
			want: `{"behavior":"deny","message":"The approval could not be asked (unsupported_mode: no interactive UI can run here: the custom dialog cannot (no tmux, and no hub was reached) and native dialogs cannot (approvals are not asked in the MCP client's form), so the questions cannot be shown to the user), so the call is denied."}`,
		},
		{
			name: "a configured native mode does not apply", opts: mcpserver.Options{Custom: popup(pick(approval.AllowID, "", &calls)), Host: ask.HostOptions{Options: prefs.Prefs{Mode: contract.RouteNative}}},
			args: touch, calls: 1,
			want: `{"behavior":"allow","updatedInput":{"command":"touch /tmp/ran","description":"Create a file"}}`,
		},
		{
			name: "malformed input", opts: mcpserver.Options{Custom: popup(pick(approval.AllowID, "", &calls))},
			args: `{"tool_name":"Bash","input":"touch /tmp/ran"}`,
			want: `{"behavior":"deny","message":"askuser could not read the permission prompt, so the call is denied: the permission prompt has no tool input object"}`,
		},
		{
			name: "a duplicate key", opts: mcpserver.Options{Custom: popup(pick(approval.AllowID, "", &calls))},
			args: `{"tool_name":"Bash","input":{"command":"ls","command":"rm -rf ~"}}`,
		},
		{
			name: "a command over the limit", opts: mcpserver.Options{Custom: popup(pick(approval.AllowID, "", &calls))},
			args: `{"tool_name":"Bash","input":{"command":"` + strings.Repeat("x", approval.MaxCommandLen+1) + `"}}`,
			want: `{"behavior":"deny","message":"askuser cannot ask about this call, so it is denied: command: has 65537 characters; the limit is 65536"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls.Store(0)
			tt.opts.Approve = true
			formed := func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				t.Error("the approval was asked in the client's form")
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
			}
			cs := connect(t, newServer(t, &tt.opts), versions[1], formed, nil)
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: mcpserver.ApproveToolName, Arguments: json.RawMessage(tt.args)})
			if err != nil {
				t.Fatal(err)
			}
			got := text(r)
			if r.IsError || len(r.Content) != 1 || r.StructuredContent != nil {
				t.Errorf("result %+v; want one text block, not an error", r)
			}
			var res struct{ Behavior, Message string }
			if err := json.Unmarshal([]byte(got), &res); err != nil {
				t.Fatalf("%s: %v", got, err)
			}
			if tt.want == "" && res.Behavior != "deny" || tt.want != "" && got != tt.want {
				t.Errorf("result\n got %s\nwant %s", got, tt.want)
			}
			if n := calls.Load(); n != tt.calls {
				t.Errorf("the popup was shown %d times, want %d", n, tt.calls)
			}
		})
	}
}

func TestApproveToolListed(t *testing.T) {
	for _, approve := range []bool{false, true} {
		cs := connect(t, newServer(t, &mcpserver.Options{Approve: approve}), versions[1], nil, nil)
		lt, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tl := range lt.Tools {
			names = append(names, tl.Name)
			if tl.Name == mcpserver.ApproveToolName && !strings.Contains(tl.Description, "not a tool for the model") {
				t.Errorf("description %q", tl.Description)
			}
		}
		slices.Sort(names)
		want := []string{mcpserver.ToolName}
		if approve {
			want = []string{mcpserver.ApproveToolName, mcpserver.ToolName}
		}
		if !slices.Equal(names, want) {
			t.Errorf("Approve %v: tools %v, want %v", approve, names, want)
		}
	}
}
