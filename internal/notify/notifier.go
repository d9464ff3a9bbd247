package notify

import (
	"sync"
	"time"

	"github.com/askuser/askuser/prefs"
)

// Notifier builds the sequences of one questionnaire's notifications on
// one terminal. The zero value sends nothing. It is immutable and safe
// for concurrent use.
type Notifier struct {
	bell, title bool
	desktop     Protocol
	tmux        bool
	header      string
	summary     string // Title, or ApprovalTitle
}

// New returns the Notifier for a questionnaire of subject s on the
// terminal t, as the user's preferences p ask.
func New(p prefs.NotifyPrefs, t Terminal, s Subject) *Notifier {
	n := &Notifier{bell: p.Bell, title: p.Title, desktop: t.Desktop(p.Desktop), tmux: t.Tmux, header: Header(s.Header), summary: Title}
	if s.Approval {
		n.summary = ApprovalTitle
	}
	return n
}

// Off reports whether n sends nothing at all.
func (n *Notifier) Off() bool {
	return n == nil || !n.bell && !n.title && n.desktop == None
}

// Open is what to write when the questionnaire opens, with left the time
// to its deadline (ok false for none): the bell, the desktop
// notification, and the title pushed and set. "" when n sends nothing.
func (n *Notifier) Open(left time.Duration, ok bool) string {
	if n == nil {
		return ""
	}
	s := ""
	if n.bell {
		s += BEL
	}
	s += n.notification(left, ok)
	if n.title {
		t := n.summary
		if n.header != "" {
			t += " · " + n.header
		}
		s += TitlePush + SetTitle(t)
	}
	return s
}

// Remind is what to write for the reminder: the bell and the desktop
// notification again, with the time left.
func (n *Notifier) Remind(left time.Duration) string {
	if n == nil {
		return ""
	}
	s := ""
	if n.bell {
		s += BEL
	}
	return s + n.notification(left, true)
}

// Close is what to write when the questionnaire is over: the previous
// title restored.
func (n *Notifier) Close() string {
	if n == nil || !n.title {
		return ""
	}
	return TitlePop
}

func (n *Notifier) notification(left time.Duration, ok bool) string {
	seq := Desktop(n.desktop, n.summary, Body(n.header, left, ok))
	if n.tmux {
		return Passthrough(seq)
	}
	return seq
}

// MinRemindTotal is the shortest deadline that gets a reminder: under
// it the opening notification is recent enough.
const MinRemindTotal = 20 * time.Second

// RemindLead is how long before the deadline the reminder comes, for a
// questionnaire whose whole deadline is total: a quarter of it, but at
// least a minute when the deadline is two minutes or more, and half of
// it when it is shorter than that (a minute before a short deadline
// would be at the opening itself). ok is false, and there is no
// reminder, when total is under MinRemindTotal.
func RemindLead(total time.Duration) (lead time.Duration, ok bool) {
	if total < MinRemindTotal {
		return 0, false
	}
	lead = total / 4
	if lead < time.Minute {
		lead = min(time.Minute, total/2)
	}
	return lead, true
}

// Deadline is the deadline of a call, as *ask.Countdown reports it: the
// time and true, or false when there is none or it was stopped.
type Deadline interface {
	Deadline() (time.Time, bool)
}

// Session is the notifications of one questionnaire on one terminal,
// started by Start. Its methods are safe for concurrent use.
type Session struct {
	n     *Notifier
	write func(string)
	mu    sync.Mutex
	timer *time.Timer
	ended bool
}

// Start writes n's opening through write and schedules the reminder for
// the deadline d reports now; at the reminder's time it sends the
// reminder only when d still has that deadline, so a countdown stopped
// by the user gets none. write is called from Start, from a timer's
// goroutine and from Stop, never two at once; it must not block long. A
// nil or Off n writes nothing.
func Start(n *Notifier, d Deadline, write func(string)) *Session {
	s := &Session{n: n, write: write}
	if n.Off() {
		s.ended = true
		return s
	}
	at, ok := time.Time{}, false
	if d != nil {
		at, ok = d.Deadline()
	}
	left := time.Until(at)
	if seq := n.Open(left, ok); seq != "" {
		write(seq)
	}
	if !ok || !n.bell && n.desktop == None {
		return s
	}
	// The deadline started a moment before the opening: the whole of it
	// is what is left, to the second.
	if lead, remind := RemindLead(left.Round(time.Second)); remind {
		s.timer = time.AfterFunc(left-lead, func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.ended {
				return
			}
			now, still := d.Deadline()
			if !still || !now.Equal(at) {
				return
			}
			s.write(n.Remind(time.Until(at)))
		})
	}
	return s
}

// Stop cancels the reminder and writes the closing (the title
// restored). Only the first call does anything.
func (s *Session) Stop() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	s.ended = true
	if s.timer != nil {
		s.timer.Stop()
	}
	if seq := s.n.Close(); seq != "" {
		s.write(seq)
	}
}
