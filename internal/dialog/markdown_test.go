package dialog

import (
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/askuser/askuser/internal/testkit"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/contract"
)

// styles are the preview roles of th, as the dialog passes them.
func styles(th Theme) markdownStyles {
	return markdownStyles{Accent: th.Accent, Muted: th.Muted, Border: th.Border, Bold: th.Bold, Code: th.Code}
}

func TestMarkdownPlain(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		width int
		want  []string
	}{
		{"empty", "", 20, nil},
		{"zero width", "hello", 0, nil},
		{"negative width", "hello", -3, nil},
		{"paragraph wraps at words", "the quick brown fox jumps over the lazy dog", 15,
			[]string{"the quick brown", "fox jumps over", "the lazy dog"}},
		{"paragraphs are separated", "one\n\ntwo", 10, []string{"one", "", "two"}},
		{"soft break is a space", "one\ntwo", 10, []string{"one two"}},
		{"hard break", "one\\\ntwo  \nthree", 20, []string{"one", "two", "three"}},
		{"emphasis and strong", "a *b* **c** _d_", 20, []string{"a b c d"}},
		{"long word is cut", "abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"long wide word is cut", "日本語の文", 4, []string{"日本", "語の", "文"}},
		{"long word after text", "ab 👍🏽👍🏽👍🏽x", 5, []string{"ab 👍🏽", "👍🏽👍🏽x"}},
		{"cluster wider than the line", "日本", 1, []string{"…", "…"}},
		{"long code line", "    abcdefg", 4, []string{"abc↩", "defg"}},
		{"headings", "# One\n\n### Three\n\nSetext\n======", 20, []string{"One", "", "Three", "", "Setext"}},
		{"inline code", "run `go test ./...` now", 30, []string{"run go test ./... now"}},
		{"link", "see [the docs](https://example.com/x) here", 41,
			[]string{"see the docs (https://example.com/x) here"}},
		{"link without text", "[](https://e.x)", 40, []string{"(https://e.x)"}},
		{"autolink", "<https://example.com>", 40, []string{"https://example.com"}},
		{"image", "![logo](img.png)", 40, []string{"logo (img.png)"}},
		{"escapes and entities", `\*not\* &amp; &lt;b&gt; &#65;&#x42; &nosuch;`, 40,
			[]string{"*not* & <b> AB &nosuch;"}},
		{"raw inline html is text", "a <b>bold</b> b", 40, []string{"a <b>bold</b> b"}},
		{"html block is text", "<div>\n*x*\n</div>", 40, []string{"  <div>", "  *x*", "  </div>"}},
		{"bullet list hangs", "- alpha beta gamma\n- delta", 12,
			[]string{"• alpha beta", "  gamma", "• delta"}},
		{"nested list", "- a\n  - b\n    - c\n      - d", 20,
			[]string{"• a", "  ◦ b", "    ▪ c", "      • d"}},
		{"ordered list aligns markers", "9. nine\n10. ten ten", 9,
			[]string{" 9. nine", "10. ten", "    ten"}},
		{"ordered list start and paren", "3) c\n4) d", 10, []string{"3) c", "4) d"}},
		{"loose list", "- a\n\n- b", 10, []string{"• a", "", "• b"}},
		{"list item with paragraphs", "- a\n\n  b", 10, []string{"• a", "", "  b"}},
		{"empty item", "-\n- x", 10, []string{"•", "• x"}},
		{"block quote", "> quoted words here\n>\n> more", 12,
			[]string{"│ quoted", "│ words here", "│", "│ more"}},
		{"nested quote", "> > deep", 12, []string{"│ │ deep"}},
		{"thematic break", "a\n\n---\n\nb", 5, []string{"a", "", "─────", "", "b"}},
		{"fenced code keeps spaces", "```\nif x {\n\treturn  1\n}\n```", 20,
			[]string{"  if x {", "      return  1", "  }"}},
		{"indented code", "    a := 1", 20, []string{"  a := 1"}},
		{"long code line continues", "```\nabcdefghijklmnop\n```", 10,
			[]string{"  abcdefg↩", "  hijklmn↩", "  op"}},
		{"code at tiny width", "```\nabc\n```", 1, []string{"a", "b", "c"}},
		{"code blank line", "```\na\n\nb\n```", 20, []string{"  a", "", "  b"}},
		{"table", "| a | b |\n|---|--:|\n| long | 1 |\n| x | 22 |", 20,
			[]string{"a    │  b", "─────┼───", "long │  1", "x    │ 22"}},
		{"centred column", "| h | c |\n|---|:-:|\n| x | abcde |", 20,
			[]string{"h │   c", "──┼──────", "x │ abcde"}},
		{"narrow table becomes records", "| name | role |\n|---|---|\n| Ada | engineer |\n| Bob | ops |", 12,
			[]string{"name: Ada", "role:", "engineer", "", "name: Bob", "role: ops"}},
		{"text before a table", "Sizes:\n| a | b |\n|---|---|\n| 1 | 2 |", 20,
			[]string{"Sizes:", "", "a │ b", "──┼──", "1 │ 2"}},
		{"rows padded and cut to the header", "a | b\n--|--\n1\n1 | 2 | 3", 20,
			[]string{"a │ b", "──┼──", "1 │", "1 │ 2"}},
		{"escaped pipe stays in its cell", "| a | b |\n|---|---|\n| x \\| y | z |", 20,
			[]string{"a     │ b", "──────┼──", "x | y │ z"}},
		{"header and delimiter disagree", "| a | b |\n|---|\n| 1 | 2 |", 30,
			[]string{"| a | b | |---| | 1 | 2 |"}},
		{"delimiter needs a pipe", "a\n:-:", 20, []string{"a :-:"}},
		{"cjk wraps by cells", "日本語 テキスト", 8, []string{"日本語", "テキスト"}},
		{"cjk word is cut by cells", "日本語テキスト", 5, []string{"日本", "語テ", "キス", "ト"}},
		{"wide cluster at width one", "日x", 1, []string{"…", "x"}},
		{"emoji clusters", "👍🏽 👨‍👩‍👧 ok", 5, []string{"👍🏽 👨‍👩‍👧", "ok"}},
		{"combining marks", "e\u0301e\u0301e\u0301", 2, []string{"e\u0301e\u0301", "e\u0301"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := markdownLines(tt.src, tt.width, styles(PlainTheme()))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("markdownLines(%q, %d) mismatch (-want +got):\n%s", tt.src, tt.width, diff)
			}
		})
	}
}

func TestMarkdownStyled(t *testing.T) {
	// Distinct zero-width SGR sequences, read back as tags.
	sgr := func(n string) Style {
		return Style{Prefix: "\x1b[" + n + ";1m", Suffix: "\x1b[" + n + ";2m"}
	}
	th := Theme{Accent: sgr("1"), Muted: sgr("2"), Border: sgr("3"), Bold: sgr("4"), Code: sgr("5")}
	tags := strings.NewReplacer(
		"\x1b[1;1m", "<A>", "\x1b[1;2m", "</A>", "\x1b[2;1m", "<M>", "\x1b[2;2m", "</M>",
		"\x1b[3;1m", "<B>", "\x1b[3;2m", "</B>", "\x1b[4;1m", "<b>", "\x1b[4;2m", "</b>",
		"\x1b[5;1m", "<c>", "\x1b[5;2m", "</c>")
	tests := []struct {
		name  string
		src   string
		width int
		want  []string
	}{
		{"heading", "# Big\n\n### small", 20, []string{"<A><b>Big</b></A>", "", "<b>small</b>"}},
		{"strong run stays one span", "a **b c** d", 20, []string{"a <b>b c</b> d"}},
		{"style closes at line end", "**one two**", 3, []string{"<b>one</b>", "<b>two</b>"}},
		{"inline code", "x `y`", 20, []string{"x <c>y</c>"}},
		{"link url is muted", "[t](u)", 20, []string{"t <M>(u)</M>"}},
		{"code block", "```\nab\n```", 20, []string{"  <c>ab</c>"}},
		{"code marker is muted", "```\nabcdefghijkl\n```", 10, []string{"  <c>abcdefg</c><M>↩</M>", "  <c>hijkl</c>"}},
		{"quote bar", "> q", 20, []string{"<B>│</B> q"}},
		{"rule", "---", 3, []string{"<B>───</B>"}},
		{"table", "| h |\n|---|\n| v |", 20, []string{"<b>h</b>", "<B>─</B>", "v"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := markdownLines(tt.src, tt.width, styles(th))
			checkLines(t, tt.src, tt.width, got, th)
			for i, l := range got {
				got[i] = tags.Replace(l)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("markdownLines(%q, %d) mismatch (-want +got):\n%s", tt.src, tt.width, diff)
			}
		})
	}
}

// TestMarkdownUntrusted checks that nothing in the source can form a control
// sequence: every control character is shown as a visible stand-in.
func TestMarkdownUntrusted(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"csi in text", "red\x1b[31m!", []string{"red␛[31m!"}},
		{"osc 52 clipboard", "x\x1b]52;c;SGVsbG8=\x07y", []string{"x␛]52;c;SGVsbG8=␇y"}},
		{"osc 8 link", "\x1b]8;;https://evil\x1b\\click\x1b]8;;\x1b\\", []string{"␛]8;;https://evil␛\\click␛]8;;␛\\"}},
		{"cursor movement in code", "```\n\x1b[2J\x1b[H\n```", []string{"  ␛[2J␛[H"}},
		{"escape in code span", "`\x1b[1A`", []string{"␛[1A"}},
		{"escape in link url", "[a](http://x/\x1b[31m)", []string{"a (http://x/␛[31m)"}},
		{"numeric reference to esc", "&#27;[31m &#x1b;[2J &#x9b;", []string{"␛[31m ␛[2J <U+009B>"}},
		{"c1 csi", "a\u009b31mb", []string{"a<U+009B>31mb"}},
		{"bidi override", "abc\u202edef", []string{"abc<U+202E>def"}},
		{"bell and backspace", "a\a\bb", []string{"a␇␈b"}},
		{"carriage return", "over\rwrite", []string{"over␍write"}},
		{"nul", "a\x00b", []string{"a␀b"}},
		{"invalid utf-8", "a\xffb", []string{"a\uFFFDb"}},
		{"html is not interpreted", "<script>alert(1)</script>", []string{"  <script>alert(1)</script>"}},
		{"tab in text", "a\tb", []string{"a␉b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := markdownLines(tt.src, 60, styles(PlainTheme()))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("markdownLines(%q) mismatch (-want +got):\n%s", tt.src, diff)
			}
			checkLines(t, tt.src, 60, got, PlainTheme())
		})
	}
}

// TestMarkdownConcurrent runs markdownLines from several goroutines; with -race it
// checks that the shared parser holds no per-call state.
func TestMarkdownConcurrent(t *testing.T) {
	want := markdownLines(sample, 50, styles(DefaultTheme()))
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 20 {
				if got := markdownLines(sample, 50, styles(DefaultTheme())); !cmp.Equal(want, got) {
					t.Error("concurrent markdownLines gave a different result")
					return
				}
			}
		})
	}
	wg.Wait()
}

// checkLines asserts the two promises of markdownLines: no line is wider than
// width, and once the theme's own styles are removed no control
// character is left.
func checkLines(t *testing.T, src string, width int, lines []string, th Theme) {
	t.Helper()
	seqs := []string{}
	for _, st := range []Style{th.Accent, th.Muted, th.Selection, th.Warning, th.Error, th.Border, th.Bold, th.Code} {
		seqs = append(seqs, st.Prefix, st.Suffix)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Fatalf("markdownLines(%q, %d): line %d is %d cells wide: %q", src, width, i, w, l)
		}
		bare := l
		for _, s := range seqs {
			if s != "" {
				bare = strings.ReplaceAll(bare, s, "")
			}
		}
		if !utf8.ValidString(bare) {
			t.Fatalf("markdownLines(%q, %d): line %d is not valid UTF-8: %q", src, width, i, l)
		}
		for _, r := range bare {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
				t.Fatalf("markdownLines(%q, %d): line %d holds control %U: %q", src, width, i, r, l)
			}
		}
	}
}

func FuzzMarkdown(f *testing.F) {
	// Seeds stay small: the fuzzer minimizes every seed that finds new
	// coverage before it mutates anything, and a 1 KB seed kept it busy
	// for the whole of a one-minute run.
	f.Add(compact, 40)
	f.Add("- a\n  - b\n\n> q\n\n```\ncode\n```", 3)
	f.Add("| a | b |\n|---|---|\n| 日本 | 👍🏽 |", 5)
	f.Add("x\x1b[31m&#27;", 1)
	f.Fuzz(func(t *testing.T, src string, width int) {
		testkit.FuzzBound(t, struct {
			Src   string
			Width int
		}{src, width}, func() {
			width = width%200 + 1
			if width < 1 {
				width += 200
			}
			for _, th := range []Theme{PlainTheme(), DefaultTheme()} {
				checkLines(t, src, width, markdownLines(src, width, styles(th)), th)
			}
		})
	})
}

// BenchmarkMarkdownLongWord renders the longest preview allowed as one word
// in a one-cell column, which once took time quadratic in its length.
func BenchmarkMarkdownLongWord(b *testing.B) {
	src := strings.Repeat("👨‍👩‍👧", contract.MaxPreviewLen/len("👨‍👩‍👧"))
	b.ReportAllocs()
	for b.Loop() {
		markdownLines(src, 2, styles(PlainTheme()))
	}
}

func BenchmarkMarkdown(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(sample)))
	th := styles(DefaultTheme())
	for b.Loop() {
		markdownLines(sample, 80, th)
	}
}

// compact has every construct markdownLines knows, once.
const compact = "## H\n\n**b** *i* `c` [l](u) <b>&amp;\n\n- a\n  - b\n\n1. x\n\n> q\n\n```sh\nx\n```\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n---\n"

// sample is a preview of about 2 KB with every construct markdownLines knows.
var sample = strings.Repeat(`## Deploy to staging

Ship the **current branch** to the *staging* cluster, then run the smoke
tests. The rollout uses `+"`kubectl rollout`"+` and waits for every pod; see
[the runbook](https://example.com/runbook) for details.

- builds the image and pushes it to the registry
- applies the manifests
  - waits for readiness
  - runs `+"`make smoke`"+`
- reports the result in the channel

1. checkout
2. build

> Staging is shared: announce the deploy first.

`+"```sh\nmake deploy ENV=staging\nkubectl -n staging rollout status deploy/api --timeout=5m\n```"+`

| step | time |
|------|-----:|
| build | 3 min |
| deploy | 2 min |

---
`, 2)
