package auqdialog

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/vt"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/dialog"
	"github.com/askuser/askuser/internal/theme"
)

// fixedClock is a Countdown frozen at one remaining time.
type fixedClock struct {
	left time.Duration
	ok   bool
}

func (c fixedClock) Remaining() (time.Duration, bool) { return c.left, c.ok }

func plain(c dialog.Countdown) *Options { return &Options{Theme: theme.Plain(), Countdown: c} }

func ptr[T any](v T) *T { return &v }

func opt(id, label, desc string) auq.Option {
	return auq.Option{ID: id, Label: label, Description: desc}
}

// framework is the seed's example question, with a recommended option.
func framework() auq.Question {
	return auq.Question{
		ID: "framework", Question: "Which frontend framework do you prefer?", Header: "Framework",
		Options: []auq.Option{
			{ID: "react", Label: "React", Description: "Component-based UI library", Preview: "Best if you want broad ecosystem support."},
			{ID: "vue", Label: "Vue", Description: "Progressive framework", Preview: "Good default if you want gentle adoption.\n\nWorks well with a small team.", Recommended: true},
			{ID: "svelte", Label: "Svelte", Description: "Compiled, no virtual DOM"},
		},
	}
}

func styling() auq.Question {
	return auq.Question{
		ID: "style", Question: "Which styling tools should the project use?", Header: "Styling", MultiSelect: true,
		Options: []auq.Option{opt("css", "Plain CSS", "No build step"), opt("tw", "Tailwind", "Utility classes"), opt("sass", "Sass", "CSS with variables and nesting")},
	}
}

func extras() auq.Question {
	return auq.Question{
		ID: "extras", Question: "Anything to add to the setup?", Header: "Extras", Required: ptr(false),
		Options: []auq.Option{opt("lint", "Linting", "ESLint with the recommended rules"), opt("none", "Nothing", "Keep it minimal")},
	}
}

func one() *auq.Request { return &auq.Request{Questions: []auq.Question{framework()}} }

func noPreview() *auq.Request {
	q := framework()
	for i := range q.Options {
		q.Options[i].Preview = ""
	}
	return &auq.Request{Questions: []auq.Question{q}}
}

func multiOne() *auq.Request { return &auq.Request{Questions: []auq.Question{styling()}} }

func many() *auq.Request {
	return &auq.Request{
		Questions: []auq.Question{framework(), styling(), extras()},
		Metadata:  &auq.Metadata{Source: ptr("setup"), FlowID: ptr("f-1"), Tags: []string{"x"}},
	}
}

// eight is the largest request: eight questions of four options, each
// with a preview of several paragraphs.
func eight() *auq.Request {
	req := &auq.Request{}
	for i := range auq.MaxQuestions {
		q := auq.Question{ID: fmt.Sprintf("q%d", i), Question: fmt.Sprintf("Which layout should part %d use?", i+1), Header: fmt.Sprintf("Part %d", i+1)}
		for j := range auq.MaxOptions {
			q.Options = append(q.Options, auq.Option{
				ID: fmt.Sprintf("o%d", j), Label: fmt.Sprintf("Layout %c", 'A'+j), Description: "A layout with its own trade-offs, described in a sentence or two.",
				Preview: strings.Repeat("This layout keeps the data close to the code that reads it. ", 4) + "\n\n- fast reads\n- slower writes\n\n" + strings.Repeat("More detail follows here. ", 6),
			})
		}
		q.Options[1].Recommended = true
		req.Questions = append(req.Questions, q)
	}
	return req
}

// keys turns a compact script into keys: space-separated chords, and
// "'text'" for typed text (_ is a space inside quotes). A single
// character is typed text, as terminals send letters.
func keys(script string) []dialog.Key {
	var out []dialog.Key
	for _, f := range strings.Fields(script) {
		switch {
		case len(f) >= 2 && f[0] == '\'' && f[len(f)-1] == '\'':
			out = append(out, dialog.Key{Text: strings.ReplaceAll(f[1:len(f)-1], "_", " ")})
		case len([]rune(f)) == 1:
			out = append(out, dialog.Key{Text: f})
		default:
			out = append(out, dialog.Key{Name: f})
		}
	}
	return out
}

// run sends keys and returns every effect that was not empty.
func run(m *Model, ks []dialog.Key) []Effect {
	var out []Effect
	for _, k := range ks {
		if e := m.Update(k); e.Kind != EffectNone || e.Milestones != nil {
			out = append(out, e)
		}
	}
	return out
}

// screen is the frame's text without styles, one line each.
func screen(f dialog.Frame) string { return strings.Join(f.Lines, "\n") }

// emulate draws a frame on a terminal emulator and returns the screen
// text, with the cursor position.
func emulate(f dialog.Frame, w, h int) string {
	emu := vt.NewEmulator(max(w, 1), max(h, 1))
	for i, l := range f.Lines {
		if i > 0 {
			emu.WriteString("\r\n")
		}
		emu.WriteString(l)
	}
	s := emu.String()
	if f.Cursor != nil {
		s += fmt.Sprintf("\n-- cursor row %d col %d", f.Cursor.Row, f.Cursor.Col)
	}
	return s + "\n"
}
