package dialog

import (
	"math"
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// cell is one rendered table cell: a single styled line and its width.
type cell struct {
	node ast.Node
	s    string
	w    int
}

// table draws a GFM table with aligned columns when it fits the width,
// and otherwise as records: one "header: value" paragraph per cell, with
// a blank line between rows.
func (r *renderer) table(t *extast.Table, width int) []string {
	var rows [][]cell
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []cell
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			w := newWrapper(r, math.MaxInt)
			fl := flags(0)
			if row.Kind() == extast.KindTableHeader {
				fl = fBold
			}
			r.inlines(w, c, fl)
			s := strings.Join(w.finish(), " ")
			cells = append(cells, cell{c, s, lineWidth(s)})
		}
		rows = append(rows, cells)
	}
	if len(rows) == 0 {
		return nil
	}
	cols := len(rows[0])
	colW := make([]int, cols)
	for _, row := range rows {
		for i, c := range row {
			if i < cols {
				colW[i] = max(colW[i], c.w)
			}
		}
	}
	total := 3 * (cols - 1)
	for _, w := range colW {
		total += w
	}
	if total > width {
		return r.records(rows, width)
	}

	bar := r.th.Border.Render("│")
	var out []string
	for ri, row := range rows {
		var b strings.Builder
		for i := range cols {
			if i > 0 {
				b.WriteString(" " + bar + " ")
			}
			c := cell{}
			if i < len(row) {
				c = row[i]
			}
			pad := colW[i] - c.w
			left := 0
			switch align(t, i) {
			case extast.AlignRight:
				left = pad
			case extast.AlignCenter:
				left = pad / 2
			}
			b.WriteString(strings.Repeat(" ", left))
			b.WriteString(c.s)
			if i < cols-1 {
				b.WriteString(strings.Repeat(" ", pad-left))
			}
		}
		out = append(out, strings.TrimRight(b.String(), " "))
		if ri == 0 {
			parts := make([]string, cols)
			for i, w := range colW {
				parts[i] = strings.Repeat("─", w)
			}
			out = append(out, r.th.Border.Render(strings.Join(parts, "─┼─")))
		}
	}
	return out
}

func align(t *extast.Table, i int) extast.Alignment {
	if i < len(t.Alignments) {
		return t.Alignments[i]
	}
	return extast.AlignNone
}

// records lays out a table too wide for the width, row by row.
func (r *renderer) records(rows [][]cell, width int) []string {
	head := rows[0]
	var out []string
	for ri, row := range rows[1:] {
		if ri > 0 {
			out = append(out, "")
		}
		for i, c := range row {
			w := newWrapper(r, width)
			if i < len(head) && head[i].w > 0 {
				r.inlines(w, head[i].node, fBold)
				w.text(":", fBold)
				w.space()
			}
			r.inlines(w, c.node, 0)
			out = append(out, w.finish()...)
		}
	}
	return out
}
