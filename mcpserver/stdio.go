package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessageBytes bounds one JSON-RPC message from the client. A
// questionnaire is at most 256 KiB; a message over this limit is answered
// with an error and dropped, not buffered.
const MaxMessageBytes = 1 << 20

// The JSON-RPC error codes the line filter answers with.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// ServeStdio serves one client on newline-delimited JSON-RPC over r and w
// until r ends, w fails or ctx is done. Each line is checked before the
// SDK sees it: a line that is not JSON, not a JSON-RPC message the SDK
// reads as it was meant, or longer than MaxMessageBytes is answered with
// a JSON-RPC error and dropped, so that one bad message cannot end the
// session. The error carries the request's id whenever it can be read,
// from the start of a line too long to read whole too.
//
// When r ends or ctx is done, calls still waiting for the user are
// aborted, and every request read is answered (for at most
// ShutdownGrace) before the session closes. A failed write to w means
// the client has stopped reading: nothing more can reach it, so the
// session closes at once. In each case ServeStdio then waits for at most
// RenderGrace for the renderers of aborted calls to finish (closing their
// popups and removing their sockets), and returns nil. The user's notify
// commands still running, and what they started, are stopped when ctx is
// done and when ServeStdio returns.
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	defer s.commands.Stop()
	defer context.AfterFunc(ctx, s.commands.Stop)()
	// The session outlives ctx until the calls it aborts are answered.
	runCtx, stopRun := context.WithCancel(context.WithoutCancel(ctx))
	defer stopRun()
	open := newOpenRequests()
	out := &lockedWriter{w: w, answered: open.answered, failed: func() {
		s.clientGone()
		stopRun()
	}}
	pr, pw := io.Pipe()
	var ending sync.Once
	end := func(err error) {
		ending.Do(func() {
			// Calls waiting for the user cannot be answered by the user
			// once the client has gone, but each request read still
			// gets its answer.
			s.clientGone()
			open.pending.wait(ShutdownGrace)
			pw.CloseWithError(err)
		})
	}
	stop := context.AfterFunc(ctx, func() { end(nil) })
	defer stop()
	go func() { end(filterLines(r, requestWriter{pw, open}, out, MaxMessageBytes)) }()
	t := &mcp.IOTransport{Reader: pr, Writer: out, MaxLineLength: MaxMessageBytes + 1}
	err := s.Run(runCtx, t)
	s.clientGone()
	s.running.wait(RenderGrace)
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) || out.broken() {
		return nil
	}
	return err
}

// ShutdownGrace bounds how long a server whose input has ended waits for
// the answers to the requests it has read.
const ShutdownGrace = 5 * time.Second

// RenderGrace bounds how long a stopping server waits for the renderers
// of aborted calls to tear down. A tmux popup takes up to 4 s to close.
const RenderGrace = 5 * time.Second

// openRequests are the ids of the client's requests that have not been
// answered yet.
type openRequests struct {
	mu      sync.Mutex
	ids     map[string]bool
	pending *pending // one for each id in ids
}

func newOpenRequests() *openRequests {
	return &openRequests{ids: map[string]bool{}, pending: newPending()}
}

// header is what the request tracking reads of a message.
type header struct {
	ID     json.RawMessage `json:"id"`
	Method *string         `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// idKey is the id of a message in one spelling, whatever its formatting.
func idKey(raw json.RawMessage) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil || v == nil {
		return ""
	}
	if n, ok := v.(json.Number); ok {
		if i, err := n.Int64(); err == nil {
			return "n" + strconv.FormatInt(i, 10)
		}
		return "n" + n.String()
	}
	return fmt.Sprintf("s%v", v)
}

// read records msg, a message from the client, if it is a request.
func (o *openRequests) read(msg []byte) {
	var h header
	if json.Unmarshal(msg, &h) != nil || h.Method == nil {
		return
	}
	if k := idKey(h.ID); k != "" {
		o.mu.Lock()
		if !o.ids[k] {
			o.ids[k] = true
			o.pending.add(1)
		}
		o.mu.Unlock()
	}
}

// answered records msg, a message to the client, if it is a response.
func (o *openRequests) answered(msg []byte) {
	var h header
	if json.Unmarshal(msg, &h) != nil || h.Method != nil || (h.Result == nil && h.Error == nil) {
		return
	}
	k := idKey(h.ID)
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ids[k] {
		delete(o.ids, k)
		o.pending.add(-1)
	}
}

// requestWriter passes the client's messages on, recording its requests.
type requestWriter struct {
	w    io.Writer
	open *openRequests
}

func (r requestWriter) Write(p []byte) (int, error) {
	r.open.read(p)
	return r.w.Write(p)
}

// lockedWriter serializes whole writes, so that the filter's error lines
// never interleave with the SDK's messages, each of which it writes at
// once. It tells answered about each message once it is written, and
// calls failed on the first failed write; from then on every write fails.
type lockedWriter struct {
	mu       sync.Mutex
	w        io.Writer
	answered func([]byte)
	failed   func()
	err      error
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.w.Write(p)
	if err != nil {
		l.err = fmt.Errorf("writing to the client: %w", err)
		if l.failed != nil {
			go l.failed()
		}
		return n, l.err
	}
	if l.answered != nil {
		l.answered(p)
	}
	return n, nil
}

// broken reports whether a write has failed.
func (l *lockedWriter) broken() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err != nil
}

func (l *lockedWriter) Close() error { return nil }

// filterLines copies the well-formed messages of r to pass, one per line,
// and answers the others on out. It returns nil at the end of r.
func filterLines(r io.Reader, pass io.Writer, out io.Writer, max int) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		over := len(line)+len(chunk) > max+1
		if !over {
			line = append(line, chunk...)
		} else if room := max + 1 - len(line); room > 0 {
			// The start of a line too long to pass on still says whose
			// request it is (see requestID).
			line = append(line, chunk[:room]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			if over {
				id := requestID(line)
				line = line[:0]
				derr := discardLine(br)
				// The last line, ended by the end of r, is answered too.
				writeError(out, id, codeInvalidRequest, tooLong(max))
				if derr != nil {
					return endOf(derr)
				}
			}
			continue
		}
		if over {
			writeError(out, requestID(line), codeInvalidRequest, tooLong(max))
			line = line[:0]
		} else if msg := bytes.Trim(line, jsonSpace); len(msg) > 0 {
			if id, code, why := checkMessage(msg); code != 0 {
				writeError(out, id, code, why)
			} else if _, werr := pass.Write(append(msg, '\n')); werr != nil {
				return werr
			}
		}
		line = line[:0]
		if err != nil {
			return endOf(err)
		}
	}
}

// jsonSpace is JSON's white space, all that may stand around a message:
// bytes.TrimSpace would also take Unicode spaces such as U+00A0 and
// U+0085, which would then pass a line that is not JSON.
const jsonSpace = " \t\r\n"

func tooLong(max int) string {
	return fmt.Sprintf("the message is longer than %d bytes and was dropped", max)
}

func discardLine(br *bufio.Reader) error {
	for {
		_, err := br.ReadSlice('\n')
		if !errors.Is(err, bufio.ErrBufferFull) {
			return err
		}
	}
}

func endOf(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

func writeError(w io.Writer, id json.RawMessage, code int, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	m, _ := json.Marshal(msg)
	line := `{"jsonrpc":"2.0","id":` + string(id) + `,"error":{"code":` + strconv.Itoa(code) + `,"message":` + string(m) + "}}\n"
	_, _ = io.WriteString(w, line)
}
