package dialog

import "github.com/askuser/askuser/internal/theme"

// Theme is the set of styles the dialog draws with, one per role
// (accent, muted, selection, warning, error, border, and bold and code
// inside previews). A host such as Pi fills it with its own colours.
type Theme = theme.Theme

// Style is an SGR pair put around styled text; the zero Style leaves text
// as it is.
type Style = theme.Style

// DefaultTheme returns askuser's own theme: basic ANSI foreground colours
// that read on dark and light terminals alike.
func DefaultTheme() Theme { return theme.Default() }

// PlainTheme returns a theme with no styling, for terminals without
// colour and for tests.
func PlainTheme() Theme { return theme.Plain() }
