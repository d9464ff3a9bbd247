package pibridge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const framework = `{"questions":[{"id":"fw","question":"Which framework?","header":"Framework","options":[` +
	`{"id":"react","label":"React","description":"Component library","preview":"Broad ecosystem."},` +
	`{"id":"vue","label":"Vue","description":"Progressive","recommended":true}]}],"metadata":{"source":"plan","flowId":"f-1","tags":["x"]}}`

var auqHello = map[string]any{"tool": "AskUserQuestion"}

func progressOf(msgs []map[string]any) []string {
	var out []string
	for _, m := range msgs {
		if m["type"] == "progress" {
			out = append(out, m["milestone"].(string))
		}
	}
	return out
}

func TestQuestionsCustomRoute(t *testing.T) {
	tests := []struct {
		name      string
		keys      []map[string]any
		want      map[string]any
		progress  []string
		terminate bool
		text      string
	}{
		{
			name: "the focused recommended option with a note",
			keys: []map[string]any{{"text": "n"}, {"text": "fast"}, {"key": "enter"}, {"key": "enter"}},
			want: map[string]any{"cancelled": false,
				"answers":     map[string]any{"fw": map[string]any{"kind": "single", "optionId": "vue", "label": "Vue"}},
				"annotations": map[string]any{"fw": map[string]any{"optionNotes": map[string]any{"vue": "fast"}}},
				"metadata":    map[string]any{"source": "plan", "flowId": "f-1"}},
			progress: []string{"dialog_opened", "question_answered", "submitted"},
			text:     `"optionNotes":{"vue":"fast"}`,
		},
		{
			name: "an Other answer",
			keys: []map[string]any{{"text": "o"}, {"text": "Svelte"}, {"key": "enter"}},
			want: map[string]any{"cancelled": false,
				"answers":  map[string]any{"fw": map[string]any{"kind": "single", "label": "Other", "other": true, "text": "Svelte"}},
				"metadata": map[string]any{"source": "plan", "flowId": "f-1"}},
			progress: []string{"dialog_opened", "question_answered", "submitted"},
			text:     `"text":"Svelte"`,
		},
		{
			name:      "dismissed with ctrl+c",
			keys:      []map[string]any{{"key": "ctrl+c"}},
			want:      map[string]any{"cancelled": true, "metadata": map[string]any{"source": "plan", "flowId": "f-1"}},
			progress:  []string{"dialog_opened", "dismissed"},
			terminate: true,
			text:      "End your turn",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ready(t, hello("tui", true, tuiUI, auqHello))
			sendAsk(c, "c1", framework, "")
			msgs := c.until("open")
			if diff := cmp.Diff(map[string]any{"type": "open", "call": "c1", "display": "overlay", "toggleKey": "ctrl+shift+q",
				"hiddenStatus": hiddenStatus, "hideWorking": true}, msgs[len(msgs)-1]); diff != "" {
				t.Errorf("open (-want +got):\n%s", diff)
			}
			c.sendMsg(map[string]any{"type": "resize", "call": "c1", "width": 100, "rows": 30})
			msgs = append(msgs, c.until("frame")...)
			lines := strings.Join(strs(msgs[len(msgs)-1]["lines"].([]any)), "\n")
			for _, want := range []string{"Which framework?", "navigate", "select", "enter"} {
				if !strings.Contains(lines, want) {
					t.Errorf("the first frame lacks %q:\n%s", want, lines)
				}
			}
			for _, k := range tt.keys {
				k["type"], k["call"] = "key", "c1"
				c.sendMsg(k)
			}
			msgs = append(msgs, c.until("result")...)
			last := msgs[len(msgs)-1]
			if diff := cmp.Diff(tt.want, last["result"]); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if got := last["terminate"] == true; got != tt.terminate {
				t.Errorf("terminate = %v, want %v", got, tt.terminate)
			}
			if text := last["text"].(string); !strings.Contains(text, tt.text) {
				t.Errorf("text lacks %q:\n%s", tt.text, text)
			}
			if diff := cmp.Diff(tt.progress, progressOf(msgs)); diff != "" {
				t.Errorf("milestones (-want +got):\n%s", diff)
			}
		})
	}
}

func TestQuestionsAbortEndsTheDialog(t *testing.T) {
	c := ready(t, hello("tui", true, tuiUI, auqHello))
	sendAsk(c, "c1", framework, "")
	c.until("open")
	c.sendMsg(map[string]any{"type": "abort", "call": "c1"})
	msgs := c.until("result")
	last := msgs[len(msgs)-1]
	if !strings.Contains(strings.Join(types(msgs), ","), "close") {
		c.until("close")
	}
	if last["result"].(map[string]any)["cancelled"] != true || last["terminate"] == true {
		t.Errorf("abort: %v; want cancelled, not terminate", last)
	}
	if !strings.Contains(last["text"].(string), "aborted") {
		t.Errorf("text does not say it was aborted: %s", last["text"])
	}
}

func TestQuestionsRefused(t *testing.T) {
	tests := []struct {
		name, mode, params, code, text string
		ui                             map[string]bool
		hasUI                          bool
	}{
		{"print mode", "print", framework, "unsupported_mode", "ordinary text", map[string]bool{}, false},
		{"invalid request", "tui", `{"questions":[{"id":"q","question":"No mark","header":"H","options":[]}]}`, "invalid_request", "questions[0]", tuiUI, true},
		{"rpc without select", "rpc", framework, "unsupported_mode", "ordinary text", map[string]bool{"input": true}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ready(t, hello(tt.mode, tt.hasUI, tt.ui, auqHello))
			sendAsk(c, "c1", tt.params, "")
			msgs := c.until("result")
			if got := types(msgs); len(got) != 1 {
				t.Errorf("messages %v: a refused call sends its result only", got)
			}
			last := msgs[0]
			res := last["result"].(map[string]any)
			if res["cancelled"] != true || res["error"].(map[string]any)["code"] != tt.code {
				t.Errorf("result %v, want cancelled with code %s", res, tt.code)
			}
			if text := last["text"].(string); !strings.Contains(text, tt.text) {
				t.Errorf("text lacks %q:\n%s", tt.text, text)
			}
		})
	}
}

func TestQuestionsToolMustMatchTheConfig(t *testing.T) {
	tests := []struct {
		name, file, tool string
		available        bool
	}{
		{"the config chooses AskUserQuestion", `{"tool":"AskUserQuestion"}`, "AskUserQuestion", true},
		{"the config chooses ask_user", `{"tool":"ask_user"}`, "AskUserQuestion", false},
		{"ask_user registered, the config chooses AskUserQuestion", `{"tool":"AskUserQuestion"}`, "", false},
		{"no choice in the config", `{}`, "AskUserQuestion", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "ask-user.json"), []byte(tt.file), 0o600); err != nil {
				t.Fatal(err)
			}
			extra := map[string]any{"agentDir": dir, "configFile": nil}
			if tt.tool != "" {
				extra["tool"] = tt.tool
			}
			c := start(t)
			c.sendMsg(hello("tui", true, tuiUI, extra))
			r := c.next()
			if r["available"] != tt.available {
				t.Fatalf("ready %v: want available %v", r, tt.available)
			}
			if !tt.available && !strings.Contains(r["reason"].(string), "start a new session") {
				t.Errorf("reason %q does not say what to do", r["reason"])
			}
		})
	}
}

func TestQuestionsUnknownToolInHello(t *testing.T) {
	c := start(t)
	c.sendMsg(hello("tui", true, tuiUI, map[string]any{"tool": "ask_everyone"}))
	m := c.next()
	if m["type"] != "error" || !strings.Contains(m["message"].(string), `"ask_everyone"`) {
		t.Errorf("got %v, want an error naming the tool", m)
	}
}

// TestQuestionsNativeRoute answers through Pi's select and input
// dialogs: an option note, a question note, an Other text on a
// multi-select question, a skipped optional question and the review.
func TestQuestionsNativeRoute(t *testing.T) {
	params := `{"questions":[` +
		`{"id":"db","question":"Which database?","header":"Database","options":[{"id":"pg","label":"Postgres","description":"Relational","recommended":true},{"id":"lite","label":"SQLite","description":"Embedded"}]},` +
		`{"id":"feat","question":"Which features?","header":"Features","multiSelect":true,"options":[{"id":"auth","label":"Auth","description":"Log in"},{"id":"pay","label":"Payments","description":"Cards"}]},` +
		`{"id":"ci","question":"Which CI?","header":"CI","required":false,"options":[{"id":"gh","label":"GitHub","description":"Actions"},{"id":"gl","label":"GitLab","description":"Pipelines"}]}` +
		`],"metadata":{"flowId":"f-2"}}`
	c := ready(t, hello("rpc", true, rpcUI, auqHello))
	sendAsk(c, "c1", params, "")
	var all []map[string]any
	dialog := func(method string) map[string]any {
		t.Helper()
		msgs := c.until("dialog")
		all = append(all, msgs...)
		d := msgs[len(msgs)-1]
		if d["method"] != method {
			t.Fatalf("dialog %v, want a %s", d, method)
		}
		return d
	}
	reply := func(d map[string]any, value string) {
		c.sendMsg(map[string]any{"type": "reply", "call": "c1", "req": d["req"], "value": value})
	}
	choose := func(want string) {
		t.Helper()
		d := dialog("select")
		for _, o := range d["options"].([]any) {
			if strings.HasPrefix(o.(string), want) {
				reply(d, o.(string))
				return
			}
		}
		t.Fatalf("select %q has no choice %q: %v", d["title"], want, d["options"])
	}
	// Database: a note on Postgres, a note on the question, then Postgres.
	d := dialog("select")
	if diff := cmp.Diff([]any{"Postgres (recommended) — Relational", "SQLite — Embedded", "Other…", "Add a note…"}, d["options"]); diff != "" {
		t.Errorf("options (-want +got):\n%s", diff)
	}
	reply(d, "Add a note…")
	choose("Option: Postgres")
	reply(dialog("input"), "  managed please ")
	choose("Add a note…")
	choose("This question")
	reply(dialog("input"), "for prod")
	choose("Postgres")
	// Features: Auth ticked, and an Other text.
	choose("[ ] Auth")
	choose("[ ] Other…")
	reply(dialog("input"), "Search")
	choose("Done")
	// CI: skipped.
	choose("Skip")
	// Review, then submit.
	d = dialog("select")
	if !strings.Contains(d["title"].(string), "Features: Auth, Other: Search") || !strings.Contains(d["title"].(string), "CI: (no answer)") {
		t.Errorf("review title %q", d["title"])
	}
	reply(d, "Submit")
	msgs := c.until("result")
	all = append(all, msgs...)
	last := msgs[len(msgs)-1]
	want := map[string]any{"cancelled": false,
		"answers": map[string]any{
			"db":   map[string]any{"kind": "single", "optionId": "pg", "label": "Postgres"},
			"feat": map[string]any{"kind": "multi", "empty": false, "selections": []any{map[string]any{"optionId": "auth", "label": "Auth"}, map[string]any{"label": "Other", "other": true, "text": "Search"}}},
		},
		"annotations": map[string]any{"db": map[string]any{"questionNotes": "for prod", "optionNotes": map[string]any{"pg": "managed please"}}},
		"metadata":    map[string]any{"flowId": "f-2"}}
	if diff := cmp.Diff(want, last["result"]); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"dialog_opened", "question_answered", "question_answered", "review_ready", "submitted"}, progressOf(all)); diff != "" {
		t.Errorf("milestones (-want +got):\n%s", diff)
	}
}

func TestQuestionsNativeDismissAndEmptyMulti(t *testing.T) {
	params := `{"questions":[{"id":"feat","question":"Which features?","header":"Features","multiSelect":true,"options":[{"id":"auth","label":"Auth","description":"Log in"},{"id":"pay","label":"Payments","description":"Cards"}]}]}`
	t.Run("empty needs Done twice", func(t *testing.T) {
		c := ready(t, hello("rpc", true, rpcUI, auqHello))
		sendAsk(c, "c1", params, "")
		d := c.until("dialog")
		c.sendMsg(map[string]any{"type": "reply", "call": "c1", "req": d[len(d)-1]["req"], "value": "Done"})
		d = c.until("dialog")
		if title := d[len(d)-1]["title"].(string); !strings.Contains(title, "Done again") {
			t.Errorf("second list's title %q does not warn", title)
		}
		c.sendMsg(map[string]any{"type": "reply", "call": "c1", "req": d[len(d)-1]["req"], "value": "Done"})
		msgs := c.until("result")
		got := msgs[len(msgs)-1]["result"].(map[string]any)["answers"]
		if diff := cmp.Diff(map[string]any{"feat": map[string]any{"kind": "multi", "empty": true, "selections": []any{}}}, got); diff != "" {
			t.Errorf("answers (-want +got):\n%s", diff)
		}
	})
	t.Run("dismissed", func(t *testing.T) {
		c := ready(t, hello("rpc", true, rpcUI, auqHello))
		sendAsk(c, "c1", params, "")
		d := c.until("dialog")
		c.sendMsg(map[string]any{"type": "reply", "call": "c1", "req": d[len(d)-1]["req"], "cancelled": true})
		msgs := append(d, c.until("result")...)
		last := msgs[len(msgs)-1]
		if last["terminate"] != true || last["result"].(map[string]any)["cancelled"] != true {
			t.Errorf("dismissal %v: want cancelled and terminate", last)
		}
		if diff := cmp.Diff([]string{"dialog_opened", "dismissed"}, progressOf(msgs)); diff != "" {
			t.Errorf("milestones (-want +got):\n%s", diff)
		}
	})
}

// TestQuestionsNativeTextIsSafe: the model's text reaches Pi's dialogs
// without a control sequence.
func TestQuestionsNativeTextIsSafe(t *testing.T) {
	params := `{"questions":[{"id":"q","question":"Pick \u001b[2J\u001b]0;pwned\u0007one?","header":"H\u001b[31m","options":[` +
		`{"id":"a","label":"A\u001b[1m","description":"d\u009b1m"},{"id":"b","label":"B","description":"e\r\nf"}]}]}`
	c := ready(t, hello("rpc", true, rpcUI, auqHello))
	sendAsk(c, "c1", params, "")
	msgs := c.until("dialog")
	d := msgs[len(msgs)-1]
	all := d["title"].(string) + strings.Join(strs(d["options"].([]any)), "")
	for _, r := range all {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r < 0xa0) {
			t.Fatalf("a control character %U reaches Pi: %q", r, all)
		}
	}
	c.sendMsg(map[string]any{"type": "reply", "call": "c1", "req": d["req"], "value": d["options"].([]any)[0]})
	res := result(t, c.until("result"))
	if diff := cmp.Diff(map[string]any{"kind": "single", "optionId": "a", "label": "A\x1b[1m"}, res["answers"].(map[string]any)["q"]); diff != "" {
		t.Errorf("the answer keeps the model's label as sent (-want +got):\n%s", diff)
	}
}
