package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolCall is a tools/call of ask_user with id 1 and args as arguments.
func toolCall(args string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_user","arguments":` + args + `}}`
}

// exactly returns a ping of exactly n bytes, padded in an unknown member
// of its params.
func exactly(n int) string {
	head, tail := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`, `"}}`
	return head + strings.Repeat("x", n-len(head)-len(tail)) + tail
}

// Hostile lines through the real binary: each gets a clear answer, a
// JSON-RPC error or an invalid_request tool result, and the session
// stays up: a ping after it is answered. The server's peak memory stays
// bounded.
func TestHostileLines(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tests := []struct {
		name, line string
		code       int    // the JSON-RPC error code; 0 for a tool result
		want       string // in the error message or the tool result's text
	}{
		{"truncated", `{"jsonrpc":"2.0","id":1,"method":"pi`, -32700, "not valid JSON"},
		{"malformed", `{"jsonrpc":"2.0",,"id":1}`, -32700, "invalid character ','"},
		{"bare value", `42`, -32600, "not a JSON object"},
		{"nested 1001 deep in 2 KB", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":` + deep(1000) + `}}`, -32600, "1002 levels deep; the limit is 1000"},
		{"nested 1001 deep in the arguments", toolCall(`{"questions":` + deep(998) + `}`), -32600, "levels deep; the limit is 1000"},
		{"100,000 nested brackets", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":` + deep(100_000) + `}}`, -32700, "exceeded max depth"},
		{"10 MB line", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"` + strings.Repeat("x", 10<<20) + `"}}`, -32600, "longer than 1048576 bytes"},
		{"one byte over the limit", exactly(mcpserver.MaxMessageBytes + 1), -32600, "longer than 1048576 bytes"},
		{"raw NUL", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\x00\"}", -32700, `invalid character '\x00' in string literal`},
		{"NUL between messages", "\x00", -32700, "not valid JSON"},
		{"escaped NUL in the method", `{"jsonrpc":"2.0","id":1,"method":"ping\u0000"}`, -32601, "method not found"},
		{"invalid UTF-8 in the method", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\xffng\"}", -32600, "method is not valid UTF-8"},
		{"invalid UTF-8 in the id", "{\"jsonrpc\":\"2.0\",\"id\":\"a\xff\",\"method\":\"ping\"}", -32600, "id is not valid UTF-8"},
		{"lone surrogate in the id", `{"jsonrpc":"2.0","id":"a\ud800","method":"ping"}`, -32600, "unpaired surrogate"},
		{"lone low surrogate in the method", `{"jsonrpc":"2.0","id":1,"method":"\udc00"}`, -32600, "unpaired surrogate"},
		{"duplicate id", `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, -32600, `the key "id" twice`},
		{"duplicate method", `{"jsonrpc":"2.0","id":1,"method":"x","method":"ping"}`, -32600, `the key "method" twice`},
		{"key in another case", `{"jsonrpc":"2.0","ID":1,"method":"ping"}`, -32600, `unknown key "ID"`},
		{"id 1e400", `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, -32600, "id 1e400 is not an integer"},
		{"id 1e300", `{"jsonrpc":"2.0","id":1e300,"method":"ping"}`, -32600, "is not an integer"},
		{"id 1.5", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, "is not an integer"},
		{"id 1.0", `{"jsonrpc":"2.0","id":1.0,"method":"ping"}`, -32600, "is not an integer"},
		{"id of many digits", `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`, -32600, "is not an integer"},
		{"id 2^53", `{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}`, -32600, "is not an integer"},
		{"id true", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600, "id must be a string or an integer"},
		{"response error not an object", `{"jsonrpc":"2.0","id":1,"error":"x"}`, -32600, "error must be an object"},
		{"response error code 1e400", `{"jsonrpc":"2.0","id":1,"error":{"code":1e400,"message":"m"}}`, -32600, "error code 1e400 is not an integer"},
		{"response error code 1.5", `{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}`, -32600, "is not an integer"},
		{"request with a result", `{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}`, -32600, "cannot carry a result"},
		{"invalid UTF-8 in the arguments", toolCall("{\"questions\":[{\"title\":\"t\xff\",\"kind\":\"bool\"}]}"), 0, "questions[0].title: is not valid UTF-8"},
		{"lone surrogate in the arguments", toolCall(`{"questions":[{"title":"t\udc00","kind":"bool"}]}`), 0, "questions[0].title: is not valid UTF-8"},
		{"duplicate key in the arguments", toolCall(`{"questions":[{"title":"a","title":"b","kind":"bool"}]}`), 0, "questions[0].title: appears more than once"},
		{"timeout 1e400", toolCall(`{"timeoutPerQuestionMs":1e400,"questions":[{"title":"t","kind":"bool"}]}`), 0, "timeoutPerQuestionMs"},
		{"timeout of many digits", toolCall(`{"timeoutPerQuestionMs":123456789012345678901234567890,"questions":[{"title":"t","kind":"bool"}]}`), 0, "timeoutPerQuestionMs"},
		{"timeout -1", toolCall(`{"timeoutPerQuestionMs":-1,"questions":[{"title":"t","kind":"bool"}]}`), 0, "timeoutPerQuestionMs"},
		{"timeout 1.5", toolCall(`{"timeoutPerQuestionMs":1.5,"questions":[{"title":"t","kind":"bool"}]}`), 0, "timeoutPerQuestionMs"},
	}
	s := startRaw(t)
	s.initialize(`{}`)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s.t = t
			s.send(tt.line)
			m := s.next()
			got := fmt.Sprint(m)
			if tt.code != 0 {
				e, _ := m["error"].(map[string]any)
				if e == nil || e["code"] != float64(tt.code) || !strings.Contains(fmt.Sprint(e["message"]), tt.want) {
					t.Errorf("got %.300s; want error %d saying %q", got, tt.code, tt.want)
				}
			} else {
				res, _ := m["result"].(map[string]any)
				if res == nil || res["isError"] != true || !strings.Contains(fmt.Sprint(res["structuredContent"]), "invalid_request") || !strings.Contains(got, tt.want) {
					t.Errorf("got %.500s; want an invalid_request tool result saying %q", got, tt.want)
				}
			}
			id := 1000 + i
			s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id))
			if m := s.next(); m["id"] != float64(id) || m["result"] == nil {
				t.Fatalf("after %s the server answered the ping with %.300v", tt.name, m)
			}
		})
	}
	s.t = t
	// The limit itself passes the filter.
	s.send(exactly(mcpserver.MaxMessageBytes))
	if m := s.next(); m["id"] != float64(1) || m["result"] == nil {
		t.Errorf("a message of exactly the limit got %.300v", m)
	}
	peak := peakMemory(t, s.cmd.Process.Pid)
	t.Logf("peak memory (VmHWM) after the hostile lines: %d KiB", peak)
	if peak > 64<<10 {
		t.Errorf("peak memory %d KiB; want at most 64 MiB", peak)
	}
}

// peakMemory is the peak resident set size of process pid, in KiB.
func peakMemory(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc to read the peak memory from: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				t.Fatalf("VmHWM %q: %v", v, err)
			}
			return n
		}
	}
	t.Fatal("no VmHWM in /proc/pid/status")
	return 0
}

// A flood of concurrent calls, each answered through its own form.
func TestCallFlood(t *testing.T) {
	c := mcp.NewClient(&mcp.Implementation{Name: "flood", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: accept(`{"q1":true}`),
	})
	ctx := context.Background()
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: serverCommand(t)}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	const n = 200
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := range n {
		wg.Go(func() {
			r, err := call(ctx, cs, `{"questions":[{"title":"t","kind":"bool"}]}`)
			switch {
			case err != nil:
				errs <- fmt.Sprintf("call %d: %v", i, err)
			case result(t, r).Status != contract.StatusAnswered:
				errs <- fmt.Sprintf("call %d: %+v", i, result(t, r))
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// lastAnswer reads the server's messages until its output ends and
// returns the answer to id, or nil.
func lastAnswer(s *rawServer, id float64) map[string]any {
	var got map[string]any
	for l := range s.lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			s.t.Fatalf("the server wrote %q", l)
		}
		if m["id"] == id && m["method"] == nil {
			got = m
		}
	}
	return got
}

// abortedCall checks that m answers a call with the caller's abort.
func abortedCall(t *testing.T, m map[string]any) {
	t.Helper()
	res, _ := m["result"].(map[string]any)
	sc := fmt.Sprint(res["structuredContent"])
	if res == nil || !strings.Contains(sc, "status:aborted") || !strings.Contains(sc, "cancelledReason:abort") {
		t.Errorf("got %.400v; want the call aborted by the caller", m)
	}
}

// formShown starts a server whose client takes forms, and makes call 7,
// which waits on the form the server sends.
func formShown(t *testing.T) *rawServer {
	t.Helper()
	s := startRaw(t)
	s.initialize(`{"elicitation":{}}`)
	s.send(fmt.Sprintf(validCall, 7))
	if m := s.next(); m["method"] != "elicitation/create" {
		t.Fatalf("want the form, got %v", m)
	}
	return s
}

// A call that waits on the client's form when the client closes its
// input still gets its result, and the server exits with status 0.
func TestInputClosedMidCall(t *testing.T) {
	s := formShown(t)
	s.in.Close()
	abortedCall(t, lastAnswer(s, 7))
	if err := s.wait(); err != nil {
		t.Errorf("exit: %v", err)
	}
}

// SIGTERM while a call waits on the client's form: the call gets its
// result before the server exits, every time.
func TestSigtermAnswersPendingCall(t *testing.T) {
	runs := 30
	if testing.Short() {
		runs = 3
	}
	for i := range runs {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			s := formShown(t)
			if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			abortedCall(t, lastAnswer(s, 7))
			s.wait()
		})
	}
}

// A client that dies while a call waits on its form, closing both pipes
// as the kernel does for a killed process, or that only stops reading:
// the server ends with status 0, not killed by SIGPIPE.
func TestClientDies(t *testing.T) {
	for _, tt := range []struct {
		name string
		end  func(s *rawServer)
	}{
		{"killed", func(s *rawServer) {
			s.out.Close()
			s.in.Close()
		}},
		{"stops reading", (*rawServer).stopReading},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := formShown(t)
			tt.end(s)
			for range s.lines {
			}
			if err := s.wait(); err != nil {
				t.Errorf("exit: %v", err)
			}
		})
	}
}

// stopReading closes the test's end of the server's output, then sends
// pings until the server exits: their answers fail to write, as for a
// client that stopped reading. (The first may still fit in the pipe
// before the close takes effect.)
func (s *rawServer) stopReading() {
	s.out.Close()
	for i := range 10_000 {
		select {
		case <-s.done:
			return
		default:
		}
		if _, err := fmt.Fprintf(s.in, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", 100+i); err != nil {
			return // the server has gone
		}
	}
}
