// Package notify builds the terminal sequences that tell a human that a
// questionnaire is waiting for them: the bell, a desktop notification
// through the terminal (OSC 9, OSC 777 notify or kitty's OSC 99), and a
// window title that says so while it waits, with the previous title
// restored afterwards. Inside tmux the desktop notification is wrapped
// for tmux's passthrough; the bell and the title go to tmux itself,
// which flags the window and shows the pane title.
//
// A notification says only that a question is waiting, the
// questionnaire's header when there is one, and the time left; for an
// approval, that an approval waits and what the agent wants to do ("run
// a command"). It never carries a question, an option, an answer or the
// command an approval is about.
//
// The package also runs the user's notify command (Command). A host
// attaches a questionnaire's terminal notifications with Attach, giving
// only its Output, and runs the notify command of every questionnaire
// that opens on it through Commands.
//
// The hub tells the person's phone through an ntfy server (Push), when a
// question is still unanswered a while after it was asked and again
// before its deadline; a push, too, never carries a question, an option,
// an answer or a token. The package holds no global state.
package notify

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/safetext"
	"github.com/askuser/askuser/prefs"
)

// Protocol is a desktop notification sequence a terminal understands.
type Protocol string

// The protocols; None sends no desktop notification.
const (
	None   Protocol = ""
	OSC9   Protocol = "osc9"
	OSC777 Protocol = "osc777"
	OSC99  Protocol = "osc99"
)

// Terminal is what the environment tells of the terminal: the desktop
// protocol it is known to show, and whether the program runs inside tmux.
type Terminal struct {
	Known Protocol
	Tmux  bool
}

// Detect reads environ (NAME=value entries, as os.Environ returns) for
// the terminal. Only terminals known to show desktop notifications give
// a Known protocol: kitty (OSC 99), iTerm2 and WezTerm (OSC 9), Ghostty
// and foot (OSC 777). Inside tmux, TERM and TERM_PROGRAM name tmux, so
// the variables the outer terminal exports and tmux passes on are read
// (KITTY_WINDOW_ID, ITERM_SESSION_ID, LC_TERMINAL, WEZTERM_PANE,
// GHOSTTY_RESOURCES_DIR).
func Detect(environ []string) Terminal {
	env := map[string]string{}
	for _, e := range environ {
		if k, v, ok := strings.Cut(e, "="); ok {
			env[k] = v
		}
	}
	t := Terminal{Tmux: env["TMUX"] != ""}
	term, prog := env["TERM"], env["TERM_PROGRAM"]
	switch {
	case env["KITTY_WINDOW_ID"] != "" || term == "xterm-kitty":
		t.Known = OSC99
	case prog == "iTerm.app" || env["LC_TERMINAL"] == "iTerm2" || env["ITERM_SESSION_ID"] != "":
		t.Known = OSC9
	case prog == "WezTerm" || env["WEZTERM_PANE"] != "":
		t.Known = OSC9
	case prog == "ghostty" || term == "xterm-ghostty" || env["GHOSTTY_RESOURCES_DIR"] != "":
		t.Known = OSC777
	case term == "foot" || strings.HasPrefix(term, "foot-"):
		t.Known = OSC777
	}
	return t
}

// Desktop returns the protocol to send for the preference desktop (one
// of config's Desktop values) on t: auto sends t.Known, on sends t.Known
// or else OSC 9, a named protocol is sent as named, and off or ""
// sends None.
func (t Terminal) Desktop(desktop string) Protocol {
	switch desktop {
	case prefs.DesktopAuto:
		return t.Known
	case prefs.DesktopOn:
		if t.Known != None {
			return t.Known
		}
		return OSC9
	case prefs.DesktopOSC9:
		return OSC9
	case prefs.DesktopOSC777:
		return OSC777
	case prefs.DesktopOSC99:
		return OSC99
	}
	return None
}

// MaxHeader is the most characters of a header that a notification
// shows; a longer one is cut and ends in "…".
const MaxHeader = 60

// Header makes a questionnaire's header fit for a notification or a
// title: one line with no control character (safetext.Line's stand-ins
// instead), no ';' (which some terminals read as a field separator),
// spaces collapsed, and at most MaxHeader characters.
func Header(s string) string {
	s = safetext.Line(s)
	s = strings.ReplaceAll(s, ";", ",")
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > MaxHeader {
		r := []rune(s)
		s = strings.TrimRight(string(r[:MaxHeader-1]), " ") + "…"
	}
	return s
}

// Left writes a time left for a person: "45s", "3m", "1h 5m". Minutes
// are rounded up, so "3m" means at most three minutes; under a minute it
// counts seconds, rounded up.
func Left(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	if d < time.Minute {
		return itoa(int64((d+time.Second-1)/time.Second)) + "s"
	}
	m := int64((d + time.Minute - 1) / time.Minute)
	if m < 60 {
		return itoa(m) + "m"
	}
	h, m := m/60, m%60
	if m == 0 {
		return itoa(h) + "h"
	}
	return itoa(h) + "h " + itoa(m) + "m"
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// Title is the summary of a notification: "askuser: question waiting".
const Title = "askuser: question waiting"

// ApprovalTitle is the summary of an approval's notification.
const ApprovalTitle = "askuser: approval waiting"

// Subject is what a questionnaire's notifications say it is.
type Subject struct {
	// Header is the questionnaire's header, "" for none; of an
	// approval, what the agent wants to do.
	Header string
	// Approval marks an agent asking leave to act: the notifications
	// say an approval waits, not a question.
	Approval bool
}

// QuestionsSubject is the subject of an AskUserQuestion questionnaire
// of kind (ask.KindQuestion or ask.KindApproval) with summary sum (a
// Session's Kind and Summary): no header for a question, and for an
// approval what the agent wants to do, "codex wants to run a command",
// never the command itself.
func QuestionsSubject(kind string, sum ask.Summary) Subject {
	if _, ok := ask.LookupKind(kind); !ok {
		return Subject{}
	}
	s := Subject{Approval: true}
	if sum.Agent != "" && sum.Wants != "" {
		s.Header = sum.Agent + " wants to " + sum.Wants
	}
	return s
}

// Body is the text of a notification for a questionnaire with header
// (made safe by Header; "" for none) and the time left (ok false for no
// deadline): "Deploy plan · 4m left", "2m left", or "answer in the
// terminal" when there is neither.
func Body(header string, left time.Duration, ok bool) string {
	var parts []string
	if h := Header(header); h != "" {
		parts = append(parts, h)
	}
	if ok {
		parts = append(parts, Left(left)+" left")
	}
	if parts == nil {
		return "answer in the terminal"
	}
	return strings.Join(parts, " · ")
}
