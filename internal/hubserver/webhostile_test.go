package hubserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/internal/safetext"
	"github.com/askuser/askuser/internal/testkit"
)

// hostile is model text that would run, restyle or mislead if a page
// took it for markup: each string must come out as the same text.
var hostile = []string{
	`<img src=x onerror=alert(1)>`,
	`<script>alert(2)</script>`,
	`"><svg onload=alert(3)>`,
	`javascript:alert(4)`,
	`<a href="javascript:alert(5)">click me</a>`,
	`data:text/html,<script>alert(6)</script>`,
	`<style>body{display:none}</style>`,
	`</label><iframe src=javascript:alert(7)></iframe>`,
	`{{constructor.constructor('alert(8)')()}} ${alert(9)}`,
	`&lt;b&gt;not bold&lt;/b&gt; &amp; %3Cscript%3E \u003cu\u003e`,
	"\u202eevil bidi override\u202c and \u2066isolate\u2069 \u200fmark",
	`<math><mtext><table><mglyph><style><img src=x onerror=alert(10)>`,
	`'; alert(11); //`,
	`<div style="position:fixed;inset:0;background:red">cover</div>`,
}

// hostileMD is a Markdown preview with raw HTML, links and code.
const hostileMD = "# <script>alert(12)</script> title\n\n" +
	"[click](javascript:alert(13)) ![img](data:image/svg+xml,<svg onload=alert(14)>) <http://evil.example/>\n\n" +
	"<div onclick=alert(15)>raw block</div>\n\n" +
	"```html\n<script>alert(16)</script>\n```\n\n" +
	"> <b>quoted</b>\n\n- <i>item</i>\n- `<code>`\n\n" +
	"LongWordWithoutAnyBreakAtAllLongWordWithoutAnyBreakAtAllLongWordWithoutAnyBreakAtAllLongWordWithoutAnyBreakAtAll"

func longWord(n int) string { return strings.Repeat("W", n) }

// hostileAskUser puts the corpus in every field of an ask_user request.
func hostileAskUser() string {
	h := hostile
	opt := func(label, desc string) map[string]any { return map[string]any{"label": label, "description": desc} }
	first := opt(h[2], h[3])
	first["preview"] = hostileMD
	req := map[string]any{
		"header": h[0],
		"questions": []any{
			map[string]any{"title": h[1], "prompt": strings.Join(h, "\n") + "\n" + longWord(1000), "options": []any{first, opt(h[4], h[5]), opt(longWord(119), longWord(499))}},
			map[string]any{"title": h[6], "kind": "multi", "options": []any{opt(h[7], h[8]), opt(h[9], h[10])}},
			map[string]any{"title": h[11], "kind": "input", "default": h[12]},
			map[string]any{"title": h[13], "kind": "bool"},
			map[string]any{"title": longWord(199), "kind": "simple-form", "fields": []any{
				map[string]any{"name": "a", "label": h[0], "kind": "single", "required": true, "options": []any{opt(h[1], h[2]), opt(h[3], "")}},
				map[string]any{"name": "b", "label": h[4], "kind": "multi", "options": []any{opt(h[5], ""), opt(h[6], "")}},
				map[string]any{"name": "c", "label": h[7], "kind": "input", "default": h[8]},
				map[string]any{"name": "d", "label": h[9], "kind": "bool"},
			}},
		},
	}
	b, _ := json.Marshal(req)
	return string(b)
}

// hostileQuestions puts the corpus in every field of an AskUserQuestion
// request, within its shorter limits.
func hostileQuestions() string {
	h := hostile
	cut := func(s string, n int) string {
		r := []rune(s)
		if len(r) > n {
			r = r[:n]
		}
		return string(r)
	}
	opt := func(id, label, desc, preview string, rec bool) map[string]any {
		o := map[string]any{"id": id, "label": cut(label, 60), "description": cut(desc, 200), "recommended": rec}
		if preview != "" {
			o["preview"] = cut(preview, 600)
		}
		return o
	}
	req := map[string]any{
		"questions": []any{
			map[string]any{"id": "one", "question": h[1] + "?", "header": "<img src=x>", "options": []any{
				opt("a", h[0], h[2], hostileMD, true), opt("b", h[3], h[4], "", false), opt("c", longWord(60), longWord(200), "", false)}},
			map[string]any{"id": "two", "question": h[5] + "?", "header": "<b>x</b>", "multiSelect": true, "options": []any{
				opt("d", h[6], h[7], "", false), opt("e", h[10], h[13], "", false)}},
		},
		"metadata": map[string]any{"source": h[9]},
	}
	b, _ := json.Marshal(req)
	return string(b)
}

// safeDOM is JavaScript that lists what the page holds that it must
// not: an element of a kind the page never makes, a second script, an
// event handler or style attribute, a link elsewhere.
const safeDOM = `(() => {
  const allowed = new Set(['HTML','HEAD','META','TITLE','LINK','SCRIPT','BODY','HEADER','H1','H2','H4','H5','H6','P','MAIN','SECTION',
    'UL','OL','LI','A','SPAN','BUTTON','DIV','FORM','FIELDSET','LEGEND','LABEL','INPUT','DETAILS','SUMMARY','PRE','CODE','EM',
    'STRONG','BLOCKQUOTE','HR','BR']);
  const bad = [];
  for (const e of document.querySelectorAll('*')) {
    if (!allowed.has(e.tagName)) bad.push('element ' + e.tagName);
    for (const a of e.attributes) {
      if (a.name.startsWith('on')) bad.push(e.tagName + ' has ' + a.name);
      if (a.name === 'style') bad.push(e.tagName + ' has a style attribute');
      if ((a.name === 'href' || a.name === 'src' || a.name === 'action') && !/^(#q=[a-z0-9]+|\/app\.(css|js))$/.test(a.value)) bad.push(e.tagName + ' ' + a.name + '=' + a.value);
    }
  }
  if (document.scripts.length !== 1) bad.push(document.scripts.length + ' scripts');
  if (document.styleSheets.length !== 1) bad.push(document.styleSheets.length + ' style sheets');
  return bad;
})()`

func (b *browser) safe(where string) {
	b.t.Helper()
	var bad []string
	b.eval(safeDOM, &bad)
	for _, p := range bad {
		b.t.Errorf("%s: %s", where, p)
	}
	b.layoutHolds(where)
	b.clean()
}

// TestHostile shows the hostile corpus in every field of both contracts
// at phone size: nothing runs, the layout holds, and the text is shown
// as text; the person's own text that looks like markup reaches the
// asker as it was typed.
func TestHostile(t *testing.T) {
	f := newFixture(t)
	b := newBrowser(t, true)
	a := f.newAsker(t, hostile[0], hostile[1]+longWord(300), hostile[2])
	results := make(chan contract.Result, 1)
	go func() { results <- ask.AskJSON(context.Background(), a, ask.AskUser, []byte(hostileAskUser()), nil) }()
	q1 := f.waiting(t)
	outcomes := make(chan auq.Outcome, 1)
	go func() {
		outcomes <- ask.AskJSON(context.Background(), a, ask.AskUserQuestion, []byte(hostileQuestions()), nil)
	}()
	f.waiting(t)

	b.open(f, "")
	b.wait(`document.querySelectorAll('#list li').length === 2`)
	b.safe("the list")
	titles := b.text("#list .title")
	if len(titles) != 2 || titles[0] != hostile[1]+"?" || titles[1] != hostile[0] {
		t.Errorf("list titles = %q", titles)
	}
	if metas := b.text("#list .meta"); len(metas) != 2 || !strings.HasPrefix(metas[1], hostile[0]+" · "+hostile[1]) {
		t.Errorf("list tags = %q", metas)
	}

	// ask_user.
	b.openRow(1)
	b.wait(`document.querySelector('#form-host h2')`)
	b.safe("the ask_user form")
	if got := b.text("#form-host h2"); len(got) != 1 || got[0] != hostile[0] {
		t.Errorf("header = %q, want %q", got, hostile[0])
	}
	if got := b.text("#form-host legend"); len(got) != 5 || got[0] != hostile[1] || got[1] != hostile[6] || got[2] != hostile[11] {
		t.Errorf("titles = %q", got)
	}
	if got := b.text("#form-host .preview h4"); len(got) != 1 || got[0] != "<script>alert(12)</script> title" {
		t.Errorf("preview heading = %q", got)
	}
	if got := b.text("#form-host .preview pre"); len(got) != 1 || got[0] != "<script>alert(16)</script>\n" {
		t.Errorf("preview code = %q", got)
	}
	typed := `<img src=x onerror=alert(99)> & "quotes"`
	b.choose(0, hostile[2])
	b.choose(1, hostile[9])
	b.write("Something else", typed)
	b.choose(3, "No")
	b.choose(4, hostile[1])
	b.safe("the ask_user form, answered")
	b.narrow()
	b.safe("the ask_user form at 360 px")
	b.press("Send answer")
	res := receive(t, results)
	if res.Status != contract.StatusAnswered {
		t.Fatalf("the asker got %+v", res)
	}
	if got := res.Answers[0].Selections; len(got) != 1 || got[0] != hostile[2] {
		t.Errorf("answer 1 = %q", got)
	}
	if got := res.Answers[1]; got.FreeText != typed || len(got.Selections) != 1 || got.Selections[0] != hostile[9] {
		t.Errorf("answer 2 = %+v", got)
	}
	if got := res.Answers[2].FreeText; got != hostile[12] {
		t.Errorf("answer 3 = %q, want the default %q", got, hostile[12])
	}
	if v, ok := res.Answers[4].Value.Field("a"); !ok || !v.Equal(contract.StringValue(hostile[1])) {
		t.Errorf("answer 5 = %+v", res.Answers[4].Value)
	}
	b.wait(`document.querySelector('#form-host .closed')`)
	b.safe("the ask_user form, sent")
	_ = q1

	// AskUserQuestion.
	b.press("← All questions")
	b.wait(`document.querySelectorAll('#list li').length === 1`)
	b.safe("the list at 360 px")
	b.openRow(0)
	b.wait(`document.querySelector('#form-host .badge')`)
	b.safe("the AskUserQuestion form")
	if got := b.text("#form-host .chip"); len(got) != 2 || got[0] != "<img src=x>" || got[1] != "<b>x</b>" {
		t.Errorf("headers = %q", got)
	}
	b.choose(0, hostile[0])
	b.choose(1, "Other")
	b.write("Other answer to: "+hostile[5]+"?", typed)
	b.safe("the AskUserQuestion form, answered")
	b.narrow()
	b.safe("the AskUserQuestion form at 360 px")
	b.press("Send answer")
	out := receive(t, outcomes)
	if out.Status != auq.StatusSubmitted {
		t.Fatalf("the asker got %+v", out)
	}
	if got := out.Result.Answers["two"].Selections; len(got) != 1 || got[0].Text != typed {
		t.Errorf("Other = %+v", got)
	}
	if got := out.Result.Annotations["one"].SelectedPreview; got == "" {
		t.Error("the preview of the chosen option did not come back")
	}
	b.wait(`document.querySelector('#form-host .closed')`)
	b.safe("the AskUserQuestion form, sent")
}

// TestHostileApproval shows an approval of each hostile command, asked
// by an agent whose tag is hostile too, at phone size: each is marked as
// an approval in the list and in its form, its command is shown once, as
// text, exactly as the terminal shows it and cut when long; nothing runs
// and the layout holds. A denial's reason typed as markup reaches the
// asker as typed, and an allow is an allow.
func TestHostileApproval(t *testing.T) {
	f := newFixture(t)
	b := newBrowser(t, true)
	a := f.newAsker(t, hostile[0], "/src/app", hostile[2])
	type asked struct {
		name    string
		out     <-chan approval.Outcome
		q       *hub.Question
		command string
	}
	var all []asked
	for _, hc := range testkit.HostileCommands {
		command := hc.Command
		if len(command) > approval.MaxCommandLen {
			command = "true"
		}
		out, q := f.askApproval(t, a, "claude-code", command)
		if command != hc.Command {
			// An approval refuses a command this long: a hub of another
			// machine may have stored one anyway, as approval.Details
			// cuts it.
			testkit.UpdateEntry(t, natsConn(t, f.info), hubstore.QuestionsBucket, q.ID, func(v map[string]any) {
				var req any
				if err := json.Unmarshal(testkit.ApprovalRequest("claude-code", hc.Command), &req); err != nil {
					t.Fatal(err)
				}
				v["request"] = req
			})
		}
		all = append(all, asked{hc.Name, out, q, hc.Command})
	}

	b.open(f, "")
	b.wait(fmt.Sprintf(`document.querySelectorAll('#list li').length === %d`, len(all)))
	b.safe("the list of approvals")
	title := hostile[0] + " in /src/app wants to run a command"
	titles, badges, metas := b.text("#list .title"), b.text("#list .badge.approval"), b.text("#list .meta")
	if len(titles) != len(all) || len(badges) != len(all) || len(metas) != len(all) {
		t.Fatalf("the list shows %d titles, %d approval badges, %d tags; want %d of each", len(titles), len(badges), len(metas), len(all))
	}
	for i := range titles {
		if titles[i] != title || badges[i] != "Approval" || !strings.HasSuffix(metas[i], " · approval") || strings.Contains(metas[i], "question") {
			t.Errorf("row %d: title %q, badge %q, tags %q; want %q, an Approval badge, and tags ending in approval", i, titles[i], badges[i], metas[i], title)
		}
	}

	for i, ap := range all {
		b.open(f, "#q="+ap.q.ID)
		b.wait(`document.querySelector('#form-host .preview pre')`)
		b.safe(ap.name)
		if got := b.text("#form-host h2"); len(got) != 1 || got[0] != title {
			t.Errorf("%s: heading %q, want %q", ap.name, got, title)
		}
		if got := b.text("#form-host .badge.approval"); len(got) != 1 || got[0] != "Approval" {
			t.Errorf("%s: badges %q, want the approval's", ap.name, got)
		}
		want := safetext.Text(approval.Details(&approval.Request{Agent: "claude-code", Tool: "Bash", Action: approval.ActionRun, Command: ap.command}, auq.MaxPreviewLen))
		if got := b.text("#form-host .preview pre"); len(got) != 1 || got[0] != want {
			t.Errorf("%s: the command is shown as %d previews, the first %.300q; want it once, as %.300q", ap.name, len(got), got, want)
		}
		if i == 0 {
			b.narrow()
			b.safe(ap.name + " at 360 px")
		}
	}

	// A denial with a reason typed as markup, from the first.
	typed := `<img src=x onerror=alert(99)> & "quotes"`
	b.open(f, "#q="+all[0].q.ID)
	b.choose(0, "Deny")
	b.openNotes(0)
	b.write("Note on the question", typed)
	b.press("Send answer")
	if got := receive(t, all[0].out); got.Allowed() || got.Decision == nil || got.Decision.Reason != typed {
		t.Errorf("%s: the denial came back as %+v, want one with the reason %q", all[0].name, got, typed)
	}
	b.wait(`document.querySelector('#form-host .closed')`)
	b.safe("the approval, denied")
	// An allow, from the second.
	b.open(f, "#q="+all[1].q.ID)
	b.choose(0, "Allow once")
	b.press("Send answer")
	if got := receive(t, all[1].out); !got.Allowed() || got.Decision.Always != 0 {
		t.Errorf("%s: the allow came back as %+v", all[1].name, got)
	}
	b.wait(`document.querySelector('#form-host .closed')`)
	for _, ap := range all[2:] {
		if _, err := f.client.Dismiss(context.Background(), ap.q.ID, "test"); err != nil {
			t.Fatal(err)
		}
		if got := receive(t, ap.out); got.Allowed() {
			t.Errorf("%s: a dismissed approval = %+v", ap.name, got)
		}
	}
	b.clean()
}
