package ask

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/strictjson"
)

// Stored is one contract as the user's hub and its surfaces handle its
// questions: a request and an answer in their JSON forms, so that no
// surface names a contract's types. Lookup finds it by the contract's
// name, as a hub question's tag holds it.
type Stored interface {
	// Tool is the contract's name.
	Tool() string
	// Questions parses a stored request and checks it by the
	// contract's rules, as its Parse does, and returns how many
	// questions it asks.
	Questions(request []byte) (int, error)
	// CheckAnswer checks answer, a submitted result of the contract in
	// its JSON form, against request and returns the result the hub
	// stores: only what a person answering can give.
	CheckAnswer(request, answer []byte) (json.RawMessage, error)
}

// stored is the registry of the contracts whose questions a hub can
// hold, by name. A contract registers with one line here: its Contract
// and the check of an answer given to the hub.
var stored = map[string]Stored{
	ToolAskUser:         storedOf(AskUser, submittedAskUser),
	ToolAskUserQuestion: storedOf(AskUserQuestion, submittedQuestions),
}

// Kind is what the hub's surfaces need to know of a kind of
// questionnaire other than KindQuestion, one that a View shows (BindView).
// Every surface marks such a questionnaire with its kind's name, and says
// what its asker wants (Summary) in place of its questions.
type Kind struct {
	// ShownAs is the contract the View shows it as.
	ShownAs string
	// Waits says what waits, for a push's title: "an approval".
	Waits string
	// Icon is the tag of a push for it, as ntfy names emoji: "lock".
	Icon string
	// PlainPreviews reports that its previews are the asker's own text,
	// such as a command, shown exactly as they are, never as Markdown.
	PlainPreviews bool
	// Hint says how to answer one with askuser answer, after its id.
	Hint string
	// OnlyAPerson reports whether result, an answer to one in its
	// contract's result JSON, is one that only a person may give, never
	// a program: an approval's allow.
	OnlyAPerson func(result []byte) bool
}

// kinds is the registry of the kinds a View shows, by name: a View
// registers its kind with one line here.
var kinds = map[string]Kind{
	KindApproval: approvalKind,
}

// Kinds returns every kind LookupKind knows, by name.
func Kinds() map[string]Kind { return maps.Clone(kinds) }

// LookupKind returns the kind of questionnaire named kind; ok is false
// for KindQuestion and for a kind askuser does not know.
func LookupKind(kind string) (k Kind, ok bool) {
	k, ok = kinds[kind]
	return k, ok
}

// Lookup returns the contract named tool, as a hub question's tag names
// it; ok is false for a contract askuser does not know.
func Lookup(tool string) (s Stored, ok bool) {
	s, ok = stored[tool]
	return s, ok
}

// CheckKind reports whether a questionnaire of contract tool can be of
// kind: KindQuestion, or a View's kind on the contract it is shown as. A
// surface refuses to show a question of any other kind, as it does one
// of an unknown contract: it cannot know what answering it would mean.
func CheckKind(kind, tool string) error {
	if kind == KindQuestion {
		return nil
	}
	k, ok := kinds[kind]
	switch {
	case !ok:
		return fmt.Errorf("its kind %q is not one askuser knows", kind)
	case tool != k.ShownAs:
		return fmt.Errorf("it is an %s of contract %q; an %s is shown as %s", kind, tool, kind, k.ShownAs)
	}
	return nil
}

// storedOf is c as Stored, with submitted the check of an answer given
// to the hub for one of its parsed requests.
func storedOf[Req, Ans, Res any](c Contract[Req, Ans, Res], submitted func(req Req, answer []byte) (json.RawMessage, error)) Stored {
	return storedContract[Req, Ans, Res]{c, submitted}
}

type storedContract[Req, Ans, Res any] struct {
	c         Contract[Req, Ans, Res]
	submitted func(req Req, answer []byte) (json.RawMessage, error)
}

func (s storedContract[Req, Ans, Res]) Tool() string { return s.c.Tool() }

func (s storedContract[Req, Ans, Res]) Questions(request []byte) (int, error) {
	req, _, err := s.c.Parse(request)
	if err != nil {
		return 0, err
	}
	return s.c.Brief(req).Questions, nil
}

func (s storedContract[Req, Ans, Res]) CheckAnswer(request, answer []byte) (json.RawMessage, error) {
	req, _, err := s.c.Parse(request)
	if err != nil {
		return nil, fmt.Errorf("the stored question does not parse: %w", err)
	}
	return s.submitted(req, answer)
}

// askUserAnswer is the part of an ask_user result an answer gives.
type askUserAnswer struct {
	Status   contract.Status   `json:"status"`
	Route    contract.Route    `json:"route,omitempty"`
	Answers  []contract.Answer `json:"answers"`
	Warnings []string          `json:"warnings,omitempty"`
}

// submittedAskUser checks an ask_user result given to the hub: answered,
// with one valid answer per question; its route and warnings, which
// askuser ask prints too, are allowed and dropped.
func submittedAskUser(req *contract.Request, data []byte) (json.RawMessage, error) {
	var a askUserAnswer
	if err := decodeStrict(data, &a); err != nil {
		return nil, err
	}
	if a.Status != contract.StatusAnswered {
		return nil, fmt.Errorf(`status must be "answered", got %q`, a.Status)
	}
	if a.Answers == nil {
		return nil, errors.New("answers is missing: give one answer per question")
	}
	if err := contract.CheckAnswers(req, a.Answers); err != nil {
		return nil, err
	}
	return json.Marshal(askUserAnswer{Status: contract.StatusAnswered, Answers: a.Answers})
}

// submittedQuestions checks an AskUserQuestion result given to the hub:
// not cancelled, and valid for req.
func submittedQuestions(req *auq.Request, data []byte) (json.RawMessage, error) {
	var res auq.Result
	if err := decodeStrict(data, &res); err != nil {
		return nil, err
	}
	if res.Cancelled {
		return nil, errors.New("cancelled must be false: an answer submits the questions")
	}
	if err := auq.CheckResult(req, res); err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

// decodeStrict decodes one JSON value into v, refusing unknown members
// and anything after the value.
func decodeStrict(data []byte, v any) error {
	switch err := strictjson.DecodeOne(data, v); {
	case errors.Is(err, strictjson.ErrTrailing):
		return errors.New("more than one JSON value")
	case err != nil:
		return fmt.Errorf("not a result of this question's contract: %w", err)
	}
	return nil
}
