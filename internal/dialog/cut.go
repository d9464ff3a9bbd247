package dialog

import "github.com/charmbracelet/x/ansi"

// A measured is one line of safe text (no escape sequences, valid UTF-8)
// measured once, so that it can be cut to any width again and again, as
// the tab bar is on every frame, without measuring it again. Cutting gives
// what ansi.Truncate gives, and the width ansi.StringWidth gives.
type measured struct {
	s    string
	ends []int32 // the byte offset after each segment
	ws   []int8  // each segment's width in cells
	w    int     // the whole width
}

// measure splits s into the segments that ansi.StringWidth and
// ansi.Truncate count: each printable ASCII byte alone, and otherwise a
// grapheme cluster starting at that byte.
func measure(s string) measured {
	m := measured{s: s}
	for i := 0; i < len(s); {
		n, w := 1, 1
		if s[i] >= 0x80 {
			c, cw := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
			n, w = max(len(c), 1), cw
		}
		i += n
		m.ends = append(m.ends, int32(i))
		m.ws = append(m.ws, int8(w))
		m.w += w
	}
	return m
}

// cut returns the text cut to at most width cells with tail (tw cells
// wide) in place of what was cut, and the result's width.
func (m measured) cut(width int, tail string, tw int) (string, int) {
	end, w, exact := m.cutAt(width, tw)
	switch {
	case end < 0:
		return m.s, m.w
	case w < 0:
		return "", 0
	}
	s := m.s[:end] + tail
	if !exact {
		return s, ansi.StringWidth(s)
	}
	return s, w
}

// cutWidth is the width of what cut returns, found without building it
// where that can be done exactly.
func (m measured) cutWidth(width int, tail string, tw int) int {
	end, w, exact := m.cutAt(width, tw)
	switch {
	case end < 0:
		return m.w
	case w < 0:
		return 0
	case !exact:
		return ansi.StringWidth(m.s[:end] + tail)
	}
	return w
}

// cutAt finds where cut stops: the byte offset end of what is kept (-1
// when all of it is), the width w with the tail (-1 when not even the
// tail fits), and whether that width is exact. It is not when the last
// kept piece is a grapheme cluster, which might join with the tail.
func (m measured) cutAt(width, tw int) (end, w int, exact bool) {
	if m.w <= width {
		return -1, m.w, true
	}
	width -= tw
	if width < 0 {
		return 0, -1, true
	}
	cur, ascii := 0, true
	for k, sw := range m.ws {
		start := 0
		if k > 0 {
			start = int(m.ends[k-1])
		}
		if m.s[start] < 0x80 {
			if cur >= width {
				break
			}
			ascii = true
		} else {
			if cur+int(sw) > width {
				break
			}
			ascii = false
		}
		cur += int(sw)
		end = int(m.ends[k])
	}
	return end, cur + tw, ascii
}

// fit returns s cut to width cells with tail, as ansi.Truncate cuts it,
// and the width ansi.StringWidth gives the result. Printable ASCII that
// fits, as most labels are, is measured by its length: a frame draws
// such labels every time.
func fit(s string, width int, tail string) (string, int) {
	if len(s) <= width && printableASCII(s) {
		return s, len(s)
	}
	s = ansi.Truncate(s, width, tail)
	return s, ansi.StringWidth(s)
}

// textWidth is ansi.StringWidth(s), counted by length for printable ASCII.
func textWidth(s string) int {
	if printableASCII(s) {
		return len(s)
	}
	return ansi.StringWidth(s)
}

// printableASCII reports whether every byte of s is printable ASCII, one
// cell wide each.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
