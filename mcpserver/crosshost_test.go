package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/dialog"
	"github.com/askuser/askuser/internal/native"
	"github.com/askuser/askuser/mcpserver"
	"github.com/askuser/askuser/prefs"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// keepDefaults answers a form as a client does when the user accepts it
// untouched: every property that has a default gets it.
func keepDefaults(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	b, err := json.Marshal(req.Params.RequestedSchema)
	if err != nil {
		return nil, err
	}
	var schema struct {
		Properties map[string]struct {
			Default any `json:"default"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		return nil, err
	}
	content := map[string]any{}
	for name, p := range schema.Properties {
		if p.Default != nil {
			content[name] = p.Default
		}
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}

// enter answers every line prompt with an empty reply, which keeps the
// default.
type enter struct{}

func (enter) Input(context.Context, string, string) (string, bool, error) { return "", true, nil }

// A user who keeps every default gets the same answers from every host:
// askuser's dialog, the line prompts (as in Pi's RPC dialogs) and an MCP
// client's form. What a default fills in is one rule, in the contract.
func TestDefaultsAgreeAcrossHosts(t *testing.T) {
	requests := []string{
		`{"questions":[{"title":"Database","options":[{"label":"Postgres"},{"label":"SQLite"}],"default":"SQLite"}]}`,
		`{"questions":[{"title":"Where?","options":[{"label":"staging"},{"label":"prod"}],"default":"  canary  "}]}`,
		`{"questions":[{"title":"Targets","kind":"multi","options":[{"label":"linux"},{"label":"mac"}],"default":"mac"}]}`,
		`{"questions":[{"title":"Name","kind":"input","default":"  demo  "}]}`,
		`{"questions":[{"title":"Run the tests?","kind":"bool","default":false}]}`,
		`{"questions":[{"id":"cfg","title":"Release","kind":"simple-form","fields":[` +
			`{"name":"version","label":"Version","kind":"input","default":" 1.2.3 "},` +
			`{"name":"channel","label":"Channel","kind":"single","options":[{"label":"stable"},{"label":"beta"}],"default":"beta"},` +
			`{"name":"arches","label":"Architectures","kind":"multi","options":[{"label":"amd64"},{"label":"arm64"},{"label":"riscv64"}],"default":["riscv64","amd64"]},` +
			`{"name":"signed","label":"Signed","kind":"bool","default":true},` +
			`{"name":"notes","label":"Notes","kind":"input"}]}]}`,
		`{"questions":[` +
			`{"title":"One","options":[{"label":"a"},{"label":"b"}],"default":"b"},` +
			`{"title":"Two","kind":"bool","default":true},` +
			`{"title":"Three","kind":"input","default":"x"}]}`,
	}
	dialogHost := ask.NewAsker(ask.NewHost(ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, ask.RendererFunc[*contract.Request, []contract.Answer](func(_ context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
		eff := dialog.New(s.Request, nil).Update(dialog.Key{Name: "ctrl+enter"})
		if eff.Kind != dialog.EffectSubmit {
			return ask.Outcome[[]contract.Answer]{}, fmt.Errorf("ctrl+enter gave effect %v, not a submit", eff.Kind)
		}
		return ask.Outcome[[]contract.Answer]{Answer: eff.Answer}, nil
	})), nil), nil)
	promptHost := ask.NewAsker(ask.NewHost(ask.Bind(ask.Capabilities{}, contract.RouteNative, ask.AskUser, native.New(enter{}, nil)), nil), nil)
	srv := newServer(t, &mcpserver.Options{Host: ask.HostOptions{Options: prefs.Prefs{Mode: contract.RouteNative}}})
	cs := connect(t, srv, "2025-06-18", keepDefaults, nil)

	for i, req := range requests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			fromDialog := ask.AskJSON(t.Context(), dialogHost, ask.AskUser, []byte(req), nil)
			fromPrompts := ask.AskJSON(t.Context(), promptHost, ask.AskUser, []byte(req), nil)
			r, err := call(t.Context(), cs, req)
			if err != nil {
				t.Fatal(err)
			}
			fromMCP := result(t, r)
			for name, res := range map[string]contract.Result{"dialog": fromDialog, "prompts": fromPrompts, "MCP form": fromMCP} {
				if res.Status != contract.StatusAnswered {
					t.Fatalf("%s: %+v", name, res)
				}
				for _, a := range res.Answers {
					if !a.UsedDefault {
						t.Errorf("%s: answer %d does not say it used the default: %+v", name, a.Index, a)
					}
				}
			}
			if diff := cmp.Diff(fromDialog.Answers, fromPrompts.Answers, byName); diff != "" {
				t.Errorf("the dialog and the line prompts differ (-dialog +prompts):\n%s", diff)
			}
			if diff := cmp.Diff(fromDialog.Answers, fromMCP.Answers, byName); diff != "" {
				t.Errorf("the dialog and the MCP form differ (-dialog +MCP):\n%s", diff)
			}
		})
	}
}
