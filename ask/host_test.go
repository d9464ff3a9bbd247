package ask

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/prefs"
)

var (
	custom = contract.RouteCustom
	native = contract.RouteNative
)

func TestRouteResolution(t *testing.T) {
	r := answerWith(Outcome[[]contract.Answer]{}, nil)
	both := Bind(Bind(Capabilities{}, contract.RouteCustom, AskUser, r), contract.RouteNative, AskUser, r)
	onlyCustom := Bind(Capabilities{NativeReason: "no dialogs"}, contract.RouteCustom, AskUser, r)
	onlyNative := Bind(Capabilities{CustomReason: "no terminal"}, contract.RouteNative, AskUser, r)
	none := Capabilities{CustomReason: "no terminal", NativeReason: "no dialogs"}
	avail := func(rs ...contract.Route) []contract.Route { return append([]contract.Route{}, rs...) }

	tests := []struct {
		name string
		caps Capabilities
		mode contract.Route
		want Support
	}{
		{"probe/both", both, "", Support{Status: SupportAvailable, Route: custom, Source: SourceProbed, Available: avail(custom, native)}},
		{"probe/custom", onlyCustom, "", Support{Status: SupportAvailable, Route: custom, Source: SourceProbed, Available: avail(custom)}},
		{"probe/native", onlyNative, "", Support{Status: SupportAvailable, Route: native, Source: SourceProbed, Available: avail(native)}},
		{"probe/none", none, "", Support{Status: SupportNoAvailableUI}},
		{"custom/both", both, custom, Support{Status: SupportAvailable, Route: custom, Source: SourceConfigured, Available: avail(custom, native)}},
		{"custom/custom", onlyCustom, custom, Support{Status: SupportAvailable, Route: custom, Source: SourceConfigured, Available: avail(custom)}},
		{"custom/native", onlyNative, custom, Support{Status: SupportConfiguredUnavailable, Configured: custom, Available: avail(native)}},
		{"custom/none", none, custom, Support{Status: SupportConfiguredUnavailable, Configured: custom, Available: avail()}},
		{"native/both", both, native, Support{Status: SupportAvailable, Route: native, Source: SourceConfigured, Available: avail(custom, native)}},
		{"native/custom", onlyCustom, native, Support{Status: SupportConfiguredUnavailable, Configured: native, Available: avail(custom)}},
		{"native/native", onlyNative, native, Support{Status: SupportAvailable, Route: native, Source: SourceConfigured, Available: avail(native)}},
		{"native/none", none, native, Support{Status: SupportConfiguredUnavailable, Configured: native, Available: avail()}},
		{"invalid mode", both, "tui", Support{Status: SupportInvalidConfig}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := NewHost(tt.caps, &HostOptions{Options: prefs.Prefs{Mode: tt.mode}})
			got := h.Support()
			checkSupport(t, tt.want, got)
			route, ok := h.Route()
			if ok != (tt.want.Status == SupportAvailable) || route != tt.want.Route {
				t.Errorf("Route() = %q, %v; want %q, %v", route, ok, tt.want.Route, tt.want.Status == SupportAvailable)
			}
			a := NewAsker(h, nil)
			if a.IsAvailable() != ok || (a.NotAvailableReason() == "") != ok {
				t.Errorf("IsAvailable() = %v, NotAvailableReason() = %q; want available %v", a.IsAvailable(), a.NotAvailableReason(), ok)
			}
		})
	}
}

// checkSupport compares everything but the reason, which must be set
// exactly when the host cannot prompt.
func checkSupport(t *testing.T, want, got Support) {
	t.Helper()
	reason := got.Reason
	got.Reason = ""
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Support() mismatch (-want +got):\n%s", diff)
	}
	if (reason == "") != (want.Status == SupportAvailable) {
		t.Errorf("Support().Reason = %q for status %s", reason, got.Status)
	}
}

func TestRouteResolutionWithConfigFile(t *testing.T) {
	r := answerWith(Outcome[[]contract.Answer]{}, nil)
	both := Bind(Bind(Capabilities{}, contract.RouteCustom, AskUser, r), contract.RouteNative, AskUser, r)
	onlyCustom := Bind(Capabilities{NativeReason: "no dialogs"}, contract.RouteCustom, AskUser, r)
	tests := []struct {
		name    string
		file    string // "" writes no file
		options prefs.Prefs
		caps    Capabilities
		want    Support
		reason  string // a substring of the reason
	}{
		{"no file probes", "", prefs.Prefs{}, both,
			Support{Status: SupportAvailable, Route: custom, Source: SourceProbed, Available: []contract.Route{custom, native}}, ""},
		{"empty file probes", "  \n", prefs.Prefs{}, both,
			Support{Status: SupportAvailable, Route: custom, Source: SourceProbed, Available: []contract.Route{custom, native}}, ""},
		{"file mode", `{"mode":"native"}`, prefs.Prefs{}, both,
			Support{Status: SupportAvailable, Route: native, Source: SourceConfigured, Available: []contract.Route{custom, native}}, ""},
		{"option beats file", `{"mode":"native"}`, prefs.Prefs{Mode: custom}, both,
			Support{Status: SupportAvailable, Route: custom, Source: SourceConfigured, Available: []contract.Route{custom, native}}, ""},
		{"file mode unbound", `{"mode":"native"}`, prefs.Prefs{}, onlyCustom,
			Support{Status: SupportConfiguredUnavailable, Configured: native, Available: []contract.Route{custom}}, "no dialogs"},
		{"bad json", `{"mode":`, prefs.Prefs{}, both, Support{Status: SupportInvalidConfig}, "ask-user.json"},
		{"unknown mode in file", `{"mode":"tui"}`, prefs.Prefs{}, both, Support{Status: SupportInvalidConfig}, "mode"},
		{"bad option with good file", `{"mode":"custom"}`, prefs.Prefs{TimeoutPerQuestionMs: ptr[int64](-1)}, both,
			Support{Status: SupportInvalidConfig}, "timeoutPerQuestionMs"},
		{"tool in the file of a host that is not Pi's", `{"tool":"AskUserQuestion"}`, prefs.Prefs{}, both,
			Support{Status: SupportInvalidConfig}, "tool: only the Pi package reads tool"},
		{"tool in the options of a host that is not Pi's", "", prefs.Prefs{Tool: prefs.ToolAskUser}, both,
			Support{Status: SupportInvalidConfig}, "options: invalid config: tool: only the Pi package"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ask-user.json")
			if tt.file != "" {
				if err := os.WriteFile(path, []byte(tt.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			h := NewHost(tt.caps, &HostOptions{Options: tt.options, ConfigFile: path})
			got := h.Support()
			checkSupport(t, tt.want, got)
			if !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("Support().Reason = %q; want it to mention %q", got.Reason, tt.reason)
			}
		})
	}
}

func TestConfigFileReadOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ask-user.json")
	if err := os.WriteFile(path, []byte(`{"mode":"native"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := answerWith(Outcome[[]contract.Answer]{Answer: answers(1)}, nil)
	h := NewHost(Bind(Bind(Capabilities{}, contract.RouteCustom, AskUser, r), contract.RouteNative, AskUser, r), &HostOptions{ConfigFile: path})
	if err := os.WriteFile(path, []byte(`{"mode":`), 0o600); err != nil {
		t.Fatal(err)
	}
	res := Ask(t.Context(), NewAsker(h, nil), AskUser, request(1), nil)
	if res.Status != contract.StatusAnswered || res.Route != native {
		t.Errorf("Ask after the file changed = %s on %q; want answered on native", res.Status, res.Route)
	}
}

func TestSupportJSON(t *testing.T) {
	tests := []struct {
		name string
		s    Support
		want string
	}{
		{"available", Support{Status: SupportAvailable, Route: custom, Source: SourceProbed, Available: []contract.Route{custom, native}},
			`{"status":"available","route":"custom","source":"probed","available":["custom","native"]}`},
		{"configured unavailable", Support{Status: SupportConfiguredUnavailable, Configured: native, Reason: "no dialogs"},
			`{"status":"configured_unavailable","configured":"native","available":[],"reason":"no dialogs"}`},
		{"no ui", Support{Status: SupportNoAvailableUI, Reason: "r"}, `{"status":"no_available_ui","reason":"r"}`},
		{"invalid config", Support{Status: SupportInvalidConfig, Reason: "r"}, `{"status":"invalid_config","reason":"r"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.s)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("json.Marshal mismatch (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := json.Marshal(Support{}); err == nil {
		t.Error("json.Marshal(Support{}) succeeded; want an error for the missing status")
	}
}

func TestSupportReasons(t *testing.T) {
	r := answerWith(Outcome[[]contract.Answer]{}, nil)
	tests := []struct {
		name string
		caps Capabilities
		mode contract.Route
		want string
	}{
		{"configured, other available", Bind(Capabilities{NativeReason: "print mode has no UI"}, contract.RouteCustom, AskUser, r), native,
			`mode "native" is configured, but native dialogs cannot run here (print mode has no UI); set mode to "custom" or remove it so that the route is probed`},
		{"configured, nothing available", Capabilities{}, custom,
			`mode "custom" is configured, but the custom dialog cannot run here (this host does not provide it); no other route can run here either, so the questions cannot be shown to the user`},
		{"nothing", Capabilities{CustomReason: "no terminal", NativeReason: "no dialogs"}, "",
			`no interactive UI can run here: the custom dialog cannot (no terminal) and native dialogs cannot (no dialogs), so the questions cannot be shown to the user`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NewHost(tt.caps, &HostOptions{Options: prefs.Prefs{Mode: tt.mode}}).Support().Reason
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Reason mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPreferences(t *testing.T) {
	h := NewHost(Capabilities{}, &HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: ptr[int64](5), ToggleKey: ptr("")}})
	got := h.Preferences()
	want := prefs.Effective{TimeoutPerQuestionMs: 5, TimeoutSet: true, Notify: config.Resolve(prefs.Prefs{}, prefs.Prefs{}).Notify}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Preferences() mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(prefs.Effective{}, (*Host)(nil).Preferences()); diff != "" {
		t.Errorf("nil Host Preferences() mismatch (-want +got):\n%s", diff)
	}
}

// TestWrap checks that Wrap sees the resolved preferences, that the
// capabilities it returns pick the route, and that an invalid config
// never reaches it.
func TestWrap(t *testing.T) {
	r := answerWith(Outcome[[]contract.Answer]{Answer: answers(1)}, nil)
	tests := []struct {
		name      string
		opts      prefs.Prefs
		wantCall  bool
		wantRoute contract.Route
	}{
		{"a route appears", prefs.Prefs{Hub: prefs.HubAuto}, true, custom},
		{"invalid options", prefs.Prefs{Mode: "fancy"}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			called := false
			h := NewHost(Capabilities{}, &HostOptions{Options: tt.opts, Wrap: func(p prefs.Effective, caps Capabilities) Capabilities {
				called = true
				if p.Hub != tt.opts.Hub {
					t.Errorf("Wrap saw hub %q, want %q", p.Hub, tt.opts.Hub)
				}
				return Bind(caps, contract.RouteCustom, AskUser, r)
			}})
			route, _ := h.Route()
			if called != tt.wantCall || route != tt.wantRoute {
				t.Errorf("Wrap called %v, route %q; want %v, %q", called, route, tt.wantCall, tt.wantRoute)
			}
		})
	}
}
