package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/dialog"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/prefs"
)

func TestToKey(t *testing.T) {
	tests := []struct {
		name string
		in   tea.KeyPressMsg
		want dialog.Key
		ok   bool
	}{
		{"letter", tea.KeyPressMsg{Code: 'a', Text: "a"}, dialog.Key{Text: "a"}, true},
		{"shifted letter", tea.KeyPressMsg{Code: 'a', ShiftedCode: 'A', Text: "A", Mod: tea.ModShift}, dialog.Key{Text: "A"}, true},
		{"caps lock", tea.KeyPressMsg{Code: 'a', Text: "A", Mod: tea.ModCapsLock}, dialog.Key{Text: "A"}, true},
		{"wide rune", tea.KeyPressMsg{Code: '日', Text: "日"}, dialog.Key{Text: "日"}, true},
		{"space", tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}, dialog.Key{Name: "space"}, true},
		{"enter", tea.KeyPressMsg{Code: tea.KeyEnter}, dialog.Key{Name: "enter"}, true},
		{"keypad enter", tea.KeyPressMsg{Code: tea.KeyKpEnter}, dialog.Key{Name: "enter"}, true},
		{"ctrl+enter", tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModCtrl}, dialog.Key{Name: "ctrl+enter"}, true},
		{"shift+tab", tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, dialog.Key{Name: "shift+tab"}, true},
		{"esc", tea.KeyPressMsg{Code: tea.KeyEscape}, dialog.Key{Name: "esc"}, true},
		{"ctrl+c", tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}, dialog.Key{Name: "ctrl+c"}, true},
		{"alt+q", tea.KeyPressMsg{Code: 'q', Mod: tea.ModAlt}, dialog.Key{Name: "alt+q"}, true},
		{"alt+o", tea.KeyPressMsg{Code: 'o', Mod: tea.ModAlt}, dialog.Key{Name: "alt+o"}, true},
		{"kitty ctrl+shift+q", tea.KeyPressMsg{Code: 'q', Mod: tea.ModCtrl | tea.ModShift}, dialog.Key{Name: "ctrl+shift+q"}, true},
		{"page up", tea.KeyPressMsg{Code: tea.KeyPgUp}, dialog.Key{Name: "pgup"}, true},
		{"page down", tea.KeyPressMsg{Code: tea.KeyPgDown}, dialog.Key{Name: "pgdown"}, true},
		{"num lock arrow", tea.KeyPressMsg{Code: tea.KeyDown, Mod: tea.ModNumLock}, dialog.Key{Name: "down"}, true},
		{"ctrl+left", tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModCtrl}, dialog.Key{Name: "ctrl+left"}, true},
		{"alt+backspace", tea.KeyPressMsg{Code: tea.KeyBackspace, Mod: tea.ModAlt}, dialog.Key{Name: "alt+backspace"}, true},
		{"home", tea.KeyPressMsg{Code: tea.KeyHome}, dialog.Key{Name: "home"}, true},
		{"f13 has no KeyId", tea.KeyPressMsg{Code: tea.KeyF13}, dialog.Key{}, false},
		{"media key", tea.KeyPressMsg{Code: tea.KeyMediaPlay}, dialog.Key{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := toKey(tt.in)
			if ok != tt.ok {
				t.Fatalf("toKey(%v) ok = %v, want %v", tt.in, ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("toKey(%v) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

const (
	reqSingle = `{"questions":[{"title":"Where to?","options":[{"label":"staging"},{"label":"prod"}]}]}`
	reqTwo    = `{"header":"Release","questions":[{"title":"Where to?","options":[{"label":"staging"},{"label":"prod"}]},{"title":"Ship it?","kind":"bool"}]}`
	reqInput  = `{"questions":[{"title":"Name?","kind":"input"}]}`
)

// session builds a session for req without a deadline.
func session(t *testing.T, req string, display contract.DisplayMode) *ask.Session[*contract.Request] {
	t.Helper()
	r, _, err := contract.Parse([]byte(req))
	if err != nil {
		t.Fatalf("parse %s: %v", req, err)
	}
	return &ask.Session[*contract.Request]{Request: r, Display: display, ToggleKey: "alt+o"}
}

// send passes msgs to m in order and returns the last command.
func send(m *model, msgs ...tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	for _, msg := range msgs {
		_, cmd = m.Update(msg)
	}
	return cmd
}

func press(name string) tea.KeyPressMsg {
	switch name {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "alt+o":
		return tea.KeyPressMsg{Code: 'o', Mod: tea.ModAlt}
	case "alt+q":
		return tea.KeyPressMsg{Code: 'q', Mod: tea.ModAlt}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	r := []rune(name)
	return tea.KeyPressMsg{Code: r[0], Text: name}
}

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// checkBounds fails when the view has a line wider than w or more than h
// lines.
func checkBounds(t *testing.T, v tea.View, w, h int) {
	t.Helper()
	lines := strings.Split(v.Content, "\n")
	if v.Content != "" && len(lines) > h {
		t.Errorf("%dx%d: %d lines", w, h, len(lines))
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("%dx%d: line %d is %d wide: %q", w, h, i, lw, l)
		}
	}
	if c := v.Cursor; c != nil && (c.X < 0 || c.X >= w || c.Y < 0 || c.Y >= h) {
		t.Errorf("%dx%d: cursor at %d,%d is off the screen", w, h, c.X, c.Y)
	}
}

func TestAnswerInline(t *testing.T) {
	m := newModel(session(t, reqSingle, contract.DisplayInline), dialog.PlainTheme())
	send(m, tea.WindowSizeMsg{Width: 60, Height: 20})
	v := m.View()
	if v.AltScreen {
		t.Error("inline view is on the alternate screen")
	}
	if !strings.Contains(v.Content, "▸ ( ) staging") {
		t.Errorf("view lacks the focused option:\n%s", v.Content)
	}
	if !isQuit(send(m, press("down"), press("enter"))) {
		t.Fatal("enter on a one-question questionnaire did not quit")
	}
	want := ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{{ID: "q1", Title: "Where to?", Kind: contract.KindSingle, Selections: []string{"prod"}}}}
	if diff := cmp.Diff(want, m.outcome); diff != "" {
		t.Errorf("outcome mismatch (-want +got):\n%s", diff)
	}
	if got, want := m.View().Content, "✓ Where to?: prod\n"; got != want {
		t.Errorf("last view = %q, want %q", got, want)
	}
	// Keys after the end change nothing.
	send(m, press("esc"))
	if m.outcome.Dismissed {
		t.Error("a key after the end dismissed the questionnaire")
	}
}

func TestLastLine(t *testing.T) {
	tests := []struct {
		name string
		req  string
		msgs []tea.Msg
		want string
	}{
		{"dismissed", reqSingle, []tea.Msg{press("esc")}, "✗ Where to?: dismissed\n"},
		{"ctrl+c dismisses", reqSingle, []tea.Msg{press("ctrl+c")}, "✗ Where to?: dismissed\n"},
		{"timed out", reqSingle, []tea.Msg{stopMsg{cause: ask.ErrTimeout}}, "⏱ Where to?: timed out\n"},
		{"aborted", reqSingle, []tea.Msg{stopMsg{cause: ask.ErrAborted}}, "✗ Where to?: cancelled\n"},
		{"several answers", reqTwo, []tea.Msg{press("enter"), press("enter"), press("enter")}, "✓ Release: 2 answers\n"},
		{"false is an answer", `{"questions":[{"title":"Ship it?","kind":"bool"}]}`, []tea.Msg{press("right"), press("enter")}, "✓ Ship it?: false\n"},
		{"cut to the width", `{"questions":[{"title":"` + strings.Repeat("long ", 20) + `","kind":"input"}]}`, []tea.Msg{press("esc")}, "✗ long long long long long long long lo…\n"},
		{"untrusted title", `{"questions":[{"title":"a\u001b]52;c;eA==\u0007b","kind":"input"}]}`, []tea.Msg{press("esc")}, "✗ a␛]52;c;eA==␇b: dismissed\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newModel(session(t, tt.req, contract.DisplayInline), dialog.PlainTheme())
			send(m, tea.WindowSizeMsg{Width: 40, Height: 20})
			if !isQuit(send(m, tt.msgs...)) {
				t.Fatal("the program did not quit")
			}
			if got := m.View().Content; got != tt.want {
				t.Errorf("last view = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestOverlayBox(t *testing.T) {
	m := newModel(session(t, reqInput, contract.DisplayOverlay), dialog.PlainTheme())
	send(m, tea.WindowSizeMsg{Width: 100, Height: 30}, press("x"))
	v := m.View()
	if !v.AltScreen {
		t.Fatal("overlay is not on the alternate screen")
	}
	lines := strings.Split(v.Content, "\n")
	top := 0
	for top < len(lines) && lines[top] == "" {
		top++
	}
	if top == 0 || top >= len(lines) {
		t.Fatalf("box is not centred vertically:\n%s", v.Content)
	}
	boxH := len(lines) - top
	if below := 30 - top - boxH; below < top-1 || below > top+1 {
		t.Errorf("box has %d rows above and %d below", top, below)
	}
	first := lines[top]
	left := strings.Index(first, "╭")
	right := 100 - ansi.StringWidth(first)
	if left < 1 || left != right {
		t.Errorf("box is not centred: %d columns left, %d right: %q", left, right, first)
	}
	if !strings.HasPrefix(lines[len(lines)-1], strings.Repeat(" ", left)+"╰") {
		t.Errorf("box has no bottom border: %q", lines[len(lines)-1])
	}
	// The cursor follows the text: after "✎ x" inside the box.
	row := -1
	for i, l := range lines {
		if strings.Contains(l, "✎ x") {
			row = i
		}
	}
	if v.Cursor == nil || v.Cursor.Y != row {
		t.Fatalf("cursor = %+v, want on row %d", v.Cursor, row)
	}
	if want := ansi.StringWidth(lines[row][:strings.Index(lines[row], "✎ x")+len("✎ x")]); v.Cursor.X != want {
		t.Errorf("cursor column = %d, want %d", v.Cursor.X, want)
	}
	if !strings.Contains(v.Content, "alt+o hide") {
		t.Errorf("overlay hints lack the toggle key:\n%s", v.Content)
	}
}

func TestBounds(t *testing.T) {
	sizes := [][2]int{{1, 1}, {2, 1}, {20, 3}, {23, 5}, {24, 6}, {40, 12}, {59, 15}, {60, 16}, {80, 24}, {120, 40}, {300, 80}}
	reqs := []string{reqSingle, reqTwo, reqInput,
		`{"questions":[{"title":"日本語のタイトル","prompt":"` + strings.Repeat("👍🏽 x ", 60) + `","options":[{"label":"a","preview":"# P\n\n` + strings.Repeat("word ", 200) + `"}]}]}`}
	for _, display := range []contract.DisplayMode{contract.DisplayInline, contract.DisplayOverlay} {
		for _, req := range reqs {
			m := newModel(session(t, req, display), dialog.DefaultTheme())
			for _, sz := range sizes {
				send(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
				checkBounds(t, m.View(), sz[0], sz[1])
				send(m, press("alt+o"))
				checkBounds(t, m.View(), sz[0], sz[1])
				send(m, press("alt+o"), showMsg{})
			}
		}
	}
}

func TestResize(t *testing.T) {
	m := newModel(session(t, reqSingle, contract.DisplayOverlay), dialog.PlainTheme())
	send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	wide := m.View().Content
	send(m, tea.WindowSizeMsg{Width: 40, Height: 12})
	narrow := m.View().Content
	if wide == narrow {
		t.Fatal("the view did not change with the size")
	}
	checkBounds(t, m.View(), 40, 12)
}

func TestToggle(t *testing.T) {
	m := newModel(session(t, reqTwo, contract.DisplayOverlay), dialog.PlainTheme())
	send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	shown := m.View().Content

	send(m, press("alt+o"))
	v := m.View()
	if v.AltScreen || !strings.Contains(v.Content, "askuser is hidden: alt+o shows it, esc dismisses it") {
		t.Fatalf("hidden view = %+v", v)
	}
	// Keys other than the toggle and Esc do nothing while hidden.
	send(m, press("down"), press("space"), press("x"), tea.PasteMsg{Content: "pasted"})
	if isQuit(send(m, press("enter"))) {
		t.Fatal("enter while hidden ended the dialog")
	}
	// A held toggle key repeats; the repeats do not show the dialog.
	send(m, tea.KeyPressMsg{Code: 'o', Mod: tea.ModAlt, IsRepeat: true})
	if !m.hidden || m.clearing {
		t.Fatal("a repeated toggle key showed the dialog")
	}

	cmd := send(m, press("alt+o"))
	if cmd == nil || !m.clearing {
		t.Fatal("the toggle key did not start showing the dialog")
	}
	if v := m.View(); v.AltScreen || v.Content != "" {
		t.Errorf("the notice is not erased before the overlay returns: %+v", v)
	}
	send(m, showMsg{})
	if got := m.View().Content; got != shown {
		t.Errorf("the dialog changed while hidden:\n%s\nwant:\n%s", got, shown)
	}
	if !m.View().AltScreen {
		t.Error("the restored overlay is not on the alternate screen")
	}

	// Toggling again before the overlay is back keeps it hidden.
	send(m, press("alt+o"), press("alt+o"), press("alt+o"), showMsg{})
	if !m.hidden {
		t.Error("a late show step showed a hidden dialog")
	}
	if !isQuit(send(m, press("esc"))) || !m.outcome.Dismissed {
		t.Error("esc while hidden did not dismiss")
	}
	if v := m.View(); v.AltScreen || v.Content != "" {
		t.Errorf("a dismissed hidden overlay leaves %+v", v)
	}
}

func TestToggleOnlyInOverlay(t *testing.T) {
	tests := []struct {
		name    string
		display contract.DisplayMode
		toggle  string
		hides   bool
	}{
		{"overlay", contract.DisplayOverlay, "alt+o", true},
		{"configured key", contract.DisplayOverlay, "ctrl+t", false},
		{"disabled", contract.DisplayOverlay, "", false},
		{"inline", contract.DisplayInline, "alt+o", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := session(t, reqSingle, tt.display)
			s.ToggleKey = tt.toggle
			m := newModel(s, dialog.PlainTheme())
			send(m, tea.WindowSizeMsg{Width: 80, Height: 24}, press("alt+o"))
			if m.hidden != tt.hides {
				t.Errorf("alt+o hidden = %v, want %v", m.hidden, tt.hides)
			}
		})
	}
}

func TestFinalOverlay(t *testing.T) {
	m := newModel(session(t, reqSingle, contract.DisplayOverlay), dialog.PlainTheme())
	send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if !isQuit(send(m, stopMsg{cause: ask.ErrTimeout})) {
		t.Fatal("stop did not quit")
	}
	if v := m.View(); !v.AltScreen || v.Content != "" {
		t.Errorf("an overlay leaves %+v, want an empty alternate screen", v)
	}
	if m.finished {
		t.Error("a stopped dialog reports a user outcome")
	}
}

// withCountdown runs body with a session whose deadline is real, through
// the core.
func withCountdown(t *testing.T, req string, body func(s *ask.Session[*contract.Request]) ask.Outcome[[]contract.Answer]) contract.Result {
	t.Helper()
	ms := int64(60000)
	h := ask.NewHost(ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, ask.RendererFunc[*contract.Request, []contract.Answer](func(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
		return body(s), nil
	})), &ask.HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: &ms}})
	return ask.AskJSON(t.Context(), ask.NewAsker(h, nil), ask.AskUser, []byte(req), nil)
}

func TestCountdown(t *testing.T) {
	res := withCountdown(t, reqSingle, func(s *ask.Session[*contract.Request]) ask.Outcome[[]contract.Answer] {
		m := newModel(s, dialog.PlainTheme())
		if m.Init() == nil {
			t.Error("no redraw is scheduled while the countdown runs")
		}
		send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
		before, _ := s.Countdown.Remaining()
		v := m.View().Content
		after, _ := s.Countdown.Remaining()
		if !testkit.CountdownBetween(v, after, before) {
			t.Errorf("header lacks the time left, between %v and %v:\n%s", after, before, v)
		}
		send(m, press("alt+o"))
		if v := m.View().Content; !strings.Contains(v, "left)") {
			t.Errorf("hidden notice lacks the time left: %q", v)
		}
		send(m, press("alt+o"), showMsg{}, press("alt+q"))
		if _, ok := s.Countdown.Remaining(); ok {
			t.Error("alt+q did not cancel the countdown")
		}
		if v := m.View().Content; !strings.Contains(v, "No timeout") {
			t.Errorf("header does not say No timeout:\n%s", v)
		}
		if cmd := send(m, tickMsg{}); cmd != nil {
			t.Error("redraws go on with no countdown")
		}
		send(m, press("enter"))
		return m.outcome
	})
	if res.Status != contract.StatusAnswered {
		t.Errorf("status = %s, want answered", res.Status)
	}
}

func TestFrameKeepsItsHeight(t *testing.T) {
	const req = `{"questions":[{"title":"T","options":[{"label":"long","preview":"a\n\nb\n\nc\n\nd"},{"label":"short","preview":"a"}]}]}`
	for _, display := range []contract.DisplayMode{contract.DisplayInline, contract.DisplayOverlay} {
		t.Run(string(display), func(t *testing.T) {
			m := newModel(session(t, req, display), dialog.PlainTheme())
			send(m, tea.WindowSizeMsg{Width: 120, Height: 40})
			tall := strings.Count(m.View().Content, "\n")
			send(m, press("down"))
			v := m.View().Content
			if got := strings.Count(v, "\n"); got != tall {
				t.Errorf("the frame went from %d to %d lines", tall+1, got+1)
			}
			lines := strings.Split(v, "\n")
			last := lines[len(lines)-1]
			if display == contract.DisplayOverlay {
				last = lines[len(lines)-2]
			}
			if !strings.Contains(last, "esc dismiss") {
				t.Errorf("the key hints are not at the bottom of the padded frame:\n%s", v)
			}
			// A new size starts over.
			send(m, tea.WindowSizeMsg{Width: 120, Height: 40})
			if got := strings.Count(m.View().Content, "\n"); got >= tall {
				t.Errorf("after a resize the frame still has %d lines, want fewer than %d", got+1, tall+1)
			}
		})
	}
}

func TestPaste(t *testing.T) {
	m := newModel(session(t, reqInput, contract.DisplayInline), dialog.PlainTheme())
	send(m, tea.WindowSizeMsg{Width: 60, Height: 20}, tea.PasteMsg{Content: "Ada 日本"}, press("!"))
	if v := m.View(); !strings.Contains(v.Content, "✎ Ada 日本!") || v.Cursor == nil {
		t.Fatalf("pasted text is not in the input, or no cursor:\n%s", v.Content)
	}
	if !isQuit(send(m, press("enter"))) {
		t.Fatal("enter did not submit")
	}
	if got := m.outcome.Answer[0].FreeText; got != "Ada 日本!" {
		t.Errorf("answer = %q, want %q", got, "Ada 日本!")
	}
}
