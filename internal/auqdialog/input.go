package auqdialog

import "github.com/askuser/askuser/internal/textinput"

// textInput is the dialog's single-line text editor, internal/textinput.
type textInput = textinput.Input

// inputOptions are the input's: a word ends at an ASCII space, and since
// no key yanks, deletions keep nothing.
var inputOptions = textinput.Options{SpaceWords: true, NoYank: true}

func newTextInput(s string) textInput { return textinput.New(s, inputOptions) }
