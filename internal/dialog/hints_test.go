package dialog

import (
	"strings"
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

// TestDismissHint checks that a host can say what the dismissing key
// does in its hints, in the dialogs of both contracts, and that the
// default says dismiss.
func TestDismissHint(t *testing.T) {
	req := parse(t, `{"questions":[{"title":"Deploy where?","options":[{"label":"staging"},{"label":"prod"}]}]}`)
	qreq := one()
	tests := []struct {
		name, hint string
		want, not  string
	}{
		{"default", "", "dismiss", "back to the list"},
		{"the inbox's", "back to the list", "back to the list", "dismiss"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := &Options{Theme: PlainTheme(), DismissHint: tt.hint}
			m := New(req, opts)
			m.SetSize(100, 30)
			q := NewQuestions(qreq, opts)
			q.SetSize(100, 30)
			for name, f := range map[string]Frame{"ask_user": m.View(100, 30), "AskUserQuestion": q.View(100, 30)} {
				text := strings.Join(f.Lines, "\n")
				if !strings.Contains(text, "esc "+tt.want) && !strings.Contains(text, "esc esc "+tt.want) {
					t.Errorf("%s: the hints do not say esc %s:\n%s", name, tt.want, text)
				}
				if strings.Contains(text, tt.not) {
					t.Errorf("%s: the hints say %q:\n%s", name, tt.not, text)
				}
			}
		})
	}
}
