package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMain removes the binaries the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	testkit.RemoveBuilds()
	os.Exit(code)
}

// askuserBinary builds the askuser command once per test run.
func askuserBinary(t testing.TB) string {
	t.Helper()
	bin, err := testkit.Build("github.com/askuser/askuser/cmd/askuser")
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

func serverCommand(t testing.TB, args ...string) *exec.Cmd {
	cmd := exec.Command(askuserBinary(t), append([]string{"mcp", "--no-config"}, args...)...)
	cmd.Env = append(os.Environ(), "TMUX=") // no popup: the client's form is the route
	return cmd
}

// The real binary, driven by the go-sdk client over its standard input and
// output, at every protocol version.
func TestStdio(t *testing.T) {
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
				ElicitationHandler: accept(`{"q1":"SQLite"}`),
			})
			ctx := context.Background()
			cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: serverCommand(t)}, &mcp.ClientSessionOptions{ProtocolVersion: v})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(tools.Tools) != 1 || tools.Tools[0].Name != "ask_user" || !tools.Tools[0].Annotations.ReadOnlyHint || tools.Tools[0].OutputSchema == nil {
				t.Fatalf("tools: %+v", tools.Tools)
			}
			r, err := call(ctx, cs, single)
			if err != nil {
				t.Fatal(err)
			}
			if got := result(t, r); got.Status != contract.StatusAnswered || got.Answers[0].Selections[0] != "SQLite" {
				t.Errorf("got %+v", got)
			}
		})
	}
}

// rawServer runs the binary and speaks JSON-RPC lines to it by hand.
type rawServer struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   io.ReadCloser // the server's standard output, read into lines
	lines chan string
	done  chan struct{} // closed when the process has exited
	err   error         // its exit error, once done is closed
}

// wait waits for the process to exit and returns its exit error.
func (s *rawServer) wait() error {
	select {
	case <-s.done:
		return s.err
	case <-time.After(testkit.Patience(s.t)):
		s.cmd.Process.Kill()
		<-s.done
		s.t.Fatal("the server did not exit after its standard input closed")
	}
	return nil
}

func startRaw(t *testing.T) *rawServer {
	return startRawCmd(t, serverCommand(t))
}

func startRawCmd(t *testing.T, cmd *exec.Cmd) *rawServer {
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &rawServer{t: t, cmd: cmd, in: in, out: out, lines: make(chan string, 100), done: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
		s.err = cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() {
		in.Close()
		select {
		case <-s.done:
		case <-time.After(testkit.Patience(t)):
			cmd.Process.Kill()
			t.Errorf("the server did not exit after its standard input closed; stderr:\n%s", stderr.String())
		}
	})
	return s
}

func (s *rawServer) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("writing to the server: %v", err)
	}
}

// next returns the next message from the server.
func (s *rawServer) next() map[string]any {
	s.t.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			s.t.Fatal("the server closed its output")
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			s.t.Fatalf("the server wrote %q: %v", l, err)
		}
		return m
	case <-time.After(testkit.Patience(s.t)):
		s.t.Fatal("no message from the server")
	}
	return nil
}

func (s *rawServer) initialize(caps string) {
	s.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":` + caps + `,"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := s.next(); m["result"] == nil {
		s.t.Fatalf("initialize: %v", m)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

const validCall = `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"ask_user","arguments":{"questions":[{"title":"t","kind":"bool"}]}}}`

// Bad input gets an error or is dropped; the server keeps serving.
func TestBadInput(t *testing.T) {
	s := startRaw(t)
	s.initialize(`{}`)
	tests := []struct {
		name, line string
		wantError  bool // a JSON-RPC error answers it
	}{
		{"not json", `{"jsonrpc":"2.0","id":1,"method":`, true},
		{"unknown method", `{"jsonrpc":"2.0","id":2,"method":"no/such"}`, true},
		{"unknown tool", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","arguments":{}}}`, true},
		{"params not an object", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":[1]}`, true},
		{"batch", `[{"jsonrpc":"2.0","id":8,"method":"ping"}]`, true},
		{"not json-rpc", `{"hello":"world"}`, true},
		{"object id", `{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`, true},
		{"unknown arguments", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"ask_user","arguments":{"questions":[{"title":"t"}],"extra":1}}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s.t = t
			s.send(tt.line)
			m := s.next()
			if _, isErr := m["error"]; isErr != tt.wantError {
				t.Errorf("answer %v; want an error: %v", m, tt.wantError)
			}
			if res, ok := m["result"].(map[string]any); ok && res["isError"] != true {
				t.Errorf("answer %v; want a tool error", m)
			}
			s.send(fmt.Sprintf(validCall, 100))
			if m := s.next(); m["result"] == nil || m["id"] != float64(100) {
				t.Fatalf("after %s the server answered %v", tt.name, m)
			}
		})
	}
}

// A message over the limit is answered with an error, with its id so that
// the client stops waiting, and dropped; the server keeps serving.
func TestOversizedRequest(t *testing.T) {
	s := startRaw(t)
	s.initialize(`{}`)
	s.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"ask_user","arguments":{"header":"` + strings.Repeat("x", 3<<20) + `"}}}`)
	m := s.next()
	e, _ := m["error"].(map[string]any)
	if e == nil || e["code"] != float64(-32600) || !strings.Contains(fmt.Sprint(e["message"]), "longer than") || m["id"] != float64(5) {
		t.Fatalf("got %v; want an invalid request error for id 5", m)
	}
	s.send(fmt.Sprintf(validCall, 101))
	if m := s.next(); m["id"] != float64(101) || m["result"] == nil {
		t.Fatalf("after the oversized message the server answered %v", m)
	}
}

// A questionnaire just over 256 KiB, in a message the transport takes, is
// an invalid_request tool result.
func TestLargeQuestionnaire(t *testing.T) {
	s := startRaw(t)
	s.initialize(`{}`)
	s.send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"ask_user","arguments":{"questions":[{"title":"` + strings.Repeat("x", 300<<10) + `"}]}}}`)
	m := s.next()
	res, _ := m["result"].(map[string]any)
	if res == nil || res["isError"] != true || !strings.Contains(fmt.Sprint(res["structuredContent"]), "invalid_request") {
		t.Fatalf("got %.500v", m)
	}
}

// Requests read before the input ends are still answered.
func TestAnswersAfterInputEnds(t *testing.T) {
	s := startRaw(t)
	s.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	s.send(fmt.Sprintf(validCall, 1))
	s.in.Close()
	ids := map[float64]bool{}
	for l := range s.lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("the server wrote %q", l)
		}
		if id, ok := m["id"].(float64); ok {
			ids[id] = true
		}
	}
	if !ids[0] || !ids[1] {
		t.Errorf("answered %v; want ids 0 and 1", ids)
	}
	if err := s.wait(); err != nil {
		t.Errorf("exit: %v", err)
	}
}
