package auq

import (
	"bytes"
	_ "embed" // AskUserQuestion.md
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/strictjson"
)

// The text the model reads about AskUserQuestion is in
// AskUserQuestion.md, and what both tools say in internal/strictjson's
// shared.md; see strictjson.LoadModelText. A result text says what
// happened and never suggests an answer the user did not give, and
// always tells the model not to invent one.

//go:embed AskUserQuestion.md
var modelTextFile string

var modelTexts strictjson.LazyModelText

// modelText is the text of AskUserQuestion.
func modelText() *strictjson.ModelText {
	return modelTexts.Get(ToolName, modelTextFile, "code", "message", "status", "error")
}

// Description returns AskUserQuestion's description for the model.
func Description() string { return modelText().Description() }

// Guidelines returns the guidelines for the model on when to ask with
// AskUserQuestion and how, one sentence or two each, in order. The slice
// is a fresh copy.
func Guidelines() []string { return modelText().Guidelines() }

// ShimTexts returns the sentences the Pi package's TypeScript shim gives
// the model when it cannot reach askuser at all, as contract.ShimTexts
// does for ask_user, naming AskUserQuestion. The map is a fresh copy.
func ShimTexts() map[string]string { return modelText().ShimTexts() }

// writeJSON writes v as one line of JSON and a newline.
func writeJSON(b *strings.Builder, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// An answer of an unknown kind: CheckResult refuses it first.
		modelText().Line(b, "unwritable", "error", err.Error())
		return
	}
	b.Write(buf.Bytes())
}

// ResultText returns the tool result text the model reads for
// out, the outcome of req, in the words of AskUserQuestion.md. req may be
// nil, for example when the request was invalid, and the text then lists
// no question. Besides what happened, the text holds the result as JSON:
// the complete result when the user submitted, and {"cancelled":true}
// with the metadata when the call was dismissed, timed out or aborted; a
// dismissal also asks the model to end its turn, since the user chose to
// stop. An error for which no dialog could run or finish (see
// contract.ErrorCode.NoDialog) advises the model to ask the user in
// ordinary text and lists every question, quoting every text as JSON
// quotes it; invalid_request gives the problems and asks the model to
// fix the call; any other error is told plainly.
//
// The text is for a model, not for a terminal, and is not sanitized: the
// model reads the result as JSON. It never holds a raw control
// character, though, since hosts show tool results on terminals: every
// one but the newline is written as a \u escape, which inside the JSON is
// the same text.
func ResultText(req *Request, out Outcome) string {
	t := modelText()
	var b strings.Builder
	switch out.Status {
	case StatusSubmitted:
		t.Line(&b, "submitted")
		writeJSON(&b, out.Result)
		t.Line(&b, "submitted-end")
	case StatusDismissed, StatusTimeout, StatusAborted:
		writeJSON(&b, Result{Cancelled: true, Metadata: out.Result.Metadata})
		t.Line(&b, string(out.Status))
	case StatusError:
		questionFailed(&b, req, out.Error)
	default:
		t.Line(&b, "unknown-status", "status", strconv.Quote(string(out.Status)))
	}
	return escapeControls(b.String())
}

func questionFailed(b *strings.Builder, req *Request, e *Error) {
	t := modelText()
	code, msg := string(contract.ErrInternal), "no error was given"
	if e != nil {
		code, msg = e.Code, e.Message
	}
	switch {
	case contract.ErrorCode(code).NoDialog():
		n := 0
		if req != nil {
			n = len(req.Questions)
		}
		t.AskInText(b, code, msg, n, func() { questionListing(b, req) })
	case contract.ErrorCode(code) == contract.ErrInvalidRequest:
		// The message of InvalidRequestMessage says what is wrong,
		// as the JSON result gives it; the text adds what to do, once.
		t.Line(b, "invalid-request", "message", strictjson.Sentence(msg))
	default:
		t.Line(b, "failed", "code", code, "message", msg)
	}
}

// questionListing writes the questions for the model to ask in text. Every text
// from the request is quoted as JSON quotes it, so that the model sees it
// exactly and nothing in it can break the list.
func questionListing(b *strings.Builder, req *Request) {
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
		fmt.Fprintf(b, "%d. %s (id %s, header %s; %s, %s):\n", i+1, jsonQuote(q.Question), jsonQuote(q.ID), jsonQuote(q.Header), need, how)
		for _, o := range q.Options {
			fmt.Fprintf(b, "   - %s (id %s): %s", jsonQuote(o.Label), jsonQuote(o.ID), jsonQuote(o.Description))
			if o.Recommended {
				b.WriteString(" (recommended)")
			}
			b.WriteString("\n")
			if o.Preview != "" {
				fmt.Fprintf(b, "     preview: %s\n", jsonQuote(o.Preview))
			}
		}
		modelText().Indented(b, "   ", "list-other")
	}
}

// jsonQuote quotes s as a JSON string.
func jsonQuote(s string) string {
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
