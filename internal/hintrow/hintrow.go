// Package hintrow lays key hints out in rows, as both dialogs draw them
// and as the popup sizes itself for them: in order, one cell of margin at
// the start of each row and Sep between hints on a row.
package hintrow

// Sep separates two hints on a row; SepWidth is its width in cells.
const (
	Sep      = " · "
	SepWidth = 3
)

// Rows returns how many rows hints take at width, packed in order; 0
// when there are none. cells gives a hint's width.
func Rows[H any](hints []H, cells func(H) int, width int) int {
	if len(hints) == 0 {
		return 0
	}
	w := max(width-1, 0)
	r, used := 1, -SepWidth
	for _, h := range hints {
		iw := cells(h)
		if used >= 0 && used+SepWidth+iw > w {
			r, used = r+1, -SepWidth
		}
		used += SepWidth + iw
	}
	return r
}

// Pack places hints on at most n rows of width cells, in order. cells
// gives a hint's width and prio its importance, lower first. When they do
// not all fit it drops the least important hint (the first of equals)
// and tries again. It returns the row of each hint, -1 for a dropped one.
func Pack[H any](hints []H, cells, prio func(H) int, width, n int) []int {
	w := max(width-1, 0)
	rowOf := make([]int, len(hints))
	fits := func() bool {
		r, used := 0, -SepWidth
		for i, h := range hints {
			if rowOf[i] < 0 {
				continue
			}
			iw := cells(h)
			if used >= 0 && used+SepWidth+iw > w {
				r, used = r+1, -SepWidth
			}
			used += SepWidth + iw
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
