package dialog

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/contract"
)

func boolAnswer(i int, id, title string, b, def bool) contract.Answer {
	return contract.Answer{Index: i, ID: id, Title: title, Kind: contract.KindBool, Selections: []string{}, Value: &contract.AnswerValue{Bool: b}, UsedDefault: def}
}

func formAnswer(i int, id, title string, def bool, entries ...contract.FormEntry) contract.Answer {
	if entries == nil {
		entries = []contract.FormEntry{}
	}
	return contract.Answer{Index: i, ID: id, Title: title, Kind: contract.KindForm, Selections: []string{}, Value: &contract.AnswerValue{IsForm: true, Form: entries}, UsedDefault: def}
}

func entry(name string, v contract.Value) contract.FormEntry {
	return contract.FormEntry{Name: name, Value: v}
}

const (
	singleTitle = "Which database should the service use?"
	multiTitle  = "Which checks should run?"
	formTitle   = "Deployment settings"
)

func single(sel []string, free string, def bool) []contract.Answer {
	if sel == nil {
		sel = []string{}
	}
	return []contract.Answer{{ID: "q1", Title: singleTitle, Kind: contract.KindSingle, Selections: sel, FreeText: free, UsedDefault: def}}
}

func multi(sel []string, free string, def bool) []contract.Answer {
	if sel == nil {
		sel = []string{}
	}
	return []contract.Answer{{ID: "q1", Title: multiTitle, Kind: contract.KindMulti, Selections: sel, FreeText: free, UsedDefault: def}}
}

func input(text string, def bool) []contract.Answer {
	return []contract.Answer{{ID: "q1", Title: "Name the release", Kind: contract.KindInput, Selections: []string{}, FreeText: text, UsedDefault: def}}
}

// TestKeys sends key sequences and checks the effect and answers.
func TestKeys(t *testing.T) {
	proceed := "Proceed with deployment?"
	tests := []struct {
		name string
		req  string
		keys string
		kind EffectKind
		want []contract.Answer
	}{
		// single
		{"single enter selects and submits", reqSingle, "down enter", EffectSubmit, single([]string{"SQLite"}, "", false)},
		{"single space selects without moving", reqSingle, "down space", EffectNone, nil},
		{"single space then ctrl+enter", reqSingle, "down space down ctrl+enter", EffectSubmit, single([]string{"SQLite"}, "", false)},
		{"single arrows never select", reqSingle, "down up right left down", EffectNone, nil},
		{"single arrows then submit is blocked", reqSingle, "down down ctrl+enter", EffectNone, nil},
		{"single reselect does not clear", reqSingle, "space space ctrl+enter", EffectSubmit, single([]string{"Postgres"}, "", false)},
		{"single last selection wins", reqSingle, "space down space ctrl+enter", EffectSubmit, single([]string{"SQLite"}, "", false)},
		{"single typing goes to the free row", reqSingle, "'Maria' 'DB' ctrl+enter", EffectSubmit, single(nil, "MariaDB", false)},
		{"single option and note", reqSingle, "space down down down '_old_' 'note_' enter", EffectSubmit, single([]string{"Postgres"}, "old note", false)},
		{"single free row space inserts", reqSingle, "down down down 'a' space 'b' enter", EffectSubmit, single(nil, "a b", false)},
		{"single space on free row does not select", reqSingle, "down down down space ctrl+enter", EffectNone, nil},
		{"single blank free text is not an answer", reqSingle, "'___' enter", EffectNone, nil},
		{"single text name key types", reqSingle, "x y enter", EffectSubmit, single(nil, "xy", false)},
		{"single default", `{"questions":[{"title":"T","options":[{"label":"a"},{"label":"b"}],"default":"b"}]}`, "ctrl+enter", EffectSubmit,
			[]contract.Answer{{ID: "q1", Title: "T", Kind: contract.KindSingle, Selections: []string{"b"}, UsedDefault: true}}},
		{"single default focuses it and enter keeps it", `{"questions":[{"title":"T","options":[{"label":"a"},{"label":"b"}],"default":"b"}]}`, "enter", EffectSubmit,
			[]contract.Answer{{ID: "q1", Title: "T", Kind: contract.KindSingle, Selections: []string{"b"}, UsedDefault: true}}},
		{"single default changed", `{"questions":[{"title":"T","options":[{"label":"a"},{"label":"b"}],"default":"b"}]}`, "up enter", EffectSubmit,
			[]contract.Answer{{ID: "q1", Title: "T", Kind: contract.KindSingle, Selections: []string{"a"}}}},
		{"single free-text default", `{"questions":[{"title":"T","options":[{"label":"a"}],"default":"other"}]}`, "ctrl+enter", EffectSubmit,
			[]contract.Answer{{ID: "q1", Title: "T", Kind: contract.KindSingle, Selections: []string{}, FreeText: "other", UsedDefault: true}}},
		{"single without free text ignores typing", `{"allowFreeText":false,"questions":[{"title":"T","options":[{"label":"a"},{"label":"b"}]}]}`, "'zz' down enter", EffectSubmit,
			[]contract.Answer{{ID: "q1", Title: "T", Kind: contract.KindSingle, Selections: []string{"b"}}}},
		{"single without free text stops at the end", `{"allowFreeText":false,"questions":[{"title":"T","options":[{"label":"a"},{"label":"b"}]}]}`, "down down down enter", EffectSubmit,
			[]contract.Answer{{ID: "q1", Title: "T", Kind: contract.KindSingle, Selections: []string{"b"}}}},

		// multi
		{"multi default", reqMulti, "ctrl+enter", EffectSubmit, multi([]string{"unit"}, "", true)},
		{"multi enter only toggles", reqMulti, "enter down enter", EffectNone, nil},
		{"multi toggles in option order", reqMulti, "down down space up space up space ctrl+enter", EffectSubmit, multi([]string{"integration", "lint"}, "", false)},
		{"multi toggle back to default", reqMulti, "space space ctrl+enter", EffectSubmit, multi([]string{"unit"}, "", true)},
		{"multi none selected blocks", reqMulti, "space ctrl+enter", EffectNone, nil},
		{"multi submit button", reqMulti, "down space down down down enter", EffectSubmit, multi([]string{"unit", "integration"}, "", false)},
		{"multi space on button submits", reqMulti, "end space", EffectSubmit, multi([]string{"unit"}, "", true)},
		{"multi free text only", reqMulti, "space 'e2e' enter", EffectSubmit, multi(nil, "e2e", false)},
		{"multi free text and options", reqMulti, "'e2e' up space ctrl+enter", EffectSubmit, multi([]string{"unit", "lint"}, "e2e", false)},

		// input
		{"input enter submits", reqInput, "'v1.2' enter", EffectSubmit, input("v1.2", false)},
		{"input trims", reqInput, "'__v1__' ctrl+enter", EffectSubmit, input("v1", false)},
		{"input empty blocks", reqInput, "enter", EffectNone, nil},
		{"input spaces only blocks", reqInput, "space space enter", EffectNone, nil},
		{"input left moves the cursor", reqInput, "'ac' left 'b' enter", EffectSubmit, input("abc", false)},
		{"input home end", reqInput, "'bc' home 'a' end 'd' enter", EffectSubmit, input("abcd", false)},
		{"input ctrl+a ctrl+e ctrl+b ctrl+f", reqInput, "'bd' ctrl+a 'a' ctrl+f 'c' ctrl+e ctrl+b ctrl+f 'e' enter", EffectSubmit, input("abcde", false)},
		{"input backspace delete", reqInput, "'abcd' left left backspace delete enter", EffectSubmit, input("ad", false)},
		{"input word deletion", reqInput, "'one_two_three' alt+backspace ctrl+w 'x' enter", EffectSubmit, input("one x", false)},
		{"input ctrl+u ctrl+k", reqInput, "'keep_this' left left left left ctrl+k ctrl+u 'k' enter", EffectSubmit, input("k", false)},
		{"input paste flattens newlines", reqInput, "'a⏎b␍⏎c⇥d' enter", EffectSubmit, input("a b c d", false)},
		{"input drops control characters", reqInput, "'a\x1b[31mb\x07\u009bc' enter", EffectSubmit, input("a[31mbc", false)},
		{"input default", `{"questions":[{"title":"Name the release","kind":"input","default":"v2"}]}`, "enter", EffectSubmit, input("v2", true)},
		{"input default edited", `{"questions":[{"title":"Name the release","kind":"input","default":"v2"}]}`, "'.1' enter", EffectSubmit, input("v2.1", false)},
		{"input default with invisible characters is submitted as given", `{"questions":[{"title":"Name the release","kind":"input","default":"v\u200b2\ufeff\udb40\udc41"}]}`, "enter", EffectSubmit, input("v\u200b2\ufeff\U000E0041", true)},
		{"input up down do not move the cursor", reqInput, "'ab' left up down 'X' enter", EffectSubmit, input("aXb", false)},

		// bool
		{"bool enter selects true", reqBool, "enter", EffectSubmit, []contract.Answer{boolAnswer(0, "q1", proceed, true, false)}},
		{"bool right enter selects false", reqBool, "right enter", EffectSubmit, []contract.Answer{boolAnswer(0, "q1", proceed, false, false)}},
		{"bool up down leave it", reqBool, "right up down space ctrl+enter", EffectSubmit, []contract.Answer{boolAnswer(0, "q1", proceed, false, false)}},
		{"bool space twice is idempotent", reqBool, "space space ctrl+enter", EffectSubmit, []contract.Answer{boolAnswer(0, "q1", proceed, true, false)}},
		{"bool arrows never change it", reqBool, "space right left right ctrl+enter", EffectSubmit, []contract.Answer{boolAnswer(0, "q1", proceed, true, false)}},
		{"bool unset blocks", reqBool, "right left ctrl+enter", EffectNone, nil},
		{"bool default false", `{"questions":[{"title":"P","kind":"bool","default":false}]}`, "ctrl+enter", EffectSubmit, []contract.Answer{boolAnswer(0, "q1", "P", false, true)}},
		{"bool default focus is the selected side", `{"questions":[{"title":"P","kind":"bool","default":false}]}`, "enter", EffectSubmit, []contract.Answer{boolAnswer(0, "q1", "P", false, true)}},
		{"bool default changed", `{"questions":[{"title":"P","kind":"bool","default":false}]}`, "left enter", EffectSubmit, []contract.Answer{boolAnswer(0, "q1", "P", true, false)}},
		{"bool typing does nothing", reqBool, "'y' ctrl+enter", EffectNone, nil},
		{"bool down enter selects false", reqBool, "down enter", EffectSubmit, []contract.Answer{boolAnswer(0, "q1", proceed, false, false)}},
		{"bool down up enter selects true", reqBool, "down up enter", EffectSubmit, []contract.Answer{boolAnswer(0, "q1", proceed, true, false)}},
		{"bool ctrl+n enter selects false", reqBool, "ctrl+n enter", EffectSubmit, []contract.Answer{boolAnswer(0, "q1", proceed, false, false)}},
		{"bool default false up enter selects true", `{"questions":[{"title":"P","kind":"bool","default":false}]}`, "up enter", EffectSubmit, []contract.Answer{boolAnswer(0, "q1", "P", true, false)}},
		{"bool default true down enter selects false", `{"questions":[{"title":"P","kind":"bool","default":true}]}`, "down enter", EffectSubmit, []contract.Answer{boolAnswer(0, "q1", "P", false, false)}},

		// simple-form
		{"form required fields block", reqForm, "ctrl+enter", EffectNone, nil},
		{"form fill and submit", reqForm, "enter down enter ctrl+enter", EffectSubmit, []contract.Answer{
			formAnswer(0, "q1", formTitle, true, entry("confirmed", contract.BoolValue(true)), entry("target", contract.StringValue("production")), entry("checks", contract.StringsValue("unit")))}},
		{"form enter moves to the next field", reqForm, "right enter enter down down 'note' enter enter", EffectSubmit, []contract.Answer{
			formAnswer(0, "q1", formTitle, true, entry("confirmed", contract.BoolValue(false)), entry("target", contract.StringValue("staging")), entry("checks", contract.StringsValue("unit")), entry("note", contract.StringValue("note")))}},
		{"form multi enter only toggles", reqForm, "enter enter enter down enter ctrl+enter", EffectSubmit, []contract.Answer{
			formAnswer(0, "q1", formTitle, false, entry("confirmed", contract.BoolValue(true)), entry("target", contract.StringValue("staging")), entry("checks", contract.StringsValue("integration")))}},
		{"form empty optional multi omitted", reqForm, "enter enter space ctrl+enter", EffectSubmit, []contract.Answer{
			formAnswer(0, "q1", formTitle, false, entry("confirmed", contract.BoolValue(true)), entry("target", contract.StringValue("staging")))}},
		{"form bool right past the end moves on", reqForm, "right right space ctrl+enter", EffectNone, nil},
		{"form left right navigate outside inputs", reqForm, "space right right space right right right right 'n' left left up up ctrl+enter", EffectSubmit, []contract.Answer{
			formAnswer(0, "q1", formTitle, true, entry("confirmed", contract.BoolValue(true)), entry("target", contract.StringValue("staging")), entry("checks", contract.StringsValue("unit")), entry("note", contract.StringValue("n")))}},
		{"form bool down reaches false", reqForm, "down enter enter ctrl+enter", EffectSubmit, []contract.Answer{
			formAnswer(0, "q1", formTitle, true, entry("confirmed", contract.BoolValue(false)), entry("target", contract.StringValue("staging")), entry("checks", contract.StringsValue("unit")))}},
		{"form up into a bool lands on false", reqForm, "down down up enter enter ctrl+enter", EffectSubmit, []contract.Answer{
			formAnswer(0, "q1", formTitle, true, entry("confirmed", contract.BoolValue(false)), entry("target", contract.StringValue("staging")), entry("checks", contract.StringsValue("unit")))}},
		{"form down from a bool's false moves on", reqForm, "down space down space ctrl+enter", EffectSubmit, []contract.Answer{
			formAnswer(0, "q1", formTitle, true, entry("confirmed", contract.BoolValue(false)), entry("target", contract.StringValue("staging")), entry("checks", contract.StringsValue("unit")))}},
		{"form focus stops at the ends", reqForm, "up up left space end down down right space ctrl+enter", EffectNone, nil},
		{"form button continues", reqForm, "enter enter end enter", EffectSubmit, []contract.Answer{
			formAnswer(0, "q1", formTitle, true, entry("confirmed", contract.BoolValue(true)), entry("target", contract.StringValue("staging")), entry("checks", contract.StringsValue("unit")))}},

		// several questions
		{"release enter continues to the next tab", reqRelease, "enter enter enter ctrl+enter", EffectSubmit, []contract.Answer{
			boolAnswer(0, "q1", proceed, false, true),
			formAnswer(1, "q2", formTitle, true, entry("confirmed", contract.BoolValue(true)), entry("target", contract.StringValue("staging")), entry("checks", contract.StringsValue("unit")))}},
		{"release review submit", reqRelease, "tab enter enter end enter enter", EffectSubmit, []contract.Answer{
			boolAnswer(0, "q1", proceed, false, true),
			formAnswer(1, "q2", formTitle, true, entry("confirmed", contract.BoolValue(true)), entry("target", contract.StringValue("staging")), entry("checks", contract.StringsValue("unit")))}},
		{"release review blocks unanswered", reqRelease, "tab tab enter", EffectNone, nil},
		{"release tabs keep values", reqRelease, "tab enter tab shift+tab enter ctrl+left ctrl+right ctrl+enter", EffectSubmit, []contract.Answer{
			boolAnswer(0, "q1", proceed, false, true),
			formAnswer(1, "q2", formTitle, true, entry("confirmed", contract.BoolValue(true)), entry("target", contract.StringValue("staging")), entry("checks", contract.StringsValue("unit")))}},
		{"tabs stop at the ends", reqRelease, "shift+tab shift+tab enter", EffectNone, nil},

		// dismissal and countdown
		{"esc dismisses", reqForm, "enter esc", EffectDismiss, nil},
		{"ctrl+c dismisses", reqInput, "'abc' ctrl+c", EffectDismiss, nil},
		{"alt+q cancels the countdown", reqBool, "alt+q", EffectCancelCountdown, nil},
		{"alt+q keeps answers", reqBool, "space alt+q ctrl+enter", EffectSubmit, []contract.Answer{boolAnswer(0, "q1", proceed, true, false)}},
		{"alt+q is one-way", reqBool, "alt+q space alt+q", EffectCancelCountdown, nil},
		{"unknown keys do nothing", reqBool, "f5 alt+x ctrl+z", EffectNone, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(parse(t, tt.req), plain(fixedClock{left: time.Minute, ok: true}))
			var last Effect[[]contract.Answer]
			for _, k := range keys(tt.keys) {
				e := m.Update(k)
				if e.Kind != EffectNone {
					last = e
				}
				m.View(80, 24)
			}
			if tt.name == "alt+q is one-way" {
				// The second alt+q must not ask again.
				if e := m.Update(Key{Name: "alt+q"}); e.Kind != EffectNone {
					t.Errorf("second alt+q: got %v, want EffectNone", e.Kind)
				}
			}
			if last.Kind != tt.kind {
				t.Fatalf("effect = %v, want %v (answers %+v)", last.Kind, tt.kind, last.Answer)
			}
			if diff := cmp.Diff(tt.want, last.Answer); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
		})
	}
}

// screen renders m and returns the plain text of its lines.
func screen(m *Model, w, h int) string {
	f := m.View(w, h)
	var b strings.Builder
	for _, l := range f.Lines {
		b.WriteString(strings.TrimRight(ansi.Strip(l), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// TestScreens checks what the user sees after some keys.
func TestScreens(t *testing.T) {
	tests := []struct {
		name    string
		req     string
		keys    string
		clock   Countdown
		want    []string // substrings that must appear
		notWant []string
	}{
		{"bool unset", reqBool, "", nil, []string{"▸ [ ] True   [ ] False (unset)"}, []string{"✓", "✗"}},
		{"bool focus moves", reqBool, "right", nil, []string{"  [ ] True ▸ [ ] False (unset)"}, nil},
		{"bool true selected, focus false", reqBool, "space right", nil, []string{"  [✓] True ▸ [ ] False"}, []string{"(unset)"}},
		{"bool false selected", reqBool, "right space", nil, []string{"  [ ] True ▸ [✗] False"}, []string{"(unset)"}},
		{"bool down focuses false", reqBool, "down", nil, []string{"  [ ] True ▸ [ ] False (unset)"}, nil},
		{"bool down up focuses true", reqBool, "down up", nil, []string{"▸ [ ] True   [ ] False (unset)"}, nil},
		{"form bool down focuses false", reqForm, "down", nil, []string{"   Confirm *\n   [ ] True ▸ [ ] False (unset)"}, nil},
		{"single focus and selection are independent", reqSingle, "space down", nil, []string{"  (●) Postgres", "▸ ( ) SQLite"}, nil},
		{"multi checks", reqMulti, "down space", nil, []string{"  [✓] unit", "▸ [✓] integration", "  [ ] lint"}, nil},
		{"free text row shown", reqSingle, "", nil, []string{"✎ type another answer or a note"}, nil},
		{"free text row hidden", `{"allowFreeText":false,"questions":[{"title":"T","options":[{"label":"a"}]}]}`, "", nil, nil, []string{"✎"}},
		{"validation message", reqSingle, "ctrl+enter", nil, []string{"⚠ Required: choose an option or type an answer"}, nil},
		{"form validation focuses the first invalid field", reqForm, "enter ctrl+enter", nil, []string{"⚠ “Target” is required: choose an option", "▸ ( ) staging"}, nil},
		{"message clears on the next key", reqSingle, "ctrl+enter down", nil, nil, []string{"⚠"}},
		{"countdown", reqBool, "", fixedClock{left: 42 * time.Second, ok: true}, []string{"⏱ 0:42"}, []string{"No timeout"}},
		{"countdown hours", reqBool, "", fixedClock{left: 2*time.Hour + 3*time.Minute + 4*time.Second, ok: true}, []string{"⏱ 2:03:04"}, nil},
		{"no deadline", reqBool, "", fixedClock{}, []string{"No timeout"}, []string{"⏱", "alt+q"}},
		{"nil countdown", reqBool, "", nil, []string{"No timeout"}, []string{"⏱"}},
		{"after alt+q", reqBool, "alt+q", fixedClock{left: time.Minute, ok: true}, []string{"No timeout"}, []string{"⏱", "alt+q"}},
		{"alt+q hinted while counting", reqBool, "", fixedClock{left: time.Minute, ok: true}, []string{"alt+q no timeout"}, nil},
		{"hints words", reqSingle, "", nil, []string{"navigate", "select", "enter"}, nil},
		{"tab hint with several questions", reqRelease, "", nil, []string{"tab next"}, nil},
		{"review tab", reqRelease, "enter tab", nil, []string{"[Review]", "Proceed with deployment?", "✓ False", "✗ not answered yet", "▸ [ Submit ]"}, nil},
		{"review after answers", reqRelease, "enter enter enter tab", nil, []string{"✓ confirmed: true · target: staging · checks: unit"}, nil},
		{"tab bar marks answered", reqRelease, "", nil, []string{"[1. Proceed with deployment? ✓]", " 2. Deployment settings "}, nil},
		{"preview shown side by side", reqPreview, "", nil, []string{"▸ ( ) Write-through", "│ Write-through", "│ • consistent reads"}, []string{"# Write-through", "- consistent"}},
		{"preview follows focus", reqPreview, "down", nil, []string{"│ Write-back", "│ 1. fast writes"}, []string{"│ Write-through"}},
		{"no preview", reqPreview, "down down", nil, []string{"(no preview)"}, nil},
		{"button says continue", reqRelease, "tab", nil, []string{"[ Continue ]"}, nil},
		{"button says submit", reqForm, "", nil, []string{"[ Submit ]"}, nil},
		{"input default shows invisible characters", `{"questions":[{"title":"T","kind":"input","default":"v\u200b2\u200d\ufeff\udb40\udc41"}]}`, "", nil, []string{"▸ ✎ v<U+200B>2<U+200D><U+FEFF><U+E0041>"}, nil},
		{"typed invisible characters show", reqInput, "'a\u200bb'", nil, []string{"▸ ✎ a<U+200B>b"}, nil},
		{"an emoji's joiner is kept", reqInput, "'👨\u200d👩'", nil, []string{"▸ ✎ 👨\u200d👩"}, []string{"<U+200D>"}},
		{"form required marker", reqForm, "", nil, []string{"Confirm *", "Target *", "   Checks\n"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(parse(t, tt.req), plain(tt.clock))
			run(m, keys(tt.keys))
			w := 80
			if strings.Contains(tt.name, "preview") {
				w = 120
			}
			got := screen(m, w, 30)
			for _, s := range tt.want {
				if !strings.Contains(got, s) {
					t.Errorf("screen lacks %q:\n%s", s, got)
				}
			}
			for _, s := range tt.notWant {
				if strings.Contains(got, s) {
					t.Errorf("screen has %q:\n%s", s, got)
				}
			}
		})
	}
}

// TestFocusStaysOnSubmitFailure checks that Ctrl+Enter does not move
// focus when everything is answered, and moves it to the first invalid
// question when not.
func TestCtrlEnterFocus(t *testing.T) {
	m := New(parse(t, reqRelease), plain(nil))
	run(m, keys("tab enter down"))
	if m.cur != 1 || m.tab().focus != 2 {
		t.Fatalf("setup: tab %d focus %d", m.cur, m.tab().focus)
	}
	// Question 1 has a default, question 2 misses its target.
	run(m, keys("ctrl+enter"))
	if m.cur != 1 || m.tab().ctrl().kind != ctrlOption || m.tab().ctrl().field != 1 {
		t.Errorf("after failed submit: tab %d control %+v, want the Target field", m.cur, m.tab().ctrl())
	}
	m2 := New(parse(t, `{"questions":[{"title":"A","kind":"bool"},{"title":"B","kind":"input"}]}`), plain(nil))
	run(m2, keys("tab 'x' ctrl+enter"))
	if m2.cur != 0 {
		t.Errorf("failed submit shows tab %d, want 0", m2.cur)
	}
}

// TestCursor checks the hardware cursor sits at the insertion point in
// cells, after wide characters, emoji and combining marks.
func TestCursor(t *testing.T) {
	tests := []struct {
		keys string
		col  int
	}{
		{"", 5},
		{"'abc'", 8},
		{"'日本'", 9},
		{"'日本' left", 7},
		{"'👍🏽x'", 8},
		{"'👨‍👩‍👧'", 7},
		{"'e\u0301e\u0301'", 7},
		{"'e\u0301e\u0301' left", 6},
		{"'한국어' home", 5},
		{"'한국어' home right", 7},
	}
	for _, tt := range tests {
		t.Run(tt.keys, func(t *testing.T) {
			m := New(parse(t, reqInput), plain(nil))
			run(m, keys(tt.keys))
			f := m.View(80, 24)
			if f.Cursor == nil {
				t.Fatal("no cursor")
			}
			if f.Cursor.Col != tt.col {
				t.Errorf("cursor col = %d, want %d; line %q", f.Cursor.Col, tt.col, f.Lines[f.Cursor.Row])
			}
			if got := ansi.Strip(f.Lines[f.Cursor.Row]); !strings.Contains(got, "✎") {
				t.Errorf("cursor row %d is %q, not the input", f.Cursor.Row, got)
			}
		})
	}
}

func TestCursorScrollsLongText(t *testing.T) {
	m := New(parse(t, reqInput), plain(nil))
	run(m, keys("'"+strings.Repeat("日本", 30)+"'"))
	for _, w := range []int{80, 40, 12, 7} {
		f := m.View(w, 24)
		if f.Cursor == nil {
			t.Fatalf("width %d: no cursor", w)
		}
		if f.Cursor.Col >= w {
			t.Errorf("width %d: cursor col %d outside", w, f.Cursor.Col)
		}
		l := f.Lines[f.Cursor.Row]
		if got := ansi.StringWidth(l); got > w {
			t.Errorf("width %d: input row is %d wide", w, got)
		}
		// The cursor is right after the visible text.
		if w < 12 {
			continue
		}
		if got := ansi.StringWidth(strings.TrimRight(ansi.Strip(l), " ")); got != f.Cursor.Col {
			t.Errorf("width %d: text ends at %d, cursor at %d", w, got, f.Cursor.Col)
		}
	}
}

func TestFrameHints(t *testing.T) {
	tests := []struct {
		w, h int
		want int
	}{
		{120, 30, 1},
		{60, 30, 2},
		{20, 1, 1},
		{0, 0, 0},
	}
	for _, tt := range tests {
		m := New(parse(t, reqSingle), plain(nil))
		f := m.View(tt.w, tt.h)
		if f.Hints != tt.want {
			t.Errorf("%dx%d: Hints = %d, want %d", tt.w, tt.h, f.Hints, tt.want)
			continue
		}
		if tt.want > 0 && !strings.Contains(strings.Join(f.Lines[len(f.Lines)-f.Hints:], " "), "navigate") {
			t.Errorf("%dx%d: the last %d lines are not the hints: %q", tt.w, tt.h, f.Hints, f.Lines)
		}
	}
}

func TestTabsLine(t *testing.T) {
	req := parse(t, `{"questions":[
		{"title":"Which editor do you use most?","options":[{"label":"vim"}]},
		{"title":"Which languages do you write?","kind":"multi","options":[{"label":"Go"}],"default":"Go"},
		{"title":"What should it be called?","default":"x"},
		{"title":"Run the tests?","kind":"bool","default":true},
		{"title":"Release settings","kind":"simple-form","fields":[{"name":"n","label":"Note","kind":"input"}]}]}`)
	tests := []struct {
		width int
		keys  string
		want  string
	}{
		{200, "", " [1. Which editor do you use most?]  2. Which languages do you write? ✓   3. What should it be called? ✓   4. Run the tests? ✓   5. Release settings ✓   Review "},
		{120, "", " [1. Which editor …]  2. Which languag… ✓   3. What should i… ✓   4. Run the tests? ✓   5. Release setti… ✓   Review "},
		{76, "", " [1. Which editor do you use most?]  2 ✓   3 ✓   4 ✓   5 ✓   Review "},
		{76, "tab", "  1  [2. Which languages do you write? ✓]  3 ✓   4 ✓   5 ✓   Review "},
		{50, "", " [1. Which edit…]  2 ✓   3 ✓   4 ✓   5 ✓   Review "},
		{30, "", " ‹ 1/6 Which editor do you us… "},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d %s", tt.width, tt.keys), func(t *testing.T) {
			m := New(req, plain(fixedClock{}))
			run(m, keys(tt.keys))
			got := m.tabsLine(tt.width)
			// A cut title leaves little room unused.
			if got.w > tt.width || strings.Contains(got.s, "…") && got.w < tt.width-8 {
				t.Errorf("tabs line is %d wide for a width of %d", got.w, tt.width)
			}
			if diff := cmp.Diff(tt.want, strings.TrimRight(got.s, " ")+" "); diff != "" {
				t.Errorf("tabs line (-want +got):\n%s", diff)
			}
		})
	}
}

// A huge size costs what the largest terminal costs: View draws it as
// MaxWidth×MaxRows, without allocating for the size it was given.
func TestViewHugeSize(t *testing.T) {
	const limit = 8 << 20
	sizes := []struct{ w, h int }{
		{MaxWidth, MaxRows},
		{math.MaxInt32, 24},
		{80, math.MaxInt32},
		{math.MaxInt, math.MaxInt},
	}
	for _, sz := range sizes {
		m := New(parse(t, reqPreview), plain(nil))
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f := m.View(sz.w, sz.h)
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > limit {
			t.Errorf("%dx%d: View allocated %d bytes; want at most %d", sz.w, sz.h, got, limit)
		}
		want := m.View(min(sz.w, MaxWidth), min(sz.h, MaxRows))
		if diff := cmp.Diff(want, f); diff != "" {
			t.Errorf("%dx%d: frame differs from the one at the largest size (-want +got):\n%s", sz.w, sz.h, diff)
		}
	}
}
