// Package native is the native route of both contracts: it asks through a
// host's own dialogs, one question at a time, instead of drawing the
// questionnaire. A host offers two kinds of dialog, small interfaces
// defined here: an Inputter, a single-line input box, and a Selector, a
// list to choose from. A file per contract and per host puts them to use:
//
//   - Renderer (askuser.go, parse.go) asks ask_user requests through an
//     Inputter and, where the host has one, a Selector.
//   - QuestionDialogs (auq_dialogs.go) asks AskUserQuestion requests through
//     a Selector and an Inputter, such as Pi's select and input dialogs.
//   - QuestionLines (auq_lines.go) asks AskUserQuestion requests
//     through an Inputter alone, such as the line prompts of a terminal.
//   - Prompter (terminal.go) is the terminal's Inputter and Selector: plain
//     line prompts that any terminal and screen reader can follow.
//
// Both contracts read a reply of option numbers ("2", "1,3", "1 3") with
// one reader, readNumbers in numbers.go; each contract says in its own
// words what is wrong with a reply.
//
// # ask_user replies
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
// # AskUserQuestion through lists
//
// Each question is one list, asked in turn: its options (with the
// recommended one marked, and the previews of a single-select question
// in the list's title), "Other…" for an answer in the user's own words,
// "Add a note…" for a note on the question or on one option, and, for an
// optional question, "Skip". A multi-select question lists its options
// with ticks; choosing one ticks or unticks it, and "Done" answers (twice
// in a row when nothing is ticked). With several questions, a review list
// follows the last one: submit, or go back to any question. Dismissing
// the question list (or the review) dismisses the whole call; dismissing
// an input or a sub-list goes back to the question and keeps what was
// saved.
//
// # AskUserQuestion through input boxes
//
// It asks one question at a time. The box lists the options numbered
// from 1, the recommended one marked and a single-select option's preview
// under it, and the automatic Other answer last. The reply is an option
// number, or for a multi-select question several separated by commas or
// spaces; any other text is the Other answer itself, and the number of
// Other asks for that text in a second box. "-" skips an optional
// question, as an empty reply does on a single-select one; on a
// multi-select question an empty reply warns first and answers with no
// option the second time in a row, as the dialog does. A reply that is
// not accepted opens the box again, its title saying why.
//
// After each answer a notes box takes notes one line at a time until an
// empty line: "2: text" notes option 2 (the number of Other notes the
// Other answer), and any other line is the note on the question, the
// last one kept. With several questions a review follows: it lists the
// answers and notes, an empty reply submits, and a question's number asks
// it again. Dismissing any box (Esc, then Enter, on a terminal) dismisses
// the whole request.
//
// # The terminal
//
// A Prompter prints a title and numbered choices, then reads one line. It
// uses no cursor movement and no colour, and it is the native route of
// `askuser ask`. The terminal stays in its normal line mode, so the
// terminal itself does the line editing. Ending a line with Esc (Esc,
// then Enter) or typing the end of input (Ctrl+D on an empty line)
// dismisses the prompt. The time left, when the context has a deadline,
// is printed with each prompt; when the context ends the prompt returns
// at once, even while a read is blocked.
//
// # Untrusted text
//
// Titles, prompts and labels come from the model. The flows pass them to
// the Inputter and Selector unchanged; each of those must make them safe
// for its own display, as the Prompter does through safetext.
package native

import (
	"context"
	"errors"
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

// errDismissed carries a dismissal inside a flow or a prompt; it never
// leaves the package, where a dismissal is a result, not an error.
var errDismissed = errors.New("dismissed")
