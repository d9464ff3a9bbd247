package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/config"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/mcpserver"
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
		{"flag native over file custom", ask.HostOptions{ConfigFile: custom, Options: config.Prefs{Mode: contract.RouteNative}}, contract.StatusAnswered, ""},
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
