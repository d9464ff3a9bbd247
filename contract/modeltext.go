package contract

import (
	_ "embed" // ask_user.md
	"fmt"
	"strconv"
	"strings"

	"github.com/askuser/askuser/internal/strictjson"
)

// The text the model reads about ask_user is in ask_user.md, and what
// both tools say in internal/strictjson's shared.md; see
// strictjson.LoadModelText. A result text says what happened and never
// suggests an answer the user did not give, and always tells the model
// not to invent one. The text is plain text for a model, not terminal
// output.

//go:embed ask_user.md
var modelTextFile string

var modelTexts strictjson.LazyModelText

// modelText is the text of ask_user.
func modelText() *strictjson.ModelText {
	return modelTexts.Get("ask_user", modelTextFile, "code", "message", "status", "value", "text", "list", "default")
}

// Description returns ask_user's description for the model.
func Description() string { return modelText().Description() }

// Guidelines returns the guidelines for the model on when to ask with
// ask_user and how, one sentence or two each, in order. The slice is a
// fresh copy.
func Guidelines() []string { return modelText().Guidelines() }

// ShimTexts returns the sentences the Pi package's TypeScript shim gives
// the model when it cannot reach askuser at all (no binary, a dead
// child, a session that has ended), so that every sentence the model
// reads about ask_user comes from here. Each is a template: {reason}
// stands for the reason, which the shim fills in. The keys are the
// shim's names for the cases. The map is a fresh copy.
func ShimTexts() map[string]string { return modelText().ShimTexts() }

// NoDialog reports whether c says that no dialog could run or finish
// (unsupported_mode, invalid_config, not_initialized, custom_ui_failed,
// native_ui_failed), so that the model should ask the user in ordinary
// text instead. Both tools' result texts advise so for these codes.
func (c ErrorCode) NoDialog() bool {
	switch c {
	case ErrUnsupportedMode, ErrInvalidConfig, ErrNotInitialized, ErrCustomUIFailed, ErrNativeUIFailed:
		return true
	}
	return false
}

// ResultText returns the tool result text the model reads for res, the
// outcome of req, in the words of ask_user.md. req should be the
// normalized request; it may be nil, for example when the request was
// invalid, and the text then names no question. An answered result gives
// every answer, per question, and a reminder to use only these answers;
// aborted and timeout say that there is no answer, with no advice to ask
// again in text, because the user may already have seen the dialog. An
// error for which no dialog could run or finish (see ErrorCode.NoDialog)
// advises the model to ask the user in ordinary text and lists every
// question with its options; invalid_request gives the problems and asks
// the model to fix the call; any other error is told plainly.
func ResultText(req *Request, res Result) string {
	t := modelText()
	var b strings.Builder
	switch res.Status {
	case StatusAnswered:
		answered(&b, req, res.Answers)
	case StatusAborted:
		if res.CancelledReason == CancelUser {
			t.Line(&b, "dismissed")
		} else {
			t.Line(&b, "aborted")
		}
	case StatusTimeout:
		t.Line(&b, "timeout")
	case StatusError:
		failed(&b, req, res.Error)
	default:
		t.Line(&b, "unknown-status", "status", strconv.Quote(string(res.Status)))
	}
	if len(res.Warnings) > 0 {
		b.WriteString("\n")
		t.Line(&b, "warnings")
		for _, w := range res.Warnings {
			b.WriteString("- " + oneLine(w) + "\n")
		}
	}
	return b.String()
}

func failed(b *strings.Builder, req *Request, e *Error) {
	t := modelText()
	code, msg := ErrInternal, "no error was given"
	if e != nil {
		code, msg = e.Code, e.Message
	}
	switch {
	case code.NoDialog():
		n := 0
		if req != nil {
			n = len(req.Questions)
		}
		t.AskInText(b, string(code), msg, n, func() { listing(b, req) })
	case code == ErrInvalidRequest:
		// The message of InvalidRequestMessage says what is
		// wrong and what to do, as the JSON result gives it; the text
		// says it once, as sentences.
		if strings.Contains(msg, "call ask_user again") {
			t.Line(b, "invalid-request-told", "message", strictjson.Sentence(msg))
		} else {
			t.Line(b, "invalid-request", "message", strictjson.Sentence(msg))
		}
	case code == ErrEmptyAnswer:
		t.Line(b, "empty-answer", "code", string(code), "message", msg)
	default:
		t.Line(b, "failed", "code", string(code), "message", msg)
	}
}

func answered(b *strings.Builder, req *Request, answers []Answer) {
	t := modelText()
	t.Line(b, "answered")
	b.WriteString("\n")
	for i, a := range answers {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "%d. %s\n", a.Index+1, oneLine(a.Title))
		switch a.Kind {
		case KindBool:
			if a.Value != nil {
				t.Indented(b, "   ", "answer-bool", "value", yesNo(a.Value.Bool))
			}
		case KindForm:
			formAnswer(b, question(req, a), a.Value)
		case KindInput:
			t.Indented(b, "   ", "answer-wrote", "text", strconv.Quote(a.FreeText))
		default:
			switch {
			case len(a.Selections) > 0:
				t.Indented(b, "   ", "answer-selected", "list", quoteList(a.Selections))
				if a.FreeText != "" {
					t.Indented(b, "   ", "answer-also-wrote", "text", strconv.Quote(a.FreeText))
				}
			case a.FreeText != "":
				t.Indented(b, "   ", "answer-wrote-only", "text", strconv.Quote(a.FreeText))
			default:
				t.Indented(b, "   ", "answer-nothing")
			}
		}
		switch {
		case a.UsedDefault && a.Kind == KindForm:
			t.Indented(b, "   ", "answer-form-defaults")
		case a.UsedDefault:
			t.Indented(b, "   ", "answer-default")
		}
	}
	b.WriteString("\n")
	t.Line(b, "answered-end")
}

func formAnswer(b *strings.Builder, q *Question, v *AnswerValue) {
	if v == nil || len(v.Form) == 0 {
		modelText().Indented(b, "   ", "answer-form-empty")
		return
	}
	for _, e := range v.Form {
		name := e.Name
		if f := field(q, e.Name); f != nil {
			name = fmt.Sprintf("%s (%s)", oneLine(f.Label), e.Name)
		}
		fmt.Fprintf(b, "   %s: %s\n", name, value(e.Value))
	}
}

// question returns the question a answers, or nil.
func question(req *Request, a Answer) *Question {
	if req == nil || a.Index < 0 || a.Index >= len(req.Questions) {
		return nil
	}
	return &req.Questions[a.Index]
}

func field(q *Question, name string) *Field {
	if q == nil {
		return nil
	}
	for i := range q.Fields {
		if q.Fields[i].Name == name {
			return &q.Fields[i]
		}
	}
	return nil
}

// listing writes the questionnaire for the model to ask in text.
func listing(b *strings.Builder, req *Request) {
	t := modelText()
	if req.Header != "" {
		b.WriteString(oneLine(req.Header) + "\n\n")
	}
	free := req.FreeTextAllowed()
	for i, q := range req.Questions {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "%d. %s\n", i+1, oneLine(q.Title))
		if q.Prompt != "" {
			writeIndented(b, "   ", q.Prompt)
		}
		def := defaultText(q.Default, " (default: %s)")
		switch kindOf(q) {
		case KindSingle, KindMulti:
			name := "list-single"
			if kindOf(q) == KindMulti {
				name = "list-multi"
			}
			t.Indented(b, "   ", name, "default", def)
			options(b, "   ", q.Options)
			if free {
				t.Indented(b, "   ", "list-own-words-too")
			}
		case KindBool:
			t.Indented(b, "   ", "list-bool", "default", def)
		case KindForm:
			t.Indented(b, "   ", "list-form")
			for _, f := range q.Fields {
				formField(b, f)
			}
		default:
			t.Indented(b, "   ", "list-input", "default", def)
		}
	}
}

func formField(b *strings.Builder, f Field) {
	need := "optional"
	if f.Required {
		need = "required"
	}
	what := "text"
	switch f.Kind {
	case KindBool:
		what = "yes or no"
	case KindSingle:
		what = "choose one"
	case KindMulti:
		what = "choose one or more"
	}
	fmt.Fprintf(b, "   - %s (%s): %s, %s%s.\n", oneLine(f.Label), f.Name, what, need, defaultText(f.Default, ", default %s"))
	if f.Kind == KindSingle || f.Kind == KindMulti {
		options(b, "     ", f.Options)
	}
}

func options(b *strings.Builder, indent string, opts []Option) {
	for i, o := range opts {
		fmt.Fprintf(b, "%s%d) %s", indent, i+1, oneLine(o.Label))
		if o.Description != "" {
			b.WriteString(": " + oneLine(o.Description))
		}
		b.WriteString("\n")
	}
}

// kindOf is the kind of q, inferred as the contract does when it is unset.
func kindOf(q Question) Kind {
	if q.Kind != "" {
		return q.Kind
	}
	if len(q.Options) > 0 {
		return KindSingle
	}
	return KindInput
}

// defaultText formats a default with format, or returns "" for none.
func defaultText(v *Value, format string) string {
	if v == nil || v.Kind() == ValueNone {
		return ""
	}
	return fmt.Sprintf(format, value(*v))
}

func value(v Value) string {
	if b, ok := v.Bool(); ok {
		return yesNo(b)
	}
	if s, ok := v.String(); ok {
		return strconv.Quote(s)
	}
	if list, ok := v.Strings(); ok {
		if len(list) == 0 {
			return "none"
		}
		return quoteList(list)
	}
	return "none"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// oneLine keeps a title or label on its line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// writeIndented writes text, each of its lines after indent.
func writeIndented(b *strings.Builder, indent, text string) {
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString(strings.TrimRight(indent+line, " ") + "\n")
	}
}
