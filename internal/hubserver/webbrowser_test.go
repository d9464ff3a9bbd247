package hubserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/askuser/askuser/internal/testkit"
)

// browser is a real Chromium showing the page, driven either by touch
// at phone size or by the keyboard alone at desktop size. It records
// every JavaScript dialog, exception and console error of the page.
type browser struct {
	t     testing.TB
	ctx   context.Context
	touch bool

	mu       sync.Mutex
	problems []string
}

// chromium returns the browser the tests drive, or skips the test.
func chromium(t testing.TB) string {
	t.Helper()
	p := os.Getenv("ASKUSER_CHROMIUM")
	if p == "" {
		t.Skip("no browser to drive: set ASKUSER_CHROMIUM to a Chromium binary (make test installs Debian's chromium and sets it)")
	}
	return p
}

// Sizes the page is tested at.
const (
	phoneW, phoneH     = 390, 844
	desktopW, desktopH = 1280, 800
)

// newBrowser starts Chromium, with the extra options given.
func newBrowser(t testing.TB, touch bool, extra ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	path := chromium(t)
	// Chromium puts a socket in its temporary directory, whose path must
	// be short: t.TempDir's, named for the test, can be too long.
	dir, err := os.MkdirTemp("", "cr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	w, h := int64(desktopW), int64(desktopH)
	if touch {
		w, h = phoneW, phoneH
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.UserDataDir(filepath.Join(dir, "profile")),
		chromedp.Env("TMPDIR="+dir, "XDG_CONFIG_HOME="+dir, "XDG_CACHE_HOME="+dir, "HOME="+dir),
		chromedp.WindowSize(int(w), int(h)),
	)
	opts = append(opts, extra...)
	if os.Geteuid() == 0 {
		// Chromium refuses to run as root with its sandbox.
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		acancel()
	})
	b := &browser{t: t, ctx: ctx, touch: touch}
	if err := chromedp.Listen(ctx, b.listen); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	vopts := []chromedp.EmulateViewportOption{}
	if touch {
		vopts = append(vopts, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(3))
	}
	b.do(chromedp.EmulateViewport(w, h, vopts...))
	return b
}

func (b *browser) listen(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch e := ev.(type) {
	case *page.EventJavascriptDialogOpening:
		b.problems = append(b.problems, "a JavaScript dialog opened: "+e.Message)
		go chromedp.Call(b.ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{})
	case *runtime.EventExceptionThrown:
		msg := e.ExceptionDetails.Text
		if e.ExceptionDetails.Exception != nil {
			msg += " " + e.ExceptionDetails.Exception.Description
		}
		b.problems = append(b.problems, "exception: "+msg)
	case *runtime.EventConsoleAPICalled:
		if e.Type == "error" || e.Type == "warning" || e.Type == "assert" {
			var args []string
			for _, a := range e.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			b.problems = append(b.problems, fmt.Sprintf("console.%s: %s", e.Type, strings.Join(args, " ")))
		}
	case *log.EventEntryAdded:
		if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
			b.problems = append(b.problems, fmt.Sprintf("log %s: %s %s", e.Entry.Level, e.Entry.Text, e.Entry.URL))
		}
	}
}

// clean fails the test if the page showed a dialog, threw, or logged an
// error, and forgets them.
func (b *browser) clean() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		b.t.Errorf("the page: %s", p)
	}
	b.problems = nil
}

func (b *browser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, testkit.Patience(b.t))
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatalf("browser: %v", err)
	}
}

// eval evaluates the JavaScript expression js, awaiting it when it is a
// promise, and decodes its value into out (nil for none).
func (b *browser) eval(js string, out any) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, testkit.Patience(b.t))
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](js, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v", js, err)
	}
	if out != nil {
		if err := json.Unmarshal(v, out); err != nil {
			b.t.Fatalf("evaluate %s: %s: %v", js, v, err)
		}
	}
}

// wait waits until the JavaScript expression js is true; while it
// throws (an element it looks into is not there yet), it is false.
func (b *browser) wait(js string) {
	b.t.Helper()
	deadline := testkit.PatienceDeadline(b.t)
	for {
		var ok bool
		b.eval("(() => { try { return !!("+js+"); } catch { return false; } })()", &ok)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("the page never had %s", js)
		}
		b.do(chromedp.Sleep(10 * time.Millisecond))
	}
}

// waitAWhile waits until js is true, for at most d, and reports whether
// it became true.
func (b *browser) waitAWhile(js string, d time.Duration) bool {
	b.t.Helper()
	deadline := time.Now().Add(d)
	for {
		var ok bool
		b.eval("(() => { try { return !!("+js+"); } catch { return false; } })()", &ok)
		if ok || time.Now().After(deadline) {
			return ok
		}
		b.do(chromedp.Sleep(5 * time.Millisecond))
	}
}

// q quotes s for JavaScript.
func q(s string) string {
	v, _ := json.Marshal(s)
	return string(v)
}

// open opens the page with its token, then path (such as #q=ID).
func (b *browser) open(f *fixture, path string) {
	b.t.Helper()
	// From another document, so that the page loads afresh rather than
	// take a new fragment.
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(f.base+"/#token="+f.token))
	b.wait(`document.getElementById('conn').textContent.startsWith('Connected')`)
	if path != "" {
		b.do(chromedp.Navigate(f.base + "/" + path))
		b.wait(`document.querySelector('#form-host form, #form-host .closed')`)
	}
}

// JavaScript that finds elements of the open form.
const findJS = `
window.__find = {
  q: (i) => document.querySelectorAll('#form-host fieldset.question')[i],
  choice: (i, label) => [...__find.q(i).querySelectorAll('label.choice')].find((l) => l.querySelector('.label').textContent === label).querySelector('input'),
  input: (label) => {
    const l = [...document.querySelectorAll('#form-host label[for]')].find((l) => l.textContent === label);
    return l ? document.getElementById(l.htmlFor) : document.querySelector('#form-host input[aria-label=' + JSON.stringify(label) + ']');
  },
  button: (text) => [...document.querySelectorAll('button, a, summary')].find((e) => e.textContent === text && e.offsetParent !== null),
  notes: (i) => __find.q(i).querySelector('summary'),
  row: (i) => document.querySelectorAll('#list li')[i].querySelector('a'),
}; 0`

// target is JavaScript that yields one element, such as
// "__find.choice(0, 'prod')". It waits for the element to be there.
func (b *browser) tapOrFocus(target string) {
	b.t.Helper()
	b.eval(findJS, nil)
	b.wait(target)
	if b.touch {
		var at [2]float64
		b.eval(`(() => { let e = `+target+`; if (e.closest('label')) e = e.closest('label');
  e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); return [r.x + Math.min(r.width / 2, 40), r.y + r.height / 2]; })()`, &at)
		b.do(func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
			if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{
				Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{{X: at[0], Y: at[1]}}}); err != nil {
				return chromedp.Void{}, err
			}
			_, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{
				Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}})
			return chromedp.Void{}, err
		})
		return
	}
	// Keyboard only: Tab until the element has the focus.
	for range 120 {
		var ok bool
		b.eval(`(() => { const e = `+target+`; const a = document.activeElement;
  return a === e || (e.type === 'radio' && a && a.type === 'radio' && a.name === e.name); })()`, &ok)
		if ok {
			return
		}
		b.do(chromedp.KeyEvent(kb.Tab))
	}
	b.t.Fatalf("Tab never reached %s", target)
}

// choose selects the option or ticks the box labelled label of question i.
func (b *browser) choose(i int, label string) {
	b.t.Helper()
	target := fmt.Sprintf("__find.choice(%d, %s)", i, q(label))
	b.tapOrFocus(target)
	if b.touch {
		return
	}
	for range 10 {
		var st struct{ Same, Checked bool }
		// The focus and the box's state are kept too, to tell when the
		// page has taken the key sent next.
		b.eval(`(() => { const e = `+target+`; window.__before = [document.activeElement, e.checked];
  return {same: document.activeElement === e, checked: e.checked}; })()`, &st)
		switch {
		case st.Same && st.Checked:
			return
		case st.Same:
			b.do(chromedp.KeyEvent(" "))
		default:
			b.do(chromedp.KeyEvent(kb.ArrowDown))
		}
		// A busy page takes the key late: looking again before it has
		// would send one key too many and pass the option.
		b.waitAWhile(`(() => { const e = `+target+`; return document.activeElement !== window.__before[0] || e.checked !== window.__before[1]; })()`, time.Second)
	}
	b.t.Fatalf("the keyboard never chose %q", label)
}

// write types text into the text box labelled label, after what it holds.
func (b *browser) write(label, text string) {
	b.t.Helper()
	b.tapOrFocus(fmt.Sprintf("__find.input(%s)", q(label)))
	if b.touch {
		b.do(func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
			_, err := chromedp.Call(ctx, input.InsertText, input.InsertTextParams{Text: text})
			return chromedp.Void{}, err
		})
		return
	}
	b.do(chromedp.KeyEvent(kb.End), chromedp.KeyEvent(text))
}

// press presses the button, link or summary whose text is text.
func (b *browser) press(text string) {
	b.t.Helper()
	b.tapOrFocus(fmt.Sprintf("__find.button(%s)", q(text)))
	if !b.touch {
		b.do(chromedp.KeyEvent(kb.Enter))
	}
}

// openRow opens the list's row i (0 is the newest). A row is found by
// its place, not its text: the time left in the text changes each second.
func (b *browser) openRow(i int) {
	b.t.Helper()
	b.tapOrFocus(fmt.Sprintf("__find.row(%d)", i))
	if !b.touch {
		b.do(chromedp.KeyEvent(kb.Enter))
	}
}

// openNotes opens the notes of question i.
func (b *browser) openNotes(i int) {
	b.t.Helper()
	b.tapOrFocus(fmt.Sprintf("__find.notes(%d)", i))
	if !b.touch {
		b.do(chromedp.KeyEvent(kb.Enter))
	}
	b.wait(fmt.Sprintf("__find.q(%d).querySelector('details').open", i))
}

// text returns the text of the elements matching the CSS selector sel.
func (b *browser) text(sel string) []string {
	b.t.Helper()
	var out []string
	b.eval(`[...document.querySelectorAll(`+q(sel)+`)].filter((e) => e.offsetParent !== null).map((e) => e.textContent)`, &out)
	return out
}

// layoutHolds checks that nothing is wider than the window.
func (b *browser) layoutHolds(where string) {
	b.t.Helper()
	var st struct{ Scroll, Inner int }
	b.eval(`({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})`, &st)
	if st.Scroll > st.Inner {
		b.t.Errorf("%s: the page is %d px wide in a window of %d px", where, st.Scroll, st.Inner)
	}
}

// narrow makes the phone's screen 360 px wide, the narrowest the page
// is laid out for.
func (b *browser) narrow() {
	b.t.Helper()
	b.do(chromedp.EmulateViewport(360, phoneH, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(3)))
}

// scheme sets prefers-color-scheme.
func (b *browser) scheme(s string) {
	b.t.Helper()
	b.do(func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: s}}})
		return chromedp.Void{}, err
	})
}

func (b *browser) screenshot(path string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, testkit.Patience(b.t))
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}
