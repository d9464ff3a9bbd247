package pibridge

import (
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

// notifyTo is where the notifications of the component of call id go:
// notify messages, which the shim writes to Pi's terminal. The component
// of either contract attaches them once it is open, and ends them after
// its close.
func (s *server) notifyTo(id string) notify.Output {
	return notify.Output{Write: func(seq string) {
		s.send(notifyMsg{Type: typeNotify, Call: id, Data: seq})
	}}
}

// onOpen runs the user's notify command for each questionnaire of the
// session; its failures become notices.
func (s *server) onOpen() func(ask.Opening) {
	return s.commands.OnOpen(s.host.Preferences().Notify.Command)
}
