// Package popup shows a questionnaire in a terminal popup for a process
// that has no terminal of its own, such as an MCP server started by an
// agent. The Renderer opens a private unix socket, asks a Launcher to start
// a helper command in a popup window, and hands the helper the
// questionnaire over the socket; the helper runs the terminal dialog and
// sends the outcome back.
//
// The socket lives in a directory only the user can enter, is itself mode
// 0600, and takes one connection, which must first present a random token
// read from a file beside it. Everything on the socket is one JSON object
// per line, of at most MaxLine bytes, decoded strictly: unknown members,
// duplicate keys, invalid UTF-8 and unpaired surrogate escapes are
// refused. A connection whose first line is not a good Hello is closed
// without an answer, and the Renderer waits for the next; a bad report
// ends the call with an error saying what was wrong.
package popup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/linereader"
	"github.com/askuser/askuser/internal/strictjson"
)

// MaxLine bounds one line on the socket: a questionnaire is at most 256
// KiB, and its answers are smaller.
const MaxLine = 1 << 20

// Hello is the helper's first line: the token that proves it was started
// by the Renderer.
type Hello struct {
	Token string `json:"token"`
}

// Job is the Renderer's answer to a good Hello: what to show.
type Job struct {
	// Request is the normalized questionnaire.
	Request *contract.Request `json:"request"`
	// Display is the display mode of the dialog.
	Display contract.DisplayMode `json:"display"`
	// ToggleKey is the overlay's show/hide chord, "" when disabled.
	ToggleKey string `json:"toggleKey"`
	// RemainingMs is the time left until the deadline, 0 for none.
	RemainingMs int64 `json:"remainingMs"`
}

// The kinds of Report.
const (
	// ReportCountdownCancelled: the user stopped the countdown.
	ReportCountdownCancelled = "countdownCancelled"
	// ReportOutcome: the user answered or dismissed the questionnaire.
	ReportOutcome = "outcome"
	// ReportError: the dialog could not run.
	ReportError = "error"
)

// Report is a line the helper sends after the Job.
type Report struct {
	Type      string            `json:"type"`
	Dismissed bool              `json:"dismissed,omitempty"`
	Answers   []contract.Answer `json:"answers,omitempty"`
	Message   string            `json:"message,omitempty"`
}

// lineReader reads the lines of the socket, each at most MaxLine bytes.
type lineReader struct{ r *linereader.Reader }

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: linereader.New(r, MaxLine)}
}

// next returns the next line without its newline. A last line without a
// newline is io.ErrUnexpectedEOF: the peer went away mid-message.
func (l *lineReader) next() ([]byte, error) {
	line, err := l.r.Next()
	if tl := new(linereader.TooLongError); errors.As(err, &tl) {
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
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("popup: bad message: %w", err)
	}
	if dec.More() {
		return errors.New("popup: bad message: data after the object")
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
	switch r.Type {
	case ReportCountdownCancelled:
	case ReportOutcome:
		if !r.Dismissed && r.Answers == nil {
			return Report{}, errors.New("popup: an outcome needs answers or dismissed")
		}
		if r.Dismissed && len(r.Answers) > 0 {
			return Report{}, errors.New("popup: a dismissed outcome has no answers")
		}
	case ReportError:
		if r.Message == "" {
			return Report{}, errors.New("popup: an error report needs a message")
		}
	default:
		return Report{}, fmt.Errorf("popup: unknown report type %q", r.Type)
	}
	return r, nil
}
