package notify

import "strings"

// The sequences, as terminals define them.
const (
	// BEL is the bell.
	BEL = "\a"
	// TitlePush saves the window and icon titles on the terminal's title
	// stack (XTWINOPS 22;0); TitlePop restores them (23;0).
	TitlePush = "\x1b[22;0t"
	TitlePop  = "\x1b[23;0t"
	st        = "\x1b\\"
)

// SetTitle sets the window title to text (OSC 0 would set the icon
// title too on some terminals only; OSC 2 is the window title every
// terminal and tmux takes). text must be safe already, as Header and
// Body make it.
//
// Every '#' is doubled. tmux keeps the title as the pane's title, and a
// status line that shows it (tmux's default status-right does) reads
// "#[...]" in it as a style directive and "##" as one '#': doubled, a
// header cannot restyle or rearrange the status line. It is done on
// every terminal, not only where TMUX says tmux is there: the title
// reaches tmux also from an ssh session in a tmux pane, or from a program
// whose environment lost TMUX, and outside tmux the cost is a doubled '#'
// in a window title.
func SetTitle(text string) string {
	return "\x1b]2;" + strings.ReplaceAll(text, "#", "##") + st
}

// Desktop is the desktop notification sequence of p with title and
// body, which must be safe already, as Body makes them; "" for None.
func Desktop(p Protocol, title, body string) string {
	switch p {
	case OSC9:
		// OSC 9 has one field; it shows as the notification's text.
		return "\x1b]9;" + title + ": " + body + st
	case OSC777:
		return "\x1b]777;notify;" + title + ";" + body + st
	case OSC99:
		// kitty: the title (p=title) and body (p=body) of notification
		// i=askuser, shown once the body arrives (d=1, the default).
		return "\x1b]99;i=askuser:d=0:p=title;" + title + st +
			"\x1b]99;i=askuser:d=1:p=body;" + body + st
	}
	return ""
}

// Passthrough wraps seq for tmux's passthrough, so that tmux hands it to
// the outer terminal: "ESC P tmux; seq ESC \" with every ESC in seq
// doubled. tmux 3.3 and later pass it on only with the option
// allow-passthrough on.
func Passthrough(seq string) string {
	if seq == "" {
		return ""
	}
	return "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + st
}
