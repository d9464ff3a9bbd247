package dialog

import (
	"slices"
	"testing"
	"time"
)

// cloneable is what both dialogs offer a host that tries keys on copies.
type cloneable[M, A any] interface {
	Update(k Key) Effect[A]
	View(width, rows int) Frame
	SetSize(width, rows int)
	Clone() M
}

// checkClone walks script on a dialog made by mk. Before each key it tries
// every key of tries on a copy, and checks that the copy draws what a
// dialog given the same keys from the start draws, and that the dialog
// itself still draws what one that never had a copy draws.
func checkClone[M cloneable[M, A], A any](t *testing.T, mk func() M, script, tries []Key, sizes ...[2]int) {
	t.Helper()
	for _, size := range sizes {
		checkCloneAt(t, mk, script, tries, size[0], size[1])
	}
}

func checkCloneAt[M cloneable[M, A], A any](t *testing.T, mk func() M, script, tries []Key, width, rows int) {
	t.Helper()
	fresh := func(ks []Key) Frame {
		m := mk()
		m.SetSize(width, rows)
		for _, k := range ks {
			m.Update(k)
		}
		return m.View(width, rows)
	}
	m := mk()
	m.SetSize(width, rows)
	for i := 0; i <= len(script); i++ {
		done := script[:i]
		for _, k := range tries {
			c := m.Clone()
			c.Update(k)
			got, want := c.View(width, rows), fresh(append(slices.Clone(done), k))
			if !slices.Equal(got.Lines, want.Lines) {
				t.Fatalf("after %v, a copy given %v draws\n%s\nnot\n%s", done, k, qscreen(got), qscreen(want))
			}
		}
		if got, want := m.View(width, rows), fresh(done); !slices.Equal(got.Lines, want.Lines) {
			t.Fatalf("after %v and the copies' keys, the dialog draws\n%s\nnot\n%s", done, qscreen(got), qscreen(want))
		}
		if i < len(script) {
			m.Update(script[i])
		}
	}
}

// cloneClock is the clone tests' countdown.
var cloneClock = fixedClock{left: 90 * time.Second, ok: true}

// TestModelClone walks the golden cases' keys, then more, trying keys on
// copies before each.
func TestModelClone(t *testing.T) {
	tries := keys("down up tab shift+tab space enter left right backspace 'x' pageDown")
	more := keys("down space down 'no' 'te' backspace left tab right space tab 'n' shift+tab pageDown pageUp enter")
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			req := parse(t, c.req)
			checkClone(t, func() *Model { return New(req, plain(cloneClock)) }, append(keys(c.keys), more...), tries, [2]int{80, 24}, [2]int{120, 12})
		})
	}
}

// TestQuestionsClone does what TestModelClone does for the golden cases
// of Questions.
func TestQuestionsClone(t *testing.T) {
	tries := qkeys("down up tab shift+tab space enter left right backspace x n ?")
	more := qkeys("down down up n 'a_note' enter space tab down space enter shift+tab ? ? enter")
	for _, c := range questionsGoldenCases {
		t.Run(c.name, func(t *testing.T) {
			checkClone(t, func() *Questions { return NewQuestions(c.req(), plain(cloneClock)) }, append(qkeys(c.keys), more...), tries, [2]int{80, 24}, [2]int{140, 14})
		})
	}
}
