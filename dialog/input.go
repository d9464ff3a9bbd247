package dialog

import "github.com/askuser/askuser/internal/textinput"

// textInput is the dialog's single-line text editor: internal/textinput
// with its zero Options, so that the zero value is an empty input whose
// words are separated by any white space and whose deletions Yank can
// insert again.
type textInput = textinput.Input

func newTextInput(s string) textInput { return textinput.New(s, textinput.Options{}) }
