package dialog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func id(n int) int { return n }

func TestRows(t *testing.T) {
	for _, tt := range []struct {
		widths      []int
		width, want int
	}{
		{nil, 80, 0},
		{[]int{10}, 80, 1},
		{[]int{10, 10}, 24, 1}, // 10 + 3 + 10 fits in 23
		{[]int{10, 10}, 23, 2},
		{[]int{10, 10, 10}, 12, 3},
		{[]int{30}, 10, 1}, // a hint wider than the row still takes one row
	} {
		if got := rowsOf(tt.widths, id, tt.width); got != tt.want {
			t.Errorf("rowsOf(%v, %d) = %d, want %d", tt.widths, tt.width, got, tt.want)
		}
	}
}

func TestPack(t *testing.T) {
	for _, tt := range []struct {
		name     string
		widths   []int
		prios    []int
		width, n int
		want     []int
	}{
		{"all on one row", []int{5, 5, 5}, []int{1, 2, 3}, 80, 1, []int{0, 0, 0}},
		{"two rows", []int{10, 10, 10}, []int{1, 1, 1}, 24, 2, []int{0, 0, 1}},
		{"the least important goes", []int{10, 10, 10}, []int{1, 9, 2}, 24, 1, []int{0, -1, 0}},
		{"the first of equals goes", []int{10, 10, 10}, []int{5, 5, 1}, 24, 1, []int{-1, 0, 0}},
		{"no room at all", []int{10}, []int{1}, 10, 0, []int{-1}},
	} {
		idx := make([]int, len(tt.widths))
		for k := range idx {
			idx[k] = k
		}
		got := pack(idx, func(k int) int { return tt.widths[k] }, func(k int) int { return tt.prios[k] }, tt.width, tt.n)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: rows (-want +got):\n%s", tt.name, diff)
		}
	}
}
