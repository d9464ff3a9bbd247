package hub

import (
	"crypto/rand"
	"encoding/json"
	"time"

	"github.com/askuser/askuser/ask"
)

// The contracts a question can be asked in, as Tag.Contract names them.
const (
	ContractAskUser         = ask.ToolAskUser
	ContractAskUserQuestion = ask.ToolAskUserQuestion
)

// KindApproval is the Tag.Kind of an approval: an agent's permission
// prompt, shown as an AskUserQuestion questionnaire (package approval).
const KindApproval = ask.KindApproval

// CheckKind reports whether t's Kind is one askuser knows: "" for a
// question, or KindApproval on an AskUserQuestion questionnaire, as
// package approval shows one. A surface refuses to show a question of
// any other kind, as it does one of an unknown contract: it cannot know
// what answering it would mean.
func CheckKind(t Tag) error { return ask.CheckKind(t.Kind, t.Contract) }

// Question is one waiting question as the hub stores it. Its shape
// follows MCP tasks (an id, a status, a time to live), so that a tasks
// adapter can serve it later.
type Question struct {
	// ID is the question's key in both buckets.
	ID string `json:"id"`
	// Status is always "waiting" in the questions bucket: an answered or
	// closed question is told by its entry in the answers bucket.
	Status string `json:"status"`
	// Tag says who asked and how long it waits.
	Tag Tag `json:"tag"`
	// Created is when the question was published.
	Created time.Time `json:"created"`
	// Request is the questionnaire, in its contract's JSON, normalized.
	Request json.RawMessage `json:"request"`
	// StoppedBy names who stopped the question's countdown on a surface
	// of the hub (StopCountdown); "" when nobody did, or its asker did.
	StoppedBy string `json:"stopped_by,omitempty"`

	// sealed is what the sealing of a remote hub's client knows of the
	// question; nil on the hub of one machine.
	sealed any
}

// Tag says where a question comes from. Every member is the asker's
// claim; none of it is checked, and its text is shown escaped.
type Tag struct {
	// Agent names the asking program: "askuser ask", a client's name.
	Agent string `json:"agent"`
	// Project is the directory the agent works in.
	Project string `json:"project,omitempty"`
	// Machine is the host name of the asking machine.
	Machine string `json:"machine,omitempty"`
	// Contract is ContractAskUser or ContractAskUserQuestion.
	Contract string `json:"contract"`
	// Kind is what the question is: "" for a question an agent asks,
	// KindApproval for an agent asking leave to act, which every
	// surface marks as one.
	Kind string `json:"kind,omitempty"`
	// Wants is what the agent wants to do, for an approval: "run a
	// command", as its request says (ask.Summary); "" for a question.
	Wants string `json:"wants,omitempty"`
	// Questions is how many questions the questionnaire has.
	Questions int `json:"questions"`
	// Deadline is when the question times out; nil for never.
	Deadline *time.Time `json:"deadline,omitempty"`
}

// The statuses of an Answer.
const (
	// StatusAnswered: a surface of the hub answered; Result holds it.
	StatusAnswered = "answered"
	// StatusClosed: the question ended at its asker (answered there,
	// dismissed, timed out, aborted); Note says how.
	StatusClosed = "closed"
)

// Answer is the one entry the answers bucket holds for a question: the
// answer that won, or the note that the question closed without one.
type Answer struct {
	// ID is the question's.
	ID string `json:"id"`
	// Status is StatusAnswered, StatusDismissed or StatusClosed.
	Status string `json:"status"`
	// By says where: "askuser answer (ci-policy) on host", "the terminal
	// on host".
	By string `json:"by"`
	// Note says how a closed question ended, in words.
	Note string `json:"note,omitempty"`
	// At is when it was stored.
	At time.Time `json:"at"`
	// Result is the checked answer in its contract's result JSON, for
	// StatusAnswered.
	Result json.RawMessage `json:"result,omitempty"`
	// Superseded names who gave the answer or dismissal that this hub
	// stored first and that lost, on the remote hub of a relay, to one
	// given on another machine at the same moment: this entry, a
	// closing note saying where the winner was given, replaced it.
	Superseded string `json:"superseded,omitempty"`
}

// Where says in words where a question was answered or closed, for a
// person or a model: "answered by ci-policy (askuser answer) on host",
// "answered in the terminal of askuser ask on host", "timed out (the
// terminal of askuser ask on host)". A note that superseded the answer
// given on this hub adds who gave that one ("; the answer given here by
// … came second"). Its text is the askers' and answerers' claims: escape
// it for a terminal.
func (a Answer) Where() string {
	w := a.where()
	if a.Superseded != "" {
		w += "; the answer given here by " + a.Superseded + " came second"
	}
	return w
}

func (a Answer) where() string {
	switch a.Status {
	case StatusAnswered:
		return "answered by " + a.By
	case StatusDismissed:
		return "dismissed by " + a.By
	}
	switch a.Note {
	case "answered", "dismissed":
		return a.Note + " in " + a.By
	case "":
		return "closed by " + a.By
	}
	return a.Note + " (" + a.By + ")"
}

// idAlphabet spells ids: lowercase letters and digits without the ones
// people confuse, so that an id can be read out and typed.
const idAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"

// newID returns a random question id of 12 characters (about 59 bits).
func newID() string {
	b := make([]byte, 12)
	rand.Read(b)
	for i := range b {
		b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
	}
	return string(b)
}

// validID reports whether s can be a question id: what newID makes, so
// that a typed id never reaches NATS as a subject wildcard.
func validID(s string) bool {
	if len(s) != 12 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '9') {
			return false
		}
	}
	return true
}
