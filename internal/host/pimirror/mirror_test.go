package pimirror

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/dialog"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/google/go-cmp/cmp"
)

const deploy = `{"questions":[{"title":"Deploy where?","kind":"single","options":[{"label":"staging"},{"label":"prod","description":"production"}]},{"title":"Name","kind":"input"}]}`

func TestNewRefuses(t *testing.T) {
	cases := []struct {
		name string
		spec Spec
		want string
	}{
		{"unknown dialog", Spec{Dialog: "form", Request: json.RawMessage(deploy)}, `unknown dialog "form"`},
		{"ask_user request not JSON", Spec{Dialog: DialogAskUser, Request: json.RawMessage(`{`)}, "the ask_user request"},
		{"questions request of the wrong type", Spec{Dialog: DialogQuestions, Request: json.RawMessage(`[1]`)}, "the AskUserQuestion request"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(&c.spec)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("New: %v, want an error with %q", err, c.want)
			}
		})
	}
}

// fixed is a countdown that never moves, for the dialog drawn directly.
type fixed struct {
	left time.Duration
	ok   bool
}

func (f *fixed) Remaining() (time.Duration, bool) { return f.left, f.ok }

// TestSameFrames drives a Mirror and the dialog itself with the same
// keys and checks that they draw the same frames.
func TestSameFrames(t *testing.T) {
	roles := map[string]SGR{"accent": {Prefix: "\x1b[35m", Suffix: "\x1b[39m"}}
	keys := []struct{ name, text string }{
		{"down", ""}, {"space", ""}, {"tab", ""}, {"", "v1"}, {"backspace", ""}, {"left", ""}, {"shift+tab", ""}, {"nonsense-key", ""}, {"up", ""},
	}
	for _, width := range []int{80, 100, 200} {
		x, err := New(&Spec{Dialog: DialogAskUser, Request: json.RawMessage(deploy), Theme: roles, ToggleKey: "alt+o", Overlay: true, Title: "ask_user"})
		if err != nil {
			t.Fatal(err)
		}
		var req contract.Request
		if err := json.Unmarshal([]byte(deploy), &req); err != nil {
			t.Fatal(err)
		}
		m := dialog.New(&req, &dialog.Options{Theme: Theme(roles), Countdown: &fixed{}, ToggleKey: "alt+o", Overlay: true, Title: "ask_user"})
		m.SetSize(width, 30)
		got, err := x.Resize(width, 30)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(m.View(width, 30).Lines, got.Lines); diff != "" {
			t.Fatalf("%d columns, first frame (-dialog +mirror):\n%s", width, diff)
		}
		for _, k := range keys {
			got, ended, err := x.Key(k.name, k.text)
			if err != nil || ended {
				t.Fatalf("Key(%q, %q): ended %v, %v", k.name, k.text, ended, err)
			}
			if dk, ok := ToKey(k.name, k.text); ok {
				m.Update(dk)
			}
			want := m.View(width, 30)
			if diff := cmp.Diff(want.Lines, got.Lines); diff != "" {
				t.Fatalf("%d columns, after %q %q (-dialog +mirror):\n%s", width, k.name, k.text, diff)
			}
			if (want.Cursor == nil) != (got.Cursor == nil) || (want.Cursor != nil && (want.Cursor.Row != got.Cursor.Row || want.Cursor.Col != got.Cursor.Col)) {
				t.Fatalf("%d columns, after %q %q: cursor %+v, want %+v", width, k.name, k.text, got.Cursor, want.Cursor)
			}
		}
	}
}

func TestEndsAndCountdown(t *testing.T) {
	cases := []struct {
		name string
		key  string
	}{
		{"dismissed", "escape"},
		{"submitted", "ctrl+enter"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x, err := New(&Spec{Dialog: DialogAskUser, Request: json.RawMessage(`{"questions":[{"title":"Go?","kind":"bool","default":true}]}`)})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := x.Resize(80, 20); err != nil {
				t.Fatal(err)
			}
			if _, ended, err := x.Key(c.key, ""); !ended || err != nil {
				t.Fatalf("Key(%q): ended %v, %v; want the end", c.key, ended, err)
			}
			if _, _, err := x.Key("down", ""); err != ErrEnded {
				t.Errorf("a key after the end: %v, want ErrEnded", err)
			}
			if _, err := x.Resize(90, 20); err != ErrEnded {
				t.Errorf("a size after the end: %v, want ErrEnded", err)
			}
		})
	}
	t.Run("alt+q stops the countdown", func(t *testing.T) {
		deadline := time.Now().Add(10 * time.Minute)
		x, err := New(&Spec{Dialog: DialogAskUser, Deadline: deadline.UnixMicro(), Request: json.RawMessage(deploy)})
		if err != nil {
			t.Fatal(err)
		}
		f, err := x.Resize(100, 30)
		if err != nil {
			t.Fatal(err)
		}
		if frame := strings.Join(f.Lines, "\n"); !testkit.CountdownBetween(frame, time.Until(deadline), 10*time.Minute) {
			t.Fatalf("no countdown of the time left, %v, in the first frame:\n%s", time.Until(deadline).Round(time.Second), frame)
		}
		if _, ok := x.cd.Remaining(); !ok {
			t.Fatal("the countdown does not run")
		}
		if _, _, err := x.Key("alt+q", ""); err != nil {
			t.Fatal(err)
		}
		if _, ok := x.cd.Remaining(); ok {
			t.Error("alt+q left the countdown running")
		}
	})
}

// TestTryStopTimer checks that Alt+Q, tried, draws the stopped countdown
// while the countdown runs on, in the dialog and in the frames of the
// other keys tried, and that only its Adopt stops it.
func TestTryStopTimer(t *testing.T) {
	spec := Spec{Dialog: DialogAskUser, Deadline: time.Now().Add(10 * time.Minute).UnixMicro(), Request: json.RawMessage(deploy)}
	byKey, err := New(&spec)
	if err != nil {
		t.Fatal(err)
	}
	byTry, err := New(&spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []*Mirror{byKey, byTry} {
		if _, err := x.Resize(100, 30); err != nil {
			t.Fatal(err)
		}
	}
	stopped, ok, err := byTry.Try("alt+q", "")
	if !ok || err != nil {
		t.Fatalf("Try(alt+q): ok %v, %v; want its frame", ok, err)
	}
	if !strings.Contains(strings.Join(stopped.Lines, "\n"), "No timeout") {
		t.Errorf("the tried frame of alt+q does not say the countdown stopped:\n%s", strings.Join(stopped.Lines, "\n"))
	}
	if _, ok := byTry.cd.Remaining(); !ok {
		t.Fatal("trying alt+q stopped the countdown")
	}
	down, ok, err := byTry.Try("down", "")
	if !ok || err != nil {
		t.Fatalf("Try(down): ok %v, %v", ok, err)
	}
	if strings.Contains(strings.Join(down.Lines, "\n"), "No timeout") {
		t.Errorf("a key tried after alt+q shows the countdown stopped:\n%s", strings.Join(down.Lines, "\n"))
	}
	if !byTry.Adopt("alt+q", "") {
		t.Fatal("Adopt(alt+q) took no copy")
	}
	if _, ok := byTry.cd.Remaining(); ok {
		t.Error("adopting alt+q left the countdown running")
	}
	want, _, err := byKey.Key("alt+q", "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, stopped); diff != "" {
		t.Errorf("alt+q (-Key +Try):\n%s", diff)
	}
	// A key tried, and another given: alt+q's copy is not taken.
	x, err := New(&spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Resize(100, 30); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := x.Try("alt+q", ""); !ok {
		t.Fatal("Try(alt+q) drew no frame")
	}
	f, _, err := x.Key("down", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := x.cd.Remaining(); !ok || strings.Contains(strings.Join(f.Lines, "\n"), "No timeout") {
		t.Errorf("alt+q tried, then down given: the countdown stopped (%v) or shows so:\n%s", !ok, strings.Join(f.Lines, "\n"))
	}
	if x.Adopt("alt+q", "") {
		t.Error("Adopt(alt+q) took a copy after another key")
	}
}

// TestConcurrent runs keys and sizes from several goroutines, for -race.
func TestConcurrent(t *testing.T) {
	x, err := New(&Spec{Dialog: DialogAskUser, Request: json.RawMessage(deploy)})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 50 {
				if j%2 == 0 {
					_, _ = x.Resize(60+i, 20)
				} else {
					_, _, _ = x.Key("down", "")
				}
			}
		}()
	}
	wg.Wait()
}

func TestAppendFrame(t *testing.T) {
	cases := []struct {
		name string
		f    Frame
	}{
		{"empty", Frame{Lines: []string{}}},
		{"plain and styled", Frame{Lines: []string{"a", "\x1b[36m▸\x1b[39m ( ) prod", ""}}},
		{"escapes", Frame{Lines: []string{"q\"b\\s\b\f\n\r\t\x00\x1f\x7f"}}},
		{"invalid UTF-8", Frame{Lines: []string{"a\xffb\xc3", "\xe2\x80"}}},
		{"line and paragraph separators", Frame{Lines: []string{"x\u2028y\u2029z"}}},
		{"cursor", Frame{Lines: []string{"name: _"}, Cursor: &Cursor{Row: 0, Col: 6}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var want strings.Builder
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(c.f); err != nil {
				t.Fatal(err)
			}
			got := string(AppendFrame([]byte("kept"), c.f))
			if diff := cmp.Diff("kept"+strings.TrimSuffix(want.String(), "\n"), got); diff != "" {
				t.Errorf("AppendFrame (-encoding/json +got):\n%s", diff)
			}
		})
	}
}

// TestTryAdopt drives one Mirror with Key and another by trying several
// keys before each and adopting the one given, as the Pi package does
// while the person has not typed yet, and checks that both draw the same
// frames, that a tried frame is the frame Key draws, and what Try refuses.
func TestTryAdopt(t *testing.T) {
	const questions = `{"questions":[{"question":"Which layout?","header":"Layout","multiSelect":false,"options":[{"label":"grid","description":"a grid","preview":"# Grid\n\n- one"},{"label":"list","description":"a list"}]},{"question":"Which parts?","header":"Parts","multiSelect":true,"options":[{"label":"p","description":"q"},{"label":"r","description":"s"}]}]}`
	type key struct{ name, text string }
	tries := []key{{"down", ""}, {"up", ""}, {"tab", ""}, {"shift+tab", ""}, {"", " "}, {"left", ""}, {"right", ""}, {"escape", ""}, {"enter", ""}}
	cases := []struct {
		name string
		spec Spec
		keys []key
		end  string // a key that ends the dialog at once
		// Keys given that must have been tried: their frames were drawn ahead.
		drawn []string
	}{
		{"ask_user", Spec{Dialog: DialogAskUser, Request: json.RawMessage(deploy), Overlay: true, Title: "ask_user"},
			[]key{{"down", ""}, {"", " "}, {"tab", ""}, {"", "v1"}, {"backspace", ""}, {"left", ""}, {"shift+tab", ""}, {"up", ""}, {"right", ""}}, "escape", nil},
		{"questions", Spec{Dialog: DialogQuestions, Request: json.RawMessage(questions)},
			// Esc asks before it dismisses, and leaves an input; Enter on
			// the review with a question unanswered says so, and on a
			// question's row goes to it.
			[]key{{"down", ""}, {"up", ""}, {"", " "}, {"tab", ""}, {"down", ""}, {"", " "}, {"shift+tab", ""}, {"right", ""}, {"left", ""},
				{"escape", ""}, {"down", ""}, {"", "o"}, {"", "x"}, {"escape", ""}, {"tab", ""}, {"tab", ""}, {"escape", ""}, {"enter", ""}, {"down", ""}, {"enter", ""}}, "ctrl+c", []string{"escape", "enter"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			byKey, err := New(&c.spec)
			if err != nil {
				t.Fatal(err)
			}
			byTry, err := New(&c.spec)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok, err := byTry.Try("down", ""); ok || err != nil {
				t.Fatalf("Try before a size: ok %v, %v; want no frame", ok, err)
			}
			if _, err := byKey.Resize(100, 30); err != nil {
				t.Fatal(err)
			}
			if _, err := byTry.Resize(100, 30); err != nil {
				t.Fatal(err)
			}
			drawn := map[string]bool{}
			for _, k := range c.keys {
				frames := map[key]Frame{}
				for _, tk := range tries {
					if f, ok, err := byTry.Try(tk.name, tk.text); err != nil {
						t.Fatal(err)
					} else if ok {
						frames[tk] = f
					}
				}
				want, _, err := byKey.Key(k.name, k.text)
				if err != nil {
					t.Fatal(err)
				}
				got, tried := frames[k]
				drawn[k.name] = drawn[k.name] || tried
				if byTry.Adopt(k.name, k.text) != tried {
					t.Fatalf("Adopt(%q, %q) = %v after Try said %v", k.name, k.text, !tried, tried)
				}
				if !tried {
					if got, _, err = byTry.Key(k.name, k.text); err != nil {
						t.Fatal(err)
					}
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("after %q %q (tried %v) (-Key +Try):\n%s", k.name, k.text, tried, diff)
				}
				if byTry.Adopt(k.name, k.text) {
					t.Fatalf("Adopt(%q, %q) took a copy twice", k.name, k.text)
				}
			}
			for _, name := range c.drawn {
				if !drawn[name] {
					t.Errorf("%s was never drawn ahead", name)
				}
			}
			// What ends the dialog is for Key alone.
			if _, ok, _ := byTry.Try(c.end, ""); ok {
				t.Errorf("Try(%q) drew a frame for a key that ends the dialog", c.end)
			}
			if _, ended, _ := byTry.Key(c.end, ""); !ended {
				t.Errorf("Key(%q) did not end the dialog", c.end)
			}
		})
	}
}

// TestTryOn checks that TryOn draws the frame the key brings without
// changing the dialog, and has none for a key that ends it.
func TestTryOn(t *testing.T) {
	m := deployDialog(t, 60, 20)
	before := m.View(60, 20)
	for _, name := range []string{"down", "tab", "alt+q"} {
		k, ok := ToKey(name, "")
		if !ok {
			t.Fatalf("%s is no key", name)
		}
		tried, ok := TryOn(m, k, 60, 20)
		if !ok {
			t.Fatalf("%s: no frame", name)
		}
		if diff := cmp.Diff(before, m.View(60, 20)); diff != "" {
			t.Fatalf("%s: trying it changed the dialog (-before +after):\n%s", name, diff)
		}
		c := m.Clone()
		c.Update(k)
		if diff := cmp.Diff(c.View(60, 20), tried); diff != "" {
			t.Errorf("%s: the tried frame is not the key's (-key +tried):\n%s", name, diff)
		}
	}
	esc, _ := ToKey("escape", "")
	if _, ok := TryOn(m, esc, 60, 20); ok {
		t.Error("escape, which dismisses, has a frame")
	}
}

// BenchmarkTryOn is the child's work between two keys at a person's pace
// in the custom route without the in-process copy: the frames of the ten
// keys the shim asks for (pi/src/tries.ts's TRIED_KEYS) at 100×28.
func BenchmarkTryOn(b *testing.B) {
	m := deployDialog(b, 100, 28)
	var keys []dialog.Key
	for _, name := range []string{"down", "up", "enter", " ", "tab", "shift+tab", "right", "left", "escape", "alt+q"} {
		k, ok := ToKey(name, "")
		if name == " " {
			k, ok = ToKey("", " ")
		}
		if !ok {
			b.Fatalf("%q is no key", name)
		}
		keys = append(keys, k)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, k := range keys {
			TryOn(m, k, 100, 28)
		}
	}
}

// deployDialog is the ask_user dialog of deploy at width×rows, with a
// countdown that does not run.
func deployDialog(tb testing.TB, width, rows int) *dialog.Model {
	tb.Helper()
	var req contract.Request
	if err := json.Unmarshal([]byte(deploy), &req); err != nil {
		tb.Fatal(err)
	}
	m := dialog.New(&req, &dialog.Options{Countdown: &fixed{}})
	m.SetSize(width, rows)
	return m
}
