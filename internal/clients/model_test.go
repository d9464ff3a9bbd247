package clients

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// A model is a scripted model server. Its script is one turn: when the
// client's request offers the askuser tool, it calls the tool with args;
// when the request carries the tool's result, it records the result as
// the client sent it and ends the turn with a short text. Any other
// request, such as a title or a token count, gets a short text too.
type model struct {
	t    *testing.T
	api  api
	tool string // the tool's name as the client offers it to the model
	args string // the call's arguments, JSON
	srv  *httptest.Server

	mu      sync.Mutex
	log     []string // every request, for a failing test's message
	bodies  [][]byte // every request's body, whole
	offered bool     // a request offered the tool
	calls   int      // tool calls sent
	results []string // the tool's results as the client sent them
	got     chan struct{}
}

// callID is the id of the one tool call of the script.
const callID = "call_askuser_1"

// finalText is the model's last words, after the tool's result.
const finalText = "Thank you, that is all."

// An api is one model API: it finds in a request the tools offered and
// the askuser call's result, and writes the two replies of the script.
type api interface {
	// parse returns the names of the tools offered in body and the
	// result of callID, if the body carries one.
	parse(body []byte) (tools []string, result string, ok bool, err error)
	// reply writes a reply to the request r: a call of tool with args
	// when tool is not empty, else text.
	reply(w http.ResponseWriter, r *http.Request, body []byte, tool, args, text string)
}

// A searcher is an api whose client may hold a tool back until the
// model asks for it by name.
type searcher interface {
	// search writes a reply to the request r that asks for tool, and
	// reports whether it did: it does when body offers the tool by name
	// only.
	search(w http.ResponseWriter, r *http.Request, body []byte, tool string) bool
}

func newModel(t *testing.T, a api, tool, args string) *model {
	t.Helper()
	m := &model{t: t, api: a, tool: tool, args: args, got: make(chan struct{}, 16)}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	t.Cleanup(func() {
		m.srv.CloseClientConnections()
		m.srv.Close()
		if t.Failed() {
			t.Logf("the scripted model received:\n%s", m.requests())
		}
	})
	return m
}

// url is the server's base URL.
func (m *model) url() string { return m.srv.URL }

func (m *model) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	m.mu.Lock()
	m.log = append(m.log, fmt.Sprintf("%s %s\n%s", r.Method, r.URL, newest(body)))
	m.bodies = append(m.bodies, body)
	m.mu.Unlock()
	if r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	tools, result, ok, err := m.api.parse(body)
	if err != nil {
		m.t.Errorf("the scripted model cannot read %s %s: %v", r.Method, r.URL, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	offered := false
	for _, name := range tools {
		offered = offered || name == m.tool
	}
	m.mu.Lock()
	m.offered = m.offered || offered
	switch {
	case ok:
		m.results = append(m.results, result)
		m.mu.Unlock()
		m.got <- struct{}{}
		m.api.reply(w, r, body, "", "", finalText)
	case offered && m.calls == 0:
		m.calls++
		m.mu.Unlock()
		m.api.reply(w, r, body, m.tool, m.args, "")
	default:
		m.mu.Unlock()
		if s, ok := m.api.(searcher); ok && !offered && s.search(w, r, body, m.tool) {
			return
		}
		m.api.reply(w, r, body, "", "", "Noted.")
	}
}

// requests is every request the server received.
func (m *model) requests() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return strings.Join(m.log, "\n\n")
}

// sent reports whether a request's body held text, as its JSON writes
// it.
func (m *model) sent(text string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, b := range m.bodies {
		if strings.Contains(string(b), text) {
			return true
		}
	}
	return false
}

// state returns whether the tool was offered, how many calls were sent,
// and the results received.
func (m *model) state() (offered bool, calls int, results []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.offered, m.calls, append([]string(nil), m.results...)
}

// newest is the start of body and, if it holds a list of messages, the
// newest of them, which holds a tool's result.
func newest(body []byte) string {
	var req struct {
		Messages []json.RawMessage `json:"messages"`
	}
	head := truncate(body, 1000)
	if json.Unmarshal(body, &req) != nil || len(req.Messages) == 0 {
		return head
	}
	return head + "\nits newest message: " + truncate(req.Messages[len(req.Messages)-1], 3000)
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + fmt.Sprintf("… (%d bytes)", len(b))
	}
	return string(b)
}

// sse writes server-sent events: each event is a name (empty for none)
// and its data.
func sse(w http.ResponseWriter, events ...[2]string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	bw := bufio.NewWriter(w)
	for _, e := range events {
		if e[0] != "" {
			fmt.Fprintf(bw, "event: %s\n", e[0])
		}
		fmt.Fprintf(bw, "data: %s\n\n", e[1])
	}
	bw.Flush()
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// contentText is the text of a tool result's content, which is either a
// string or a list of blocks with a text member.
func contentText(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", fmt.Errorf("the tool result's content is neither text nor blocks: %s", truncate(raw, 200))
	}
	var b strings.Builder
	for _, bl := range blocks {
		if bl.Type != "text" && bl.Type != "input_text" && bl.Type != "output_text" {
			return "", fmt.Errorf("the tool result holds a %q block", bl.Type)
		}
		b.WriteString(bl.Text)
	}
	return b.String(), nil
}
