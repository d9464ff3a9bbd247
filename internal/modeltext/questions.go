package modeltext

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
)

// writeJSON writes v as one line of JSON and a newline.
func writeJSON(b *strings.Builder, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// An answer of an unknown kind: CheckResult refuses it first.
		AskUserQuestion.line(b, "unwritable", "error", err.Error())
		return
	}
	b.Write(buf.Bytes())
}

// AskUserQuestionResult returns the tool result text the model reads for
// out, the outcome of req, in the words of AskUserQuestion.md. req may be
// nil, for example when the request was invalid, and the text then lists
// no question. Besides what happened, the text holds the result as JSON:
// the complete result when the user submitted, and {"cancelled":true}
// with the metadata when the call was dismissed, timed out or aborted; a
// dismissal also asks the model to end its turn, since the user chose to
// stop. An error is told as the package comment says, and a listing of
// the questions quotes every text as JSON quotes it.
//
// The text is for a model, not for a terminal, and is not sanitized: the
// model reads the result as JSON. It never holds a raw control
// character, though, since hosts show tool results on terminals: every
// one but the newline is written as a \u escape, which inside the JSON is
// the same text.
func AskUserQuestionResult(req *auq.Request, out auq.Outcome) string {
	t := AskUserQuestion
	var b strings.Builder
	switch out.Status {
	case auq.StatusSubmitted:
		t.line(&b, "submitted")
		writeJSON(&b, out.Result)
		t.line(&b, "submitted-end")
	case auq.StatusDismissed, auq.StatusTimeout, auq.StatusAborted:
		writeJSON(&b, auq.Result{Cancelled: true, Metadata: out.Result.Metadata})
		t.line(&b, string(out.Status))
	case auq.StatusError:
		questionFailed(&b, req, out.Error)
	default:
		t.line(&b, "unknown-status", "status", strconv.Quote(string(out.Status)))
	}
	return escapeControls(b.String())
}

func questionFailed(b *strings.Builder, req *auq.Request, e *auq.Error) {
	t := AskUserQuestion
	code, msg := string(contract.ErrInternal), "no error was given"
	if e != nil {
		code, msg = e.Code, e.Message
	}
	switch {
	case noDialog(contract.ErrorCode(code)):
		n := 0
		if req != nil {
			n = len(req.Questions)
		}
		t.askInText(b, code, msg, n, func() { questionListing(b, req) })
	case contract.ErrorCode(code) == contract.ErrInvalidRequest:
		// The message of auq.InvalidRequestMessage says what is wrong,
		// as the JSON result gives it; the text adds what to do, once.
		t.line(b, "invalid-request", "message", sentence(msg))
	default:
		t.line(b, "failed", "code", code, "message", msg)
	}
}

// questionListing writes the questions for the model to ask in text. Every text
// from the request is quoted as JSON quotes it, so that the model sees it
// exactly and nothing in it can break the list.
func questionListing(b *strings.Builder, req *auq.Request) {
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
		AskUserQuestion.indented(b, "   ", "list-other")
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
