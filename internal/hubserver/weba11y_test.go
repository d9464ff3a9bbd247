package hubserver_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// axeSource returns axe-core, the accessibility checker, or skips the
// test.
func axeSource(t *testing.T) string {
	t.Helper()
	p := os.Getenv("ASKUSER_AXE")
	if p == "" {
		t.Skip("no accessibility checker: set ASKUSER_AXE to axe-core's axe.min.js (make test installs it and sets it)")
	}
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("ASKUSER_AXE: %v", err)
	}
	return string(src)
}

// axeViolation is one rule axe-core found broken, with where.
type axeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// axeCheck runs axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules on the
// page as it is, and fails the test with each rule broken.
func (b *browser) axeCheck(src, what string) {
	b.t.Helper()
	var loaded bool
	b.eval(`typeof axe !== 'undefined'`, &loaded)
	if !loaded {
		// Evaluated through the browser's debugging protocol, which the
		// page's Content-Security-Policy does not govern.
		b.eval(src+";true", nil)
	}
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]axeViolation](`axe.run(document, {
  runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']},
  resultTypes: ['violations'],
}).then((r) => r.violations.map((v) => ({id: v.id, impact: v.impact || '', help: v.help,
  nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ': ' + (n.failureSummary || '').split('\n').slice(0, 2).join(' '))})))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("axe-core on %s: %v", what, err)
	}
	for _, x := range v {
		b.t.Errorf("%s breaks %s (%s): %s\n  %s", what, x.ID, x.Impact, x.Help, strings.Join(x.Nodes, "\n  "))
	}
}

// TestAccessible runs axe-core's WCAG 2.2 A and AA rules on the page in
// a real Chromium: the list, each contract's form as it opens and with
// its problems shown, in light and dark, at phone and desktop size.
func TestAccessible(t *testing.T) {
	src := axeSource(t)
	for _, touch := range []bool{true, false} {
		for _, scheme := range []string{"light", "dark"} {
			t.Run(fmt.Sprintf("touch %v %s", touch, scheme), func(t *testing.T) {
				f := newFixture(t)
				b := newBrowser(t, touch)
				b.scheme(scheme)
				_, q1 := f.askUser(t, everyKind)
				_, q2 := f.askQuestions(t, threeQuestions)
				b.open(f, "")
				b.wait(`document.querySelectorAll('#list li').length === 2`)
				b.axeCheck(src, "the list")
				for _, q := range []struct{ id, name string }{{q1.ID, "ask_user's form"}, {q2.ID, "AskUserQuestion's form"}} {
					b.open(f, "#q="+q.id)
					b.axeCheck(src, q.name)
					b.press("Send answer")
					b.wait(`document.querySelector('#form-host .problem.top:not([hidden])')`)
					b.axeCheck(src, q.name+" with its problems shown")
				}
				b.clean()
			})
		}
	}
}
