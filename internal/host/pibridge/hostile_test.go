package pibridge

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// nested returns n opening brackets, a value and n closing ones.
func nested(n int) string {
	return strings.Repeat("[", n) + "1" + strings.Repeat("]", n)
}

// hostileLines are lines a broken or hostile writer may send, each with
// what the error line must say. A custom-route call "c1" is running.
var hostileLines = []struct {
	name, line, want string
}{
	{"truncated", `{"type":"resize","call":"c1","width":40`, "bad message: unexpected end of JSON input"},
	{"missing value", `{"type":"resize","call":}`, "bad message: invalid character '}'"},
	{"bare string", `"resize"`, "a message must be a JSON object"},
	{"empty object", `{}`, `a message must have a "type"`},
	{"empty line", ``, "a message must be a JSON object"},
	{"trailing data", `{"type":"resize","call":"c1","width":40,"rows":10} {}`, "bad message: invalid character '{' after top-level value"},
	{"10 MB line", `{"type":"key","call":"c1","text":"` + strings.Repeat("x", 10<<20) + `"}`, "line longer than 1048576 bytes"},
	{"line one byte over", `{"type":"key","call":"c1","text":"` + strings.Repeat("x", MaxLine-34) + `"}`, "line longer than 1048576 bytes"},
	{"100,000 nested brackets", nested(100_000), "a message must be a JSON object"},
	{"100,000 nested brackets in a member", `{"type":"key","call":"c1","x":` + nested(100_000) + `}`, "exceeded max depth"},
	{"100,000 nested objects", strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000), "exceeded max depth"},
	{"nested deeply in the envelope", `{"type":"key","call":"c1","x":` + nested(20) + `}`, `"x[0][0][0][0][0][0][0]": nested deeper than 8 levels`},
	{"NUL in a string", "{\"type\":\"key\x00\",\"call\":\"c1\"}", `invalid character '\x00' in string literal`},
	{"NUL after the object", "{\"type\":\"key\",\"call\":\"c1\"}\x00", `invalid character '\x00' after top-level value`},
	{"escaped NUL type", `{"type":"\u0000"}`, `unknown message type "\x00"`},
	{"invalid UTF-8", "{\"type\":\"key\",\"call\":\"c1\",\"text\":\"a\xffb\"}", "not valid UTF-8 at byte 35"},
	{"overlong UTF-8", "{\"type\":\"key\",\"call\":\"c1\",\"text\":\"\xc0\xaf\"}", "not valid UTF-8 at byte 34"},
	{"lone high surrogate", `{"type":"key","call":"c1","text":"a\ud800b"}`, `"text": an unpaired surrogate escape at byte 2`},
	{"lone low surrogate", `{"type":"key","call":"c1","text":"\udc00"}`, `"text": an unpaired surrogate escape at byte 1`},
	{"reversed pair", `{"type":"key","call":"c1","text":"\udc00\ud800"}`, `"text": an unpaired surrogate escape`},
	{"surrogate in the call id", `{"type":"key","call":"c\ud83d","key":"down"}`, `"call": an unpaired surrogate escape`},
	{"duplicate type", `{"type":"key","type":"resize","call":"c1","width":40,"rows":10}`, `message: duplicate key "type"`},
	{"duplicate call", `{"type":"key","call":"c1","call":"c2","key":"down"}`, `message: duplicate key "call"`},
	{"duplicate in a nested object", `{"type":"key","call":"c1","ui":{"custom":true,"custom":false}}`, `"ui": duplicate key "custom"`},
	{"width over the limit", `{"type":"resize","call":"c1","width":10001,"rows":10}`, "resize: width 10001 is out of range; a terminal has 1 to 10000 columns"},
	{"rows of 2^31-1", `{"type":"resize","call":"c1","width":40,"rows":2147483647}`, "resize: rows 2147483647 is out of range; a terminal has 1 to 10000 rows"},
	{"width of 2^63-1", `{"type":"resize","call":"c1","width":9223372036854775807,"rows":10}`, "resize: width 9223372036854775807 is out of range"},
	{"width past int64", `{"type":"resize","call":"c1","width":9223372036854775808,"rows":10}`, "cannot unmarshal number 9223372036854775808 into Go struct field inMsg.width of type int"},
	{"width 1e400", `{"type":"resize","call":"c1","width":1e400,"rows":10}`, "cannot unmarshal number 1e400 into Go struct field inMsg.width of type int"},
	{"rows 1e-400", `{"type":"resize","call":"c1","width":40,"rows":1e-400}`, "cannot unmarshal number 1e-400 into Go struct field inMsg.rows of type int"},
	{"width 1.0", `{"type":"resize","call":"c1","width":1.0,"rows":10}`, "cannot unmarshal number 1.0 into Go struct field inMsg.width of type int"},
	{"width -0", `{"type":"resize","call":"c1","width":-0,"rows":10}`, "resize: width 0 is out of range"},
	{"negative rows", `{"type":"resize","call":"c1","width":40,"rows":-1}`, "resize: rows -1 is out of range"},
	{"no size", `{"type":"resize","call":"c1"}`, "resize: width 0 is out of range"},
	{"many digits", `{"type":"resize","call":"c1","width":` + strings.Repeat("9", 1000) + `,"rows":10}`, "cannot unmarshal number 9999"},
	{"req past int64", `{"type":"reply","call":"c1","req":1e19}`, "cannot unmarshal number 1e19 into Go struct field inMsg.req of type int"},
	{"call id a number", `{"type":"key","call":1e400,"key":"down"}`, "cannot unmarshal number into Go struct field inMsg.call of type string"},
	{"version a huge exponent", `{"type":"hello","version":1.5e-9223372036854775808}`, "cannot unmarshal number 1.5e-9223372036854775808 into Go struct field inMsg.version of type int"},
	{"type an object", `{"type":{"a":1}}`, "cannot unmarshal object into Go struct field inMsg.type of type string"},
	{"second hello", `{"type":"hello","version":1}`, "hello was already received"},
	{"ask running", `{"type":"ask","call":"c1","params":{}}`, `call "c1" is already running`},
}

// TestHostileLines sends each hostile line to a bridge with a dialog
// open. Each gets its error line, and the bridge still answers: the
// resize after it is drawn.
func TestHostileLines(t *testing.T) {
	c := ready(t, hello("tui", true, tuiUI, map[string]any{"options": map[string]any{"timeoutPerQuestionMs": 0, "notify": quiet}}))
	sendAsk(c, "c1", deploy, "")
	c.until("open")
	const resize = `{"type":"resize","call":"c1","width":40,"rows":10}`
	c.send(resize)
	c.until("frame")
	for _, tt := range hostileLines {
		c.send(tt.line)
		m := c.next()
		msg, _ := m["message"].(string)
		if m["type"] != "error" || !strings.Contains(msg, tt.want) {
			t.Errorf("%s: got %.300v; want an error saying %q", tt.name, m, tt.want)
		}
		c.send(resize)
		if m := c.next(); m["type"] != "frame" {
			t.Fatalf("%s: after it, a resize got %.300v; want a frame", tt.name, m)
		}
	}
	c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": "esc"})
	if res := result(t, c.until("result")); res["status"] != "aborted" {
		t.Errorf("result %v; want aborted by the user", res)
	}
}

// A line over the limit is answered also when stdin ends before its
// newline, and a short last line without one is still read.
func TestLastLineWithoutNewline(t *testing.T) {
	tests := []struct{ name, last, want string }{
		{"over the limit", strings.Repeat("x", 10<<20), "line longer than 1048576 bytes"},
		{"short", `{"type":"dance"}`, `unknown message type "dance"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := start(t)
			if _, err := io.WriteString(c.in, tt.last); err != nil {
				t.Fatal(err)
			}
			c.in.Close()
			m := c.next()
			if msg, _ := m["message"].(string); m["type"] != "error" || !strings.Contains(msg, tt.want) {
				t.Errorf("got %.300v; want an error saying %q", m, tt.want)
			}
			if err := <-c.done; err != nil {
				t.Errorf("Serve = %v; want nil at the end of stdin", err)
			}
			c.done <- nil // for the cleanup
		})
	}
}

// A flood of keys, of bad lines and of asks is answered line by line,
// and the bridge still answers after it.
func TestFlood(t *testing.T) {
	const n = 20_000
	t.Run("keys and bad lines", func(t *testing.T) {
		c := ready(t, hello("tui", true, tuiUI, map[string]any{"options": map[string]any{"timeoutPerQuestionMs": 0, "notify": quiet}}))
		sendAsk(c, "c1", deploy, "")
		c.until("open")
		c.send(`{"type":"resize","call":"c1","width":40,"rows":10}`)
		c.until("frame")
		go func() {
			for i := range n {
				if i%2 == 0 {
					io.WriteString(c.in, `{"type":"key","call":"c1","key":"down"}`+"\n")
				} else {
					io.WriteString(c.in, "not json\n")
				}
			}
		}()
		counts := map[string]int{}
		for range n {
			counts[c.next()["type"].(string)]++
		}
		if counts["frame"] != n/2 || counts["error"] != n/2 {
			t.Errorf("answers %v; want %d frames and %d errors", counts, n/2, n/2)
		}
		c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": "esc"})
		result(t, c.until("result"))
	})
	t.Run("concurrent asks", func(t *testing.T) {
		const asks = 2_000
		c := ready(t, hello("print", false, map[string]bool{}, nil))
		go func() {
			for i := range asks {
				io.WriteString(c.in, fmt.Sprintf(`{"type":"ask","call":"c%d","params":%s}`+"\n", i, deploy))
			}
		}()
		seen := map[string]bool{}
		for range asks {
			m := c.next()
			if m["type"] != "result" || seen[m["call"].(string)] {
				t.Fatalf("got %.200v; want one result per call", m)
			}
			seen[m["call"].(string)] = true
		}
		c.send(`{"type":"dance"}`)
		if m := c.next(); m["type"] != "error" {
			t.Errorf("after the flood: %v; want an error", m)
		}
	})
}

// Asks beyond MaxCalls are refused at once with an internal error that
// names the limit (the contracts' codes are a closed set); the
// running ones go on, and all of them get their result when stdin ends.
func TestMaxCalls(t *testing.T) {
	tests := []struct{ tool, params string }{
		{"ask_user", deploy},
		{"AskUserQuestion", framework},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			c := ready(t, hello("tui", true, tuiUI, map[string]any{"tool": tt.tool, "options": map[string]any{"timeoutPerQuestionMs": 0}}))
			for i := range MaxCalls {
				sendAsk(c, fmt.Sprintf("c%d", i), tt.params, "")
			}
			sendAsk(c, "over", tt.params, "")
			for {
				m := c.next()
				if m["type"] != "result" {
					continue
				}
				if m["call"] != "over" {
					t.Fatalf("a running call ended: %.300v", m)
				}
				e := m["result"].(map[string]any)["error"].(map[string]any)
				want := map[string]any{"code": "internal", "message": "256 " + tt.tool + " calls are running already in this Pi session, the most it serves at once; this one was not shown to the user"}
				if diff := cmp.Diff(want, e); diff != "" {
					t.Errorf("the call over the limit (-want +got):\n%s", diff)
				}
				if text := m["text"].(string); !strings.Contains(text, "(internal: 256 "+tt.tool+" calls are running already") {
					t.Errorf("the model reads %q; want the code and the limit", text)
				}
				break
			}
			c.in.Close()
			results := 0
			for m := range c.msgs {
				if m["type"] == "result" {
					results++
				}
			}
			if results != MaxCalls {
				t.Errorf("%d results at the end of stdin; want %d", results, MaxCalls)
			}
		})
	}
}

// When stdin ends while a dialog is open, the call still gets its
// result, and Serve returns.
func TestStdinEndsWithDialogOpen(t *testing.T) {
	c := ready(t, hello("tui", true, tuiUI, nil))
	sendAsk(c, "c1", deploy, "")
	c.until("open")
	c.in.Close()
	res := result(t, c.until("result"))
	if res["status"] != "aborted" || res["cancelledReason"] != "abort" {
		t.Errorf("result %v; want aborted by the caller", res)
	}
	if err := <-c.done; err != nil {
		t.Errorf("Serve = %v; want nil at the end of stdin", err)
	}
	c.done <- nil // for the cleanup
}

// quiet turns the bell, the title and the desktop notification off, for
// tests that want each key answered by a frame alone: a notify message
// could come among the frames.
var quiet = map[string]any{"bell": false, "title": false, "desktop": false}
