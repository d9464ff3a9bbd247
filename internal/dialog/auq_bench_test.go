package dialog

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkKeyFrame is one key plus one full frame of the largest request:
// eight questions of four options with previews, with a countdown, at the
// size the host set: moving the focus, switching questions, and moving
// the review's picker. The budget is 30 µs at 200×60.
func BenchmarkQuestionsKeyFrame(b *testing.B) {
	for _, sz := range [][2]int{{200, 60}, {80, 24}} {
		for _, ks := range []struct {
			name string
			keys []Key
		}{
			{"focus", []Key{{Name: "down"}, {Name: "down"}, {Name: "up"}, {Name: "up"}}},
			{"tabs", []Key{{Name: "tab"}, {Name: "down"}, {Name: "tab"}, {Name: "up"}}},
			{"review", []Key{{Name: "down"}, {Name: "right"}, {Name: "up"}, {Name: "left"}}},
		} {
			b.Run(fmt.Sprintf("%s/%dx%d", ks.name, sz[0], sz[1]), func(b *testing.B) {
				m := NewQuestions(eight(), &Options{Theme: DefaultTheme(), Countdown: fixedClock{left: time.Minute, ok: true}})
				m.SetSize(sz[0], sz[1])
				if ks.name == "review" {
					// Every question answered, with notes, and the review open.
					qrun(m, qkeys("n 'a_note' enter N 'why' enter enter enter enter enter enter enter enter enter"))
					if !m.inReview() {
						b.Fatal("the review did not open")
					}
				}
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					m.Update(ks.keys[i%len(ks.keys)])
					m.View(sz[0], sz[1])
				}
			})
		}
	}
}
