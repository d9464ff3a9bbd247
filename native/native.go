// Package native is the native route: it asks a questionnaire through a
// host's own dialogs, one logical question at a time, with single-line
// input boxes and, where the host has them, selectors.
package native

import "context"

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
