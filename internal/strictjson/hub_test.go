package strictjson

import "testing"

func TestHubCallNote(t *testing.T) {
	tests := []struct {
		name string
		call HubCall
		want string
	}{
		{"answered", HubCall{Local: "the form of c 1", Alone: "The MCP client c 1", Won: true, Where: "answered by eval (askuser answer) on h"},
			"The answer came through the askuser hub, not from the form of c 1: it was answered by eval (askuser answer) on h.\n"},
		{"answered only", HubCall{Local: "the form of c 1", Alone: "The MCP client c 1", Only: true, Won: true, Where: "answered by askuser answer on h", Answered: true},
			"The MCP client c 1 cannot show these questions here, so they waited on the askuser hub, where they were answered by askuser answer on h.\n"},
		{"waited", HubCall{Local: "the form of c", Alone: "The MCP client", Only: true},
			"The MCP client cannot show these questions here, so they waited on the askuser hub; nobody answered them there.\n"},
		{"only, answered elsewhere", HubCall{Alone: "The MCP client", Only: true, Answered: true}, ""},
		{"not the hub's", HubCall{Local: "the form of c", Answered: true}, ""},
	}
	for _, tt := range tests {
		if got := tt.call.Note(); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
