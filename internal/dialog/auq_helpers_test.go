package dialog

import (
	"fmt"
	"strings"

	"github.com/askuser/askuser/auq"
)

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
func qkeys(script string) []Key {
	var out []Key
	for _, f := range strings.Fields(script) {
		switch {
		case len(f) >= 2 && f[0] == '\'' && f[len(f)-1] == '\'':
			out = append(out, Key{Text: strings.ReplaceAll(f[1:len(f)-1], "_", " ")})
		case len([]rune(f)) == 1:
			out = append(out, Key{Text: f})
		default:
			out = append(out, Key{Name: f})
		}
	}
	return out
}

// run sends keys and returns every effect that was not empty.
func qrun(m *Questions, ks []Key) []Effect[auq.Result] {
	var out []Effect[auq.Result]
	for _, k := range ks {
		if e := m.Update(k); e.Kind != EffectNone || e.Milestones != nil {
			out = append(out, e)
		}
	}
	return out
}

// screen is the frame's text without styles, one line each.
func qscreen(f Frame) string { return strings.Join(f.Lines, "\n") }
