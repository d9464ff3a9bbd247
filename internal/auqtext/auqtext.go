// Package auqtext holds the text the model reads about AskUserQuestion:
// the tool's description, its guidelines, and the tool result for each
// outcome of a call.
//
// The text is for a model, not for a terminal, and is not sanitized: the
// model reads the result as JSON. It never holds a raw control
// character, though, since hosts show tool results on terminals: every
// one but the newline is written as a \u escape, which inside the JSON is
// the same text. Every text tells the model not to invent an answer. The
// package is pure and safe for concurrent use.
package auqtext

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
)

//go:embed description.md
var description string

//go:embed guidelines.md
var guidelines string

// Description returns the tool's description for the model.
func Description() string { return strings.TrimSpace(description) }

// Guidelines returns the guidelines for the model on when to ask and
// how, one sentence or two each, in order. The slice is a fresh copy.
func Guidelines() []string {
	var out []string
	for _, line := range strings.Split(guidelines, "\n") {
		if g, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
			out = append(out, g)
		}
	}
	return out
}

const noInvent = "Do not invent an answer, and do not assume what the user would have chosen."

// ForModel returns the tool result text the model reads for out, the
// outcome of req. req may be nil, for example when the request was
// invalid, and the text then lists no question.
//
//   - submitted: a short line, then the complete result as JSON, then a
//     reminder to act on these answers only;
//   - dismissed, timeout and aborted: the cancelled result as JSON
//     ({"cancelled":true} and the metadata), and which of the three it
//     was; a dismissal also asks the model to end its turn, since the
//     user chose to stop;
//   - a dialog that could not run or finish (unsupported_mode,
//     invalid_config, not_initialized, custom_ui_failed,
//     native_ui_failed): advice to ask the user in ordinary text, with
//     every question and its options, their ids, labels and descriptions;
//   - invalid_request: the problems, and advice to fix the call;
//   - any other error or status: what happened, plainly.
//
// Every text tells the model not to invent an answer.
func ForModel(req *auq.Request, out auq.Outcome) string {
	var b strings.Builder
	switch out.Status {
	case auq.StatusSubmitted:
		b.WriteString("The user submitted their answers. The complete result, with answers and annotations keyed by question id:\n")
		writeJSON(&b, out.Result)
		b.WriteString("These are the user's own answers and notes. Act on them as given; " +
			"do not invent an answer to a question the user left unanswered or was not asked.\n")
	case auq.StatusDismissed:
		cancelled(&b, out.Result)
		b.WriteString("The user dismissed the questions without answering: there is no answer. " + noInvent + "\n")
		b.WriteString("The user chose to stop here. End your turn now and wait for their next message; do not go on with the task and do not ask the same questions in your reply.\n")
	case auq.StatusTimeout:
		cancelled(&b, out.Result)
		b.WriteString("The user did not answer in time: the questions timed out, and there is no answer. " + noInvent + "\n")
	case auq.StatusAborted:
		cancelled(&b, out.Result)
		b.WriteString("The questions were cancelled before the user answered: the call was aborted, and there is no answer. " + noInvent + "\n")
	case auq.StatusError:
		failed(&b, req, out.Error)
	default:
		fmt.Fprintf(&b, "AskUserQuestion ended with an unknown status %s. There is no answer. %s\n", strconv.Quote(string(out.Status)), noInvent)
	}
	return escapeControls(b.String())
}

func cancelled(b *strings.Builder, res auq.Result) {
	writeJSON(b, auq.Result{Cancelled: true, Metadata: res.Metadata})
}

// writeJSON writes v as one line of JSON and a newline.
func writeJSON(b *strings.Builder, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// An answer of an unknown kind: CheckResult refuses it first.
		fmt.Fprintf(b, "(the result cannot be written as JSON: %v)\n", err)
		return
	}
	b.Write(buf.Bytes())
}

func failed(b *strings.Builder, req *auq.Request, e *auq.Error) {
	code, msg := string(contract.ErrInternal), "no error was given"
	if e != nil {
		code, msg = e.Code, e.Message
	}
	switch contract.ErrorCode(code) {
	case contract.ErrUnsupportedMode, contract.ErrInvalidConfig, contract.ErrNotInitialized,
		contract.ErrCustomUIFailed, contract.ErrNativeUIFailed:
		fmt.Fprintf(b, "The questions could not be shown to the user in a dialog (%s: %s). No answer was given. %s\n", code, msg, noInvent)
		if req == nil || len(req.Questions) == 0 {
			b.WriteString("Ask the user yourself, in ordinary text in your reply, and wait for their answer.\n")
			return
		}
		b.WriteString("Ask the user yourself, in ordinary text in your reply, and wait for their answer. These are the questions to ask:\n\n")
		listing(b, req)
	case contract.ErrInvalidRequest:
		// The message of auq.InvalidRequestMessage says what is wrong,
		// as the JSON result gives it; the text adds what to do, once.
		b.WriteString(sentence(msg) + "\n")
		b.WriteString("Fix the call and call AskUserQuestion again. No answer was given. " + noInvent + "\n")
	default:
		fmt.Fprintf(b, "AskUserQuestion failed (%s: %s). There is no answer. %s\n", code, msg, noInvent)
	}
}

// sentence is msg, a Go-style message, as the start of a sentence: with
// a capital letter.
func sentence(msg string) string {
	r, n := utf8.DecodeRuneInString(msg)
	return string(unicode.ToUpper(r)) + msg[n:]
}

// listing writes the questions for the model to ask in text. Every text
// from the request is quoted as JSON quotes it, so that the model sees it
// exactly and nothing in it can break the list.
func listing(b *strings.Builder, req *auq.Request) {
	for i := range req.Questions {
		q := &req.Questions[i]
		if i > 0 {
			b.WriteString("\n")
		}
		need := "required"
		if !q.IsRequired() {
			need = "optional"
		}
		how := "choose one"
		if q.MultiSelect {
			how = "choose any number"
		}
		fmt.Fprintf(b, "%d. %s (id %s, header %s; %s, %s):\n", i+1, quote(q.Question), quote(q.ID), quote(q.Header), need, how)
		for _, o := range q.Options {
			fmt.Fprintf(b, "   - %s (id %s): %s", quote(o.Label), quote(o.ID), quote(o.Description))
			if o.Recommended {
				b.WriteString(" (recommended)")
			}
			b.WriteString("\n")
			if o.Preview != "" {
				fmt.Fprintf(b, "     preview: %s\n", quote(o.Preview))
			}
		}
		b.WriteString("   - or an answer in the user's own words (Other)\n")
	}
}

// quote quotes s as a JSON string.
func quote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return strconv.Quote(s)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// escapeControls writes every control character of s but the newline, C1
// controls and DEL included, as a \u escape, and invalid UTF-8 as
// U+FFFD. encoding/json escapes C0 controls itself, but not DEL and C1
// controls, which some terminals obey.
func escapeControls(s string) string {
	clean := utf8.ValidString(s)
	for _, r := range s {
		if isControl(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		if isControl(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool {
	return r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f
}
