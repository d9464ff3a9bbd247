package strictjson

import "testing"

func TestExactNames(t *testing.T) {
	names := []string{"tool_name", "hook_event_name"}
	tests := []struct {
		data string
		ok   bool
	}{
		{`{"tool_name":"Bash","hook_event_name":"PermissionRequest","other":1}`, true},
		{`{"tool_name":"Read","TOOL_NAME":"Bash"}`, false},
		{`{"Tool_Name":"Bash"}`, false},
		{`{"hoo\u212a_event_name":"PermissionRequest"}`, false},
		{`{"tool_names":"Bash"}`, true},
		{`[{"TOOL_NAME":"Bash"}]`, true},
		{`"x"`, true},
	}
	for _, tt := range tests {
		if err := ExactNames([]byte(tt.data), names...); (err == nil) != tt.ok {
			t.Errorf("ExactNames(%s) = %v, want ok %v", tt.data, err, tt.ok)
		}
	}
}

func TestFieldNames(t *testing.T) {
	type event struct {
		Name   string `json:"hook_event_name"`
		Tool   string `json:"tool_name,omitempty"`
		Plain  string
		Hidden string `json:"-"`
		inner  string
	}
	_ = event{}.inner
	got := FieldNames(&event{})
	want := []string{"hook_event_name", "tool_name", "Plain"}
	if len(got) != len(want) {
		t.Fatalf("FieldNames = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("FieldNames = %q, want %q", got, want)
		}
	}
}
