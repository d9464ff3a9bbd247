package strictjson

import (
	"strings"
	"testing"
)

func TestMember(t *testing.T) {
	tests := []struct{ path, key, want string }{
		{"", "questions", "questions"},
		{"questions[0]", "title", "questions[0].title"},
		{"questions[0]", "Title-2_x", "questions[0].Title-2_x"},
		{"", "", `[""]`},
		{"questions[0]", "a b", `questions[0]["a b"]`},
		{"questions[0]", "\x1b]0;PWN\a", `questions[0]["\x1b]0;PWN\a"]`},
		{"questions[0]", "ti\u200btle\ufeff", `questions[0]["ti\u200btle\ufeff"]`},
		{"", "\u202eevil", `["\u202eevil"]`},
		{"", "日本", `["日本"]`},
		{"", "a.b", `["a.b"]`},
		{"", "a\xffb", `["a\xffb"]`},
		{"", strings.Repeat("é", 70), `["` + strings.Repeat("é", 60) + `"…]`},
	}
	for _, tt := range tests {
		if got := MemberPath(tt.path, tt.key); got != tt.want {
			t.Errorf("MemberPath(%q, %q) = %s, want %s", tt.path, tt.key, got, tt.want)
		}
	}
	if got := IndexPath(MemberPath("", "questions"), 3); got != "questions[3]" {
		t.Errorf("Index: %s", got)
	}
}
