package modeltext

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func ptr[T any](v T) *T { return &v }

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// TestPlaceholders checks that every {name} left in a text once the
// package has loaded is a value the code or the shim fills in, so that a
// misspelt section of shared.md cannot reach the model.
func TestPlaceholders(t *testing.T) {
	filled := map[string]bool{"{code}": true, "{message}": true, "{status}": true, "{value}": true,
		"{text}": true, "{list}": true, "{default}": true, "{error}": true,
		"{local}": true, "{where}": true}
	for _, tool := range []*Tool{AskUser, AskUserQuestion} {
		for name, s := range tool.texts {
			for _, p := range placeholder.FindAllString(s, -1) {
				shim := strings.HasPrefix(name, "shim.") && p == "{reason}"
				if !filled[p] && !shim {
					t.Errorf("%s: the text %q holds %s, which nothing fills in:\n%s", tool.name, name, p, s)
				}
			}
		}
	}
}

// TestEachSentenceOnce checks that no sentence is written twice in the
// text files: a sentence both tools say belongs in shared.md.
func TestEachSentenceOnce(t *testing.T) {
	seen := map[string]string{}
	for _, file := range []string{"shared.md", "ask_user.md", "AskUserQuestion.md"} {
		for name, s := range sections(file) {
			for _, line := range strings.Split(strings.ReplaceAll(s, ". ", ".\n"), "\n") {
				line = strings.TrimPrefix(strings.TrimSpace(line), "- ")
				if len(strings.Fields(placeholder.ReplaceAllString(line, ""))) < 3 {
					continue
				}
				where := file + " " + name
				if first, ok := seen[line]; ok {
					t.Errorf("%q is written twice, in %s and in %s", line, first, where)
				}
				seen[line] = where
			}
		}
	}
}

func TestShimTexts(t *testing.T) {
	want := []string{"failed", "notJSON", "notReady", "notStarted", "sessionEnded", "unavailable"}
	for _, tool := range []*Tool{AskUser, AskUserQuestion} {
		texts := tool.ShimTexts()
		var keys []string
		for k, s := range texts {
			keys = append(keys, k)
			if !strings.Contains(s, tool.name) {
				t.Errorf("%s: the shim text %q does not name the tool: %q", tool.name, k, s)
			}
		}
		sort.Strings(keys)
		if diff := cmp.Diff(want, keys); diff != "" {
			t.Errorf("%s: shim texts (-want +got):\n%s", tool.name, diff)
		}
		texts["failed"] = "changed"
		if tool.ShimTexts()["failed"] == "changed" {
			t.Errorf("%s: ShimTexts returned shared storage", tool.name)
		}
	}
}
