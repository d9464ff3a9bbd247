package opencode

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/approval"
)

// bashAsked is a permission.asked event as OpenCode 1.18.33 publishes it
// for its bash tool.
const bashAsked = `{"type":"permission.asked","properties":{"id":"per_1","sessionID":"ses_1","permission":"bash","patterns":["touch ran"],"metadata":{"command":"touch ran"},"always":["touch *"],"tool":{"messageID":"msg_1","callID":"call_1"}}}`

func TestPermissionApproval(t *testing.T) {
	tests := []struct {
		name  string
		event string
		want  approval.Request
	}{
		{"bash", bashAsked, approval.Request{Agent: "opencode", Tool: "bash", Action: approval.ActionRun, Command: "touch ran",
			Always: []string{"always allow bash touch * until OpenCode is restarted"}}},
		{"bash without metadata", `{"type":"permission.asked","properties":{"id":"per_1","permission":"bash","patterns":["ls","pwd"],"always":[]}}`,
			approval.Request{Agent: "opencode", Tool: "bash", Action: approval.ActionRun, Command: "ls\npwd"}},
		{"edit", `{"type":"permission.asked","properties":{"id":"per_2","permission":"edit","patterns":["a.go"],"metadata":{"filepath":"/p/a.go","diff":"-a\n+b"},"always":["*"]}}`,
			approval.Request{Agent: "opencode", Tool: "edit", Action: approval.ActionEdit, Path: "/p/a.go", Diff: "-a\n+b",
				Always: []string{"always allow edit until OpenCode is restarted"}}},
		{"webfetch", `{"type":"permission.asked","properties":{"id":"per_3","permission":"webfetch","patterns":["https://x.org"],"metadata":{"url":"https://x.org"},"always":["*"]}}`,
			approval.Request{Agent: "opencode", Tool: "webfetch", Action: approval.ActionFetch, Detail: "https://x.org",
				Always: []string{"always allow webfetch until OpenCode is restarted"}}},
		{"another permission", `{"type":"permission.asked","properties":{"id":"per_4","permission":"external_directory","patterns":["/etc/*"],"metadata":{"filepath":"/etc/x"},"always":["/etc/*"]}}`,
			approval.Request{Agent: "opencode", Tool: "external_directory", Action: approval.ActionUse,
				Detail: "{\n  \"metadata\": {\n    \"filepath\": \"/etc/x\"\n  },\n  \"patterns\": [\n    \"/etc/*\"\n  ]\n}",
				Always: []string{"always allow external_directory /etc/* until OpenCode is restarted"}}},
		{"always too long to say", `{"type":"permission.asked","properties":{"id":"per_5","permission":"bash","patterns":["x"],"metadata":{"command":"x"},"always":["` + strings.Repeat("y", 200) + `"]}}`,
			approval.Request{Agent: "opencode", Tool: "bash", Action: approval.ActionRun, Command: "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := DecodeEvent([]byte(tt.event))
			if err != nil {
				t.Fatal(err)
			}
			p, err := DecodePermission(e)
			if err != nil {
				t.Fatal(err)
			}
			r, err := p.Approval("opencode")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, *r); diff != "" {
				t.Errorf("approval (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeRefuses(t *testing.T) {
	tests := []struct{ name, event, want string }{
		{"not JSON", `{`, "the event"},
		{"duplicate key", `{"type":"permission.asked","type":"question.asked","properties":{}}`, "duplicate"},
		{"no type", `{"properties":{}}`, "no type"},
		{"no properties", `{"type":"permission.asked"}`, "no properties object"},
		{"data after", `{"type":"permission.asked","properties":{}} {}`, "not valid JSON"},
		{"no id", `{"type":"permission.asked","properties":{"permission":"bash"}}`, "no id"},
		{"no permission", `{"type":"permission.asked","properties":{"id":"per_1"}}`, "names no permission"},
		{"another event", `{"type":"question.asked","properties":{"id":"que_1"}}`, "not permission.asked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := DecodeEvent([]byte(tt.event))
			if err == nil {
				_, err = DecodePermission(e)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func TestReply(t *testing.T) {
	r := &approval.Request{Agent: "opencode", Tool: "bash", Action: approval.ActionRun, Command: "x", Always: []string{"always"}}
	decided := func(d approval.Decision) approval.Outcome {
		return approval.Outcome{Status: approval.StatusDecided, Decision: &d}
	}
	tests := []struct {
		name string
		o    approval.Outcome
		want string // "": no reply
	}{
		{"once", decided(approval.Decision{Allow: true}), `{"reply":"once"}`},
		{"always", decided(approval.Decision{Allow: true, Always: 1}), `{"reply":"always"}`},
		{"reject", decided(approval.Decision{}), `{"reply":"reject"}`},
		{"reject with a reason", decided(approval.Decision{Reason: "not <here>"}), `{"reply":"reject","message":"not <here>"}`},
		{"a standing choice not offered", decided(approval.Decision{Allow: true, Always: 2}), ""},
		{"no decision", approval.Outcome{Status: approval.StatusDecided}, ""},
		{"dismissed", approval.Outcome{Status: approval.StatusDismissed}, ""},
		{"timeout", approval.Outcome{Status: approval.StatusTimeout}, ""},
		{"aborted", approval.Outcome{Status: approval.StatusAborted}, ""},
		{"error", approval.Outcome{Status: approval.StatusError, Error: &approval.Error{Code: "x", Message: "y"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(Reply(r, tt.o)); got != tt.want {
				t.Errorf("Reply = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPlugin(t *testing.T) {
	got, err := Plugin([]string{"/opt/ask user/askuser", "hook", "kilo"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), "\nconst hook = [\"/opt/ask user/askuser\",\"hook\",\"kilo\"];\n") || strings.Contains(string(got), hookLine) {
		t.Errorf("the plugin does not run the command given:\n%s", got)
	}
	if !IsPlugin(got) || !IsPlugin(PluginSource()) || IsPlugin([]byte("export const X = 1\n")) {
		t.Error("IsPlugin does not tell askuser's plugin from another")
	}
	if _, err := Plugin(nil); err == nil {
		t.Error("a plugin without a command")
	}
}
