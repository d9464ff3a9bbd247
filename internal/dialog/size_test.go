package dialog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// longForm is a form of ten fields, far taller than a small terminal.
func longForm(t *testing.T) string {
	t.Helper()
	var fields []string
	for i := 1; i <= 10; i++ {
		fields = append(fields, fmt.Sprintf(`{"name":"f%d","label":"Field %d","kind":"input"}`, i, i))
	}
	return `{"questions":[{"title":"Settings","kind":"simple-form","fields":[` + strings.Join(fields, ",") + `]}]}`
}

// Paging works in the size the host gave with SetSize, whatever size
// View was last asked for: View reads the model and changes nothing.
func TestPagingUsesTheSetSize(t *testing.T) {
	req := parse(t, longForm(t))
	page := func(drawElsewhere func(m *Model)) ([]string, []string) {
		m := New(req, plain(fixedClock{}))
		m.SetSize(60, 10)
		before := m.View(60, 10).Lines
		drawElsewhere(m)
		m.Update(Key{Name: "pgdown"})
		return before, m.View(60, 10).Lines
	}
	before, after := page(func(*Model) {})
	if cmp.Equal(before, after) {
		t.Fatalf("pgdown did not scroll a form taller than the screen:\n%s", strings.Join(after, "\n"))
	}
	if got := strings.Join(after, "\n"); !strings.Contains(got, "Field 3") || strings.Contains(got, "Field 1\n") {
		t.Errorf("after one page the form does not show field 3 in place of field 1:\n%s", got)
	}
	// Drawing at other sizes in between changes nothing.
	for _, size := range [][2]int{{200, 60}, {30, 5}, {60, 40}} {
		b2, a2 := page(func(m *Model) { m.View(size[0], size[1]); m.View(size[0], size[1]) })
		if diff := cmp.Diff(before, b2); diff != "" {
			t.Errorf("after a %dx%d view, the first frame differs (-want +got):\n%s", size[0], size[1], diff)
		}
		if diff := cmp.Diff(after, a2); diff != "" {
			t.Errorf("after a %dx%d view, paging differs (-want +got):\n%s", size[0], size[1], diff)
		}
	}
}

// View is a function of the model: the same model and size give the same
// frame, however often it is drawn.
func TestViewOnlyReads(t *testing.T) {
	m := New(parse(t, longForm(t)), plain(fixedClock{}))
	m.SetSize(60, 10)
	run(m, keys("down down down down down down down"))
	first := m.View(60, 10)
	for _, size := range [][2]int{{60, 10}, {20, 3}, {200, 60}, {60, 10}} {
		m.View(size[0], size[1])
	}
	if diff := cmp.Diff(first, m.View(60, 10)); diff != "" {
		t.Errorf("drawing changed the next frame (-first +again):\n%s", diff)
	}
}
