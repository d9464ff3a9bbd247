package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/internal/strictjson"
)

// QuestionTool is the name of Claude Code's own question tool, as its
// PreToolUse hook's tool_name and matcher name it.
const QuestionTool = "AskUserQuestion"

// Limits that Claude Code 2.1.332 puts on what a hook adds to the input
// of its question tool, in UTF-16 code units as JavaScript counts a
// string's length: a longer answer, notes or sum makes it refuse the
// hook's answer.
const (
	MaxAnswerLen  = 32768
	MaxNotesLen   = 8192
	MaxAnswersLen = 32768
)

// Questions is the input of Claude Code's own AskUserQuestion tool, in
// the members askuser reads: each question's text, header, options and
// whether several options may be chosen. Claude Code keys the answers by
// the question's text, so the texts are unique.
//
// Make one with DecodeQuestions; the zero Questions has no questions.
type Questions struct {
	Questions []Question `json:"questions"`
	// input is the questions member as given, which the hook hands back
	// unchanged.
	input json.RawMessage
}

// Question is one of Claude Code's questions.
type Question struct {
	Question    string   `json:"question"`
	Header      string   `json:"header"`
	Options     []Option `json:"options"`
	MultiSelect bool     `json:"multiSelect"`
}

// Option is one option of a Claude Code question. Preview, when not
// empty, is shown beside the option while it has focus.
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description"`
	Preview     string `json:"preview,omitempty"`
}

// Answers is what the person answered, as Claude Code's own dialog
// reports it and as its PreToolUse hook adds it to the tool's input:
// each answer by its question's text (an option's label, the labels
// chosen joined as Claude Code joins them, or the person's own text),
// and a question's notes, and the preview of the option chosen, by its
// question's text.
type Answers struct {
	Answers     map[string]string     `json:"answers"`
	Annotations map[string]Annotation `json:"annotations"`
}

// Annotation is what Claude Code's dialog reports beside an answer: the
// preview of the option chosen, and the person's notes.
type Annotation struct {
	Preview string `json:"preview,omitempty"`
	Notes   string `json:"notes,omitempty"`
}

// DecodeQuestions decodes the input of Claude Code's AskUserQuestion tool
// (a PreToolUse hook's tool_input). It reads the members it uses
// strictly and lets others be, as Claude Code adds members over time,
// and fails on input that askuser cannot answer as Claude Code's dialog
// would: a duplicate key, no questions, a question whose text repeats
// another's, an option with no label or a label repeated, a question of
// another kind than a choice (such as "text" or "number"), and input
// that holds an answer already.
func DecodeQuestions(input []byte) (*Questions, error) {
	var q Questions
	if err := strictjson.Unmarshal(input, &q); err != nil {
		return nil, fmt.Errorf("the questions: %w", err)
	}
	var members struct {
		Questions   json.RawMessage `json:"questions"`
		Answers     json.RawMessage `json:"answers"`
		Annotations json.RawMessage `json:"annotations"`
		Response    json.RawMessage `json:"response"`
	}
	if err := json.Unmarshal(input, &members); err != nil {
		return nil, fmt.Errorf("the questions do not decode: %w", err)
	}
	if members.Answers != nil || members.Annotations != nil || members.Response != nil {
		return nil, errors.New("the questions hold an answer already")
	}
	q.input = members.Questions
	var kinds struct {
		Questions []struct {
			Kind *string `json:"kind"`
		} `json:"questions"`
	}
	if err := json.Unmarshal(input, &kinds); err != nil {
		return nil, fmt.Errorf("the questions do not decode: %w", err)
	}
	for i, k := range kinds.Questions {
		if k.Kind != nil && *k.Kind != "choice" {
			return nil, fmt.Errorf("questions[%d] is a %q question; askuser answers only choices", i, *k.Kind)
		}
	}
	if err := q.check(); err != nil {
		return nil, err
	}
	return &q, nil
}

// check reports the first thing that keeps q from being asked and
// answered by its questions' texts.
func (q *Questions) check() error {
	if len(q.Questions) == 0 {
		return errors.New("the input has no questions")
	}
	seen := map[string]int{}
	for i, qu := range q.Questions {
		path := "questions[" + strconv.Itoa(i) + "]"
		if strings.TrimSpace(qu.Question) == "" {
			return errors.New(path + ".question is empty")
		}
		if j, ok := seen[qu.Question]; ok {
			return fmt.Errorf("%s.question repeats questions[%d].question; Claude Code keys the answers by it", path, j)
		}
		seen[qu.Question] = i
		labels := map[string]bool{}
		for k, o := range qu.Options {
			if o.Label == "" || labels[o.Label] {
				return fmt.Errorf("%s.options[%d].label is empty or repeated", path, k)
			}
			labels[o.Label] = true
		}
	}
	return nil
}

// questionID and optionID are the ids of the questionnaire Show makes:
// Claude Code's questions and options have none.
func questionID(i int) string { return "q" + strconv.Itoa(i+1) }
func optionID(k int) string   { return "o" + strconv.Itoa(k+1) }

// Show returns the AskUserQuestion questionnaire that asks q: each
// question with its text, header, options and previews as given, under
// ids of its own. A question that breaks askuser's rules (auq.Validate),
// such as a header or a preview over its limit, fails: askuser never
// shortens what the model wrote.
func (q *Questions) Show() (*auq.Request, error) {
	req := &auq.Request{Questions: make([]auq.Question, len(q.Questions))}
	for i, qu := range q.Questions {
		aq := auq.Question{ID: questionID(i), Question: qu.Question, Header: qu.Header, MultiSelect: qu.MultiSelect,
			Options: make([]auq.Option, len(qu.Options))}
		for k, o := range qu.Options {
			aq.Options[k] = auq.Option{ID: optionID(k), Label: o.Label, Description: o.Description, Preview: o.Preview}
		}
		req.Questions[i] = aq
	}
	if err := auq.Validate(req); err != nil {
		return nil, err
	}
	return req, nil
}

// Read returns the answers that res, a submitted answer to shown (the
// questionnaire Show made of q), holds, as Claude Code's own dialog
// gives them: an option's label as given, the Other answer's text, or
// for several options chosen their labels, in the order given, and the
// Other text last, joined as Claude Code joins them (JoinLabels). A
// question's notes are the person's notes on the options chosen and on
// the question, one to a line, cut to MaxNotesLen; the preview is that of
// the single option chosen, when it has one. A question left without an
// answer, an option shown nowhere, and answers over Claude Code's limits
// are errors, never answers.
func (q *Questions) Read(shown *auq.Request, res auq.Result) (Answers, error) {
	if res.Cancelled {
		return Answers{}, errors.New("the questionnaire was not submitted")
	}
	out := Answers{Answers: map[string]string{}, Annotations: map[string]Annotation{}}
	for i, qu := range q.Questions {
		id := questionID(i)
		a, ok := res.Answers[id]
		if !ok || a.Empty {
			return Answers{}, fmt.Errorf("question %q has no answer", id)
		}
		choices := a.Selections
		if a.Kind == auq.KindSingle {
			choices = []auq.Choice{a.Choice}
		}
		if len(choices) == 0 {
			return Answers{}, fmt.Errorf("question %q has no answer", id)
		}
		notes := res.Annotations[id]
		var labels, noted []string
		var ann Annotation
		for _, c := range choices {
			if c.Other {
				labels = append(labels, c.Text)
				noted = append(noted, notes.OptionNotes[auq.OtherNoteKey])
				continue
			}
			k, err := optionIndex(c.OptionID, len(qu.Options))
			if err != nil || shown.Questions[i].OptionByID(c.OptionID) == nil {
				return Answers{}, fmt.Errorf("question %q: option %q is not one it offers", id, c.OptionID)
			}
			labels = append(labels, qu.Options[k].Label)
			noted = append(noted, notes.OptionNotes[c.OptionID])
			if !qu.MultiSelect {
				ann.Preview = qu.Options[k].Preview
			}
		}
		if qu.MultiSelect {
			out.Answers[qu.Question] = JoinLabels(labels)
		} else {
			out.Answers[qu.Question] = labels[0]
		}
		ann.Notes = cutUTF16(joinLines(append(noted, notes.QuestionNotes)), MaxNotesLen)
		if ann != (Annotation{}) {
			out.Annotations[qu.Question] = ann
		}
	}
	return out, q.CheckAnswers(out)
}

// CheckAnswers reports whether a answers q within Claude Code's rules:
// every question answered by its text and nothing else, and every text
// within its limit.
func (q *Questions) CheckAnswers(a Answers) error {
	asked := map[string]*Question{}
	for i := range q.Questions {
		asked[q.Questions[i].Question] = &q.Questions[i]
	}
	total := 0
	for text, ans := range a.Answers {
		if asked[text] == nil {
			return fmt.Errorf("an answer is to %q, which was not asked", text)
		}
		if n := utf16Len(ans); n > MaxAnswerLen || !utf8.ValidString(ans) {
			return fmt.Errorf("the answer to %q is not valid UTF-8 or over %d characters", text, MaxAnswerLen)
		}
		total += utf16Len(ans)
	}
	for _, qu := range q.Questions {
		if _, ok := a.Answers[qu.Question]; !ok {
			return fmt.Errorf("question %q has no answer", qu.Question)
		}
	}
	for text, ann := range a.Annotations {
		qu := asked[text]
		if qu == nil {
			return fmt.Errorf("a note is on %q, which was not asked", text)
		}
		if n := utf16Len(ann.Notes); n > MaxNotesLen || !utf8.ValidString(ann.Notes) {
			return fmt.Errorf("the notes on %q are not valid UTF-8 or over %d characters", text, MaxNotesLen)
		}
		if ann.Preview != "" && !hasPreview(qu, ann.Preview) {
			return fmt.Errorf("the preview given for %q is none of its options'", text)
		}
		total += utf16Len(ann.Notes)
	}
	if total > MaxAnswersLen {
		return fmt.Errorf("the answers and notes have %d characters; Claude Code takes at most %d", total, MaxAnswersLen)
	}
	return nil
}

func hasPreview(q *Question, p string) bool {
	for _, o := range q.Options {
		if o.Preview == p && !q.MultiSelect {
			return true
		}
	}
	return false
}

// PreToolUseOutput returns what Claude Code's PreToolUse hook prints to
// answer its question tool with a, which CheckAnswers accepts: the call
// allowed, with the questions as given and the answers added, as Claude
// Code's own dialog adds them. The model then reads the answers as if
// they were given in that dialog.
func (q *Questions) PreToolUseOutput(a Answers) []byte {
	if a.Annotations == nil {
		a.Annotations = map[string]Annotation{}
	}
	return encode(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName":      "PreToolUse",
		"permissionDecision": "allow",
		"updatedInput": map[string]any{
			"questions":   q.input,
			"answers":     a.Answers,
			"annotations": a.Annotations,
		},
	}})
}

// JoinLabels joins the labels of several options chosen as Claude Code
// 2.1.332 joins them: with ", ", a label that holds ", " or a quotation
// mark written as a JSON string, so that Claude Code can split them
// again.
func JoinLabels(labels []string) string {
	var b strings.Builder
	for i, l := range labels {
		if i > 0 {
			b.WriteString(", ")
		}
		if strings.Contains(l, ", ") || strings.Contains(l, `"`) {
			b.Write(jsString(l))
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

// jsString writes s as JavaScript's JSON.stringify does: only the
// quotation mark, the backslash and the C0 controls escaped.
func jsString(s string) []byte {
	b := []byte{'"'}
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\b':
			b = append(b, `\b`...)
		case r == '\f':
			b = append(b, `\f`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r < 0x20:
			b = append(b, fmt.Sprintf(`\u%04x`, r)...)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

func optionIndex(id string, n int) (int, error) {
	k, err := strconv.Atoi(strings.TrimPrefix(id, "o"))
	if err != nil || !strings.HasPrefix(id, "o") || k < 1 || k > n || optionID(k-1) != id {
		return 0, fmt.Errorf("option %q is not one of %d", id, n)
	}
	return k - 1, nil
}

func joinLines(parts []string) string {
	var kept []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n")
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// cutUTF16 cuts s to at most n UTF-16 code units, its last character "…"
// when cut.
func cutUTF16(s string, n int) string {
	if utf16Len(s) <= n {
		return s
	}
	var b bytes.Buffer
	used := 1 // the "…"
	for _, r := range s {
		if used+utf16.RuneLen(r) > n {
			break
		}
		used += utf16.RuneLen(r)
		b.WriteRune(r)
	}
	return b.String() + "…"
}

var errMissing = errors.New("the questions are missing")

// PreToolUse is what Claude Code's PreToolUse hook reads on its standard
// input, in the members askuser uses; Claude Code sends more
// (transcript_path, permission_mode, prompt_id and others), which are
// let be.
type PreToolUse struct {
	SessionID     string `json:"session_id"`
	Cwd           string `json:"cwd"`
	HookEventName string `json:"hook_event_name"`
	ToolName      string `json:"tool_name"`
	// ToolInput is the tool's input, a JSON object, as given.
	ToolInput json.RawMessage `json:"tool_input"`
	ToolUseID string          `json:"tool_use_id"`
}

// DecodePreToolUse decodes the PreToolUse hook's input, with the rules
// of DecodePermissionRequest.
func DecodePreToolUse(data []byte) (*PreToolUse, error) {
	return decodeHook[PreToolUse](data, "PreToolUse")
}

func (h *PreToolUse) call() (event, tool string, input json.RawMessage) {
	return h.HookEventName, h.ToolName, h.ToolInput
}

// HookEvent returns the hook_event_name of a hook's input, which says
// how to decode the rest, and fails as the decoders do on input that is
// not one JSON object.
func HookEvent(data []byte) (string, error) {
	var h struct {
		HookEventName string `json:"hook_event_name"`
	}
	if err := strictjson.Unmarshal(data, &h); err != nil {
		return "", fmt.Errorf("the hook's input: %w", err)
	}
	if h.HookEventName == "" {
		return "", errors.New("the hook's input names no hook_event_name")
	}
	return h.HookEventName, nil
}
