package tooltext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/askuser/askuser/contract"
)

const noInvent = "Do not invent an answer, and do not assume what the user would have chosen."

// ForModel returns the tool result text the model reads for res, the
// outcome of req. req should be the normalized request; it may be nil, for
// example when the request was invalid, and the text then names no
// question.
//
//   - answered: every answer, per question, and a reminder to use only
//     these answers;
//   - aborted and timeout: that there is no answer, with no advice to ask
//     again in text, because the user may already have seen the dialog;
//   - a UI that could not run or finish (unsupported_mode, invalid_config,
//     not_initialized, custom_ui_failed, native_ui_failed): advice to ask
//     the user in ordinary text, with every question, its prompt, its
//     numbered options and its fields;
//   - invalid_request: the problems, and advice to fix the call;
//   - empty_answer, internal and anything unknown: the error, plainly.
//
// Every text tells the model not to invent an answer.
func ForModel(req *contract.Request, res contract.Result) string {
	var b strings.Builder
	switch res.Status {
	case contract.StatusAnswered:
		answered(&b, req, res.Answers)
	case contract.StatusAborted:
		if res.CancelledReason == contract.CancelUser {
			b.WriteString("The user dismissed the questions without answering. There is no answer.\n")
		} else {
			b.WriteString("The questions were cancelled before the user answered: the call was aborted. There is no answer.\n")
		}
		b.WriteString(noInvent + "\n")
	case contract.StatusTimeout:
		b.WriteString("The user did not answer in time: the questions timed out. There is no answer.\n")
		b.WriteString(noInvent + "\n")
	case contract.StatusError:
		failed(&b, req, res.Error)
	default:
		fmt.Fprintf(&b, "ask_user ended with an unknown status %q. There is no answer.\n%s\n", res.Status, noInvent)
	}
	if len(res.Warnings) > 0 {
		b.WriteString("\nNotes on your call:\n")
		for _, w := range res.Warnings {
			b.WriteString("- " + oneLine(w) + "\n")
		}
	}
	return b.String()
}

func failed(b *strings.Builder, req *contract.Request, e *contract.Error) {
	code, msg := contract.ErrInternal, "no error was given"
	if e != nil {
		code, msg = e.Code, e.Message
	}
	switch code {
	case contract.ErrUnsupportedMode, contract.ErrInvalidConfig, contract.ErrNotInitialized,
		contract.ErrCustomUIFailed, contract.ErrNativeUIFailed:
		fmt.Fprintf(b, "The questions could not be shown to the user through a dialog (%s: %s). No answer was given.\n", code, msg)
		b.WriteString(noInvent + "\n")
		if req == nil || len(req.Questions) == 0 {
			b.WriteString("Ask the user yourself, in ordinary text in your reply, and wait for their answer.\n")
			return
		}
		b.WriteString("Ask the user yourself, in ordinary text in your reply, and wait for their answer. These are the questions to ask:\n\n")
		listing(b, req)
	case contract.ErrInvalidRequest:
		// The message of contract.InvalidRequestMessage says what is
		// wrong and what to do, as the JSON result gives it; the text
		// says it once, as sentences.
		b.WriteString(sentence(msg) + "\n")
		if !strings.Contains(msg, "call ask_user again") {
			b.WriteString("Fix the call and call ask_user again.\n")
		}
		b.WriteString("No answer was given. " + noInvent + "\n")
	case contract.ErrEmptyAnswer:
		fmt.Fprintf(b, "The user's answer came back empty (%s: %s). There is no usable answer.\n%s\n", code, msg, noInvent)
	default:
		fmt.Fprintf(b, "ask_user failed (%s: %s). There is no answer.\n%s\n", code, msg, noInvent)
	}
}

// sentence is msg, a Go-style message, as the start of a sentence: with
// a capital letter.
func sentence(msg string) string {
	r, n := utf8.DecodeRuneInString(msg)
	return string(unicode.ToUpper(r)) + msg[n:]
}

func answered(b *strings.Builder, req *contract.Request, answers []contract.Answer) {
	b.WriteString("The user answered:\n\n")
	for i, a := range answers {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "%d. %s\n", a.Index+1, oneLine(a.Title))
		switch a.Kind {
		case contract.KindBool:
			if a.Value != nil {
				fmt.Fprintf(b, "   Answer: %s\n", yesNo(a.Value.Bool))
			}
		case contract.KindForm:
			formAnswer(b, question(req, a), a.Value)
		case contract.KindInput:
			fmt.Fprintf(b, "   Wrote: %s\n", strconv.Quote(a.FreeText))
		default:
			switch {
			case len(a.Selections) > 0:
				fmt.Fprintf(b, "   Selected: %s\n", quoteList(a.Selections))
				if a.FreeText != "" {
					fmt.Fprintf(b, "   Also wrote: %s\n", strconv.Quote(a.FreeText))
				}
			case a.FreeText != "":
				fmt.Fprintf(b, "   Chose no option and wrote: %s\n", strconv.Quote(a.FreeText))
			default:
				b.WriteString("   Selected nothing.\n")
			}
		}
		switch {
		case a.UsedDefault && a.Kind == contract.KindForm:
			b.WriteString("   (Some of these values are defaults the user kept.)\n")
		case a.UsedDefault:
			b.WriteString("   (The user kept the default.)\n")
		}
	}
	b.WriteString("\nThese are the user's own answers. Act on them as given; do not invent answers to anything the user was not asked.\n")
}

func formAnswer(b *strings.Builder, q *contract.Question, v *contract.AnswerValue) {
	if v == nil || len(v.Form) == 0 {
		b.WriteString("   No field was filled in.\n")
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
			indented(b, "   ", q.Prompt)
		}
		switch kindOf(q) {
		case contract.KindSingle:
			b.WriteString("   Choose one" + defaultText(q.Default, " (default: %s)") + ":\n")
			options(b, "   ", q.Options)
			if free {
				b.WriteString("   Or answer in your own words.\n")
			}
		case contract.KindMulti:
			b.WriteString("   Choose one or more" + defaultText(q.Default, " (default: %s)") + ":\n")
			options(b, "   ", q.Options)
			if free {
				b.WriteString("   Or answer in your own words.\n")
			}
		case contract.KindBool:
			b.WriteString("   Answer yes or no" + defaultText(q.Default, " (default: %s)") + ".\n")
		case contract.KindForm:
			b.WriteString("   A form with these fields:\n")
			for _, f := range q.Fields {
				formField(b, f)
			}
		default:
			b.WriteString("   Answer in your own words" + defaultText(q.Default, " (default: %s)") + ".\n")
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

func indented(b *strings.Builder, indent, text string) {
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString(strings.TrimRight(indent+line, " ") + "\n")
	}
}
