package dialog

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/testkit"
	"github.com/charmbracelet/x/ansi"

	"github.com/askuser/askuser/auq"
)

// texts are what random requests are made of: plain, wide, combining,
// emoji, control sequences, and long.
var qtexts = []string{
	"a", "Deploy", "日本語のラベル", "e\u0301", "👨‍👩‍👧", "👍🏽 ok", "⚠️", "\x1b[2J\x1b[H", "\x1b]52;c;aGk=\x07",
	"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "tab\there", "line\nbreak", "\u009b31m", "\u202eevil",
	strings.Repeat("long words wrap ", 12), strings.Repeat("無", 70),
}

// headers are short texts, as a header may have at most 12 characters.
var headers = []string{"a", "Deploy", "日本語のラベル", "e\u0301", "👨‍👩‍👧", "\x1b[2J\x1b[H", "tab\there", "\u202eevil", "twelve chars"}

var qfuzzKeys = []string{
	"up", "down", "left", "right", "tab", "shift+tab", "space", "enter", "esc", "home", "end",
	"backspace", "delete", "ctrl+w", "ctrl+a", "ctrl+e", "ctrl+u", "ctrl+k", HideKey, "shift+n", "shift+/", "f5",
}

var fuzzLetters = []string{"j", "k", "o", "n", "N", "?", "x", " "}

func qrandText(r *rand.Rand) string { return qtexts[r.IntN(len(qtexts))] }

// randRequest builds a random request that keeps auq's rules on counts,
// ids, recommended options and previews; its texts are anything.
func qrandRequest(r *rand.Rand) *auq.Request {
	req := &auq.Request{}
	n := auq.MinQuestions + r.IntN(auq.MaxQuestions)
	for i := range n {
		q := auq.Question{ID: fmt.Sprintf("q%d", i), Question: qrandText(r) + "?", Header: headers[r.IntN(len(headers))], MultiSelect: r.IntN(3) == 0}
		if r.IntN(3) == 0 {
			q.Required = ptr(false)
		}
		rec := r.IntN(6) - 1
		for j := range auq.MinOptions + r.IntN(auq.MaxOptions-auq.MinOptions+1) {
			o := auq.Option{ID: fmt.Sprintf("o%d", j), Label: qtexts[r.IntN(len(qtexts)-2)] + fmt.Sprint(j), Description: qrandText(r), Recommended: j == rec}
			if !q.MultiSelect && r.IntN(2) == 0 {
				o.Preview = qrandText(r) + "\n\n" + qrandText(r)
			}
			q.Options = append(q.Options, o)
		}
		req.Questions = append(req.Questions, q)
	}
	return req
}

func qrandKey(r *rand.Rand) Key {
	switch r.IntN(8) {
	case 0:
		return Key{Text: qrandText(r)}
	case 1, 2:
		return Key{Text: fuzzLetters[r.IntN(len(fuzzLetters))]}
	default:
		return Key{Name: qfuzzKeys[r.IntN(len(qfuzzKeys))]}
	}
}

// checkFrame fails when f breaks View's promises for a w×h screen.
func qcheckFrame(t *testing.T, f Frame, w, h int, ctx string) {
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
		if s := ansi.Strip(l); strings.ContainsAny(s, "\x1b\x07\u009b\u009d\r\n\t") || strings.ContainsRune(s, 0x202e) {
			t.Fatalf("%s: line %d holds a control character: %q", ctx, i, l)
		}
	}
	if f.Hints > len(f.Lines) {
		t.Fatalf("%s: %d hint lines of %d", ctx, f.Hints, len(f.Lines))
	}
	if c := f.Cursor; c != nil && (c.Row < 0 || c.Row >= len(f.Lines) || c.Col < 0 || c.Col >= w) {
		t.Fatalf("%s: cursor %+v outside %dx%d (%d lines)", ctx, *c, w, h, len(f.Lines))
	}
}

var qsizes = [][2]int{{1, 1}, {0, 0}, {80, 0}, {0, 24}, {1, 24}, {2, 2}, {5, 3}, {20, 3}, {40, 12}, {80, 24}, {99, 30}, {100, 30}, {120, 40}, {200, 60}, {13, 7}}

// checkEffect fails when e breaks the contract of an effect.
func checkEffect(t *testing.T, req *auq.Request, e Effect[auq.Result]) {
	t.Helper()
	if e.Kind != EffectSubmit {
		if e.Answer.Answers != nil || e.Answer.Annotations != nil {
			t.Fatalf("%v effect with a result: %+v", e.Kind, e.Answer)
		}
		return
	}
	if err := auq.CheckResult(req, e.Answer); err != nil {
		t.Fatalf("the submitted result does not fit the request: %v\n%+v", err, e.Answer)
	}
	for _, q := range req.Questions {
		a, ok := e.Answer.Answers[q.ID]
		if !ok && q.IsRequired() {
			t.Fatalf("submitted without an answer to required question %s", q.ID)
		}
		if ok && (a.Kind == auq.KindMulti) != q.MultiSelect {
			t.Fatalf("question %s: answer of kind %s", q.ID, a.Kind)
		}
	}
	for id := range e.Answer.Answers {
		found := false
		for _, q := range req.Questions {
			found = found || q.ID == id
		}
		if !found {
			t.Fatalf("answer for unknown question %q", id)
		}
	}
}

// fuzzBody runs random keys on a random request, with random sizes both
// given with SetSize and only asked of View, and checks every frame and
// effect.
func fuzzBody(t *testing.T, r *rand.Rand, steps int) {
	req := qrandRequest(r)
	th := PlainTheme()
	if r.IntN(2) == 0 {
		th = DefaultTheme()
	}
	m := NewQuestions(req, &Options{Theme: th, Countdown: fixedClock{left: time.Duration(r.IntN(90)) * time.Second, ok: r.IntN(4) > 0}})
	if err := auq.Validate(req); err != nil {
		t.Fatalf("generated request rejected: %v", err)
	}
	for i := 0; i < steps; i++ {
		k := qrandKey(r)
		e := m.Update(k)
		checkEffect(t, req, e)
		if e.Kind == EffectSubmit || e.Kind == EffectDismiss {
			return
		}
		sz := qsizes[r.IntN(len(qsizes))]
		if r.IntN(4) == 0 {
			sz = [2]int{r.IntN(220), r.IntN(70)}
		}
		if r.IntN(2) == 0 {
			m.SetSize(sz[0], sz[1])
		}
		qcheckFrame(t, m.View(sz[0], sz[1]), sz[0], sz[1], fmt.Sprintf("after %q", k))
	}
}

func FuzzQuestions(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(42), uint64(7))
	f.Add(uint64(7), uint64(99))
	f.Fuzz(func(t *testing.T, seed, ks uint64) {
		testkit.FuzzBound(t, [2]uint64{seed, ks}, func() {
			fuzzBody(t, rand.New(rand.NewPCG(seed, ks)), 60)
		})
	})
}

// TestRandomKeys runs the fuzz body over many seeds in the ordinary test
// run.
func TestRandomKeys(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 30
	}
	for seed := range n {
		fuzzBody(t, rand.New(rand.NewPCG(uint64(seed), 5)), 120)
	}
}
