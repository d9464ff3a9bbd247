package hubserver_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/google/go-cmp/cmp"
)

// kinds are the element names the page knows how to build.
var kinds = map[string]bool{"": true, "p": true, "h": true, "ul": true, "ol": true, "li": true, "pre": true, "code": true,
	"em": true, "strong": true, "quote": true, "hr": true, "br": true}

func TestMarkdown(t *testing.T) {
	tests := []struct {
		name, src string
		want      []hubserver.Node
	}{
		{"heading and emphasis", "## Title\n\n*a* **b** `c`", []hubserver.Node{
			{T: "h", Level: 2, C: []hubserver.Node{{Text: "Title"}}},
			{T: "p", C: []hubserver.Node{{T: "em", C: []hubserver.Node{{Text: "a"}}}, {Text: " "}, {T: "strong", C: []hubserver.Node{{Text: "b"}}}, {Text: " "}, {T: "code", Text: "c"}}}}},
		{"link is text and target", "[x](javascript:alert(1))", []hubserver.Node{{T: "p", C: []hubserver.Node{{Text: "x"}, {Text: " (javascript:alert(1))"}}}}},
		{"image is text", "![alt](data:x)", []hubserver.Node{{T: "p", C: []hubserver.Node{{Text: "[image: alt] (data:x)"}}}}},
		{"raw HTML block is text", "<div onclick=x>hi</div>", []hubserver.Node{{T: "p", Text: "<div onclick=x>hi</div>"}}},
		{"code block", "```\n<b>\n```", []hubserver.Node{{T: "pre", Text: "<b>\n"}}},
		{"list and quote", "- a\n\n> b", []hubserver.Node{
			{T: "ul", C: []hubserver.Node{{T: "li", C: []hubserver.Node{{Text: "a"}}}}},
			{T: "quote", C: []hubserver.Node{{T: "p", C: []hubserver.Node{{Text: "b"}}}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, hubserver.Markdown(tt.src)); diff != "" {
				t.Errorf("Markdown(%q) (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

// TestMarkdownDepth flattens a preview nested past the bound.
func TestMarkdownDepth(t *testing.T) {
	src := strings.Repeat("> ", 200) + "deep"
	depth := 0
	var walk func([]hubserver.Node, int)
	walk = func(ns []hubserver.Node, d int) {
		for _, n := range ns {
			depth = max(depth, d)
			walk(n.C, d+1)
		}
	}
	walk(hubserver.Markdown(src), 1)
	if depth > 14 {
		t.Errorf("the tree is %d deep", depth)
	}
}

// FuzzMarkdown checks that any source makes a tree of known elements,
// without a panic.
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{"# a\n\n*b*", "<script>x</script>", "[a](javascript:b)", "```\nx\n```", "- a\n  - b\n> c", "| a | b |\n|---|---|\n| c | d |"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var walk func([]hubserver.Node)
		walk = func(ns []hubserver.Node) {
			for _, n := range ns {
				if !kinds[n.T] {
					t.Fatalf("Markdown(%q) made the element %q", src, n.T)
				}
				walk(n.C)
			}
		}
		walk(hubserver.Markdown(src))
	})
}

// hostileMarkdown are previews whose nesting costs a Markdown parser time
// in the square of their length, n bytes long.
var hostileMarkdown = map[string]func(n int) string{
	"indented lists": func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			b.WriteString(strings.Repeat("  ", i) + "- x\n")
		}
		return b.String()[:n]
	},
	"ordered markers": func(n int) string { return strings.Repeat("1. ", n/3) },
	"quotes":          func(n int) string { return strings.Repeat("> ", n/2) },
	"quoted lists":    func(n int) string { return strings.Repeat("> - ", n/4) + "x" },
	"long list":       func(n int) string { return strings.Repeat("- item\n", n/7) },
	"nested items": func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			b.WriteString(strings.Repeat("  ", i%1000) + "- item\n")
		}
		return b.String()[:n]
	},
}

// TestMarkdownBounded renders hostile previews far over the contract's
// limit: the page reads no more than the limit of any, and keeps the tree
// shallow. BenchmarkMarkdownHostile measures what one costs.
func TestMarkdownBounded(t *testing.T) {
	for name, make := range hostileMarkdown {
		t.Run(name, func(t *testing.T) {
			text, depth := 0, 0
			var walk func([]hubserver.Node, int)
			walk = func(ns []hubserver.Node, d int) {
				for _, n := range ns {
					text += utf8.RuneCountInString(n.Text)
					depth = max(depth, d)
					walk(n.C, d+1)
				}
			}
			walk(hubserver.Markdown(make(200_000)), 1)
			if text > contract.MaxPreviewLen || depth > 14 {
				t.Errorf("the tree holds %d characters, %d deep; want at most %d, and 14", text, depth, contract.MaxPreviewLen)
			}
		})
	}
}
