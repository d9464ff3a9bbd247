// Package native is the native route: it asks a questionnaire through a
// host's own dialogs, one logical question at a time, with single-line
// input boxes and, where the host has them, selectors.
//
// # Replies
//
// A choice question with free text allowed opens one box listing the
// numbered options. The reply is an option number ("2"), a number and a
// note ("2 | needs a review"), or free text; a multi question takes a
// number list separated by commas, spaces, "，" or "、" ("1,3", "1 3",
// "1、3"). A reply counts as numbers when the part before its first "|"
// holds only digits and separators; anything else is free text. Numbers
// out of range, repeated, or malformed ("1.5", "1-3") are never taken as
// free text: the box opens again and its title says what was wrong. See
// ParseChoice.
//
// A bool box takes true or false; yes, no, y and n are accepted too, in
// any case. An empty reply is accepted only when the question has a
// default, and then the answer is the default.
//
// With allowFreeText:false, single and bool questions and form fields use
// the host's Selector (a bool is the two choices "True" and "False", never
// a yes/no confirmation, which cannot tell "no" from a dismissal), with a
// "Keep default" choice when there is a default and a "Skip" choice on an
// optional field without one. Multi questions keep a numbers-only box, and
// text stays a text box.
//
// A form opens one dialog per field, in order, under the same deadline:
// bool fields take true or false, choice fields take only option numbers
// and return labels, and an optional field left empty is omitted, or set
// to its default when it has one.
//
// Dismissing any dialog ends the whole questionnaire as dismissed; when
// the context is done, the flow stops at once.
//
// # Untrusted text
//
// Titles, prompts and labels come from the model. This package passes them
// to the Inputter and Selector unchanged; each of those must make them safe
// for its own display (a terminal one through safetext).
package native

import (
	"context"
	"fmt"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
)

// Inputter shows a single-line input box. It returns the text entered, or
// ok=false when the user dismissed the box. It returns when ctx is done.
type Inputter interface {
	Input(ctx context.Context, title, placeholder string) (text string, ok bool, err error)
}

// Selector shows a list of choices and returns the one chosen, or ok=false
// when the user dismissed the list. It returns when ctx is done.
type Selector interface {
	Select(ctx context.Context, title string, choices []string) (choice string, ok bool, err error)
}

// Renderer asks questionnaires through an Inputter and an optional
// Selector. It implements ask.Renderer and ask.Checker. A Renderer holds
// no state between calls and is safe for concurrent use when its Inputter
// and Selector are.
type Renderer struct {
	in  Inputter
	sel Selector
}

var (
	_ ask.Renderer = (*Renderer)(nil)
	_ ask.Checker  = (*Renderer)(nil)
)

// New returns a native Renderer that asks through in, which must not be
// nil, and sel, which is nil when the host has no selector. Without a
// selector, Check refuses requests that need one.
func New(in Inputter, sel Selector) *Renderer {
	if in == nil {
		panic("native: New needs an Inputter")
	}
	return &Renderer{in: in, sel: sel}
}

// Check reports, before any dialog opens, whether r can ask req: with
// allowFreeText:false, single and bool questions and form fields need a
// Selector, and there is no fallback to a text box.
func (r *Renderer) Check(req *contract.Request) error {
	if r.sel != nil || req.FreeTextAllowed() {
		return nil
	}
	for i, q := range req.Questions {
		switch q.Kind {
		case contract.KindSingle, contract.KindBool:
			return fmt.Errorf("questions[%d] is a %s question and allowFreeText is false, which needs a selector, and this host's native dialogs have none", i, q.Kind)
		case contract.KindForm:
			for j, f := range q.Fields {
				if f.Kind == contract.KindSingle || f.Kind == contract.KindBool {
					return fmt.Errorf("questions[%d].fields[%d] is a %s field and allowFreeText is false, which needs a selector, and this host's native dialogs have none", i, j, f.Kind)
				}
			}
		}
	}
	return nil
}

// Render asks the questions of s.Request one at a time and returns their
// answers, or Outcome{Dismissed: true} when the user dismissed any dialog.
// When ctx is done, or the session's countdown expires, it returns at once
// with the context's cause. An error from the Inputter or Selector is
// returned as it is.
func (r *Renderer) Render(ctx context.Context, s *ask.Session) (ask.Outcome, error) {
	req := s.Request
	if err := r.Check(req); err != nil {
		return ask.Outcome{}, err
	}
	if d, ok := s.Countdown.Deadline(); ok {
		// The core owns the deadline; carrying it in the context lets the
		// dialogs show the time left and hosts pass it on as a timeout.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d)
		defer cancel()
	}
	f := &flow{in: r.in, sel: r.sel, req: req, free: req.FreeTextAllowed()}
	answers := make([]contract.Answer, 0, len(req.Questions))
	for i := range req.Questions {
		a, ok, err := f.question(ctx, i)
		if err != nil {
			return ask.Outcome{}, err
		}
		if !ok {
			return ask.Outcome{Dismissed: true}, nil
		}
		answers = append(answers, a)
	}
	return ask.Outcome{Answers: answers}, nil
}
