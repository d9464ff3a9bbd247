package dialog

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/internal/testkit"
)

// questionsGoldenCases are the dialogs and keys of TestQuestionsGolden,
// which TestQuestionsClone walks too.
var questionsGoldenCases = []struct {
	name string
	req  func() *auq.Request
	keys string
}{
	{"one", one, ""},
	{"tabs", many, "enter"},
	{"review", many, "n 'nice_docs' enter N 'why_not_svelte' enter enter space enter"},
	{"multi", multiOne, "space j"},
	{"other", one, "o 'my_own_answer'"},
	{"notes", one, "n 'good_docs' enter N 'why_not_svelte' enter j n 'draft'"},
	{"help", one, "?"},
	{"nopreview", noPreview, ""},
	{"focusnopreview", one, "j"},
	{"eight", eight, "enter enter"},
	{"previewscroll", eight, "pgdown"},
}

// TestGolden draws screens at pinned sizes on a terminal emulator and
// compares them with testdata/TestGolden. Previews are beside the options
// at 120 columns and below them at 80 and 40.
func TestQuestionsGolden(t *testing.T) {
	cases := questionsGoldenCases
	for _, c := range cases {
		for _, sz := range [][2]int{{120, 30}, {80, 24}, {40, 12}, {20, 3}} {
			name := fmt.Sprintf("%s_%dx%d", c.name, sz[0], sz[1])
			t.Run(name, func(t *testing.T) {
				m := NewQuestions(c.req(), plain(fixedClock{left: 102 * time.Second, ok: true}))
				m.SetSize(sz[0], sz[1])
				qrun(m, qkeys(c.keys))
				f := m.View(sz[0], sz[1])
				qcheckFrame(t, f, sz[0], sz[1], name)
				got := emulate(f, sz[0], sz[1])
				testkit.Golden(t, filepath.Join("testdata", "TestQuestionsGolden", name+".golden"), got, *update)
			})
		}
	}
}
