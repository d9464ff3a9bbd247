package pibridge

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDecodeWhiteSpace checks that white space between tokens, as any
// JSON encoder may write it, changes no verdict: a skipped member with a
// space after its colon is read, and a duplicate key after it refused.
func TestDecodeWhiteSpace(t *testing.T) {
	tests := []struct {
		name, line string
		want       string // the message type, or the error
	}{
		{"space before params", `{"type":"ask","call":"c1","params": {"header":"abc","questions":[{"title":"a","kind":"bool"}]}}`, "ask"},
		{"tab and newline around params", "{\"type\":\"ask\",\"call\":\"c1\",\"params\"\t:\r\n{\"questions\":[]} }", "ask"},
		{"space before result", `{"type":"explain","call":"x1","result": {"status":"aborted"}}`, "explain"},
		{"space before a scalar option", `{"type":"hello","version":1,"options": null,"mode":"tui"}`, "hello"},
		{"duplicate type after spaced params", `{"type":"abort","call":"c1","params": {"questions":[]},"type":"ask"}`, `message: duplicate key "type"`},
		{"duplicate call after spaced options", `{"type":"hello","options": 1,"call":"a","call":"b"}`, `message: duplicate key "call"`},
		{"duplicate in an explained result", `{"type":"explain","call":"x1","result": {"status":"error","status":"answered"}}`, `"result": duplicate key "status"`},
		{"lone surrogate in an explained result", `{"type":"explain","call":"x1","result":{"cancelled":true,"error":{"code":"internal","message":"\ud800"}}}`, `"result.error.message": an unpaired surrogate escape at byte 1 of the string; send text as UTF-8`},
		{"indented", "{\n  \"type\": \"key\",\n  \"call\": \"c1\",\n  \"key\": \"down\"\n}", "key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := decode([]byte(tt.line))
			got := m.Type
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("decode(%q) (-want +got):\n%s", tt.line, diff)
			}
			if err == nil && strings.Contains(tt.want, "duplicate") {
				t.Errorf("decode(%q) accepted a duplicate key", tt.line)
			}
		})
	}
}
