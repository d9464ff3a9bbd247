package pibridge

import (
	"os"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/config"
	"github.com/askuser/askuser/internal/notify"
)

// The notification messages, child to shim.
const (
	// typeNotify carries terminal sequences for the shim to write through
	// Pi's terminal: the bell, a desktop notification, the title.
	typeNotify = "notify"
	// typeNotice carries a message for the user, such as a notify
	// command's failure, for the shim to show as a Pi notification.
	typeNotice = "notice"
)

type notifyMsg struct {
	Type string `json:"type"`
	Call string `json:"call"`
	Data string `json:"data"`
}

// startNotify starts the notifications of the component of call id, a
// questionnaire with header ("" for none) whose deadline cd reports, as
// the user's prefs ask: sent as notify messages, which the shim writes to
// Pi's terminal. The component of either contract calls it once it is
// open, and stops the returned session after its close.
func (s *server) startNotify(id string, prefs config.NotifyPrefs, header string, cd notify.Deadline) *notify.Session {
	n := notify.New(prefs, notify.Detect(os.Environ()), header)
	return notify.Start(n, cd, func(seq string) {
		s.send(notifyMsg{Type: typeNotify, Call: id, Data: seq})
	})
}

// onOpen runs the user's notify command for each questionnaire of the
// session; its failures become notices.
func (s *server) onOpen() func(ask.Opening) {
	return s.commands.OnOpen(s.host.Preferences().Notify.Command)
}
