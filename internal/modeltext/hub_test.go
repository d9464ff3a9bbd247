package modeltext

import "testing"

func TestHubLines(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"answered", AskUser.HubAnswered("the form of c 1", "answered by eval (askuser answer) on h", false),
			"The answer came through the askuser hub, not from the form of c 1: it was answered by eval (askuser answer) on h.\n"},
		{"answered only", AskUserQuestion.HubAnswered("The MCP client c 1", "answered by askuser answer on h", true),
			"The MCP client c 1 cannot show these questions here, so they waited on the askuser hub, where they were answered by askuser answer on h.\n"},
		{"waited", AskUser.HubWaited("The MCP client"),
			"The MCP client cannot show these questions here, so they waited on the askuser hub; nobody answered them there.\n"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, tt.got, tt.want)
		}
	}
}
