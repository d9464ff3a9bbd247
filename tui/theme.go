package tui

import "github.com/askuser/askuser/internal/dialog"

// Theme is the dialog's colours: one Style for each role (accent, muted
// text, selection, warning, error, border, bold and code in previews).
type Theme = dialog.Theme

// Style is an SGR sequence pair put around styled text. The zero Style
// leaves text as it is.
type Style = dialog.Style

// DefaultTheme returns askuser's own theme: basic ANSI foreground colours
// that read on dark and light terminals alike, never a background.
func DefaultTheme() Theme { return dialog.DefaultTheme() }

// PlainTheme returns the theme without any colour.
func PlainTheme() Theme { return dialog.PlainTheme() }
