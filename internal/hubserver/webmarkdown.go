package hubserver

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/askuser/askuser/contract"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Node is one node of a Markdown preview as the page builds it, with
// createElement and textContent only: T names the element from a fixed
// list the page knows (p, h, ul, ol, li, pre, code, em, strong, quote,
// hr, br), Text is shown as text, and C are the children. Nothing of the
// source becomes an attribute, a link target or markup: a link is its
// text followed by its target in parentheses, raw HTML is its source
// text.
type Node struct {
	T     string `json:"t,omitempty"`
	Text  string `json:"x,omitempty"`
	Level int    `json:"l,omitempty"`
	C     []Node `json:"c,omitempty"`
}

// mdParser is built once; goldmark's parser is safe for concurrent use
// once configured.
var mdParser = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	)
})

// maxDepth bounds the tree, so that a preview nested a thousand times
// deep costs the page nothing more than a flat one.
const maxDepth = 12

// maxPrefix bounds, in bytes, the run of indentation, block quote and
// list markers that opens a line, when it holds a marker. Each marker
// opens a container the parser keeps open and checks again on every
// later line, at a cost that grows faster than the nesting, so that a
// preview nested thousands deep would take seconds; a longer run is cut
// to its first maxPrefix bytes, and the rest of its line kept.
// Indentation alone, as of code, is left as it is.
const maxPrefix = 32

// Markdown returns the tree of the Markdown src, of which it reads the
// first contract.MaxPreviewLen characters, its lines' openings bounded
// (maxPrefix) and its tree flattened past maxDepth: the work is about
// linear in the length, whatever the nesting.
func Markdown(src string) []Node {
	if len(src) > contract.MaxPreviewLen && utf8.RuneCountInString(src) > contract.MaxPreviewLen {
		n := 0
		for i := range src {
			if n == contract.MaxPreviewLen {
				src = src[:i]
				break
			}
			n++
		}
	}
	b := []byte(boundPrefixes(src))
	doc := mdParser().Parse(text.NewReader(b))
	return children(doc, b, 0)
}

// boundPrefixes cuts each line's opening run of containers to maxPrefix
// bytes.
func boundPrefixes(src string) string {
	var b strings.Builder
	rest := src
	for len(rest) > 0 {
		line, after, found := strings.Cut(rest, "\n")
		if n := prefixLen(line); n > maxPrefix && strings.TrimLeft(line[:n], " \t") != "" {
			if b.Len() == 0 {
				b.Grow(len(src))
				b.WriteString(src[:len(src)-len(rest)])
			}
			b.WriteString(line[:maxPrefix])
			b.WriteString(line[n:])
		} else if b.Len() > 0 {
			b.WriteString(line)
		}
		if found && b.Len() > 0 {
			b.WriteByte('\n')
		}
		rest = after
	}
	if b.Len() == 0 {
		return src
	}
	return b.String()
}

// prefixLen is the length of the run that opens line of spaces, tabs,
// block quote markers and list markers ("-", "+", "*", or digits then
// "." or ")", each followed by a space, a tab or the end of the line).
func prefixLen(line string) int {
	marker := func(j int) bool { return j == len(line) || line[j] == ' ' || line[j] == '\t' }
	i := 0
	for i < len(line) {
		switch c := line[i]; {
		case c == ' ' || c == '\t' || c == '>':
			i++
		case (c == '-' || c == '+' || c == '*') && marker(i+1):
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j == len(line) || (line[j] != '.' && line[j] != ')') || !marker(j+1) {
				return i
			}
			i = j + 1
		default:
			return i
		}
	}
	return i
}

func children(n ast.Node, src []byte, depth int) []Node {
	var out []Node
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = append(out, node(c, src, depth+1)...)
	}
	return out
}

// node converts n; an element past maxDepth is flattened to its text.
func node(n ast.Node, src []byte, depth int) []Node {
	if depth > maxDepth {
		return []Node{{Text: plain(n, src)}}
	}
	el := func(t string) []Node { return []Node{{T: t, C: children(n, src, depth)}} }
	switch v := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		if n.Kind() == ast.KindTextBlock {
			return children(n, src, depth)
		}
		return el("p")
	case *ast.Heading:
		return []Node{{T: "h", Level: v.Level, C: children(n, src, depth)}}
	case *ast.List:
		if v.IsOrdered() {
			return el("ol")
		}
		return el("ul")
	case *ast.ListItem:
		return el("li")
	case *ast.Blockquote:
		return el("quote")
	case *ast.ThematicBreak:
		return []Node{{T: "hr"}}
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		return []Node{{T: "pre", Text: lines(n, src)}}
	case *ast.HTMLBlock:
		s := lines(n, src)
		if v.HasClosure() {
			s += string(v.ClosureLine.Value(src))
		}
		return []Node{{T: "p", Text: s}}
	case *ast.CodeSpan:
		return []Node{{T: "code", Text: plain(n, src)}}
	case *ast.Emphasis:
		if v.Level >= 2 {
			return el("strong")
		}
		return el("em")
	case *ast.Link:
		out := children(n, src, depth)
		return append(out, Node{Text: " (" + string(v.Destination) + ")"})
	case *ast.AutoLink:
		return []Node{{Text: string(v.URL(src))}}
	case *ast.Image:
		return []Node{{Text: "[image: " + plain(n, src) + "] (" + string(v.Destination) + ")"}}
	case *ast.RawHTML:
		var s string
		for i := 0; i < v.Segments.Len(); i++ {
			seg := v.Segments.At(i)
			s += string(seg.Value(src))
		}
		return []Node{{Text: s}}
	case *ast.Text:
		out := []Node{{Text: string(v.Value(src))}}
		if v.HardLineBreak() {
			out = append(out, Node{T: "br"})
		} else if v.SoftLineBreak() {
			out = append(out, Node{Text: " "})
		}
		return out
	case *ast.String:
		return []Node{{Text: string(v.Value)}}
	}
	if n.Type() == ast.TypeBlock {
		return []Node{{T: "p", Text: lines(n, src)}}
	}
	return []Node{{Text: plain(n, src)}}
}

// lines is the source of a block's lines.
func lines(n ast.Node, src []byte) string {
	var s []byte
	l := n.Lines()
	for i := 0; i < l.Len(); i++ {
		seg := l.At(i)
		s = append(s, seg.Value(src)...)
	}
	return string(s)
}

// plain is the text of an inline node and its children.
func plain(n ast.Node, src []byte) string {
	var b strings.Builder
	writePlain(&b, n, src)
	return b.String()
}

// writePlain writes the text of n to b: once each, however deep.
func writePlain(b *strings.Builder, n ast.Node, src []byte) {
	switch v := n.(type) {
	case *ast.Text:
		b.Write(v.Value(src))
		return
	case *ast.String:
		b.Write(v.Value)
		return
	}
	if n.Type() == ast.TypeBlock {
		b.WriteString(lines(n, src))
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		writePlain(b, c, src)
	}
}
