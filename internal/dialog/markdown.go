// The Markdown previews of options as terminal lines: goldmark parses,
// and a small renderer of the dialog's own lays the tree out in cells and
// styles it through the roles of markdownStyles.
//
// The source is untrusted. Every piece of text that reaches the output
// passes through safetext, so no control sequence written in the source
// (ESC, C0 and C1 controls, OSC 8 links, OSC 52 clipboard writes, cursor
// movement) can survive; raw HTML is shown as text, never interpreted, and
// links are shown as "text (url)" without any hyperlink sequence. The only
// escape sequences in the output are the given styles.

package dialog

import (
	"strconv"
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markdownStyles are the roles a preview is drawn with, each used for one
// purpose only. The zero markdownStyles draws plain text.
type markdownStyles struct {
	Accent Style // headings
	Muted  Style // link targets and the marker of a continued code line
	Border Style // rules and the bar of a block quote
	Bold   Style // emphasis
	Code   Style // inline code and code blocks
}

// mdParser is built once: goldmark's parser is safe for concurrent use
// once configured, and building it costs more than parsing a preview.
var mdParser = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(append(parser.DefaultParagraphTransformers(),
			util.Prioritized(tableTransformer{}, 200))...),
	)
})

// markdownLines lays out the Markdown src in lines of at most width cells, as
// measured by x/ansi's StringWidth, styled with th. It returns nil when
// width is less than 1 or src renders to nothing.
//
// Paragraphs and headings are word-wrapped; a word longer than the width
// is broken between grapheme clusters. Code is never reflowed: a code line
// longer than the width continues on the next line after a "↩" marker.
// Lists hang their continuation lines under the item's text, block quotes
// get a "│" rule, and a table too wide for the width is shown as one
// "header: value" line per cell instead.
//
// markdownLines is safe for concurrent use. It does not keep src or the result.
func markdownLines(src string, width int, th markdownStyles) []string {
	if width < 1 {
		return nil
	}
	source := []byte(src)
	doc := mdParser().Parse(text.NewReader(source))
	r := newRenderer(source, th)
	lines := r.container(doc, width, false)
	for i, l := range lines {
		// A safety net only: the layout already measures every piece, but
		// grapheme clusters can join across pieces in ways a sum of widths
		// does not see.
		if lineWidth(l) > width {
			lines[i] = truncate(l, width)
		}
	}
	return lines
}

type renderer struct {
	src    []byte
	th     markdownStyles
	styles [flagCount]style
	depth  int // nesting of lists, for the bullet shape
}

// style is the SGR text that opens and closes one combination of flags.
type style struct{ open, close string }

func newRenderer(src []byte, th markdownStyles) *renderer {
	r := &renderer{src: src, th: th}
	for f := range flags(flagCount) {
		var open, close strings.Builder
		// Colours first, then weight; closed in the reverse order.
		order := []struct {
			bit flags
			st  Style
		}{{fAccent, th.Accent}, {fMuted, th.Muted}, {fCode, th.Code}, {fBold, th.Bold}}
		for _, o := range order {
			if f&o.bit != 0 {
				open.WriteString(o.st.Prefix)
			}
		}
		for i := len(order) - 1; i >= 0; i-- {
			if f&order[i].bit != 0 {
				close.WriteString(order[i].st.Suffix)
			}
		}
		r.styles[f] = style{open.String(), close.String()}
	}
	return r
}

// container renders the block children of n, separated by blank lines
// unless tight (the items of a tight list) or next to the bare text of a
// tight list item.
func (r *renderer) container(n ast.Node, width int, tight bool) []string {
	var out []string
	var prev ast.Node
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines := r.block(c, width)
		if len(lines) == 0 {
			continue
		}
		if prev != nil && !tight && prev.Kind() != ast.KindTextBlock && c.Kind() != ast.KindTextBlock {
			out = append(out, "")
		}
		out = append(out, lines...)
		prev = c
	}
	return out
}

func (r *renderer) block(n ast.Node, width int) []string {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return r.paragraph(n, width, 0)
	case *ast.Heading:
		fl := fBold
		if n.Level <= 2 {
			fl |= fAccent
		}
		return r.paragraph(n, width, fl)
	case *ast.ThematicBreak:
		return []string{r.th.Border.Render(strings.Repeat("─", width))}
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		return r.code(n, width, fCode)
	case *ast.HTMLBlock:
		lines := r.code(n, width, 0)
		if n.HasClosure() {
			lines = append(lines, r.codeLine(string(n.ClosureLine.Value(r.src)), width, 0)...)
		}
		return lines
	case *ast.Blockquote:
		return r.quote(n, width)
	case *ast.List:
		return r.list(n, width)
	case *extast.Table:
		return r.table(n, width)
	default:
		return r.container(n, width, false)
	}
}

func (r *renderer) paragraph(n ast.Node, width int, fl flags) []string {
	w := newWrapper(r, width)
	r.inlines(w, n, fl)
	return w.finish()
}

// code renders the lines of a code or HTML block as they are.
func (r *renderer) code(n ast.Node, width int, fl flags) []string {
	indent := ""
	if width >= 10 {
		indent = "  "
	}
	segs := n.Lines()
	var out []string
	for i := range segs.Len() {
		seg := segs.At(i)
		for _, l := range r.codeLine(string(seg.Value(r.src)), width-len(indent), fl) {
			if l != "" {
				l = indent + l
			}
			out = append(out, l)
		}
	}
	return out
}

// codeLine renders one source line of code, broken into pieces of width
// cells with a continuation marker.
func (r *renderer) codeLine(s string, width int, fl flags) []string {
	s = strings.TrimRight(s, "\r\n")
	s = clean(strings.ReplaceAll(s, "\t", "    "))
	st := r.styles[fl]
	var out []string
	// sw is s's width, kept up to date as pieces are cut off rather than
	// measured again, which made long lines quadratic.
	sw := lineWidth(s)
	for {
		if sw <= width {
			if s == "" {
				return append(out, "")
			}
			return append(out, st.open+s+st.close)
		}
		room, marker := width-1, true
		if room < 1 {
			room, marker = width, false // no room for the marker
		}
		head, tail, hw := cutCells(s, room)
		if head == "" {
			// One cluster is wider than the whole line.
			c := firstCluster(tail)
			head, tail, hw = "…", tail[len(c):], lineWidth(c)
		}
		l := st.open + head + st.close
		if marker {
			l += r.th.Muted.Render("↩")
		}
		out = append(out, l)
		s, sw = tail, sw-hw
	}
}

func (r *renderer) quote(n *ast.Blockquote, width int) []string {
	if width < 3 {
		return r.container(n, width, false)
	}
	bar := r.th.Border.Render("│")
	lines := r.container(n, width-2, false)
	for i, l := range lines {
		if l == "" {
			lines[i] = bar
		} else {
			lines[i] = bar + " " + l
		}
	}
	return lines
}

var bullets = [...]string{"• ", "◦ ", "▪ "}

func (r *renderer) list(n *ast.List, width int) []string {
	var markers []string
	num := n.Start
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if n.IsOrdered() {
			markers = append(markers, strconv.Itoa(num)+string(n.Marker)+" ")
			num++
		} else {
			markers = append(markers, bullets[r.depth%len(bullets)])
		}
	}
	mw := 0
	for _, m := range markers {
		mw = max(mw, lineWidth(m))
	}
	if mw >= width {
		mw = 0 // no room for markers: the items' text matters more
	}
	r.depth++
	defer func() { r.depth-- }()
	pad := strings.Repeat(" ", mw)
	var out []string
	i := 0
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines := r.container(c, width-mw, n.IsTight)
		if len(lines) == 0 {
			lines = []string{""}
		}
		if i > 0 && !n.IsTight {
			out = append(out, "")
		}
		for j, l := range lines {
			switch {
			case mw == 0:
			case j == 0:
				m := markers[i]
				l = strings.Repeat(" ", mw-lineWidth(m)) + m + l
			case l != "":
				l = pad + l
			}
			out = append(out, strings.TrimRight(l, " "))
		}
		i++
	}
	return out
}
