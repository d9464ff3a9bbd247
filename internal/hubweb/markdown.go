package hubweb

import (
	"sync"

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

// Markdown returns the tree of the Markdown src.
func Markdown(src string) []Node {
	b := []byte(src)
	doc := mdParser().Parse(text.NewReader(b))
	return children(doc, b, 0)
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
	switch v := n.(type) {
	case *ast.Text:
		return string(v.Value(src))
	case *ast.String:
		return string(v.Value)
	}
	if n.Type() == ast.TypeBlock {
		return lines(n, src)
	}
	var s string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		s += plain(c, src)
	}
	return s
}
