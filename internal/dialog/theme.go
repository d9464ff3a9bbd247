package dialog

// Style is an SGR sequence pair put around styled text. The zero Style
// leaves text as it is. The Theme is made of them, and the Markdown
// previews are drawn with them.
type Style struct {
	Prefix, Suffix string
}

// Render returns s wrapped in the style. Empty text stays empty.
func (st Style) Render(s string) string {
	if s == "" || (st.Prefix == "" && st.Suffix == "") {
		return s
	}
	return st.Prefix + s + st.Suffix
}

// Theme is the set of styles both dialogs draw with, one per role. Each
// role is used for one purpose only. A host such as Pi fills it with its
// own colours.
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

// DefaultTheme returns askuser's own theme: basic ANSI foreground colours
// that read on dark and light terminals alike. It sets foregrounds only,
// never a background.
func DefaultTheme() Theme {
	fg := func(code string) Style { return Style{Prefix: "\x1b[" + code + "m", Suffix: "\x1b[39m"} }
	return Theme{
		Accent:    fg("36"),
		Muted:     fg("90"),
		Selection: fg("32"),
		Warning:   fg("33"),
		Error:     fg("31"),
		Border:    fg("90"),
		Bold:      Style{Prefix: "\x1b[1m", Suffix: "\x1b[22m"},
		Code:      fg("35"),
	}
}

// PlainTheme returns a theme with no styling at all, for terminals
// without colour and for tests.
func PlainTheme() Theme { return Theme{} }

// previewStyles are the roles a Markdown preview is drawn with.
func (th Theme) previewStyles() markdownStyles {
	return markdownStyles{Accent: th.Accent, Muted: th.Muted, Border: th.Border, Bold: th.Bold, Code: th.Code}
}
