package tui

import "github.com/askuser/askuser/internal/dialog"

// Theme is the dialog's colours: one Style for each role. Each role is used
// for one purpose only; a host such as Pi fills it with its own colours.
type Theme struct {
	Accent    Style // focus marker, active tab, headings
	Muted     Style // descriptions, hints, inactive text
	Selection Style // check marks and chosen values
	Warning   Style // the countdown when little time is left, notices
	Error     Style // validation messages
	Border    Style // frame and separators
	Bold      Style // emphasis inside previews
	Code      Style // inline code and code blocks in previews
}

// Style is an SGR sequence pair put around styled text. The zero Style
// leaves text as it is.
type Style struct {
	Prefix, Suffix string
}

// Render returns s wrapped in the style. Empty text stays empty.
func (st Style) Render(s string) string { return dialog.Style(st).Render(s) }

// DefaultTheme returns askuser's own theme: basic ANSI foreground colours
// that read on dark and light terminals alike, never a background.
func DefaultTheme() Theme { return themeOf(dialog.DefaultTheme()) }

// PlainTheme returns the theme without any colour.
func PlainTheme() Theme { return Theme{} }

// themeOf converts the dialog's theme to a Theme.
func themeOf(t dialog.Theme) Theme {
	return Theme{
		Accent: Style(t.Accent), Muted: Style(t.Muted), Selection: Style(t.Selection), Warning: Style(t.Warning),
		Error: Style(t.Error), Border: Style(t.Border), Bold: Style(t.Bold), Code: Style(t.Code),
	}
}

// dialogTheme returns the dialog's theme for t, or its default for nil.
func dialogTheme(t *Theme) dialog.Theme {
	if t == nil {
		return dialog.DefaultTheme()
	}
	return dialog.Theme{
		Accent: dialog.Style(t.Accent), Muted: dialog.Style(t.Muted), Selection: dialog.Style(t.Selection), Warning: dialog.Style(t.Warning),
		Error: dialog.Style(t.Error), Border: dialog.Style(t.Border), Bold: dialog.Style(t.Bold), Code: dialog.Style(t.Code),
	}
}
