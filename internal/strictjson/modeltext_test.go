package strictjson

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// toolFiles are the tools' own text files, beside shared.md.
var toolFiles = []string{"../../contract/ask_user.md", "../../auq/AskUserQuestion.md"}

// TestEachSentenceOnce checks that no sentence is written twice in the
// text files: a sentence both tools say belongs in shared.md.
func TestEachSentenceOnce(t *testing.T) {
	placeholder := regexp.MustCompile(`\{[a-zA-Z.-]+\}`)
	seen := map[string]string{}
	for _, file := range append([]string{"shared.md"}, toolFiles...) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range sections(file, string(data)) {
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

// TestEachPlaceholder checks eachPlaceholder against the regular
// expression it stands for.
func TestEachPlaceholder(t *testing.T) {
	re := regexp.MustCompile(`\{[a-zA-Z.-]+\}`)
	upper := func(name string) string { return "<" + strings.ToUpper(name) + ">" }
	for _, s := range []string{"", "plain", "{a}", "x {tool} y {no-answer}.", "{}", "{a b}", "{{a}}", "{a", "a}", "{a}{b}",
		"{shim.failed} {x_y} {1} {é}", "{{", "}{a}{", "{a.b-c}end"} {
		want := re.ReplaceAllStringFunc(s, func(p string) string { return upper(p[1 : len(p)-1]) })
		if got := eachPlaceholder(s, upper); got != want {
			t.Errorf("eachPlaceholder(%q) = %q; want %q", s, got, want)
		}
	}
}

func TestLoadModelText(t *testing.T) {
	m := LoadModelText("tool_x", "# comment\n\n## description\nAsk. {no-invent}\n\n## guidelines\n- One.\n- {ask-only-when}\n\n## failed\n{tool-failed} {extra}\n", "extra")
	if got, want := m.Description(), "Ask. Do not invent an answer, and do not assume what the user would have chosen."; got != want {
		t.Errorf("Description() = %q; want %q", got, want)
	}
	if diff := cmp.Diff([]string{"One.", "Ask only when the answer changes what you will do and you cannot find it in the conversation, the code or the project's files."}, m.Guidelines()); diff != "" {
		t.Errorf("Guidelines() (-want +got):\n%s", diff)
	}
	if got, want := m.Text("failed", "code", "c", "message", "m", "extra", "{code}"), "tool_x failed (c: m). There is no answer. {code}"; got != want {
		t.Errorf("Text(failed) = %q; want %q", got, want)
	}
	g := m.Guidelines()
	g[0] = "changed"
	if m.Guidelines()[0] == "changed" {
		t.Error("Guidelines() returned shared storage")
	}
}

func TestLoadModelTextRefusesDefects(t *testing.T) {
	for name, file := range map[string]string{
		"unfilled": "## description\nAsk {nobody}.\n",
		"twice":    "## a\nx\n## a\ny\n",
		"shared":   "## no-answer\nx\n",
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("LoadModelText accepted the file")
				}
			}()
			LoadModelText("tool_x", file)
		})
	}
}

func TestShimTexts(t *testing.T) {
	want := []string{"failed", "notJSON", "notReady", "notStarted", "sessionEnded", "unavailable"}
	m := LoadModelText("tool_x", "")
	texts := m.ShimTexts()
	var keys []string
	for k, s := range texts {
		keys = append(keys, k)
		if !strings.Contains(s, "tool_x") {
			t.Errorf("the shim text %q does not name the tool: %q", k, s)
		}
	}
	sort.Strings(keys)
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("shim texts (-want +got):\n%s", diff)
	}
	texts["failed"] = "changed"
	if m.ShimTexts()["failed"] == "changed" {
		t.Error("ShimTexts returned shared storage")
	}
}

func TestSentence(t *testing.T) {
	for in, want := range map[string]string{"": "", "the request": "The request", "élan": "Élan", "Already": "Already"} {
		if got := Sentence(in); got != want {
			t.Errorf("Sentence(%q) = %q; want %q", in, got, want)
		}
	}
}

// TestLazyModelText checks that calls at once all get the one text.
func TestLazyModelText(t *testing.T) {
	var l LazyModelText
	got := make(chan *ModelText, 8)
	for range cap(got) {
		go func() { got <- l.Get("tool_x", "## description\nAsk.\n") }()
	}
	first := <-got
	for range cap(got) - 1 {
		if m := <-got; m != first {
			t.Fatal("two calls got two texts")
		}
	}
	if d := first.Description(); d != "Ask." {
		t.Errorf("Description() = %q; want %q", d, "Ask.")
	}
}
