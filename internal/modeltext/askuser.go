package modeltext

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/askuser/askuser/contract"
)

// AskUserResult returns the tool result text the model reads for res, the
// outcome of req, in the words of ask_user.md. req should be the
// normalized request; it may be nil, for example when the request was
// invalid, and the text then names no question. An answered result gives
// every answer, per question, and a reminder to use only these answers;
// aborted and timeout say that there is no answer, with no advice to ask
// again in text, because the user may already have seen the dialog. An
// error is told as the package comment says.
func AskUserResult(req *contract.Request, res contract.Result) string {
	t := AskUser
	var b strings.Builder
	switch res.Status {
	case contract.StatusAnswered:
		answered(&b, req, res.Answers)
	case contract.StatusAborted:
		if res.CancelledReason == contract.CancelUser {
			t.line(&b, "dismissed")
		} else {
			t.line(&b, "aborted")
		}
	case contract.StatusTimeout:
		t.line(&b, "timeout")
	case contract.StatusError:
		failed(&b, req, res.Error)
	default:
		t.line(&b, "unknown-status", "status", strconv.Quote(string(res.Status)))
	}
	if len(res.Warnings) > 0 {
		b.WriteString("\n")
		t.line(&b, "warnings")
		for _, w := range res.Warnings {
			b.WriteString("- " + oneLine(w) + "\n")
		}
	}
	return b.String()
}

func failed(b *strings.Builder, req *contract.Request, e *contract.Error) {
	t := AskUser
	code, msg := contract.ErrInternal, "no error was given"
	if e != nil {
		code, msg = e.Code, e.Message
	}
	switch {
	case noDialog(code):
		n := 0
		if req != nil {
			n = len(req.Questions)
		}
		t.askInText(b, string(code), msg, n, func() { listing(b, req) })
	case code == contract.ErrInvalidRequest:
		// The message of contract.InvalidRequestMessage says what is
		// wrong and what to do, as the JSON result gives it; the text
		// says it once, as sentences.
		if strings.Contains(msg, "call ask_user again") {
			t.line(b, "invalid-request-told", "message", sentence(msg))
		} else {
			t.line(b, "invalid-request", "message", sentence(msg))
		}
	case code == contract.ErrEmptyAnswer:
		t.line(b, "empty-answer", "code", string(code), "message", msg)
	default:
		t.line(b, "failed", "code", string(code), "message", msg)
	}
}

func answered(b *strings.Builder, req *contract.Request, answers []contract.Answer) {
	t := AskUser
	t.line(b, "answered")
	b.WriteString("\n")
	for i, a := range answers {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "%d. %s\n", a.Index+1, oneLine(a.Title))
		switch a.Kind {
		case contract.KindBool:
			if a.Value != nil {
				t.indented(b, "   ", "answer-bool", "value", yesNo(a.Value.Bool))
			}
		case contract.KindForm:
			formAnswer(b, question(req, a), a.Value)
		case contract.KindInput:
			t.indented(b, "   ", "answer-wrote", "text", strconv.Quote(a.FreeText))
		default:
			switch {
			case len(a.Selections) > 0:
				t.indented(b, "   ", "answer-selected", "list", quoteList(a.Selections))
				if a.FreeText != "" {
					t.indented(b, "   ", "answer-also-wrote", "text", strconv.Quote(a.FreeText))
				}
			case a.FreeText != "":
				t.indented(b, "   ", "answer-wrote-only", "text", strconv.Quote(a.FreeText))
			default:
				t.indented(b, "   ", "answer-nothing")
			}
		}
		switch {
		case a.UsedDefault && a.Kind == contract.KindForm:
			t.indented(b, "   ", "answer-form-defaults")
		case a.UsedDefault:
			t.indented(b, "   ", "answer-default")
		}
	}
	b.WriteString("\n")
	t.line(b, "answered-end")
}

func formAnswer(b *strings.Builder, q *contract.Question, v *contract.AnswerValue) {
	if v == nil || len(v.Form) == 0 {
		AskUser.indented(b, "   ", "answer-form-empty")
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
func question(req *contract.Request, a contract.Answer) *contract.Question {
	if req == nil || a.Index < 0 || a.Index >= len(req.Questions) {
		return nil
	}
	return &req.Questions[a.Index]
}

func field(q *contract.Question, name string) *contract.Field {
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
func listing(b *strings.Builder, req *contract.Request) {
	t := AskUser
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
		case contract.KindSingle, contract.KindMulti:
			name := "list-single"
			if kindOf(q) == contract.KindMulti {
				name = "list-multi"
			}
			t.indented(b, "   ", name, "default", def)
			options(b, "   ", q.Options)
			if free {
				t.indented(b, "   ", "list-own-words-too")
			}
		case contract.KindBool:
			t.indented(b, "   ", "list-bool", "default", def)
		case contract.KindForm:
			t.indented(b, "   ", "list-form")
			for _, f := range q.Fields {
				formField(b, f)
			}
		default:
			t.indented(b, "   ", "list-input", "default", def)
		}
	}
}

func formField(b *strings.Builder, f contract.Field) {
	need := "optional"
	if f.Required {
		need = "required"
	}
	what := "text"
	switch f.Kind {
	case contract.KindBool:
		what = "yes or no"
	case contract.KindSingle:
		what = "choose one"
	case contract.KindMulti:
		what = "choose one or more"
	}
	fmt.Fprintf(b, "   - %s (%s): %s, %s%s.\n", oneLine(f.Label), f.Name, what, need, defaultText(f.Default, ", default %s"))
	if f.Kind == contract.KindSingle || f.Kind == contract.KindMulti {
		options(b, "     ", f.Options)
	}
}

func options(b *strings.Builder, indent string, opts []contract.Option) {
	for i, o := range opts {
		fmt.Fprintf(b, "%s%d) %s", indent, i+1, oneLine(o.Label))
		if o.Description != "" {
			b.WriteString(": " + oneLine(o.Description))
		}
		b.WriteString("\n")
	}
}

// kindOf is the kind of q, inferred as the contract does when it is unset.
func kindOf(q contract.Question) contract.Kind {
	if q.Kind != "" {
		return q.Kind
	}
	if len(q.Options) > 0 {
		return contract.KindSingle
	}
	return contract.KindInput
}

// defaultText formats a default with format, or returns "" for none.
func defaultText(v *contract.Value, format string) string {
	if v == nil || v.Kind() == contract.ValueNone {
		return ""
	}
	return fmt.Sprintf(format, value(*v))
}

func value(v contract.Value) string {
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

// indented writes the text name, filled in with args, after indent.
func (t *Tool) indented(b *strings.Builder, indent, name string, args ...string) {
	b.WriteString(indent)
	t.line(b, name, args...)
}

// writeIndented writes text, each of its lines after indent.
func writeIndented(b *strings.Builder, indent, text string) {
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString(strings.TrimRight(indent+line, " ") + "\n")
	}
}
