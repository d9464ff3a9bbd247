// Package theme holds the few colour roles the dialog and the Markdown
// renderer draw with, so that a host such as Pi can supply its own colours.
package theme

// Style is an SGR sequence pair put around styled text. The zero Style
// leaves text as it is.
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

// Theme is the set of roles. Each role is used for one purpose only.
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

// Default returns a theme of basic ANSI colours that reads on dark and
// light terminals alike: it sets foregrounds only, never a background.
func Default() Theme {
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

// Plain returns a theme with no styling at all, for tests and for
// terminals without colour.
func Plain() Theme { return Theme{} }
