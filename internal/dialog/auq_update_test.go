package dialog

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/internal/config"
)

const (
	answered  = MilestoneQuestionAnswered
	ready     = MilestoneReviewReady
	submitted = MilestoneSubmitted
	dismissed = MilestoneDismissed
)

func ms(m ...Milestone) []Milestone { return m }

func submit(res auq.Result, m ...Milestone) Effect[auq.Result] {
	return Effect[auq.Result]{Kind: EffectSubmit, Answer: res, Milestones: m}
}

func qsingle(id, label string) auq.Answer {
	return auq.Answer{Kind: auq.KindSingle, Choice: auq.Choice{OptionID: id, Label: label}}
}

func other(text string) auq.Choice {
	return auq.Choice{Label: auq.OtherLabel, Other: true, Text: text}
}

var (
	vuePreview   = auq.Annotations{SelectedPreview: "Good default if you want gentle adoption.\n\nWorks well with a small team."}
	reactPreview = auq.Annotations{SelectedPreview: "Best if you want broad ecosystem support."}
	manyMeta     = &auq.ResultMetadata{Source: ptr("setup"), FlowID: ptr("f-1")}
	css          = auq.Answer{Kind: auq.KindMulti, Selections: []auq.Choice{{OptionID: "css", Label: "Plain CSS"}}}
)

// TestUpdate sends keys and compares every effect they have.
func TestUpdate(t *testing.T) {
	cases := []struct {
		name string
		req  func() *auq.Request
		keys string
		want []Effect[auq.Result]
	}{
		{"one question: enter answers and submits the recommended option", one, "enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("vue", "Vue")}, Annotations: map[string]auq.Annotations{"framework": vuePreview}}, answered, submitted)}},
		{"k moves up", one, "k enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("react", "React")}, Annotations: map[string]auq.Annotations{"framework": reactPreview}}, answered, submitted)}},
		{"up stops at the first option", one, "up up up enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("react", "React")}, Annotations: map[string]auq.Annotations{"framework": reactPreview}}, answered, submitted)}},
		{"j moves down; no preview, no selectedPreview", one, "j enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("svelte", "Svelte")}}, answered, submitted)}},
		{"down stops at Other", noPreview, "down down down down enter 'text' enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": {Kind: auq.KindSingle, Choice: other("text")}}}, answered, submitted)}},
		{"o opens Other; enter saves and answers", one, "o 'my_own' enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": {Kind: auq.KindSingle, Choice: other("my own")}}}, answered, submitted)}},
		{"enter on Other opens its input", one, "down down enter 'x' enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": {Kind: auq.KindSingle, Choice: other("x")}}}, answered, submitted)}},
		{"Other text is trimmed", one, "o '__pad__' enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": {Kind: auq.KindSingle, Choice: other("pad")}}}, answered, submitted)}},
		{"blank Other text is refused", one, "o '___' enter", nil},
		{"empty Other text is refused", one, "o enter", nil},
		{"esc leaves the Other input and saves nothing", one, "o 'abc' esc", nil},
		{"letters type into the input", one, "o 'jk?nNo' space 'x' enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": {Kind: auq.KindSingle, Choice: other("jk?nNo x")}}}, answered, submitted)}},
		{"input editing keys", one, "o 'abc' left left backspace home 'x' end 'y' right delete enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": {Kind: auq.KindSingle, Choice: other("xbcy")}}}, answered, submitted)}},
		{"ctrl+w deletes a word, ctrl+u to the start, ctrl+k to the end", one, "o 'one_two' ctrl+w 'three' left left ctrl+k ctrl+a delete enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": {Kind: auq.KindSingle, Choice: other("ne thr")}}}, answered, submitted)}},
		{"ctrl+u clears to the start", one, "o 'abc' left ctrl+u enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": {Kind: auq.KindSingle, Choice: other("c")}}}, answered, submitted)}},
		{"n saves a note on the focused option", one, "n 'good_docs' enter enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("vue", "Vue")},
				Annotations: map[string]auq.Annotations{"framework": {OptionNotes: map[string]string{"vue": "good docs"}, SelectedPreview: vuePreview.SelectedPreview}}}, answered, submitted)}},
		{"a note on an option not chosen is kept", one, "up n 'no' enter j j enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("svelte", "Svelte")},
				Annotations: map[string]auq.Annotations{"framework": {OptionNotes: map[string]string{"react": "no"}}}}, answered, submitted)}},
		{"n on Other notes $other", one, "down down n 'o-note' enter up enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("svelte", "Svelte")},
				Annotations: map[string]auq.Annotations{"framework": {OptionNotes: map[string]string{auq.OtherNoteKey: "o-note"}}}}, answered, submitted)}},
		{"N saves a note on the question", one, "N 'why' enter j enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("svelte", "Svelte")},
				Annotations: map[string]auq.Annotations{"framework": {QuestionNotes: "why"}}}, answered, submitted)}},
		{"shift+n is N too", one, "shift+n 'why' enter j enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("svelte", "Svelte")},
				Annotations: map[string]auq.Annotations{"framework": {QuestionNotes: "why"}}}, answered, submitted)}},
		{"a note input starts from the saved note; esc keeps it", one, "N 'first' enter N '_more' esc N '!' enter j enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("svelte", "Svelte")},
				Annotations: map[string]auq.Annotations{"framework": {QuestionNotes: "first!"}}}, answered, submitted)}},
		{"a blank note is refused", one, "n '_' enter", nil},
		{"a note over the limit is refused", one, "n '" + strings.Repeat("x", auq.MaxNoteLen+1) + "' enter", nil},
		{"a note at the limit is saved", one, "N '" + strings.Repeat("é", auq.MaxNoteLen) + "' enter j enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("svelte", "Svelte")},
				Annotations: map[string]auq.Annotations{"framework": {QuestionNotes: strings.Repeat("é", auq.MaxNoteLen)}}}, answered, submitted)}},
		{"an Other text over the limit is refused", one, "o '" + strings.Repeat("x", auq.MaxOtherTextLen+1) + "' enter", nil},
		{"an Other text over the limit can be cut and saved", one, "o '" + strings.Repeat("x", auq.MaxOtherTextLen+1) + "' enter backspace enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": {Kind: auq.KindSingle, Choice: other(strings.Repeat("x", auq.MaxOtherTextLen))}}}, answered, submitted)}},
		{"esc esc dismisses", one, "esc esc", []Effect[auq.Result]{{Kind: EffectDismiss, Milestones: ms(dismissed)}}},
		{"another key between two esc disarms", one, "esc down esc", nil},
		{"ctrl+c dismisses at once", one, "ctrl+c", []Effect[auq.Result]{{Kind: EffectDismiss, Milestones: ms(dismissed)}}},
		{"ctrl+c dismisses from an input", one, "o 'x' ctrl+c", []Effect[auq.Result]{{Kind: EffectDismiss, Milestones: ms(dismissed)}}},
		{"ctrl+c dismisses from the help", one, "? ctrl+c", []Effect[auq.Result]{{Kind: EffectDismiss, Milestones: ms(dismissed)}}},
		{"esc in an input does not arm dismissing", one, "o esc esc", nil},
		{"the hide key keeps a draft", one, "o 'draft' ctrl+shift+q ctrl+shift+q '_more' enter", []Effect[auq.Result]{
			{Kind: EffectToggleHide}, {Kind: EffectToggleHide},
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": {Kind: auq.KindSingle, Choice: other("draft more")}}}, answered, submitted)}},
		{"the hide key keeps an armed esc", one, "esc ctrl+shift+q esc", []Effect[auq.Result]{{Kind: EffectToggleHide}, {Kind: EffectDismiss, Milestones: ms(dismissed)}}},
		{"any key closes the help, and does nothing else", one, "? enter", nil},
		{"esc closes the help without arming", one, "? esc esc", nil},
		{"shift+/ opens the help", one, "shift+/ enter enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("vue", "Vue")}, Annotations: map[string]auq.Annotations{"framework": vuePreview}}, answered, submitted)}},
		{"one question has no tabs", one, "tab right left shift+tab enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("vue", "Vue")}, Annotations: map[string]auq.Annotations{"framework": vuePreview}}, answered, submitted)}},
		{"pasted text is not a key outside an input", one, "'jj' enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("vue", "Vue")}, Annotations: map[string]auq.Annotations{"framework": vuePreview}}, answered, submitted)}},

		{"multi: space answers at once, enter submits", multiOne, "space enter", []Effect[auq.Result]{
			{Milestones: ms(answered)},
			submit(auq.Result{Answers: map[string]auq.Answer{"style": css}}, submitted)}},
		{"multi: space toggles", multiOne, "space j space space enter", []Effect[auq.Result]{
			{Milestones: ms(answered)},
			submit(auq.Result{Answers: map[string]auq.Answer{"style": css}}, submitted)}},
		{"multi: selections in option order", multiOne, "j j space k k space enter", []Effect[auq.Result]{
			{Milestones: ms(answered)},
			submit(auq.Result{Answers: map[string]auq.Answer{"style": {Kind: auq.KindMulti, Selections: []auq.Choice{{OptionID: "css", Label: "Plain CSS"}, {OptionID: "sass", Label: "Sass"}}}}}, submitted)}},
		{"multi: empty needs enter twice", multiOne, "enter enter", []Effect[auq.Result]{
			submit(auq.Result{Answers: map[string]auq.Answer{"style": {Kind: auq.KindMulti, Empty: true}}}, answered, submitted)}},
		{"multi: one enter on empty only warns", multiOne, "enter", nil},
		{"multi: a key between the two enters disarms", multiOne, "enter down enter", nil},
		{"multi: cleared again is unanswered, and empty needs two enters", multiOne, "space space enter enter", []Effect[auq.Result]{
			{Milestones: ms(answered)},
			submit(auq.Result{Answers: map[string]auq.Answer{"style": {Kind: auq.KindMulti, Empty: true}}}, answered, submitted)}},
		{"multi: space on an empty Other opens its input; saving ticks it", multiOne, "down down down space 'mine' enter up enter", []Effect[auq.Result]{
			{Milestones: ms(answered)},
			submit(auq.Result{Answers: map[string]auq.Answer{"style": {Kind: auq.KindMulti, Selections: []auq.Choice{other("mine")}}}}, submitted)}},
		{"multi: space on a saved Other toggles it", multiOne, "o 'mine' enter space space up enter", []Effect[auq.Result]{
			{Milestones: ms(answered)},
			{Milestones: ms(answered)},
			submit(auq.Result{Answers: map[string]auq.Answer{"style": {Kind: auq.KindMulti, Selections: []auq.Choice{other("mine")}}}}, submitted)}},
		{"multi: Other after the options", multiOne, "space o 'mine' enter up enter", []Effect[auq.Result]{
			{Milestones: ms(answered)},
			submit(auq.Result{Answers: map[string]auq.Answer{"style": {Kind: auq.KindMulti, Selections: []auq.Choice{{OptionID: "css", Label: "Plain CSS"}, other("mine")}}}}, submitted)}},
		{"multi: no selectedPreview, notes kept", multiOne, "space n 'a' enter N 'b' enter enter", []Effect[auq.Result]{
			{Milestones: ms(answered)},
			submit(auq.Result{Answers: map[string]auq.Answer{"style": css},
				Annotations: map[string]auq.Annotations{"style": {QuestionNotes: "b", OptionNotes: map[string]string{"css": "a"}}}}, submitted)}},

		{"several: answers move on, then the review opens and submits", many, "enter space enter enter", []Effect[auq.Result]{
			{Milestones: ms(answered)},
			{Milestones: ms(answered)},
			{Milestones: ms(ready)},
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("vue", "Vue"), "style": css},
				Annotations: map[string]auq.Annotations{"framework": vuePreview}, Metadata: manyMeta}, submitted)}},
		{"several: the review's picker goes back to a question", many, "enter space enter down enter k enter enter", []Effect[auq.Result]{
			{Milestones: ms(answered)},
			{Milestones: ms(answered)},
			{Milestones: ms(ready)},
			{Milestones: ms(answered, ready)},
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("react", "React"), "style": css},
				Annotations: map[string]auq.Annotations{"framework": reactPreview}, Metadata: manyMeta}, submitted)}},
		{"several: right and left move the picker", many, "enter space enter right right right left right enter enter enter", []Effect[auq.Result]{
			{Milestones: ms(answered)},
			{Milestones: ms(answered)},
			{Milestones: ms(ready)},
			{Milestones: ms(answered, ready)},
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("vue", "Vue"), "style": css, "extras": qsingle("lint", "Linting")},
				Annotations: map[string]auq.Annotations{"framework": vuePreview}, Metadata: manyMeta}, submitted)}},
		{"several: the picker stops at its ends", many, "enter space enter up up left enter", []Effect[auq.Result]{
			{Milestones: ms(answered)},
			{Milestones: ms(answered)},
			{Milestones: ms(ready)},
			submit(auq.Result{Answers: map[string]auq.Answer{"framework": qsingle("vue", "Vue"), "style": css},
				Annotations: map[string]auq.Annotations{"framework": vuePreview}, Metadata: manyMeta}, submitted)}},
		{"several: submit refuses while a required question is open", many, "tab tab tab enter", nil},
		{"several: tab and shift+tab switch questions and wrap", many, "tab tab tab tab shift+tab shift+tab enter", []Effect[auq.Result]{
			{Milestones: ms(answered)}}},
		{"several: right and left switch questions", many, "right right left space enter", []Effect[auq.Result]{
			{Milestones: ms(answered)}}},
		{"several: an optional question answered first", many, "tab tab enter", []Effect[auq.Result]{
			{Milestones: ms(answered)}}},
		{"several: the next unanswered question opens, wrapping around", many, "tab space enter enter enter", []Effect[auq.Result]{
			{Milestones: ms(answered)},
			{Milestones: ms(answered)},
			{Milestones: ms(answered, ready)}}},
		{"several: esc esc dismisses from the review", many, "enter space enter esc esc", []Effect[auq.Result]{
			{Milestones: ms(answered)},
			{Milestones: ms(answered)},
			{Milestones: ms(ready)},
			{Kind: EffectDismiss, Milestones: ms(dismissed)}}},
		{"several: the hide key in the review", many, "tab tab tab ctrl+shift+q", []Effect[auq.Result]{{Kind: EffectToggleHide}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := c.req()
			if err := auq.Validate(req); err != nil {
				t.Fatalf("the test's request is invalid: %v", err)
			}
			m := NewQuestions(req, plain(nil))
			m.SetSize(80, 24)
			got := qrun(m, qkeys(c.keys))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("effects of %q (-want +got):\n%s", c.keys, diff)
			}
			for _, e := range got {
				if e.Kind != EffectSubmit {
					continue
				}
				if err := auq.CheckResult(req, e.Answer); err != nil {
					t.Errorf("the submitted result does not fit the request: %v", err)
				}
			}
		})
	}
}

// TestScreen checks what keys leave on screen: notices, marks, the view
// that is open.
func TestScreen(t *testing.T) {
	cases := []struct {
		name      string
		req       func() *auq.Request
		keys      string
		want, not []string
	}{
		{"the recommended option is marked and focused", one, "", []string{"▸ ( ) Vue (recommended)", "  ( ) React"}, nil},
		{"without a recommended option the first has focus", multiOne, "", []string{"▸ [ ] Plain CSS"}, nil},
		{"Other is last", one, "", []string{"( ) Other", "type your own answer"}, nil},
		{"the first esc asks", one, "esc", []string{"Press Esc again to dismiss"}, nil},
		{"the notice goes with the next key", one, "esc down", nil, []string{"Press Esc again"}},
		{"blank Other is refused with a message", one, "o '__' enter", []string{"Type some text first", "✎ Other: "}, nil},
		{"esc from the Other input keeps the saved text", many, "o 'first' enter shift+tab o '_second' esc", []string{"(●) Other", "“first”"}, []string{"second", "✎ Other:"}},
		{"a blank note is refused", one, "n enter", []string{"Type some text first", "✎ Note on Vue: "}, nil},
		{"a long note is refused", one, "n '" + strings.Repeat("x", auq.MaxNoteLen+5) + "' enter", []string{"A note can have at most 2000 characters; this one has 2005", "✎ Note on Vue: "}, nil},
		{"a long Other text is refused", one, "o '" + strings.Repeat("x", auq.MaxOtherTextLen+5) + "' enter", []string{"The Other answer can have at most 2000 characters; this one has 2005"}, nil},
		{"a saved note is shown under its option", one, "n 'nice' enter", []string{"( ) Vue (recommended) ✎", "✎ nice"}, nil},
		{"a question note is shown", one, "N 'why_not' enter", []string{"✎ why not"}, nil},
		{"an empty multi-select warns", multiOne, "enter", []string{"Nothing is selected: press Enter again"}, nil},
		{"a confirmed empty answer moves on with one enter", many, "tab enter enter shift+tab enter", []string{"Anything to add to the setup?"}, []string{"Nothing is selected"}},
		{"space ticks", multiOne, "space", []string{"▸ [✓] Plain CSS"}, nil},
		{"tabs show the current question and the answered ones", many, "enter", []string{"Framework ✓  [Styling]  Extras   Review"}, nil},
		{"the review lists answers and notes", many, "n 'nice' enter N 'hm' enter enter space enter", []string{"Review your answers", "✓ Framework · Vue", "✎ question: hm", "✎ Vue: nice", "✓ Styling · Plain CSS", "– Extras · skipped (optional)", "▸ Submit", "  Back to Framework"}, nil},
		{"the review shows an answer changed after it opened", many, "enter space enter down enter k n 'later' enter enter", []string{"✓ Framework · React", "✎ React: later"}, []string{"Framework · Vue"}},
		{"submit names what is missing", many, "tab tab tab enter", []string{"Answer “Framework”, “Styling” first", "▸ Back to Framework", "✗ Framework · not answered (required)"}, nil},
		{"the help lists the keys", one, "?", []string{"Keys", "navigate the options", "Press any key to close this help"}, nil},
		{"any key closes the help", one, "? x", []string{"Which frontend framework"}, []string{"Press any key"}},
		{"the focused option's preview", one, "", []string{"Good default if you want gentle adoption."}, nil},
		{"no preview", one, "j", []string{"(no preview)"}, []string{"Good default"}},
		{"Other has no preview", one, "j j", []string{"(no preview)"}, nil},
		{"multi-select questions show no preview pane", multiOne, "", nil, []string{"(no preview)", "Preview"}},
		{"the Other input shows invisible characters", one, "o 'x\u200by\ufeff'", []string{"✎ Other: x<U+200B>y<U+FEFF>"}, nil},
		{"a saved Other text shows invisible characters", many, "o 'x\u200by' enter shift+tab", []string{"“x<U+200B>y”"}, nil},
		{"a saved note shows invisible characters", one, "n 'a\u200bb' enter", []string{"✎ a<U+200B>b"}, nil},
		{"the review shows invisible characters", many, "n 'a\u200bb' enter o 'x\u200by' enter tab tab", []string{"Framework · Other: “x<U+200B>y”", "✎ Vue: a<U+200B>b"}, nil},
		{"optional questions say so", many, "tab tab", []string{"Anything to add to the setup? (optional)"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkScreen(t, c.req(), c.keys, 80, 30, c.want, c.not) })
	}
}

// TestPreviewScroll checks that PgUp and PgDn page through a preview
// longer than its room, and name themselves in the hints only then.
func TestPreviewScroll(t *testing.T) {
	const top = "  This layout keeps the data close to the code that reads it. This layout keeps"
	cases := []struct {
		name      string
		req       func() *auq.Request
		keys      string
		want, not []string
	}{
		{"a long preview is cut, and the hints say how to scroll", eight, "", []string{top, "  …", "pgup/pgdn scroll preview"}, []string{"More detail"}},
		{"pgdown scrolls", eight, "pgdown", []string{"More detail follows here."}, []string{top}},
		{"pgup scrolls back, and stops at the top", eight, "pgdown pgup pgup", []string{top}, nil},
		{"pgdown stops at the end", eight, "pgdown pgdown pgdown pgdown pgup", []string{top}, nil},
		{"another option's preview starts at its top", eight, "pgdown down", []string{top}, nil},
		{"a preview that fits has no scroll hint", one, "pgdown", []string{"Good default if you want gentle adoption."}, []string{"pgup"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkScreen(t, c.req(), c.keys, 80, 24, c.want, c.not) })
	}
}

// TestHintWords checks that every view with hints names navigate, select
// and enter, at the sizes hosts use.
func TestHintWords(t *testing.T) {
	views := []struct {
		name string
		req  func() *auq.Request
		keys string
	}{
		{"single", one, ""}, {"single without preview", noPreview, ""}, {"multi", multiOne, ""},
		{"tabs", many, ""}, {"review", many, "tab tab tab"}, {"other input", one, "o"}, {"note input", one, "n"},
		{"help", one, "?"},
	}
	for _, v := range views {
		for _, sz := range [][2]int{{200, 60}, {120, 40}, {80, 24}, {60, 20}, {40, 12}} {
			m := NewQuestions(v.req(), plain(nil))
			m.SetSize(sz[0], sz[1])
			qrun(m, qkeys(v.keys))
			f := m.View(sz[0], sz[1])
			text := qscreen(f)
			if f.Hints > 0 {
				text = strings.Join(f.Lines[len(f.Lines)-f.Hints:], "\n")
			}
			for _, w := range []string{"navigate", "select", "enter"} {
				if !strings.Contains(text, w) {
					t.Errorf("%s at %dx%d: %q missing from\n%s", v.name, sz[0], sz[1], w, text)
				}
			}
		}
	}
}

// TestSpansWidth checks that the dialog's rule spans the whole width.
func TestSpansWidth(t *testing.T) {
	for _, w := range []int{30, 80, 150} {
		m := NewQuestions(many(), plain(nil))
		f := m.View(w, 30)
		if !strings.Contains(qscreen(f), strings.Repeat("─", w)) {
			t.Errorf("at width %d no rule spans the width:\n%s", w, qscreen(f))
		}
	}
}

// TestKeys checks that Keys lists the keys of the seed's keymap, and
// every chord in it is one config writes that way.
func TestQuestionsKeys(t *testing.T) {
	got := map[string]bool{}
	for _, k := range QuestionsKeys() {
		if got[k] {
			t.Errorf("Keys lists %q twice", k)
		}
		got[k] = true
		if len([]rune(k)) == 1 {
			continue
		}
		if c, err := config.ParseKey(k); err != nil || c != k {
			t.Errorf("config.ParseKey(%q) = %q, %v: not canonical", k, c, err)
		}
	}
	for _, k := range []string{"up", "down", "j", "k", "tab", "shift+tab", "left", "right", "space", "enter", "o", "n", "N", "?", "esc", "ctrl+c", HideKey} {
		if !got[k] {
			t.Errorf("Keys lacks %q", k)
		}
	}
}

// TestHideKeyName checks that HideKey is how config.ParseKey spells Ctrl+Shift+Q.
func TestHideKeyName(t *testing.T) {
	for _, in := range []string{"ctrl+shift+q", "shift+ctrl+q", "Ctrl+Shift+Q"} {
		got, err := config.ParseKey(in)
		if err != nil {
			t.Fatalf("config.ParseKey(%q): %v", in, err)
		}
		if got != HideKey {
			t.Errorf("config.ParseKey(%q) = %q, want %q", in, got, HideKey)
		}
	}
}

// TestHideKeepsState shows that the hide key changes nothing: the frame
// before and after it is the same in every view.
func TestHideKeepsState(t *testing.T) {
	for _, script := range []string{"", "o 'draft'", "?", "tab tab tab right", "N 'x' enter j", "esc"} {
		m := NewQuestions(many(), plain(fixedClock{left: 61e9, ok: true}))
		m.SetSize(80, 24)
		qrun(m, qkeys(script))
		before := m.View(80, 24)
		if e := m.Update(Key{Name: HideKey}); e.Kind != EffectToggleHide {
			t.Fatalf("after %q the hide key gave %+v", script, e)
		}
		if diff := cmp.Diff(before, m.View(80, 24)); diff != "" {
			t.Errorf("after %q the hide key changed the frame (-want +got):\n%s", script, diff)
		}
	}
}

// TestHelpKeepsState shows that opening and closing the help leaves the
// screen under it as it was, scrolled where it was, on a short screen.
func TestHelpKeepsState(t *testing.T) {
	for _, script := range []string{"", "j j j", "tab tab tab", "n 'x' enter N 'y' enter enter enter enter down down down down down", "enter enter enter enter enter enter enter enter down down down down down down"} {
		m := NewQuestions(eight(), plain(nil))
		m.SetSize(40, 9)
		qrun(m, qkeys(script))
		before := m.View(40, 9)
		qrun(m, qkeys("? x"))
		if diff := cmp.Diff(before, m.View(40, 9)); diff != "" {
			t.Errorf("after %q the help changed the screen (-want +got):\n%s", script, diff)
		}
	}
}

// TestCountdown checks the countdown line: shown only with a deadline.
func TestCountdown(t *testing.T) {
	cases := []struct {
		c    Countdown
		want string
	}{
		{nil, ""},
		{fixedClock{ok: false}, ""},
		{fixedClock{left: 102e9, ok: true}, " ⏱ 1:42 left"},
		{fixedClock{left: 3700e9, ok: true}, " ⏱ 1:01:40 left"},
		{fixedClock{left: -1, ok: true}, " ⏱ 0:00 left"},
	}
	for _, c := range cases {
		m := NewQuestions(one(), plain(c.c))
		got := ""
		if l := m.View(80, 24).Lines[0]; strings.Contains(l, "⏱") {
			got = l
		}
		if got != c.want {
			t.Errorf("countdown %+v: first line %q, want %q", c.c, got, c.want)
		}
	}
}

// TestViewPure checks that View changes nothing: drawing other sizes in
// between leaves the frame at the model's size as it was, and a model
// never given a size draws the same as one given it.
func TestViewPure(t *testing.T) {
	for _, script := range []string{"", "j j", "enter space j", "tab tab tab down", "o 'abc' left", "?"} {
		m := NewQuestions(eight(), plain(fixedClock{left: 61e9, ok: true}))
		m.SetSize(80, 24)
		qrun(m, qkeys(script))
		before := m.View(80, 24)
		for _, sz := range [][2]int{{40, 12}, {200, 60}, {20, 3}, {0, 0}} {
			m.View(sz[0], sz[1])
		}
		if diff := cmp.Diff(before, m.View(80, 24)); diff != "" {
			t.Errorf("after %q other sizes changed the frame (-want +got):\n%s", script, diff)
		}
		fresh := NewQuestions(eight(), plain(fixedClock{left: 61e9, ok: true}))
		fresh.SetSize(80, 24)
		qrun(fresh, qkeys(script))
		fresh.SetSize(0, 0)
		if diff := cmp.Diff(before, fresh.View(80, 24)); diff != "" && script == "" {
			t.Errorf("a model without a size draws differently (-want +got):\n%s", diff)
		}
	}
}

// TestCountdownRedraw checks that a frame drawn again without a key shows
// the clock as it is now, and that its row comes and goes with it.
func TestCountdownRedraw(t *testing.T) {
	c := &movingClock{left: 90e9, ok: true}
	m := NewQuestions(one(), plain(c))
	m.SetSize(80, 24)
	if got := m.View(80, 24).Lines[0]; got != " ⏱ 1:30 left" {
		t.Fatalf("first line %q", got)
	}
	c.left = 10e9
	if got := m.View(80, 24).Lines[0]; got != " ⏱ 0:10 left" {
		t.Errorf("after the clock moved: first line %q", got)
	}
	c.ok = false
	if got := m.View(80, 24).Lines[0]; got != " Framework" {
		t.Errorf("without a deadline: first line %q", got)
	}
}

type movingClock struct {
	left time.Duration
	ok   bool
}

func (c *movingClock) Remaining() (time.Duration, bool) { return c.left, c.ok }

// checkScreen sends keys to a dialog of req drawn at w×h and checks that
// the screen holds every string of want and none of not.
func checkScreen(t *testing.T, req *auq.Request, keys string, w, h int, want, not []string) {
	t.Helper()
	m := NewQuestions(req, plain(nil))
	m.SetSize(w, h)
	qrun(m, qkeys(keys))
	s := qscreen(m.View(w, h))
	for _, x := range want {
		if !strings.Contains(s, x) {
			t.Errorf("after %q the screen lacks %q:\n%s", keys, x, s)
		}
	}
	for _, x := range not {
		if strings.Contains(s, x) {
			t.Errorf("after %q the screen still holds %q:\n%s", keys, x, s)
		}
	}
}
