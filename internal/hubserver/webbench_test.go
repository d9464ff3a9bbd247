package hubserver_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/chromedp/chromedp"
)

// BenchmarkFirstScreen measures, in a real Chromium at phone size, the
// time from the start of the page's navigation to its first screen of
// rows, with 1,000 questions waiting (budget: 200 ms).
func BenchmarkFirstScreen(b *testing.B) {
	f := newFixture(b)
	br := newBrowser(b, true)
	const n = 1000
	for i := range n {
		req := fmt.Sprintf(`{"questions": [{"title": "Question %d?", "options": [{"label": "yes"}, {"label": "no"}]}]}`, i)
		go ask.AskJSON(context.Background(), f.asker, ask.AskUser, []byte(req), nil)
	}
	for range n {
		f.waiting(b)
	}
	br.open(f, "")
	var took, ready []float64
	for b.Loop() {
		br.do(chromedp.Navigate(f.base + "/"))
		br.wait(`performance.getEntriesByName('askuser-list').length > 0 && document.querySelectorAll('#list li').length === 50`)
		var ms float64
		br.eval(`performance.getEntriesByName('askuser-list')[0].startTime`, &ms)
		took = append(took, ms)
		br.eval(`performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd`, &ms)
		ready = append(ready, ms)
	}
	slices.Sort(took)
	slices.Sort(ready)
	b.ReportMetric(took[len(took)/2], "p50-ms")
	b.ReportMetric(took[len(took)-1], "max-ms")
	// The part of it before the page's script starts: loading the page.
	b.ReportMetric(ready[len(ready)/2], "p50-loaded-ms")
}

// BenchmarkArrival measures, in a real Chromium, the time from a question
// being asked to its row on the open page (budget: 50 ms at the 99th
// percentile).
func BenchmarkArrival(b *testing.B) {
	f := newFixture(b)
	br := newBrowser(b, false)
	br.open(f, "")
	br.eval(`window.__arrived = 0; window.__at = 0;
new MutationObserver((ms) => { for (const m of ms) if (m.addedNodes.length) { window.__arrived += m.addedNodes.length; window.__at = Date.now(); } })
  .observe(document.getElementById('list'), {childList: true}); 0`, nil)
	var took []float64
	arrived := 0
	for b.Loop() {
		start := time.Now()
		results := make(chan contract.Result, 1)
		go func() { results <- ask.AskJSON(context.Background(), f.asker, ask.AskUser, []byte(deployReq), nil) }()
		arrived++
		br.wait(fmt.Sprintf("window.__arrived >= %d", arrived))
		var at int64
		br.eval(`window.__at`, &at)
		took = append(took, float64(at-start.UnixMilli()))
		q := f.waiting(b)
		if _, err := f.client.Dismiss(context.Background(), q.ID, "bench"); err != nil {
			b.Fatal(err)
		}
		<-results
	}
	slices.Sort(took)
	b.ReportMetric(took[len(took)/2], "p50-ms")
	b.ReportMetric(took[len(took)*99/100], "p99-ms")
}

// BenchmarkMarkdownHostile renders each hostile preview at the contract's
// limit of 16,000 characters.
func BenchmarkMarkdownHostile(b *testing.B) {
	for name, make := range hostileMarkdown {
		src := make(contract.MaxPreviewLen)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				hubserver.Markdown(src)
			}
		})
	}
}
