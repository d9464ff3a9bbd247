package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/dialog"
)

// benchQuestions is the largest AskUserQuestion request: eight questions
// of four options, each with a preview.
func benchQuestions(b *testing.B) *auq.Request {
	b.Helper()
	var qs []string
	for i := range auq.MaxQuestions {
		var opts []string
		for k := range auq.MaxOptions {
			opts = append(opts, fmt.Sprintf(`{"id":"o%d","label":"Option %d","description":"What option %d means for question %d","preview":"line one of %d\nline two\n\nsome more text that is long enough to wrap at narrow widths %d"}`, k, k, k, i, k, k))
		}
		qs = append(qs, fmt.Sprintf(`{"id":"q%d","question":"Which choice for part %d?","header":"Part %d","options":[%s]}`, i, i, i, strings.Join(opts, ",")))
	}
	r, err := auq.Parse([]byte(`{"questions":[` + strings.Join(qs, ",") + `]}`))
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkQuestionsKeyFrame is one key plus one frame of the host's
// model around the AskUserQuestion dialog, as Bubble Tea asks for them:
// eight questions with previews, in the overlay box at 200×60 (and
// inline at 80×24), moving the focus and switching questions. The budget
// is 30 µs at 200×60.
func BenchmarkQuestionsKeyFrame(b *testing.B) {
	down, up := tea.KeyPressMsg{Code: tea.KeyDown}, tea.KeyPressMsg{Code: tea.KeyUp}
	for _, c := range []struct {
		display contract.DisplayMode
		w, h    int
	}{{contract.DisplayOverlay, 200, 60}, {contract.DisplayInline, 80, 24}} {
		for _, ks := range []struct {
			name string
			keys []tea.Msg
		}{
			{"focus", []tea.Msg{down, down, up, up}},
			{"tabs", []tea.Msg{press("tab"), down, press("tab"), up}},
		} {
			b.Run(fmt.Sprintf("%s/%s/%dx%d", ks.name, c.display, c.w, c.h), func(b *testing.B) {
				m := newQModel(&ask.Session[*auq.Request]{Request: benchQuestions(b), Display: c.display}, dialog.DefaultTheme())
				m.Update(tea.WindowSizeMsg{Width: c.w, Height: c.h})
				m.View()
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					m.Update(ks.keys[i%len(ks.keys)])
					m.View()
				}
			})
		}
	}
}
