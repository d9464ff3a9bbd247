package opencode

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/strictjson"
)

// Questions is the request of a question.asked event, in the members
// askuser uses; others are let be.
type Questions struct {
	ID        string     `json:"id"`
	SessionID string     `json:"sessionID"`
	Questions []Question `json:"questions"`
}

// Question is one question of OpenCode's question tool. Custom, unless
// false, lets the person type an answer of their own; askuser's dialogs
// always offer that, and OpenCode's server takes such an answer either
// way.
type Question struct {
	Question string   `json:"question"`
	Header   string   `json:"header"`
	Options  []Option `json:"options"`
	Multiple bool     `json:"multiple"`
	Custom   *bool    `json:"custom"`
}

// Option is one option of an OpenCode question.
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

// Answers is OpenCode's reply to its questions: for each question in
// order, the labels chosen or the text typed.
type Answers struct {
	Answers [][]string `json:"answers"`
}

var errMissing = errors.New("the questions are missing")

// DecodeQuestions decodes the properties of a question.asked event. It
// fails on one without an id or without questions; what else askuser
// cannot ask, Show refuses.
func DecodeQuestions(e *Event) (*Questions, error) {
	if e.Type != QuestionAsked {
		return nil, fmt.Errorf("the event is %q, not %s", e.Type, QuestionAsked)
	}
	var q Questions
	if err := strictjson.Unmarshal(e.Properties, &q); err != nil {
		return nil, fmt.Errorf("the questions: %w", err)
	}
	switch {
	case q.ID == "":
		return nil, errors.New("the questions have no id")
	case len(q.Questions) == 0:
		return nil, errors.New("the request has no questions")
	}
	return &q, nil
}

// questionID and optionID are the ids of the questionnaire Show makes:
// OpenCode's questions and options have none.
func questionID(i int) string { return "q" + strconv.Itoa(i+1) }
func optionID(k int) string   { return "o" + strconv.Itoa(k+1) }

// Show returns the AskUserQuestion questionnaire that asks q: each
// question with its text, options and choice of several as given, under
// ids of its own. A header over askuser's limit (OpenCode allows 30
// characters, askuser's dialogs 12) is cut, ending in "…": it is a
// label, and the question says it whole. Anything else that breaks
// askuser's rules (auq.Validate), such as more than four options or
// fewer than two, fails: askuser never shortens what the model asks.
func (q *Questions) Show() (*auq.Request, error) {
	req := &auq.Request{Questions: make([]auq.Question, len(q.Questions))}
	for i, qu := range q.Questions {
		aq := auq.Question{ID: questionID(i), Question: qu.Question, Header: cut(qu.Header, auq.MaxHeaderLen), MultiSelect: qu.Multiple,
			Options: make([]auq.Option, len(qu.Options))}
		for k, o := range qu.Options {
			aq.Options[k] = auq.Option{ID: optionID(k), Label: o.Label, Description: o.Description}
		}
		req.Questions[i] = aq
	}
	if err := auq.Validate(req); err != nil {
		return nil, err
	}
	return req, nil
}

// cut cuts s to at most n characters, its last one "…" when cut.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Read returns the answers that res, a submitted answer to shown (the
// questionnaire Show made of q), holds, as OpenCode's own prompt gives
// them: for each question the labels of the options chosen, in the order
// given, and the text typed last. Notes have no place in OpenCode's
// reply and are left out. A question left without an answer and an
// option shown nowhere are errors, never answers.
func (q *Questions) Read(shown *auq.Request, res auq.Result) (Answers, error) {
	if res.Cancelled {
		return Answers{}, errors.New("the questionnaire was not submitted")
	}
	out := Answers{Answers: make([][]string, len(q.Questions))}
	for i, qu := range q.Questions {
		labels, err := chosen(qu, shown.Questions[i], res.Answers[questionID(i)])
		if err != nil {
			return Answers{}, fmt.Errorf("question %q: %w", questionID(i), err)
		}
		out.Answers[i] = labels
	}
	return out, q.CheckAnswers(out)
}

// chosen returns the labels of the options of qu that a chose, as shown,
// in the order given, and the text typed last.
func chosen(qu Question, shown auq.Question, a auq.Answer) ([]string, error) {
	choices := append([]auq.Choice(nil), a.Selections...)
	if a.Kind == auq.KindSingle && !a.Empty {
		choices = append(choices, a.Choice)
	}
	if a.Empty || len(choices) == 0 {
		return nil, errors.New("no answer")
	}
	labels := make([]string, 0, len(choices))
	for _, c := range choices {
		if c.Other {
			labels = append(labels, c.Text)
			continue
		}
		k := slices.IndexFunc(shown.Options, func(o auq.Option) bool { return o.ID == c.OptionID })
		if k < 0 || k >= len(qu.Options) || c.OptionID == "" {
			return nil, fmt.Errorf("option %q is not one it offers", c.OptionID)
		}
		labels = append(labels, qu.Options[k].Label)
	}
	return labels, nil
}

// CheckAnswers reports whether a answers q: one answer for each
// question, each one or more valid UTF-8 texts (one alone where several
// may not be chosen), none empty or over auq.MaxOtherTextLen
// characters.
func (q *Questions) CheckAnswers(a Answers) error {
	if len(a.Answers) != len(q.Questions) {
		return fmt.Errorf("%d answers to %d questions", len(a.Answers), len(q.Questions))
	}
	for i, ans := range a.Answers {
		switch {
		case len(ans) == 0:
			return fmt.Errorf("question %d has no answer", i+1)
		case len(ans) > 1 && !q.Questions[i].Multiple:
			return fmt.Errorf("question %d takes one answer, not %d", i+1, len(ans))
		case len(ans) > len(q.Questions[i].Options)+1:
			return fmt.Errorf("question %d has %d answers, more than its options and one of the person's own", i+1, len(ans))
		}
		for _, s := range ans {
			if strings.TrimSpace(s) == "" || !utf8.ValidString(s) || utf8.RuneCountInString(s) > max(auq.MaxOtherTextLen, auq.MaxLabelLen) {
				return fmt.Errorf("an answer to question %d is empty, not valid UTF-8 or too long", i+1)
			}
		}
	}
	return nil
}

// Reply returns the body of OpenCode's reply with a: {"answers": [[…], …]}.
func (a Answers) Reply() []byte { return marshal(a) }

// QuestionContract is the contract of OpenCode's questions, shown
// through a host's AskUserQuestion renderers (BindQuestions): its
// renderers report Answers, and a call returns how it ended, with the
// Answers when the person submitted them. Only those reply to OpenCode;
// any other end leaves the questions to its own prompt.
var QuestionContract ask.Contract[*Questions, Answers, ask.End[Answers]] = questionContract{}

// BindQuestions binds QuestionContract on every route where caps has an
// AskUserQuestion renderer, shown there by Questions.Show and read back
// by Questions.Read.
func BindQuestions(caps ask.Capabilities) ask.Capabilities {
	return ask.BindView(caps, QuestionContract, ask.AskUserQuestion, ask.View[*Questions, Answers, *auq.Request, auq.Result](questionView{}))
}

type questionContract struct{}

func (questionContract) Tool() string { return "opencode question" }

func (c questionContract) Parse(data []byte) (*Questions, []string, error) {
	e, err := DecodeEvent(data)
	if err != nil {
		return nil, nil, err
	}
	q, err := DecodeQuestions(e)
	if err != nil {
		return nil, nil, err
	}
	return c.Check(q)
}

func (questionContract) Check(q *Questions) (*Questions, []string, error) {
	if q == nil || len(q.Questions) == 0 {
		return nil, nil, errMissing
	}
	if _, err := q.Show(); err != nil {
		return nil, nil, err
	}
	return q, nil, nil
}

func (questionContract) Brief(q *Questions) ask.Brief { return ask.Brief{Questions: len(q.Questions)} }

// DecodeAnswer reads the answers as OpenCode's reply holds them.
func (questionContract) DecodeAnswer(result []byte) (a Answers, err error) {
	err = json.Unmarshal(result, &a)
	return a, err
}

func (questionContract) Verify(q *Questions, a Answers) (Answers, contract.ErrorCode, error) {
	return a, contract.ErrInternal, q.CheckAnswers(a)
}

func (questionContract) Result(_ *Questions, end ask.End[Answers]) ask.End[Answers] { return end }

type questionView struct{ ask.QuestionView[*Questions] }

func (questionView) Show(q *Questions) (*auq.Request, error) { return q.Show() }

func (questionView) Read(q *Questions, shown *auq.Request, res auq.Result) (Answers, error) {
	return q.Read(shown, res)
}
