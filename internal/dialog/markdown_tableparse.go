package dialog

import (
	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// tableTransformer finds GFM tables in paragraphs: a row of cells, then a
// delimiter row such as "|---|:--:|", then the body rows up to the end of
// the paragraph. Lines before the header row stay a paragraph.
//
// It is ours rather than goldmark's extension package because importing
// that package compiles its regular expressions (links, typography) at
// every start of askuser, which costs more than parsing every preview.
type tableTransformer struct{}

func (tableTransformer) Transform(p *ast.Paragraph, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	lines := p.Lines()
	for i := 1; i < lines.Len(); i++ {
		delim := lines.At(i)
		aligns, ok := delimiterRow(delim.Value(src))
		if !ok {
			continue
		}
		head := splitRow(src, lines.At(i-1))
		if len(head) != len(aligns) {
			return
		}
		t := extast.NewTable()
		t.Alignments = aligns
		t.AppendChild(t, extast.NewTableHeader(tableRow(head, aligns)))
		for j := i + 1; j < lines.Len(); j++ {
			t.AppendChild(t, tableRow(splitRow(src, lines.At(j)), aligns))
		}
		parent := p.Parent()
		parent.InsertAfter(parent, p, t)
		if i == 1 {
			parent.RemoveChild(parent, p)
			return
		}
		lines.SetSliced(0, i-1)
		last := lines.At(i - 2)
		last = last.TrimRightSpace(src)
		lines.Set(i-2, last)
		return
	}
}

// delimiterRow parses a delimiter row: cells of one or more '-' with an
// optional ':' at either end, separated by '|'. It needs at least one '|',
// so that a lone "---" stays what CommonMark makes of it.
func delimiterRow(line []byte) ([]extast.Alignment, bool) {
	line = trimCellSpace(line)
	pipes := 0
	for _, c := range line {
		if c == '|' {
			pipes++
		}
	}
	if pipes == 0 {
		return nil, false
	}
	if len(line) > 0 && line[0] == '|' {
		line = line[1:]
	}
	if len(line) > 0 && line[len(line)-1] == '|' {
		line = line[:len(line)-1]
	}
	var aligns []extast.Alignment
	for len(line) > 0 || aligns == nil {
		end := 0
		for end < len(line) && line[end] != '|' {
			end++
		}
		c := trimCellSpace(line[:end])
		left, right := len(c) > 0 && c[0] == ':', len(c) > 1 && c[len(c)-1] == ':'
		if left {
			c = c[1:]
		}
		if right {
			c = c[:len(c)-1]
		}
		if len(c) == 0 {
			return nil, false
		}
		for _, b := range c {
			if b != '-' {
				return nil, false
			}
		}
		switch {
		case left && right:
			aligns = append(aligns, extast.AlignCenter)
		case left:
			aligns = append(aligns, extast.AlignLeft)
		case right:
			aligns = append(aligns, extast.AlignRight)
		default:
			aligns = append(aligns, extast.AlignNone)
		}
		if end == len(line) {
			break
		}
		line = line[end+1:]
	}
	return aligns, true
}

// splitRow cuts a table row into the segments of its cells, trimmed of
// spaces. A '|' preceded by a backslash belongs to its cell, and one
// leading and one trailing '|' are optional.
func splitRow(src []byte, line text.Segment) []text.Segment {
	line = line.TrimLeftSpace(src)
	line = line.TrimRightSpace(src)
	start, stop := line.Start, line.Stop
	if start < stop && src[start] == '|' {
		start++
	}
	if stop > start && src[stop-1] == '|' && (stop-2 < start || src[stop-2] != '\\') {
		stop--
	}
	var cells []text.Segment
	from := start
	for i := start; i <= stop; i++ {
		if i < stop && (src[i] != '|' || i > start && src[i-1] == '\\') {
			continue
		}
		seg := text.NewSegment(from, i)
		seg = seg.TrimLeftSpace(src)
		seg = seg.TrimRightSpace(src)
		cells = append(cells, seg)
		from = i + 1
	}
	return cells
}

// tableRow makes a row of exactly len(aligns) cells: extra cells are
// dropped and missing ones are empty.
func tableRow(cells []text.Segment, aligns []extast.Alignment) *extast.TableRow {
	row := extast.NewTableRow(aligns)
	for i, a := range aligns {
		c := extast.NewTableCell()
		c.Alignment = a
		if i < len(cells) && cells[i].Len() > 0 {
			c.Lines().Append(cells[i])
		}
		row.AppendChild(row, c)
	}
	return row
}

func trimCellSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
