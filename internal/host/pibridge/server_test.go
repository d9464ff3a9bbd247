package pibridge

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"github.com/askuser/askuser/internal/host/pimirror"
	"github.com/askuser/askuser/internal/program"
	"github.com/askuser/askuser/internal/testkit"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// client drives Serve over pipes the way the shim does.
type client struct {
	t    *testing.T
	in   *io.PipeWriter
	msgs chan map[string]any
	done chan error
}

// ready starts a bridge and says hello, discarding the ready reply.
func ready(t *testing.T, hello map[string]any) *client {
	t.Helper()
	c := start(t)
	c.sendMsg(hello)
	c.next()
	return c
}

func start(t *testing.T) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, in: inW, msgs: make(chan map[string]any, 1024), done: make(chan error, 1)}
	go func() {
		err := Serve(context.Background(), inR, outW)
		outW.Close()
		c.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, MaxLine)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("the bridge wrote a line that is not JSON: %q", sc.Text())
				continue
			}
			c.msgs <- m
		}
		close(c.msgs)
	}()
	t.Cleanup(func() {
		c.in.Close()
		select {
		case <-c.done:
		case <-time.After(testkit.Patience(t)):
			t.Error("Serve did not return after stdin ended")
		}
	})
	return c
}

func (c *client) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

func (c *client) sendMsg(m map[string]any) {
	c.t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		c.t.Fatal(err)
	}
	c.send(string(b))
}

// next returns the next message, failing the test after a while.
func (c *client) next() map[string]any {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.t.Fatal("the bridge closed its output")
		}
		return m
	case <-time.After(testkit.Patience(c.t)):
		c.t.Fatal("timed out waiting for a message from the bridge")
	}
	return nil
}

// until collects messages up to and including the first of type typ.
func (c *client) until(typ string) []map[string]any {
	c.t.Helper()
	var got []map[string]any
	for {
		m := c.next()
		got = append(got, m)
		if m["type"] == typ {
			return got
		}
	}
}

func types(msgs []map[string]any) []string {
	var out []string
	for _, m := range msgs {
		s, _ := m["type"].(string)
		if s == typeEvent {
			s += " " + m["channel"].(string)
		}
		out = append(out, s)
	}
	return out
}

func hello(mode string, hasUI bool, ui map[string]bool, extra map[string]any) map[string]any {
	m := map[string]any{"type": "hello", "version": 1, "release": program.Release(), "mode": mode, "hasUI": hasUI, "ui": ui, "agentDir": "", "configFile": false}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

var (
	tuiUI = map[string]bool{"custom": true, "input": true, "select": true}
	rpcUI = map[string]bool{"custom": false, "input": true, "select": true}
)

func TestHelloReady(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "ask-user.json")
	if err := os.WriteFile(bad, []byte(`{"mode":"fancy"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		hello map[string]any
		want  map[string]any
	}{
		{"tui", hello("tui", true, tuiUI, nil), map[string]any{
			"type": "ready", "version": 1.0, "available": true,
			"support": map[string]any{"status": "available", "route": "custom", "source": "probed", "available": []any{"custom", "native"}},
		}},
		{"rpc", hello("rpc", true, rpcUI, nil), map[string]any{
			"type": "ready", "version": 1.0, "available": true,
			"support": map[string]any{"status": "available", "route": "native", "source": "probed", "available": []any{"native"}},
		}},
		{"configured native in tui", hello("tui", true, tuiUI, map[string]any{"options": map[string]any{"mode": "native"}}), map[string]any{
			"type": "ready", "version": 1.0, "available": true,
			"support": map[string]any{"status": "available", "route": "native", "source": "configured", "available": []any{"custom", "native"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := start(t)
			c.sendMsg(tt.hello)
			if diff := cmp.Diff(tt.want, c.next()); diff != "" {
				t.Errorf("ready (-want +got):\n%s", diff)
			}
		})
	}

	// Refusals: not available, with a reason that says why.
	refusals := []struct {
		name   string
		hello  map[string]any
		status string
		reason []string
	}{
		{"print", hello("print", false, map[string]bool{}, nil), "no_available_ui", []string{"print mode"}},
		{"bad option", hello("tui", true, tuiUI, map[string]any{"options": map[string]any{"overlayToggleKey": "alt+banana"}}), "invalid_config", []string{"overlayToggleKey", "banana"}},
		{"options not an object", hello("rpc", true, rpcUI, map[string]any{"options": "native"}), "invalid_config", []string{"options", "JSON object"}},
		{"bad config file", hello("rpc", true, rpcUI, map[string]any{"configFile": bad}), "invalid_config", []string{bad, "mode", "fancy"}},
		{"no agent dir", hello("rpc", true, rpcUI, map[string]any{"configFile": nil}), "invalid_config", []string{"configFile", "agent directory"}},
		{"bad configFile", hello("rpc", true, rpcUI, map[string]any{"configFile": true}), "invalid_config", []string{"configFile", "path or false"}},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			c := start(t)
			c.sendMsg(tt.hello)
			got := c.next()
			sup := got["support"].(map[string]any)
			if got["available"] != false || sup["status"] != tt.status {
				t.Fatalf("ready = %v, want unavailable with status %s", got, tt.status)
			}
			for _, w := range tt.reason {
				if !strings.Contains(got["reason"].(string), w) {
					t.Errorf("reason %q does not mention %q", got["reason"], w)
				}
			}
		})
	}
}

func TestVersionMismatchIsFatal(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	var out strings.Builder
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), inR, &out) }()
	io.WriteString(inW, `{"type":"hello","version":2,"mode":"tui"}`+"\n")
	err := <-done
	if !errors.Is(err, ErrVersion) {
		t.Fatalf("Serve = %v, want ErrVersion", err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out.String()), &m); err != nil || m["type"] != "fatal" || !strings.Contains(m["message"].(string), "protocol 2") {
		t.Errorf("output = %q, want a fatal message naming version 2", out.String())
	}
}

func TestBadLinesAreAnsweredAndSurvived(t *testing.T) {
	c := start(t)
	lines := []struct{ line, want string }{
		{"not json", "JSON object"},
		{`[1,2]`, "JSON object"},
		{`{"call":"c1"}`, `"type"`},
		{`{"type":"dance"}`, `unknown message type "dance"`},
		{`{"type":"ask"}`, `"call" id`},
		{`{"type":"explain","call":"x","result":"nope"}`, "explain: bad result"},
		{`{"type":"key","call":"nobody","key":"down"}`, ""}, // a late message is dropped quietly
		{`{"type":"try","call":"c1","keys":[{"key":"no-such-key"}]}`, `try: keys[0]: "no-such-key" is not a key`},
		{`{"type":"try","call":"c1","typing":[{"key":"down","text":"x"}]}`, "try: typing[0] must have a key or a text, not both"},
		{`{"type":"try","call":"c1","keys":[` + strings.Repeat(`{"key":"down"},`, 64) + `{"key":"up"}]}`, "try: keys has 65 keys; at most 64"},
		{strings.Repeat("x", MaxLine+10), "longer than"},
	}
	for _, l := range lines {
		c.send(l.line)
	}
	for _, l := range lines {
		if l.want == "" {
			continue
		}
		m := c.next()
		if m["type"] != "error" || !strings.Contains(m["message"].(string), l.want) {
			t.Errorf("after %.30q: got %v, want an error mentioning %q", l.line, m, l.want)
		}
	}
	c.sendMsg(hello("rpc", true, rpcUI, nil))
	if m := c.next(); m["type"] != "ready" {
		t.Fatalf("after bad lines: %v, want ready", m)
	}
}

const deploy = `{"allowFreeText":false,"questions":[{"title":"Deploy where?","options":[{"label":"staging"},{"label":"prod"}]}]}`

func sendAsk(c *client, call, params string, extra string) {
	c.t.Helper()
	c.send(`{"type":"ask","call":"` + call + `","callId":"tool-1","params":` + params + extra + `}`)
}

func result(t *testing.T, msgs []map[string]any) map[string]any {
	t.Helper()
	last := msgs[len(msgs)-1]
	if last["type"] != "result" {
		t.Fatalf("last message %v is not a result", last)
	}
	if s, _ := last["text"].(string); s == "" {
		t.Errorf("result has no text for the model: %v", last)
	}
	return last["result"].(map[string]any)
}

func TestAskBeforeHello(t *testing.T) {
	c := start(t)
	sendAsk(c, "c1", deploy, "")
	res := result(t, c.until("result"))
	if diff := cmp.Diff("not_initialized", res["error"].(map[string]any)["code"]); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// An ask that comes before the hello is answered at once, before the
// hello is handled, whatever comes right after it. Run with -race: the
// call must not read the host state the hello writes.
func TestAskThenHello(t *testing.T) {
	for range 20 {
		c := start(t)
		sendAsk(c, "c1", deploy, "")
		c.sendMsg(hello("tui", true, tuiUI, nil))
		msgs := []map[string]any{c.next(), c.next()}
		if diff := cmp.Diff([]string{"result", "ready"}, types(msgs)); diff != "" {
			t.Fatalf("messages (-want +got):\n%s", diff)
		}
		if got := result(t, msgs[:1])["error"].(map[string]any)["code"]; got != "not_initialized" {
			t.Errorf("code = %v, want not_initialized", got)
		}
	}
}

func TestRefusedAndInvalidCallsSendNoEvents(t *testing.T) {
	tests := []struct {
		name   string
		hello  map[string]any
		params string
		code   string
	}{
		{"invalid", hello("rpc", true, rpcUI, nil), `{"questions":[{"title":"x","kind":"single"}]}`, "invalid_request"},
		{"print mode", hello("print", false, map[string]bool{}, nil), deploy, "unsupported_mode"},
		{"bad options", hello("rpc", true, rpcUI, map[string]any{"options": map[string]any{"mode": "fancy"}}), deploy, "invalid_config"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ready(t, tt.hello)
			sendAsk(c, "c1", tt.params, "")
			msgs := c.until("result")
			if diff := cmp.Diff([]string{"result"}, types(msgs)); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			if got := result(t, msgs)["error"].(map[string]any)["code"]; got != tt.code {
				t.Errorf("code = %v, want %s", got, tt.code)
			}
		})
	}
}

func TestNativeRoute(t *testing.T) {
	tests := []struct {
		name  string
		extra string
		reply func(c *client, dialog map[string]any)
		types []string
		want  map[string]any
	}{
		{
			name: "answered",
			reply: func(c *client, d map[string]any) {
				c.sendMsg(map[string]any{"type": "reply", "call": "c1", "req": d["req"], "value": "prod"})
			},
			types: []string{"event herdr:blocked", "dialog", "event ask:answered", "event herdr:blocked", "result"},
			want: map[string]any{"status": "answered", "route": "native", "answers": []any{map[string]any{
				"index": 0.0, "id": "q1", "title": "Deploy where?", "kind": "single", "selections": []any{"prod"}, "usedDefault": false,
			}}},
		},
		{
			name: "dismissed",
			reply: func(c *client, d map[string]any) {
				c.sendMsg(map[string]any{"type": "reply", "call": "c1", "req": d["req"], "cancelled": true})
			},
			types: []string{"event herdr:blocked", "dialog", "event ask:aborted", "event herdr:blocked", "result"},
			want:  map[string]any{"status": "aborted", "route": "native", "answers": []any{}, "cancelledReason": "user"},
		},
		{
			name: "caller abort",
			reply: func(c *client, d map[string]any) {
				c.sendMsg(map[string]any{"type": "abort", "call": "c1"})
			},
			types: []string{"event herdr:blocked", "dialog", "dialog_cancel", "event ask:aborted", "event herdr:blocked", "result"},
			want:  map[string]any{"status": "aborted", "route": "native", "answers": []any{}, "cancelledReason": "abort"},
		},
		{
			name:  "already aborted",
			extra: `,"aborted":true`,
			types: []string{"result"},
			want:  map[string]any{"status": "aborted", "answers": []any{}, "cancelledReason": "abort"},
		},
		{
			name: "dialog failed",
			reply: func(c *client, d map[string]any) {
				c.sendMsg(map[string]any{"type": "reply", "call": "c1", "req": d["req"], "error": "client gone"})
			},
			types: []string{"event herdr:blocked", "dialog", "event ask:error", "event herdr:blocked", "result"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ready(t, hello("rpc", true, rpcUI, nil))
			sendAsk(c, "c1", deploy, tt.extra)
			var msgs []map[string]any
			if tt.reply != nil {
				msgs = c.until("dialog")
				d := msgs[len(msgs)-1]
				if d["method"] != "select" || d["title"] != "Deploy where?" || d["timeoutMs"].(float64) <= 0 {
					t.Errorf("dialog = %v, want a select with a timeout", d)
				}
				tt.reply(c, d)
			}
			msgs = append(msgs, c.until("result")...)
			res := result(t, msgs)
			if diff := cmp.Diff(tt.types, cancelLast(c, msgs, slices.Contains(tt.types, "dialog_cancel"))); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			if tt.want == nil {
				if res["error"].(map[string]any)["code"] != "native_ui_failed" {
					t.Errorf("result = %v, want native_ui_failed", res)
				}
				return
			}
			if diff := cmp.Diff(tt.want, res); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNativeTimeout(t *testing.T) {
	c := ready(t, hello("rpc", true, rpcUI, map[string]any{"options": map[string]any{"timeoutPerQuestionMs": 50}}))
	sendAsk(c, "c1", deploy, "")
	msgs := c.until("result")
	if diff := cmp.Diff([]string{"event herdr:blocked", "dialog", "dialog_cancel", "event ask:timeout", "event herdr:blocked", "result"}, cancelLast(c, msgs, true)); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if got := result(t, msgs)["status"]; got != "timeout" {
		t.Errorf("status = %v, want timeout", got)
	}
}

func TestEventsCarryNoContent(t *testing.T) {
	c := ready(t, hello("rpc", true, rpcUI, nil))
	sendAsk(c, "c1", deploy, "")
	msgs := c.until("dialog")
	c.sendMsg(map[string]any{"type": "reply", "call": "c1", "req": msgs[len(msgs)-1]["req"], "value": "prod"})
	msgs = append(msgs, c.until("result")...)
	var events []any
	for _, m := range msgs {
		if m["type"] == "event" {
			events = append(events, map[string]any{"channel": m["channel"], "payload": m["payload"]})
		}
	}
	want := []any{
		map[string]any{"channel": "herdr:blocked", "payload": map[string]any{"active": true, "label": "Waiting for user response", "callId": "tool-1"}},
		map[string]any{"channel": "ask:answered", "payload": map[string]any{"callId": "tool-1", "route": "native", "status": "answered"}},
		map[string]any{"channel": "herdr:blocked", "payload": map[string]any{"active": false, "callId": "tool-1"}},
	}
	if diff := cmp.Diff(want, events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestCustomRoute(t *testing.T) {
	c := ready(t, hello("tui", true, tuiUI, nil))
	sendAsk(c, "c1", deploy, "")
	msgs := c.until("open")
	open := msgs[len(msgs)-1]
	if diff := cmp.Diff(map[string]any{"type": "open", "call": "c1", "display": "overlay", "toggleKey": "alt+o"}, open); diff != "" {
		t.Errorf("open (-want +got):\n%s", diff)
	}
	c.sendMsg(map[string]any{"type": "resize", "call": "c1", "width": 30, "rows": 12})
	frame := c.until("frame")
	lines := frame[len(frame)-1]["lines"].([]any)
	if len(lines) == 0 || len(lines) > 12 {
		t.Fatalf("frame has %d lines, want 1 to 12", len(lines))
	}
	if !strings.Contains(strings.Join(strs(lines), "\n"), "Deploy where?") {
		t.Errorf("frame does not show the question:\n%s", strings.Join(strs(lines), "\n"))
	}
	c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": "down"})
	c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": "no-such-key"}) // dropped
	c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": "enter"})
	msgs = c.until("result")
	if got := types(msgs); slices.Index(got, "close") < 0 || slices.Index(got, "close") > slices.Index(got, "event ask:answered") {
		t.Errorf("messages %v: want close before the outcome events", got)
	}
	res := result(t, msgs)
	if diff := cmp.Diff([]any{"prod"}, res["answers"].([]any)[0].(map[string]any)["selections"]); diff != "" {
		t.Errorf("selections (-want +got):\n%s", diff)
	}
}

// TestKeyFrames checks that every key to an open component is answered
// by one frame, also a key the dialog does not know, which the shim
// waits for as it waits for any other.
func TestKeyFrames(t *testing.T) {
	c := ready(t, hello("tui", true, tuiUI, map[string]any{"options": map[string]any{"notify": quiet}}))
	sendAsk(c, "c1", deploy, "")
	c.until("open")
	c.sendMsg(map[string]any{"type": "resize", "call": "c1", "width": 30, "rows": 12})
	msgs := c.until("frame")
	first := msgs[len(msgs)-1]
	if _, patch := first["at"]; patch {
		t.Fatalf("the first frame is a patch: %v", first)
	}
	screen := strs(first["lines"].([]any))
	lastFrame := func() []string {
		t.Helper()
		msgs := c.until("frame")
		if got := types(msgs); len(got) != 1 {
			t.Fatalf("messages %v; want the frame alone", got)
		}
		screen = applyFrame(t, screen, msgs[0])
		return screen
	}
	c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": "alt+q"}) // stops the countdown
	lastFrame()
	c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": "down"})
	down := lastFrame()
	for _, key := range []map[string]any{
		{"type": "key", "call": "c1", "key": "no-such-key"},
		{"type": "key", "call": "c1", "key": ""},
		{"type": "key", "call": "c1"},
	} {
		c.sendMsg(key)
		if diff := cmp.Diff(down, lastFrame()); diff != "" {
			t.Errorf("after %v, the frame changed (-want +got):\n%s", key, diff)
		}
	}
	c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": "up"})
	if up := lastFrame(); cmp.Equal(down, up) {
		t.Errorf("up drew the same frame as down:\n%s", strings.Join(up, "\n"))
	}
	c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": "escape"})
	if got := types(c.until("result")); got[0] != "close" {
		t.Errorf("messages %v after escape; want close first", got)
	}
}

// applyFrame is what the shim does with a frame: a whole one replaces
// the lines, a patch changes the last ones.
func applyFrame(t *testing.T, last []string, m map[string]any) []string {
	t.Helper()
	lines := strs(m["lines"].([]any))
	at, patch := m["at"].(float64)
	if !patch {
		return lines
	}
	length, ok := m["length"].(float64)
	if !ok || int(at) > len(last) {
		t.Fatalf("a patch of %d lines at %v, length %v, for a frame of %d lines", len(lines), m["at"], m["length"], len(last))
	}
	out := append(slices.Clone(last[:int(at)]), lines...)
	if len(out) < len(last) {
		out = append(out, last[len(out):]...)
	}
	if int(length) > len(out) {
		t.Fatalf("a patch leaves %d lines, and says %v", len(out), length)
	}
	return out[:int(length)]
}

func TestCustomUIError(t *testing.T) {
	c := ready(t, hello("tui", true, tuiUI, nil))
	sendAsk(c, "c1", deploy, "")
	c.until("open")
	c.sendMsg(map[string]any{"type": "ui_error", "call": "c1", "message": "no room"})
	res := result(t, c.until("result"))
	e := res["error"].(map[string]any)
	if e["code"] != "custom_ui_failed" || !strings.Contains(e["message"].(string), "no room") {
		t.Errorf("result = %v, want custom_ui_failed naming the cause", res)
	}
}

func TestExplain(t *testing.T) {
	c := start(t)
	c.send(`{"type":"explain","call":"x1","params":` + deploy + `,"result":{"status":"error","route":"native","answers":[],"error":{"code":"native_ui_failed","message":"the process died"}}}`)
	m := c.next()
	text, _ := m["text"].(string)
	if m["type"] != "explained" || m["call"] != "x1" || !strings.Contains(text, "Deploy where?") || !strings.Contains(text, "ordinary text") {
		t.Errorf("explained = %v, want the questions and the advice to ask in text", m)
	}
}

func TestStdinEndAbortsRunningCalls(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), inR, outW); outW.Close() }()
	results := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			line := sc.Text()
			if strings.Contains(line, `"type":"dialog"`) {
				inW.Close()
			}
			if strings.Contains(line, `"type":"result"`) {
				results <- line
			}
		}
		close(results)
	}()
	io.WriteString(inW, `{"type":"hello","version":1,"release":"`+program.Release()+`","mode":"rpc","hasUI":true,"ui":{"input":true,"select":true},"configFile":false}`+"\n")
	io.WriteString(inW, `{"type":"ask","call":"c1","params":`+deploy+`}`+"\n")
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve = %v, want nil at the end of stdin", err)
		}
	case <-time.After(testkit.Patience(t)):
		t.Fatal("Serve did not return after stdin ended with a call running")
	}
	line := <-results
	if !strings.Contains(line, `"status":"aborted"`) || !strings.Contains(line, `"cancelledReason":"abort"`) {
		t.Errorf("the running call's result = %q, want aborted by the caller", line)
	}
}

// cancelLast returns the types of msgs, which end with a result, with a
// dialog_cancel put right after the dialog when cancelled is set. The
// engine settles a call without waiting for its renderer, so the
// renderer's dialog_cancel may come before or after the result; when it
// is not in msgs it must follow.
func cancelLast(c *client, msgs []map[string]any, cancelled bool) []string {
	c.t.Helper()
	got := types(msgs)
	if !cancelled {
		return got
	}
	if !slices.Contains(got, "dialog_cancel") {
		if m := c.next(); m["type"] != "dialog_cancel" {
			c.t.Errorf("after the result: %v, want the dialog_cancel", m)
		}
	}
	got = slices.DeleteFunc(got, func(s string) bool { return s == "dialog_cancel" })
	if i := slices.Index(got, "dialog"); i >= 0 {
		got = slices.Insert(got, i+1, "dialog_cancel")
	}
	return got
}

func strs(a []any) []string {
	out := make([]string, len(a))
	for i, v := range a {
		out[i], _ = v.(string)
	}
	return out
}

func TestExplainClosesTheDeadChildsWait(t *testing.T) {
	const result = `"result":{"status":"error","route":"custom","answers":[],"error":{"code":"custom_ui_failed","message":"the process died"}}`
	outcome := map[string]any{"channel": "ask:error", "payload": map[string]any{"callId": "tool-9", "route": "custom", "status": "error", "errorCode": "custom_ui_failed"}}
	closing := map[string]any{"channel": "herdr:blocked", "payload": map[string]any{"active": false, "callId": "tool-9"}}
	tests := []struct {
		name  string
		flags string
		want  any
	}{
		{"no wait open", ``, nil},
		{"wait open", `"blocked":true,`, []any{outcome, closing}},
		{"wait open, outcome sent", `"blocked":true,"outcome":true,`, []any{closing}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := start(t)
			c.send(`{"type":"explain","call":"x1","callId":"tool-9",` + tt.flags + `"params":` + deploy + `,` + result + `}`)
			m := c.next()
			if diff := cmp.Diff(tt.want, m["events"]); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNativeDialogTextIsSafe sends a questionnaire full of control
// sequences down the native route: Pi draws dialog text on its terminal as
// it is, so none may reach the shim raw, and a choice that is only shown
// neutralized still answers with the model's own label.
func TestNativeDialogTextIsSafe(t *testing.T) {
	hostile := `{"allowFreeText":false,"questions":[{"title":"Deploy\u001b]52;c;cm0gLXJmIC8=\u0007 where?\u001b[2J","prompt":"line\u009b6n","options":[{"label":"st\u001b[31mag\u001b[0ming"},{"label":"\u2400"},{"label":"\u0000"}]}]}`
	c := ready(t, hello("rpc", true, rpcUI, nil))
	sendAsk(c, "c1", hostile, "")
	msgs := c.until("dialog")
	d := msgs[len(msgs)-1]
	raw, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	text = append(text, d["title"].(string))
	for _, o := range d["options"].([]any) {
		text = append(text, o.(string))
	}
	for _, s := range text {
		for _, r := range s {
			if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f {
				t.Errorf("dialog text %q holds control character %U; the dialog: %s", s, r, raw)
			}
		}
	}
	// "\u2400" and "\u0000" look alike once neutralized, so every choice is
	// numbered; the reply names the shown choice, the answer the label.
	opts := d["options"].([]any)
	if len(opts) != 3 || !strings.HasPrefix(opts[0].(string), "1. ") {
		t.Fatalf("options = %q, want three numbered choices", opts)
	}
	c.sendMsg(map[string]any{"type": "reply", "call": "c1", "req": d["req"], "value": opts[2]})
	res := result(t, c.until("result"))
	sel := res["answers"].([]any)[0].(map[string]any)["selections"]
	if diff := cmp.Diff([]any{"\x00"}, sel); diff != "" {
		t.Errorf("selections (-want +got):\n%s", diff)
	}
}

// lineFeed is a stdin whose lines the test hands over one at a time.
type lineFeed struct {
	lines chan string
	rest  []byte
}

func (f *lineFeed) Read(p []byte) (int, error) {
	if len(f.rest) == 0 {
		l, ok := <-f.lines
		if !ok {
			return 0, io.EOF
		}
		f.rest = []byte(l + "\n")
	}
	n := copy(p, f.rest)
	f.rest = f.rest[n:]
	return n, nil
}

// A signal ends Serve while its read loop may be handling an ask. The
// call then either runs and has its result written before Serve returns,
// or never starts: a result written later is lost, as the process exits.
// Run with -race, which also checks that no call is added to the wait
// group while Serve waits on it.
func TestSignalLosesNoResult(t *testing.T) {
	const rounds = 200 // the signal lands in the handling of the ask about half the time
	for range rounds {
		synctest.Test(t, func(t *testing.T) {
			in := &lineFeed{lines: make(chan string)}
			var out testkit.Buffer
			ctx, signal := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() { done <- Serve(ctx, in, &out) }()
			in.lines <- `{"type":"hello","version":1,"release":"` + program.Release() + `","mode":"rpc","hasUI":true,"ui":{"input":true,"select":true},"configFile":false}`
			synctest.Wait()
			in.lines <- `{"type":"ask","call":"c1","params":` + deploy + `}`
			signal()
			if err := <-done; err != nil {
				t.Errorf("Serve = %v, want nil after a signal", err)
			}
			returned := out.String()
			close(in.lines)
			synctest.Wait()
			if got := out.String(); got != returned {
				t.Fatalf("the bridge wrote after Serve returned:\n%s", got[len(returned):])
			}
		})
	}
}

// TestCustomRouteMirror checks that a hello with "mirror" makes every
// open carry the dialog's Spec, and that the copy made from it draws the
// child's frames.
func TestCustomRouteMirror(t *testing.T) {
	theme := map[string]any{"accent": map[string]any{"prefix": "\x1b[35m", "suffix": "\x1b[39m"}}
	c := ready(t, hello("tui", true, tuiUI, map[string]any{"mirror": true, "theme": theme}))
	sendAsk(c, "c1", deploy, "")
	msgs := c.until("open")
	raw, err := json.Marshal(msgs[len(msgs)-1]["mirror"])
	if err != nil {
		t.Fatal(err)
	}
	var spec pimirror.Spec
	if err := json.Unmarshal(raw, &spec); err != nil || spec.Dialog != pimirror.DialogAskUser {
		t.Fatalf("the open's mirror %s: %v", raw, err)
	}
	x, err := pimirror.New(&spec)
	if err != nil {
		t.Fatal(err)
	}
	lines := func(m map[string]any) []string {
		var out []string
		for _, l := range m["lines"].([]any) {
			out = append(out, l.(string))
		}
		return out
	}
	c.sendMsg(map[string]any{"type": "resize", "call": "c1", "width": 60, "rows": 20})
	frames := c.until("frame")
	child := lines(frames[len(frames)-1])
	mine, err := x.Resize(60, 20)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(child, mine.Lines); diff != "" {
		t.Errorf("the first frame (-child +copy):\n%s", diff)
	}
	c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": "down"})
	frames = c.until("frame")
	patch := frames[len(frames)-1]
	at, length, got := int(patch["at"].(float64)), int(patch["length"].(float64)), lines(patch)
	next := append(append([]string{}, child[:at]...), got...)
	if at+len(got) < len(child) {
		next = append(next, child[at+len(got):]...)
	}
	child = next[:length]
	mine, _, err = x.Key("down", "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(child, mine.Lines); diff != "" {
		t.Errorf("the frame after down (-child +copy):\n%s", diff)
	}
	if patch["tick"] != nil {
		t.Errorf("a key's frame is marked as a tick: %v", patch)
	}
	c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": "escape"})
	c.until("result")
}

// TestTriesAhead checks that, once the shim names the keys it wants
// ahead, every frame the bridge sends is followed by the frames those
// keys would bring, and that each is the frame the key then brings: in a
// list of options (keys) and in a text input (typing). A key that ends
// the dialog has no frame ahead.
func TestTriesAhead(t *testing.T) {
	tests := []struct {
		name    string
		params  string
		keys    []map[string]any // the keys given in turn, each tried first
		untried []string         // keys tried that must have no frame
	}{
		{
			name:    "options",
			params:  deploy,
			keys:    []map[string]any{{"key": "down"}, {"key": "up"}, {"text": " "}, {"key": "tab"}},
			untried: []string{"escape"},
		},
		{
			name:    "text input",
			params:  `{"questions":[{"title":"Name it","kind":"input"}]}`,
			keys:    []map[string]any{{"text": "e"}, {"text": "t"}, {"key": "backspace"}, {"key": "left"}, {"text": "E"}},
			untried: []string{"escape"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ready(t, hello("tui", true, tuiUI, map[string]any{"options": map[string]any{"notify": quiet}}))
			sendAsk(c, "c1", tt.params, "")
			c.until("open")
			c.sendMsg(map[string]any{"type": "resize", "call": "c1", "width": 40, "rows": 14})
			screen := applyFrame(t, nil, last(c.until("frame")))
			c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": "alt+q"}) // no ticks from here on
			screen = applyFrame(t, screen, last(c.until("frame")))
			list := append(slices.Clone(tt.keys), map[string]any{"key": "escape"})
			c.sendMsg(map[string]any{"type": "try", "call": "c1", "keys": list, "typing": list})
			for _, k := range tt.keys {
				tries := last(c.until("tries"))
				ahead := map[string][]string{}
				for _, f := range tries["frames"].([]any) {
					f := f.(map[string]any)
					id, _ := f["key"].(string)
					if text, ok := f["text"].(string); ok {
						id = "text " + text
					}
					ahead[id] = applyFrame(t, screen, f)
				}
				for _, name := range tt.untried {
					if _, ok := ahead[name]; ok {
						t.Errorf("%s, which ends the dialog, was drawn ahead", name)
					}
				}
				id, _ := k["key"].(string)
				if text, ok := k["text"].(string); ok {
					id = "text " + text
				}
				want, ok := ahead[id]
				if !ok {
					t.Fatalf("no frame ahead for %s among %d", id, len(ahead))
				}
				c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": k["key"], "text": k["text"]})
				msgs := c.until("frame")
				screen = applyFrame(t, screen, last(msgs))
				if diff := cmp.Diff(want, screen); diff != "" {
					t.Errorf("%s: the frame ahead is not the key's (-ahead +key):\n%s", id, diff)
				}
			}
			// An empty try stops them: the next key's frame comes alone.
			c.sendMsg(map[string]any{"type": "try", "call": "c1"})
			c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": "down"})
			c.until("frame")
			c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": "escape"})
			if got := types(c.until("result")); slices.Contains(got, "tries") {
				t.Errorf("after an empty try, tries came: %v", got)
			}
		})
	}
}

func last(msgs []map[string]any) map[string]any { return msgs[len(msgs)-1] }
