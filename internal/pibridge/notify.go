package pibridge

import (
	"os"

	"github.com/askuser/askuser/ask"
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

// startNotify starts the notifications of the component of call id for
// s: sent as notify messages, which the shim writes to Pi's terminal. Stop
// the returned session before the component's close.
func (u *customUI) startNotify(id string, s *ask.Session) *notify.Session {
	n := notify.New(s.Notify, notify.Detect(os.Environ()), s.Request.Header)
	return notify.Start(n, s.Countdown, func(seq string) {
		u.srv.send(notifyMsg{Type: typeNotify, Call: id, Data: seq})
	})
}

// onOpen runs the user's notify command for each questionnaire of the
// session; its failures become notices.
func (s *server) onOpen() func(ask.Opening) {
	return notify.OnOpen(s.host.Preferences().Notify.Command, notify.HostPi, func(err error) {
		s.send(textMsg{Type: typeNotice, Message: err.Error()})
	})
}
