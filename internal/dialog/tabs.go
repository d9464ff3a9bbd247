package dialog

import "strconv"

// tabBar is the row of tabs of a questionnaire with several questions:
// one tab per question and one for the review. The current tab is
// bracketed and in the accent colour; answered questions are checked.
// The labels were measured once, so that cutting them costs no
// measuring, and finding a cut that fits only adds widths.
type tabBar struct {
	th       Theme
	labels   []measured
	done     []bool
	cur      int
	numbered int // the first numbered tabs can show their number alone
}

// label is tab i's label with the other tabs' labels cut to other cells
// (0: whole, -1: the number alone) and the current one's to cur cells
// (0: whole), and its width; with measureOnly, only the width.
func (tb *tabBar) label(i, other, cur int, measureOnly bool) (string, int) {
	l := &tb.labels[i]
	cut := other
	if i == tb.cur {
		cut = cur
	}
	switch {
	case i != tb.cur && other < 0 && i < tb.numbered:
		s := strconv.Itoa(i + 1)
		return s, len(s)
	case cut > 0 && measureOnly:
		return "", l.cutWidth(cut, ellipsis, 1)
	case cut > 0:
		return l.cut(cut, ellipsis, 1)
	}
	return l.s, l.w
}

// width is the width of the row build draws with the same cuts.
func (tb *tabBar) width(other, cur int) int {
	w := 1
	for i := range tb.labels {
		_, sw := tb.label(i, other, cur, true)
		w += 2 + sw // the brackets, or the padding either side
		if i > 0 {
			w++
		}
		if tb.done[i] {
			w += 2
		}
	}
	return w
}

// build draws the row with the labels cut as label cuts them.
func (tb *tabBar) build(other, cur int) line {
	var b builder
	b.pad(1)
	for i := range tb.labels {
		if i > 0 {
			b.pad(1)
		}
		s, sw := tb.label(i, other, cur, false)
		if i == tb.cur {
			b.styled(tb.th.Accent, "[", 1)
			b.styled(tb.th.Accent, s, sw)
		} else {
			b.pad(1)
			b.styled(tb.th.Muted, s, sw)
		}
		if tb.done[i] {
			b.pad(1)
			b.styled(tb.th.Selection, "✓", 1)
		}
		if i == tb.cur {
			b.styled(tb.th.Accent, "]", 1)
		} else {
			b.pad(1)
		}
	}
	return b.line()
}

// compact is the row when no cut of the tabs fits: "‹ 2/4 name ›", cut
// to the width.
func (tb *tabBar) compact(name string, width int) line {
	s := "‹ " + strconv.Itoa(tb.cur+1) + "/" + strconv.Itoa(len(tb.labels)) + " " + name + " ›"
	var b builder
	b.pad(min(1, width))
	l := truncLine(s, width-1)
	b.styled(tb.th.Accent, l.s, l.w)
	return b.line()
}
