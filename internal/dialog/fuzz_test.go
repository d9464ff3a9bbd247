package dialog

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/testkit"
	"github.com/charmbracelet/x/ansi"

	"github.com/askuser/askuser/contract"
)

// texts are the strings random questionnaires are made of: plain, wide,
// combining, emoji, control sequences, and long.
var texts = []string{
	"a", "Deploy", "日本語のラベル", "e\u0301", "👨‍👩‍👧", "👍🏽 ok", "⚠️", "\x1b[2J\x1b[H", "\x1b]52;c;aGk=\x07",
	"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "tab\there", "line\nbreak", "\u009b31m", "\u202eevil",
	strings.Repeat("long words wrap ", 12), strings.Repeat("無", 70),
}

var fuzzKeys = []string{
	"up", "down", "left", "right", "tab", "shift+tab", "ctrl+left", "ctrl+right", "space", "enter",
	"pgup", "pgdown", "home", "end", "backspace", "delete", "alt+backspace", "ctrl+w", "ctrl+a", "ctrl+e",
	"ctrl+u", "ctrl+k", "ctrl+y", "alt+b", "alt+f", "alt+q", "f5",
}

func randText(r *rand.Rand) string { return texts[r.IntN(len(texts))] }

func randOptions(r *rand.Rand) []contract.Option {
	n := 1 + r.IntN(contract.MaxOptions)
	var out []contract.Option
	for i := 0; i < n; i++ {
		o := contract.Option{Label: texts[r.IntN(len(texts)-2)] + string(rune('A'+i))}
		if r.IntN(2) == 0 {
			o.Description = randText(r)
		}
		if r.IntN(3) == 0 {
			o.Preview = "# " + randText(r) + "\n\n" + randText(r) + "\n\n- " + randText(r)
		}
		out = append(out, o)
	}
	return out
}

// randRequest builds a random normalized questionnaire.
func randRequest(r *rand.Rand) *contract.Request {
	kinds := []contract.Kind{contract.KindSingle, contract.KindMulti, contract.KindInput, contract.KindBool, contract.KindForm}
	req := &contract.Request{}
	if r.IntN(2) == 0 {
		req.Header = randText(r)
	}
	if r.IntN(3) == 0 {
		f := false
		req.AllowFreeText = &f
	}
	n := 1 + r.IntN(contract.MaxQuestions)
	for i := 0; i < n; i++ {
		q := contract.Question{ID: "q" + string(rune('1'+i)), Title: randText(r), Kind: kinds[r.IntN(len(kinds))]}
		if r.IntN(2) == 0 {
			q.Prompt = randText(r)
		}
		switch q.Kind {
		case contract.KindSingle, contract.KindMulti:
			q.Options = randOptions(r)
			if r.IntN(2) == 0 {
				v := contract.StringValue(q.Options[0].Label)
				q.Default = &v
			}
		case contract.KindBool:
			if r.IntN(2) == 0 {
				v := contract.BoolValue(r.IntN(2) == 0)
				q.Default = &v
			}
		case contract.KindInput:
			if r.IntN(3) == 0 {
				v := contract.StringValue(randText(r))
				q.Default = &v
			}
		case contract.KindForm:
			nf := 1 + r.IntN(contract.MaxFormFields)
			for j := 0; j < nf; j++ {
				fk := kinds[r.IntN(4)]
				f := contract.Field{Name: "f" + string(rune('a'+j)), Label: randText(r), Kind: fk, Required: r.IntN(2) == 0}
				if fk == contract.KindSingle || fk == contract.KindMulti {
					f.Options = randOptions(r)
				}
				q.Fields = append(q.Fields, f)
			}
		}
		req.Questions = append(req.Questions, q)
	}
	return req
}

func randKey(r *rand.Rand) Key {
	switch r.IntN(6) {
	case 0:
		return Key{Text: randText(r)}
	case 1:
		return Key{Text: string(rune('a' + r.IntN(26)))}
	default:
		return Key{Name: fuzzKeys[r.IntN(len(fuzzKeys))]}
	}
}

// checkFrame fails when f breaks View's promises for a w×h screen.
func checkFrame(t *testing.T, f Frame, w, h int, ctx string) {
	t.Helper()
	if w <= 0 || h <= 0 {
		if len(f.Lines) != 0 {
			t.Fatalf("%s: %dx%d gave %d lines", ctx, w, h, len(f.Lines))
		}
		return
	}
	if len(f.Lines) > h {
		t.Fatalf("%s: %d lines for %d rows", ctx, len(f.Lines), h)
	}
	for i, l := range f.Lines {
		if got := ansi.StringWidth(l); got > w {
			t.Fatalf("%s: line %d is %d wide, more than %d: %q", ctx, i, got, w, l)
		}
		plainLine := ansi.Strip(l)
		if strings.ContainsAny(plainLine, "\x1b\x07\u009b\u009d\r\n") || strings.ContainsRune(plainLine, 0x202e) {
			t.Fatalf("%s: line %d holds a control character: %q", ctx, i, l)
		}
	}
	if f.Cursor != nil {
		if f.Cursor.Row < 0 || f.Cursor.Row >= len(f.Lines) || f.Cursor.Col < 0 || f.Cursor.Col >= w {
			t.Fatalf("%s: cursor %+v outside %dx%d (%d lines)", ctx, *f.Cursor, w, h, len(f.Lines))
		}
	}
}

var sizes = [][2]int{{1, 1}, {0, 0}, {80, 0}, {0, 24}, {1, 24}, {2, 2}, {5, 3}, {20, 3}, {40, 12}, {80, 24}, {99, 30}, {100, 30}, {120, 40}, {200, 60}, {13, 7}}

func FuzzDialog(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(42), uint64(7))
	f.Add(uint64(7), uint64(99))
	f.Fuzz(func(t *testing.T, seed, ks uint64) {
		testkit.FuzzBound(t, [2]uint64{seed, ks}, func() {
			r := rand.New(rand.NewPCG(seed, ks))
			req, _, err := contract.Normalize(randRequest(r))
			if err != nil {
				t.Skipf("generated request rejected: %v", err)
			}
			th := PlainTheme()
			if r.IntN(2) == 0 {
				th = DefaultTheme()
			}
			m := New(req, &Options{Theme: th, Countdown: fixedClock{left: time.Duration(r.IntN(90)) * time.Second, ok: r.IntN(4) > 0}, Overlay: true, ToggleKey: "alt+o"})
			for i := 0; i < 40; i++ {
				k := randKey(r)
				e := m.Update(k)
				if e.Kind == EffectSubmit && len(e.Answer) != len(req.Questions) {
					t.Fatalf("submit with %d answers for %d questions", len(e.Answer), len(req.Questions))
				}
				sz := sizes[r.IntN(len(sizes))]
				if r.IntN(4) == 0 {
					sz = [2]int{r.IntN(220), r.IntN(70)}
				}
				if r.IntN(2) == 0 {
					// As a host does on a resize; otherwise View is asked
					// for a size the model was not given.
					m.SetSize(sz[0], sz[1])
				}
				checkFrame(t, m.View(sz[0], sz[1]), sz[0], sz[1], "after "+k.Name+k.Text)
			}
		})
	})
}

// TestRandomQuestionnaires runs the fuzz body over many seeds in the
// ordinary test run.
func TestRandomQuestionnaires(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 20
	}
	for seed := 0; seed < n; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 3))
		req, _, err := contract.Normalize(randRequest(r))
		if err != nil {
			t.Fatalf("seed %d: generated request rejected: %v", seed, err)
		}
		m := New(req, &Options{Theme: DefaultTheme(), Countdown: fixedClock{left: 5 * time.Second, ok: true}})
		for i := 0; i < 80; i++ {
			k := randKey(r)
			m.Update(k)
			for j := 0; j < 3; j++ {
				sz := sizes[(i*3+j)%len(sizes)]
				checkFrame(t, m.View(sz[0], sz[1]), sz[0], sz[1], fmt.Sprintf("seed %d key %d", seed, i))
			}
		}
	}
}
