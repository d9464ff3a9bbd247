package dialog

// Key hints are laid out in rows, as both dialogs draw them and as a
// popup sizes itself for them: in order, one cell of margin at the start
// of each row and HintSep between hints on a row.

// HintSep separates two key hints on a row of a Frame's hints.
const HintSep = " · "

// sepWidth is HintSep's width in cells.
const sepWidth = 3

// HintRows returns how many rows key hints of the given widths, in cells,
// take in a dialog width cells wide; 0 when there are none. A host sizing
// a popup for the hints of a Frame uses it.
func HintRows(widths []int, width int) int {
	return rowsOf(widths, func(n int) int { return n }, width)
}

// rowsOf returns how many rows hints take at width, packed in order; 0
// when there are none. cells gives a hint's width.
func rowsOf[H any](hints []H, cells func(H) int, width int) int {
	if len(hints) == 0 {
		return 0
	}
	w := max(width-1, 0)
	r, used := 1, -sepWidth
	for _, h := range hints {
		iw := cells(h)
		if used >= 0 && used+sepWidth+iw > w {
			r, used = r+1, -sepWidth
		}
		used += sepWidth + iw
	}
	return r
}

// pack places hints on at most n rows of width cells, in order. cells
// gives a hint's width and prio its importance, lower first. When they do
// not all fit it drops the least important hint (the first of equals)
// and tries again. It returns the row of each hint, -1 for a dropped one.
func pack[H any](hints []H, cells, prio func(H) int, width, n int) []int {
	w := max(width-1, 0)
	rowOf := make([]int, len(hints))
	fits := func() bool {
		r, used := 0, -sepWidth
		for i, h := range hints {
			if rowOf[i] < 0 {
				continue
			}
			iw := cells(h)
			if used >= 0 && used+sepWidth+iw > w {
				r, used = r+1, -sepWidth
			}
			used += sepWidth + iw
			rowOf[i] = r
		}
		return r < n
	}
	for !fits() {
		worst := -1
		for i, h := range hints {
			if rowOf[i] >= 0 && (worst < 0 || prio(h) > prio(hints[worst])) {
				worst = i
			}
		}
		if worst < 0 {
			break
		}
		rowOf[worst] = -1
	}
	return rowOf
}

// hintItem is one "key hint" pair of a hints row, measured once.
type hintItem struct {
	label, hint   string
	labelW, hintW int
	w             int // the width of label, a space and hint
	prio          int
}

func newHintItem(label, hint string, labelW, prio int) hintItem {
	hw := textWidth(hint)
	return hintItem{label: label, hint: hint, labelW: labelW, hintW: hw, w: labelW + 1 + hw, prio: prio}
}

func (h hintItem) cells() int      { return h.w }
func (h hintItem) importance() int { return h.prio }

// hintRowsFor returns how many rows, up to n, the hints want at width:
// as many as they take whole, and n when they do not all fit in n.
func hintRowsFor(items []hintItem, width, n int) int {
	return min(rowsOf(items, hintItem.cells, width), n)
}

// hintsLines lays the hints out on up to n rows, in keymap order,
// dropping the least important ones when they do not all fit.
func hintsLines(items []hintItem, width, n int, th Theme) []line {
	rowOf := pack(items, hintItem.cells, hintItem.importance, width, n)
	var out []line
	var b builder
	row := -1
	for i, it := range items {
		if rowOf[i] < 0 {
			continue
		}
		if rowOf[i] != row {
			if row >= 0 {
				out = append(out, b.line())
				b = builder{}
			}
			row = rowOf[i]
			b.pad(min(1, width))
		} else {
			b.styled(th.Muted, HintSep, sepWidth)
		}
		b.add(it.label, it.labelW)
		b.pad(1)
		b.styled(th.Muted, it.hint, it.hintW)
	}
	if row >= 0 {
		out = append(out, b.line())
	}
	return out
}
