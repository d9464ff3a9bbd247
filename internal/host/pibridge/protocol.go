// Package pibridge serves the Pi package: it speaks the JSON-lines protocol
// of PROTOCOL.md with the TypeScript shim that runs inside Pi, binds Pi's
// custom components and native dialogs as the two routes of an ask.Host,
// and answers every ask_user call with a contract.Result and the text the
// model reads.
//
// All behaviour lives here and in the engine; the shim only moves bytes
// between Pi and this package.
package pibridge

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/host/pimirror"
	"github.com/askuser/askuser/internal/strictjson"
)

// Version is the protocol version this package speaks.
const Version = 1

// MaxLine is the longest line the bridge reads, in bytes.
const MaxLine = 1 << 20

// MaxCalls is how many calls a bridge runs at once. Each holds a dialog
// and its state; a flood of asks beyond this is answered at once with an
// internal error result naming the limit, instead of growing without bound.
const MaxCalls = 256

// The message types.
const (
	typeHello     = "hello"
	typeReady     = "ready"
	typeFatal     = "fatal"
	typeError     = "error"
	typeAsk       = "ask"
	typeAbort     = "abort"
	typeResult    = "result"
	typeEvent     = "event"
	typeOpen      = "open"
	typeResize    = "resize"
	typeKey       = "key"
	typeFrame     = "frame"
	typeClose     = "close"
	typeUIError   = "ui_error"
	typeDialog    = "dialog"
	typeReply     = "reply"
	typeCancel    = "dialog_cancel"
	typeExplain   = "explain"
	typeExplained = "explained"
	typeProgress  = "progress"
	typeTry       = "try"
	typeTries     = "tries"
)

// inMsg is any message from the shim. Fields unused by a type are ignored.
type inMsg struct {
	Type string `json:"type"`
	Call string `json:"call,omitempty"`

	// hello
	Version    int                     `json:"version,omitempty"`
	Release    *string                 `json:"release,omitempty"`
	Mode       string                  `json:"mode,omitempty"`
	HasUI      bool                    `json:"hasUI,omitempty"`
	UI         uiCaps                  `json:"ui"`
	AgentDir   string                  `json:"agentDir,omitempty"`
	Options    json.RawMessage         `json:"options,omitempty"`
	ConfigFile json.RawMessage         `json:"configFile,omitempty"`
	Theme      map[string]pimirror.SGR `json:"theme,omitempty"`
	Tool       string                  `json:"tool,omitempty"`
	// Mirror says the shim draws frames in process too: every open then
	// carries the dialog's Spec (package pimirror).
	Mirror bool `json:"mirror,omitempty"`

	// ask, explain
	CallID  string          `json:"callId,omitempty"`
	Aborted bool            `json:"aborted,omitempty"`
	Blocked bool            `json:"blocked,omitempty"`
	Outcome bool            `json:"outcome,omitempty"` // the dead child sent its ask:* event
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Route   string          `json:"route,omitempty"` // explain of an AskUserQuestion call

	// key, resize
	Key   string `json:"key,omitempty"`
	Text  string `json:"text,omitempty"`
	Width int    `json:"width,omitempty"`
	Rows  int    `json:"rows,omitempty"`

	// try: the keys whose frames the shim wants ahead, while a text
	// input has the cursor (Typing) and otherwise (Keys); none stops it.
	Keys   []tryMsgKey `json:"keys,omitempty"`
	Typing []tryMsgKey `json:"typing,omitempty"`

	// reply, ui_error
	Req       int     `json:"req,omitempty"`
	Value     *string `json:"value,omitempty"`
	Cancelled bool    `json:"cancelled,omitempty"`
	TimedOut  bool    `json:"timedOut,omitempty"`
	Error     string  `json:"error,omitempty"`
	Message   string  `json:"message,omitempty"`
}

// tryMsgKey is one key of a try message, a Pi key name or printable text,
// as in a key message.
type tryMsgKey struct {
	Key  string `json:"key,omitempty"`
	Text string `json:"text,omitempty"`
}

type uiCaps struct {
	Custom bool `json:"custom"`
	Input  bool `json:"input"`
	Select bool `json:"select"`
}

// The messages to the shim.

type readyMsg struct {
	Type      string `json:"type"`
	Version   int    `json:"version"`
	Support   any    `json:"support"`
	Available bool   `json:"available"`
	Reason    string `json:"reason,omitempty"`
}

type textMsg struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

type resultMsg struct {
	Type   string          `json:"type"`
	Call   string          `json:"call"`
	Result contract.Result `json:"result"`
	Text   string          `json:"text"`
}

type eventMsg struct {
	Type    string `json:"type"`
	Call    string `json:"call"`
	Channel string `json:"channel"`
	Payload any    `json:"payload"`
}

type openMsg struct {
	Type      string `json:"type"`
	Call      string `json:"call"`
	Display   string `json:"display"`
	ToggleKey string `json:"toggleKey"`
	// HiddenStatus is what Pi's footer says while the overlay is hidden;
	// "" for the one-time notice ask_user shows instead.
	HiddenStatus string `json:"hiddenStatus,omitempty"`
	// HideWorking asks the shim to hide Pi's working indicator while the
	// component is open, and to bring it back when it closes.
	HideWorking bool `json:"hideWorking,omitempty"`
	// Mirror is what the shim needs to draw the same dialog in its own
	// process (package pimirror); nil when the dialog cannot be described.
	Mirror *pimirror.Spec `json:"mirror,omitempty"`
}

// frameMsg is a whole frame, or with Patch set the lines of the last
// frame that changed: Lines replace the lines from At on, and the frame
// then has Length lines. Frames are written by appendFrame, which writes
// a patch's "at" and "length"; the tags are for a whole frame.
type frameMsg struct {
	Type   string           `json:"type"`
	Call   string           `json:"call"`
	Patch  bool             `json:"-"`
	At     int              `json:"-"`
	Length int              `json:"-"`
	Lines  []string         `json:"lines"`
	Cursor *pimirror.Cursor `json:"cursor,omitempty"`
	// Tick marks a frame the countdown's redraw sent, which answers no
	// key or resize.
	Tick bool `json:"tick,omitempty"`
}

// triesMsg carries the frames the keys of the last try message would
// bring to the component as it is now, each a patch of the frame sent
// last (as a frame's patch: At, Length and Lines), with the key it is
// for. A key that would end the dialog has none.
type triesMsg struct {
	Type   string       `json:"type"`
	Call   string       `json:"call"`
	Frames []triedFrame `json:"frames"`
}

// triedFrame is one frame of a triesMsg.
type triedFrame struct {
	Key    string           `json:"key,omitempty"`
	Text   string           `json:"text,omitempty"`
	At     int              `json:"at"`
	Length int              `json:"length"`
	Lines  []string         `json:"lines"`
	Cursor *pimirror.Cursor `json:"cursor,omitempty"`
}

type callMsg struct {
	Type string `json:"type"`
	Call string `json:"call"`
	Req  int    `json:"req,omitempty"`
}

type dialogMsg struct {
	Type        string   `json:"type"`
	Call        string   `json:"call"`
	Req         int      `json:"req"`
	Method      string   `json:"method"`
	Title       string   `json:"title"`
	Placeholder string   `json:"placeholder,omitempty"`
	Options     []string `json:"options,omitempty"`
	TimeoutMs   int64    `json:"timeoutMs,omitempty"`
}

type explainedMsg struct {
	Type   string       `json:"type"`
	Call   string       `json:"call"`
	Text   string       `json:"text"`
	Events []busMessage `json:"events,omitempty"`
}

// busMessage is one event as the shim puts it on Pi's bus.
type busMessage struct {
	Channel string    `json:"channel"`
	Payload ask.Event `json:"payload"`
}

// skipped are the members decode leaves unchecked, to the strict parsers
// that read them.
var skipped = []string{"params", "options"}

// decode parses one line as a message. The reader's buffer may be reused,
// so the message copies what it keeps.
func decode(line []byte) (inMsg, error) {
	if m, ok := decodeKey(line); ok {
		return m, nil
	}
	var m inMsg
	line = bytes.TrimRight(line, "\r")
	if len(bytes.TrimSpace(line)) == 0 || bytes.TrimSpace(line)[0] != '{' {
		return m, errors.New("a message must be a JSON object")
	}
	if err := json.Unmarshal(line, &m); err != nil {
		return m, fmt.Errorf("bad message: %w", err)
	}
	// The members that carry a questionnaire or options are left to the
	// parsers that read them, which are as strict and say where a problem
	// is. An explained result is read by encoding/json and checked here:
	// a form value in it is six levels down.
	if err := strictjson.Check(line, &strictjson.CheckOptions{Skip: skipped, MaxDepth: 8}); err != nil {
		return m, err
	}
	if m.Type == "" {
		return m, errors.New(`a message must have a "type"`)
	}
	return m, nil
}

// writer writes messages as lines. It is safe for concurrent use; a write
// error is kept and every later write is dropped.
type writer struct {
	mu    sync.Mutex
	w     *bufio.Writer
	buf   bytes.Buffer
	enc   *json.Encoder
	frame []byte // sendFrame's line, reused
	err   error
}

func newWriter(w io.Writer) *writer {
	wr := &writer{w: bufio.NewWriterSize(w, 64<<10)}
	wr.enc = json.NewEncoder(&wr.buf)
	wr.enc.SetEscapeHTML(false)
	return wr
}

// errClosed is what a send returns once the bridge has stopped.
var errClosed = errors.New("pibridge: the bridge has stopped")

// close makes every later send write nothing: once Serve returns, a
// renderer that the core left to end on its own (a native dialog being
// cancelled) must not write to what is no longer the bridge's.
func (wr *writer) close() {
	wr.mu.Lock()
	defer wr.mu.Unlock()
	if wr.err == nil {
		wr.err = errClosed
	}
}

// failed returns the first write error, if any.
func (wr *writer) failed() error {
	wr.mu.Lock()
	defer wr.mu.Unlock()
	return wr.err
}

// send writes one message and flushes it.
func (wr *writer) send(msg any) error {
	wr.mu.Lock()
	defer wr.mu.Unlock()
	if wr.err != nil {
		return wr.err
	}
	wr.buf.Reset()
	if err := wr.enc.Encode(msg); err != nil { // Encode ends with LF
		return fmt.Errorf("encode %T: %w", msg, err)
	}
	return wr.writeLine(wr.buf.Bytes())
}

// sendFrame writes a frame as send does, through appendFrame: frames are
// what the bridge writes most, one for every key.
func (wr *writer) sendFrame(msg *frameMsg) error {
	wr.mu.Lock()
	defer wr.mu.Unlock()
	if wr.err != nil {
		return wr.err
	}
	wr.frame = appendFrame(wr.frame[:0], msg)
	return wr.writeLine(wr.frame)
}

// writeLine writes line and flushes it. It runs under mu.
func (wr *writer) writeLine(line []byte) error {
	if _, err := wr.w.Write(line); err != nil {
		wr.err = err
		return err
	}
	if err := wr.w.Flush(); err != nil {
		wr.err = err
		return err
	}
	return nil
}
