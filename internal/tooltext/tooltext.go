// Package tooltext holds the text the model reads about ask_user: the tool's
// description, its usage guidelines, and the tool result for each outcome.
//
// The text is plain text for a model, not terminal output. It always tells
// the model not to invent an answer. The package is pure and safe for
// concurrent use.
package tooltext

import (
	_ "embed"
	"strings"
)

//go:embed description.md
var description string

//go:embed guidelines.md
var guidelines string

// Description returns the tool's description for the model.
func Description() string { return strings.TrimSpace(description) }

// Guidelines returns the guidelines for the model on when to ask and when
// not to, one sentence or two each, in order. The slice is a fresh copy.
func Guidelines() []string {
	var out []string
	for _, line := range strings.Split(guidelines, "\n") {
		if g, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
			out = append(out, g)
		}
	}
	return out
}
