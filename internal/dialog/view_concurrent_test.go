package dialog

import (
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestViewConcurrent draws each dialog from four goroutines at once, at
// four widths, one of them the size SetSize gave: under -race this fails
// if View writes to the model, and every frame must be the one a lone
// call draws.
func TestViewConcurrent(t *testing.T) {
	clock := fixedClock{left: time.Minute, ok: true}
	ask := New(parse(t, reqPreview), plain(clock))
	ask.SetSize(120, 30)
	run(ask, keys("down"))
	questions := NewQuestions(eight(), plain(clock))
	questions.SetSize(120, 30)
	qrun(questions, qkeys("j n 'a_note' enter"))
	for _, tt := range []struct {
		name string
		view func(w, h int) Frame
	}{
		{"ask_user", ask.View},
		{"AskUserQuestion", questions.View},
	} {
		t.Run(tt.name, func(t *testing.T) {
			widths := []int{40, 80, 120, 200}
			want := make([]Frame, len(widths))
			got := make([]Frame, len(widths))
			var start, wg sync.WaitGroup
			start.Add(1)
			for i, w := range widths {
				wg.Go(func() {
					start.Wait()
					got[i] = tt.view(w, 30)
				})
			}
			start.Done()
			wg.Wait()
			for i, w := range widths {
				want[i] = tt.view(w, 30)
				if diff := cmp.Diff(want[i], got[i]); diff != "" {
					t.Errorf("View(%d, 30) from a goroutine (-alone +concurrent):\n%s", w, diff)
				}
			}
		})
	}
}
