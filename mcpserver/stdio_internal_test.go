package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/testkit"
	"github.com/google/go-cmp/cmp"
)

func TestFilterLines(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		``,
		`{"jsonrpc":"2.0","id":2,"method":`,
		`{"jsonrpc":"2.0","id":"a","method":"x","params":"p"}`,
		`{"jsonrpc":"2.0","id":3,"method":"` + strings.Repeat("y", 100) + `"}`,
		`  {"jsonrpc":"2.0","method":"notifications/initialized"}  `,
		`{"jsonrpc":"2.0","id":4,"result":{}}`,
		`{"jsonrpc":"1.0","id":5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":6}`,
		`{"jsonrpc":"2.0","id":7,"method":"ping"}`,
		// JSON's white space is space, tab, LF and CR only: these are
		// not, and encoding/json refuses the lines.
		"\u00a0" + `{"jsonrpc":"2.0","id":8,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":9,"method":"ping"}` + "\u0085",
	}, "\n")
	var pass, out bytes.Buffer
	if err := filterLines(strings.NewReader(in), &pass, &out, 80); err != nil {
		t.Fatal(err)
	}
	wantPass := `{"jsonrpc":"2.0","id":1,"method":"ping"}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":4,"result":{}}
{"jsonrpc":"2.0","id":7,"method":"ping"}
`
	if diff := cmp.Diff(wantPass, pass.String()); diff != "" {
		t.Errorf("passed on (-want +got):\n%s", diff)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID    json.RawMessage
			Error struct{ Code int }
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("error line %q: %v", l, err)
		}
		got = append(got, fmt.Sprintf("%s %d", m.ID, m.Error.Code))
	}
	want := []string{"null -32700", `"a" -32600`, "null -32600", "5 -32600", "6 -32600", "null -32700", "null -32700"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// A message over the limit is answered whether or not a newline ends it,
// and however far past the reader's buffer it runs.
func TestFilterLinesOversized(t *testing.T) {
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"
	huge := strings.Repeat("x", 200<<10) // past the 64 KiB buffer
	const dropped = `"error":{"code":-32600,"message":"the message is longer than 80 bytes and was dropped"}}` + "\n"
	tests := []struct{ name, in, id string }{
		{"short, last, no newline", ping + strings.Repeat("x", 100), "null"},
		{"short, newline", ping + strings.Repeat("x", 100) + "\n", "null"},
		{"past the buffer, last, no newline", ping + huge, "null"},
		{"past the buffer, newline", ping + huge + "\n", "null"},
		// A request whose id and method come before the cut is answered
		// with its id, so that its caller stops waiting.
		{"request, short", ping + `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":"` + strings.Repeat("x", 100) + `"}}` + "\n", "7"},
		{"request, past the buffer", ping + `{"jsonrpc":"2.0","method":"tools/call","id":"c-1","params":{"a":"` + huge + `"}}` + "\n", `"c-1"`},
		{"request, past the buffer, last", ping + `{"id": 9 ,"jsonrpc":"2.0","method":"x","params":{"a":"` + huge, "9"},
		{"id after the cut", ping + `{"jsonrpc":"2.0","method":"tools/call","params":{"a":"` + huge + `"},"id":3}` + "\n", "null"},
		{"a response", ping + `{"jsonrpc":"2.0","id":4,"result":{"a":"` + huge + `"}}` + "\n", "null"},
		{"no method before the cut", ping + `{"jsonrpc":"2.0","id":4,"params":{"a":"` + huge + `"},"method":"x"}` + "\n", "null"},
		{"id twice", ping + `{"jsonrpc":"2.0","id":4,"id":5,"method":"x","params":{"a":"` + huge + `"}}` + "\n", "null"},
		{"id not an integer", ping + `{"jsonrpc":"2.0","id":1.5,"method":"x","params":{"a":"` + huge + `"}}` + "\n", "null"},
		{"method not a string", ping + `{"jsonrpc":"2.0","id":2,"method":3,"params":{"a":"` + huge + `"}}` + "\n", "null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pass, out bytes.Buffer
			if err := filterLines(strings.NewReader(tt.in), &pass, &out, 80); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(ping, pass.String()); diff != "" {
				t.Errorf("passed on (-want +got):\n%s", diff)
			}
			want := `{"jsonrpc":"2.0","id":` + tt.id + `,` + dropped
			if diff := cmp.Diff(want, out.String()); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzFilterLines(f *testing.F) {
	for _, s := range []string{"", "\n", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n", "[1]\n{}", `{"id":[` + "\n", strings.Repeat("x", 200)} {
		f.Add(s)
	}
	for _, n := range testkit.FuzzNumbers() {
		f.Add(`{"jsonrpc":"2.0","id":` + n + `,"method":"ping"}` + "\n")
	}
	f.Fuzz(func(t *testing.T, in string) {
		testkit.FuzzBound(t, in, func() {
			var pass, out bytes.Buffer
			if err := filterLines(strings.NewReader(in), &pass, &out, 64); err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(strings.TrimSuffix(pass.String(), "\n"), "\n") {
				if l == "" {
					continue
				}
				if _, code, why := checkMessage([]byte(l)); code != 0 || len(l) > 65 {
					t.Fatalf("passed on %q: %s", l, why)
				}
			}
			for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
				if l != "" && !json.Valid([]byte(l)) {
					t.Fatalf("wrote invalid JSON %q", l)
				}
			}
		})
	})
}

// hostileLines are lines of every class of bad input the server must
// answer without ending the session. The fuzz target starts from them;
// they stay small, because the fuzzer minimizes what it finds, and the
// largest inputs are in TestHostileLines.
var hostileLines = []string{
	`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_user","arguments":{"questions":[{"title":"t","kind":"bool"}]}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"pi`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":` + strings.Repeat("[", 10_001) + `}}`,
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\x00\"}",
	"{\"jsonrpc\":\"2.0\",\"id\":\"a\xff\",\"method\":\"ping\"}",
	`{"jsonrpc":"2.0","id":"a\ud800","method":"ping"}`,
	`{"jsonrpc":"2.0","id":"\ud83d\ude00","method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`,
	`{"jsonrpc":"2.0","ID":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":-0,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1.0,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"error":"x"}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":1e400,"message":"m"}}`,
	`{"jsonrpc":"2.0","id":1,"result":{}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1e400}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_user","arguments":{"timeoutPerQuestionMs":1e400,"questions":[{"title":"t","kind":"bool"}]}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_user","arguments":{"questions":[{"title":"a","title":"b"}]}}}`,
	`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
}

// FuzzServe sends a line through the whole read path of the server, the
// filter and the SDK's decoding, between an initialize and a ping: the
// server never panics, never ends the session, and answers a bad line
// with a JSON-RPC error.
func FuzzServe(f *testing.F) {
	for _, s := range hostileLines {
		f.Add([]byte(s))
	}
	for _, n := range testkit.FuzzNumbers() {
		// Two places only, the id and the arguments: each seed is a whole
		// session, and the fuzzer replays every seed before it mutates
		// any, so many more seeds would leave it no time to mutate.
		for _, s := range []string{
			`{"jsonrpc":"2.0","id":` + n + `,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_user","arguments":{"timeoutPerQuestionMs":` + n + `,"questions":[{"title":"t","kind":"bool"}]}}}`,
		} {
			f.Add([]byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		testkit.FuzzBound(t, line, func() {
			if err := serveLine(line); err != nil {
				t.Fatalf("after the line %q: %v", line, err)
			}
		})
	})
}

// serveLine serves one session that sends line after initializing, then
// a ping, and says what went wrong, if anything.
func serveLine(line []byte) error {
	srv, err := New(nil)
	if err != nil {
		return err
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- srv.ServeStdio(context.Background(), inR, outW)
		outW.Close()
	}()
	go func() {
		for _, l := range [][]byte{
			[]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}`),
			[]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`),
			line,
			[]byte(`{"jsonrpc":"2.0","id":"after","method":"ping"}`),
		} {
			if _, err := inW.Write(append(l, '\n')); err != nil {
				return
			}
		}
	}()
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 4<<20)
	var pong, answeredBad bool
	for !pong && sc.Scan() {
		var m struct {
			ID     json.RawMessage
			Result json.RawMessage
			Error  json.RawMessage
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return fmt.Errorf("the server wrote %q: %v", sc.Bytes(), err)
		}
		pong = string(m.ID) == `"after"` && m.Result != nil
		answeredBad = answeredBad || m.Error != nil
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	if err := <-served; err != nil {
		return fmt.Errorf("the session ended: %w", err)
	}
	if !pong {
		return errors.New("the ping after it was not answered")
	}
	if msg := bytes.TrimSpace(line); len(msg) > 0 && !bytes.ContainsRune(msg, '\n') {
		if _, code, why := checkMessage(msg); code != 0 && !answeredBad {
			return fmt.Errorf("the line is bad (%s) but was not answered with an error", why)
		}
	}
	return nil
}
