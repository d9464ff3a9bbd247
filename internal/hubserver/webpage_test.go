package hubserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
)

// everyKind is an ask_user questionnaire with every kind of question.
const everyKind = `{"header": "Release", "questions": [
 {"title": "Deploy where?", "prompt": "Pick one.", "options": [{"label": "staging", "description": "smoke tests"}, {"label": "prod", "preview": "# Production\n\n*careful*: customers see it"}]},
 {"title": "Which checks?", "kind": "multi", "options": [{"label": "unit"}, {"label": "integration"}, {"label": "e2e"}]},
 {"title": "Note", "kind": "input", "default": "none"},
 {"title": "Proceed?", "kind": "bool"},
 {"title": "Settings", "kind": "simple-form", "fields": [
  {"name": "confirmed", "label": "Confirm", "kind": "bool", "required": true},
  {"name": "target", "label": "Target", "kind": "single", "options": [{"label": "eu"}, {"label": "us"}], "required": true},
  {"name": "extras", "label": "Extras", "kind": "multi", "options": [{"label": "a"}, {"label": "b"}]},
  {"name": "comment", "label": "Comment", "kind": "input", "default": "hi"}]}]}`

// everyKindAnswers is what the asker gets for the answers the tests give.
const everyKindAnswers = `[
 {"index":0,"id":"q1","title":"Deploy where?","kind":"single","selections":["prod"],"usedDefault":false},
 {"index":1,"id":"q2","title":"Which checks?","kind":"multi","selections":["unit","e2e"],"freeText":"lint too","usedDefault":false},
 {"index":2,"id":"q3","title":"Note","kind":"input","selections":[],"freeText":"none","usedDefault":false},
 {"index":3,"id":"q4","title":"Proceed?","kind":"bool","selections":[],"usedDefault":false,"value":true},
 {"index":4,"id":"q5","title":"Settings","kind":"simple-form","selections":[],"usedDefault":false,"value":{"confirmed":false,"target":"us","extras":["b"],"comment":"hi"}}]`

// threeQuestions is an AskUserQuestion questionnaire with a recommended
// option, a preview, a multi-select and metadata.
const threeQuestions = `{"questions": [
 {"id": "db", "question": "Which database?", "header": "Database", "options": [
  {"id": "pg", "label": "Postgres", "description": "relational", "recommended": true, "preview": "` + "```sql\\nSELECT 1;\\n```" + `"},
  {"id": "lite", "label": "SQLite", "description": "embedded"}]},
 {"id": "feat", "question": "Which features?", "header": "Features", "multiSelect": true, "options": [
  {"id": "a", "label": "Auth", "description": "login"}, {"id": "b", "label": "Billing", "description": "money"}]},
 {"id": "name", "question": "Project name?", "header": "Name", "options": [
  {"id": "x", "label": "Xylo", "description": "short"}, {"id": "y", "label": "Yarrow", "description": "long"}]}],
 "metadata": {"source": "browser test"}}`

const threeQuestionsResult = `{"cancelled":false,"answers":{
 "db":{"kind":"single","optionId":"pg","label":"Postgres"},
 "feat":{"kind":"multi","selections":[{"optionId":"b","label":"Billing"},{"label":"Other","other":true,"text":"Search"}],"empty":false},
 "name":{"kind":"single","label":"Other","other":true,"text":"Zeta"}},
 "annotations":{"db":{"questionNotes":"for now","selectedPreview":"` + "```sql\\nSELECT 1;\\n```" + `"},"name":{"optionNotes":{"y":"too long"}}},
 "metadata":{"source":"browser test"}}`

// fillEveryKind gives everyKind the answers of everyKindAnswers, but for
// what its defaults already give.
func fillEveryKind(b *browser) {
	b.t.Helper()
	b.choose(0, "prod")
	b.choose(1, "unit")
	b.choose(1, "e2e")
	b.write("Something else", "lint too")
	b.choose(3, "Yes")
	b.choose(4, "us")
	b.choose(4, "b")
}

// fillThreeQuestions gives threeQuestions the answers of
// threeQuestionsResult.
func fillThreeQuestions(b *browser) {
	b.t.Helper()
	b.choose(0, "Postgres")
	b.openNotes(0)
	b.write("Note on the question", "for now")
	b.choose(1, "Billing")
	b.write("Other answer to: Which features?", "Search")
	b.choose(2, "Other")
	b.write("Other answer to: Project name?", "Zeta")
	b.openNotes(2)
	b.write("Note on “Yarrow”", "too long")
}

func sameJSON(t *testing.T, what string, want string, got any) {
	t.Helper()
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var w, g any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(b, &g)
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("%s (-want +got):\n%s", what, diff)
	}
}

// TestPage answers every kind of both contracts in a real Chromium, by
// touch at phone size and by the keyboard alone at desktop size, and
// checks the answers where the asker gets them; then an answer from
// elsewhere, a dismissal and a stopped countdown.
func TestPage(t *testing.T) {
	for _, mode := range []struct {
		name  string
		touch bool
	}{{"phone touch 390x844", true}, {"desktop keyboard 1280x800", false}} {
		t.Run(mode.name, func(t *testing.T) {
			f := newFixture(t)
			b := newBrowser(t, mode.touch)
			results, _ := f.askUser(t, everyKind)
			outcomes, q2 := f.askQuestions(t, threeQuestions)
			b.open(f, "")
			b.wait(`document.querySelectorAll('#list li').length === 2`)
			rows := b.text("#list li")
			if !strings.HasPrefix(rows[0], "Which database?test agent · /src/project · testbox · AskUserQuestion · 3 questions") ||
				!strings.HasPrefix(rows[1], "Releasetest agent · /src/project · testbox · ask_user · 5 questions") {
				t.Errorf("the list, newest first:\n%s", strings.Join(rows, "\n"))
			}
			b.layoutHolds("the list")

			// ask_user, opened from the list.
			b.openRow(1)
			b.wait(`document.querySelector('#form-host h2') && document.activeElement === document.querySelector('#form-host h2')`)
			if got := b.text("#form-host .preview h4"); !slices.Equal(got, []string{"Production"}) {
				t.Errorf("preview headings = %q", got)
			}
			b.press("Send answer")
			b.wait(`document.querySelector('#form-host .problem.top:not([hidden])')`)
			problems := b.text("#form-host .problem:not([hidden])")
			want := []string{"Some answers need attention; each problem is shown beside its question.",
				"Choose an option or write your own answer.", "Choose an option or write your own answer.", "Choose yes or no.", "Choose Target."}
			if !slices.Equal(problems, want) {
				t.Errorf("problems shown = %q, want %q", problems, want)
			}
			fillEveryKind(b)
			b.layoutHolds("the ask_user form")
			if dir := os.Getenv("ASKUSER_WEB_SCREENSHOTS"); dir != "" && mode.touch {
				b.eval(`window.scrollTo(0, 0); document.activeElement.blur(); 0`, nil)
				b.scheme("light")
				b.screenshot(filepath.Join(dir, "web-light.png"))
				b.scheme("dark")
				b.screenshot(filepath.Join(dir, "web-dark.png"))
				b.scheme("light")
			}
			b.press("Send answer")
			res := receive(t, results)
			if res.Status != contract.StatusAnswered {
				t.Fatalf("the asker got %+v", res)
			}
			sameJSON(t, "ask_user answers", everyKindAnswers, res.Answers)
			b.wait(`document.querySelector('#form-host .closed')`)
			if got := b.text("#form-host .closed"); len(got) != 1 || !strings.HasPrefix(got[0], "This question was answered by the web page of the hub on") {
				t.Errorf("after sending: %q", got)
			}

			// AskUserQuestion: from the list by touch, from a push link by keyboard.
			if mode.touch {
				b.press("← All questions")
				b.wait(`document.querySelectorAll('#list li').length === 1`)
				b.openRow(0)
			} else {
				b.open(f, "#q="+q2.ID)
			}
			b.wait(`document.querySelector('#form-host .badge')`)
			if got := b.text("#form-host .badge"); !slices.Equal(got, []string{"Recommended"}) {
				t.Errorf("badges = %q", got)
			}
			fillThreeQuestions(b)
			b.layoutHolds("the AskUserQuestion form")
			b.press("Send answer")
			out := receive(t, outcomes)
			if out.Status != auq.StatusSubmitted {
				t.Fatalf("the asker got %+v", out)
			}
			sameJSON(t, "AskUserQuestion result", threeQuestionsResult, out.Result)

			answerElsewhere(t, f, b)
			stopThenDismiss(t, f, b)
			b.clean()
		})
	}
}

// answerElsewhere answers a question on the hub while its form is open
// on the page: the form leaves, and the list's line names who answered;
// then that answer comes second to one given on another machine.
func answerElsewhere(t *testing.T, f *fixture, b *browser) {
	t.Helper()
	results, q3 := f.askUser(t, deployReq)
	b.open(f, "#q="+q3.ID)
	if _, err := f.client.Answer(context.Background(), q3.ID, []byte(deployAnswer), "askuser answer on testbox"); err != nil {
		t.Fatal(err)
	}
	b.wait(`document.querySelector('#form-host .closed')`)
	if got := b.text("#form-host .closed"); !slices.Equal(got, []string{"This question was answered by askuser answer on testbox."}) {
		t.Errorf("after an answer elsewhere: %q", got)
	}
	b.press("← All questions")
	if got := b.text("#notice"); !slices.Equal(got, []string{"“Deploy where?”: answered by askuser answer on testbox"}) {
		t.Errorf("the list's line after an answer elsewhere: %q", got)
	}
	if got := b.text("#list li"); len(got) != 0 {
		t.Errorf("the list after an answer elsewhere: %q", got)
	}
	receive(t, results)
	// Closed again, when that answer came second to one given on
	// another machine: the list's line names the question still.
	supersede(t, f.info, q3.ID, "alice on her laptop")
	b.wait(`document.getElementById('notice').textContent.includes('came second')`)
	if got := b.text("#notice"); !slices.Equal(got, []string{"“Deploy where?”: answered by askuser answer on testbox; the answer given here by alice on her laptop came second"}) {
		t.Errorf("the list's line after the answer here came second: %q", got)
	}
}

// stopThenDismiss stops a question's countdown on the page, then
// dismisses it; a question arriving meanwhile leaves the person where
// they are.
func stopThenDismiss(t *testing.T, f *fixture, b *browser) {
	t.Helper()
	results, q4 := f.askUser(t, `{"questions": [{"title": "Go?", "kind": "bool"}], "timeoutPerQuestionMs": 600000}`)
	b.open(f, "#q="+q4.ID)
	b.wait(`document.querySelector('#form-host .countdown .left').textContent.endsWith('left')`)
	b.press("Stop countdown")
	b.wait(`document.querySelector('#form-host .countdown .left').textContent.startsWith('Countdown stopped by the web page')`)
	got, _, err := f.client.Question(context.Background(), q4.ID)
	if err != nil || got.Tag.Deadline != nil {
		t.Errorf("after Stop countdown the question is %+v, %v; want no deadline", got, err)
	}
	b.choose(0, "Yes")
	var before string
	b.eval(`document.activeElement.id`, &before)
	_, other := f.askUser(t, deployReq)
	b.wait(`document.getElementById('waiting-count').textContent === '1 other question waiting'`)
	var after string
	b.eval(`document.activeElement.id`, &after)
	if before == "" || after != before {
		t.Errorf("a question arriving moved the focus from %q to %q", before, after)
	}
	b.press("Dismiss")
	res := receive(t, results)
	if res.Status != contract.StatusAborted || res.CancelledReason != contract.CancelUser {
		t.Errorf("after Dismiss the asker got %+v, want aborted by the user", res)
	}
	b.wait(`document.querySelector('#form-host .closed')`)
	if got := b.text("#form-host .closed"); len(got) != 1 || !strings.HasPrefix(got[0], "This question was dismissed by the web page") {
		t.Errorf("after Dismiss: %q", got)
	}
	if _, err := f.client.Dismiss(context.Background(), other.ID, "test"); err != nil {
		t.Error(err)
	}
}

// TestListKeepsPlace adds a question at the top of a list the person has
// scrolled down: the row they look at stays where it is on the screen,
// and the focus stays on it.
func TestListKeepsPlace(t *testing.T) {
	f := newFixture(t)
	b := newBrowser(t, true)
	const n = 30
	for i := range n {
		go ask.AskJSON(f.ctx, f.asker, ask.AskUser, []byte(fmt.Sprintf(`{"questions": [{"title": "Question %d?", "options": [{"label": "yes"}, {"label": "no"}]}]}`, i)), nil)
		f.waiting(t)
	}
	b.open(f, "")
	b.wait(fmt.Sprintf(`document.querySelectorAll('#list li').length === %d`, n))
	var before, after struct {
		ID    string
		Top   float64
		Focus bool
	}
	const look = `(() => { const li = document.querySelectorAll('#list li')[%s]; return {id: li.dataset.id, top: li.getBoundingClientRect().top, focus: li.contains(document.activeElement)}; })()`
	b.eval(`(() => { const li = document.querySelectorAll('#list li')[12]; li.querySelector('a').focus(); window.scrollTo(0, li.offsetTop - 200); return 0; })()`, nil)
	b.eval(fmt.Sprintf(look, "12"), &before)
	go ask.AskJSON(f.ctx, f.asker, ask.AskUser, []byte(deployReq), nil)
	f.waiting(t)
	b.wait(fmt.Sprintf(`document.querySelectorAll('#list li').length === %d`, n+1))
	b.eval(fmt.Sprintf(look, "13"), &after)
	if after.ID != before.ID || !after.Focus || after.Top < before.Top-1 || after.Top > before.Top+1 {
		t.Errorf("the row looked at was %+v before a question arrived, and is %+v after", before, after)
	}
	b.clean()
}

// TestEmptyMultiSelect sends an AskUserQuestion multi-select with nothing
// chosen: the first Send says so, as the dialog wants Enter twice, and a
// second sends it as an empty answer; choosing an option between the two
// asks again.
func TestEmptyMultiSelect(t *testing.T) {
	f := newFixture(t)
	b := newBrowser(t, false)
	outcomes, q1 := f.askQuestions(t, `{"questions": [{"id": "feat", "question": "Which features?", "header": "Features", "multiSelect": true,
  "options": [{"id": "a", "label": "Auth", "description": "login"}, {"id": "b", "label": "Billing", "description": "money"}]}]}`)
	b.open(f, "#q="+q1.ID)
	b.press("Send answer")
	b.wait(`document.querySelector('#form-host .problem.top:not([hidden])')`)
	want := []string{"Some answers need attention; each problem is shown beside its question.",
		"Nothing is chosen: choose options, or send again to answer with none."}
	if got := b.text("#form-host .problem:not([hidden])"); !slices.Equal(got, want) {
		t.Errorf("after the first Send: %q, want %q", got, want)
	}
	b.choose(0, "Auth")
	b.do(chromedp.KeyEvent(" ")) // and unticked: the question changed
	b.wait(`!__find.choice(0, "Auth").checked`)
	b.press("Send answer")
	if got := b.text("#form-host .problem:not([hidden])"); !slices.Equal(got, want) {
		t.Errorf("after a change and Send: %q, want %q again", got, want)
	}
	b.press("Send answer")
	out := receive(t, outcomes)
	if out.Status != auq.StatusSubmitted {
		t.Fatalf("the asker got %+v", out)
	}
	sameJSON(t, "the result", `{"cancelled":false,"answers":{"feat":{"kind":"multi","selections":[],"empty":true}}}`, out.Result)
	b.clean()
}

// TestDraftKept leaves a half-answered form for the list and opens it
// again: it is as the person left it, and sends what they gave.
func TestDraftKept(t *testing.T) {
	f := newFixture(t)
	b := newBrowser(t, true)
	results, q1 := f.askUser(t, everyKind)
	b.open(f, "#q="+q1.ID)
	b.choose(0, "prod")
	b.write("Something else", "lint too")
	b.press("← All questions")
	b.wait(`!document.getElementById('list-view').hidden`)
	// The row's link, without loading the page again.
	b.eval(`location.hash = `+q("#q="+q1.ID)+`; 0`, nil)
	b.wait(`document.querySelector('#form-host form')`)
	var kept struct {
		Prod bool   `json:"prod"`
		Text string `json:"text"`
	}
	b.eval(`({prod: __find.choice(0, "prod").checked, text: __find.input("Something else").value})`, &kept)
	if !kept.Prod || kept.Text != "lint too" {
		t.Fatalf("the form opened again holds %+v; want prod chosen and the text kept", kept)
	}
	b.choose(1, "unit")
	b.choose(1, "e2e")
	b.choose(3, "Yes")
	b.choose(4, "us")
	b.choose(4, "b")
	b.press("Send answer")
	res := receive(t, results)
	if res.Status != contract.StatusAnswered {
		t.Fatalf("the asker got %+v", res)
	}
	sameJSON(t, "ask_user answers", everyKindAnswers, res.Answers)
	b.clean()
}
