package strictjson_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
)

// TestToolTexts checks what both tools build from shared.md: each of
// their shim texts names the tool, and the text of an invalid_request
// result says what to do once, and each of its lines starts as a
// sentence or a list item does, whatever the number of problems.
func TestToolTexts(t *testing.T) {
	tools := []struct {
		name string
		shim map[string]string
		// invalid is the text of the invalid_request result for the
		// request, and Parse's error for it.
		invalid func(req string) (string, error)
		// Requests with one problem and with several.
		one, several string
	}{
		{"ask_user", contract.ShimTexts(), func(req string) (string, error) {
			_, _, err := contract.Parse([]byte(req))
			return contract.ResultText(nil, contract.InvalidRequestResult(err)), err
		}, `{"questions":[]}`, `{"questions":[{"title":""}],"x":1}`},
		{auq.ToolName, auq.ShimTexts(), func(req string) (string, error) {
			_, err := auq.Parse([]byte(req))
			return auq.ResultText(nil, auq.InvalidRequestOutcome(err)), err
		}, `{"questions":[]}`, `{"questions":[{"id":"$q","question":"x","header":"h","options":[]}]}`},
	}
	for _, tool := range tools {
		t.Run(tool.name, func(t *testing.T) {
			if len(tool.shim) == 0 {
				t.Error("no shim texts")
			}
			for k, s := range tool.shim {
				if !strings.Contains(s, tool.name) {
					t.Errorf("the shim text %q does not name %s: %q", k, tool.name, s)
				}
			}
			for name, req := range map[string]string{"one problem": tool.one, "several problems": tool.several} {
				got, err := tool.invalid(req)
				if err == nil {
					t.Fatalf("%s: the request was accepted", name)
				}
				for _, w := range []string{"Fix th", "call " + tool.name + " again", "No answer was given", "not shown to the user"} {
					if n := strings.Count(got, w); n != 1 {
						t.Errorf("%s: the text says %q %d times; want once:\n%s", name, w, n, got)
					}
				}
				for _, l := range strings.Split(strings.TrimSpace(got), "\n") {
					if r, _ := utf8.DecodeRuneInString(l); !unicode.IsUpper(r) && !strings.HasPrefix(l, "- ") {
						t.Errorf("%s: the line %q starts with neither a capital nor a list item's dash:\n%s", name, l, got)
					}
				}
			}
		})
	}
}
