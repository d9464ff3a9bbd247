// Package popup shows a questionnaire in a terminal popup for a process
// that has no terminal of its own, such as an MCP server started by an
// agent. The Renderer opens a private unix socket and asks a Launcher to
// start a helper command in a popup window. The helper connects and hands
// over its terminal, and the Renderer draws the dialog on it: the dialog,
// with every answer, lives in the Renderer's process, so that the popup
// can close while the user hides the dialog and open again, on the same
// state, when the user brings it back.
//
// The socket lives in a directory only the user can enter, is itself mode
// 0600, and takes connections that must first present a random token
// read from a file beside it. The helper's first line is a Hello; the
// Renderer answers a good one with a Ready line, and the helper then sends
// its terminal's file descriptor with a single byte, and after that only
// Report lines. Each connection has its handshake on its own, within a
// few seconds, so that one that says nothing holds up no other. Everything but that byte is one JSON object per line, of
// at most MaxLine bytes, decoded strictly: unknown members, duplicate
// keys, invalid UTF-8 and unpaired surrogate escapes are refused. A
// connection whose first line is not a good Hello is closed without an
// answer, and the Renderer waits for the next. When the Renderer closes
// the connection the helper exits, and its popup closes.
package popup

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/askuser/askuser/internal/safetext"
	"github.com/askuser/askuser/internal/strictjson"
)

// MaxLine bounds one line on the socket.
const MaxLine = 1 << 20

// Hello is the helper's first line: the token that proves it was started
// by the Renderer, and the variables of its environment that say what its
// terminal can show (see TermEnv).
type Hello struct {
	Token string   `json:"token"`
	Env   []string `json:"env,omitempty"`
}

// TermEnv lists the environment variables a Hello may carry: the ones
// that tell a terminal program which colours and features to use.
var TermEnv = []string{"TERM", "COLORTERM", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM_PROGRAM"}

// checkEnv checks a Hello's environment: NAME=value entries, each of a
// name in TermEnv, at most once.
func checkEnv(env []string) error {
	seen := map[string]bool{}
	for i, e := range env {
		name, _, ok := strings.Cut(e, "=")
		if !ok {
			return fmt.Errorf("popup: env[%d] has no \"=\"", i)
		}
		if !slices.Contains(TermEnv, name) {
			return fmt.Errorf("popup: env[%d] names %q, which is not one of %s", i, safetext.Line(name), strings.Join(TermEnv, ", "))
		}
		if seen[name] {
			return fmt.Errorf("popup: env[%d] names %s a second time", i, name)
		}
		seen[name] = true
	}
	return nil
}

// Ready is the Renderer's answer to a good Hello: send the terminal.
type Ready struct {
	Type string `json:"type"` // "ready"
}

// ReportResize is the one kind of Report: the helper's terminal changed
// size.
const ReportResize = "resize"

// Report is a line the helper sends after its terminal.
type Report struct {
	Type string `json:"type"`
}

// lineReader reads the lines of the socket, each at most MaxLine bytes.
type lineReader struct{ r *strictjson.LineReader }

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: strictjson.NewLineReader(r, MaxLine)}
}

// next returns the next line without its newline. A last line without a
// newline is io.ErrUnexpectedEOF: the peer went away mid-message.
func (l *lineReader) next() ([]byte, error) {
	line, err := l.r.Next()
	if tl := new(strictjson.LineTooLongError); errors.As(err, &tl) {
		return nil, fmt.Errorf("popup: a line on the socket is %w", err)
	}
	if err != nil {
		return nil, err
	}
	return line, nil
}

// decodeStrict decodes one JSON object into v, refusing unknown members,
// anything after it, and what encoding/json would let through changed:
// invalid UTF-8, unpaired surrogate escapes and duplicate keys.
func decodeStrict(line []byte, v any) error {
	switch err := strictjson.DecodeOne(line, v); {
	case errors.Is(err, strictjson.ErrTrailing):
		return errors.New("popup: bad message: data after the object")
	case err != nil:
		return fmt.Errorf("popup: bad message: %w", err)
	}
	if err := strictjson.Check(line, nil); err != nil {
		return fmt.Errorf("popup: bad message: %w", err)
	}
	return nil
}

// DecodeReport decodes and checks one Report line.
func DecodeReport(line []byte) (Report, error) {
	var r Report
	if err := decodeStrict(line, &r); err != nil {
		return Report{}, err
	}
	if r.Type != ReportResize {
		return Report{}, fmt.Errorf("popup: unknown report type %q", safetext.Line(r.Type))
	}
	return r, nil
}
