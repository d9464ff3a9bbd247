// Package auq defines the AskUserQuestion contract: the request a model
// sends, the strict rules it must follow, and the result it gets back.
//
// It is the second of askuser's two contracts, beside ask_user (package
// contract). The two never mix: a host serves one or the other, chosen
// explicitly, and neither's rules bend the other's. Here answers are
// keyed by stable question and option ids, every question may carry notes,
// an option may be recommended, every question gets an automatic Other
// answer, and the request's metadata comes back unchanged.
//
// The types mirror the JSON of the tool exactly. A Request is only
// meaningful after Parse (for JSON) or Validate (for a Request built in
// Go) has accepted it: both report every problem at once, each with its
// JSON path. A Result is only to be given to the model after CheckResult
// has found that it fits its request. Schema is the tool's input schema.
//
// The text the model reads about the tool comes from here too:
// Description, Guidelines, ResultText for each outcome, and ShimTexts for
// the Pi package's shim.
//
// The package is pure: it does no I/O and holds no global state but its
// embedded text, read once on first use.
package auq

// ToolName is the name the tool is offered under.
const ToolName = "AskUserQuestion"

// Limits of a request. Lengths count characters (Unicode code points).
// The counts and MaxHeaderLen are the contract's; the other bounds are
// askuser's own, generous for a question in a dialog and small enough
// that a request at every bound is still quick to check and to show.
const (
	MinQuestions = 1
	MaxQuestions = 8
	MinOptions   = 2
	MaxOptions   = 4
	MaxHeaderLen = 12

	MaxIDLen          = 64
	MaxQuestionLen    = 300
	MaxLabelLen       = 60
	MaxDescriptionLen = 200
	MaxPreviewLen     = 600
	MaxSourceLen      = 200
	MaxFlowIDLen      = 200
	MaxTags           = 16
	MaxTagLen         = 64
	MaxRequestBytes   = 256 << 10
)

// Limits of a result, which CheckResult applies to what the user typed:
// the text of an Other answer and each note.
const (
	MaxOtherTextLen = 2000
	MaxNoteLen      = 2000
)

// OtherID is the reserved option id of the automatic Other answer: no
// option may use it. OtherNoteKey is the key of a note on the Other answer
// in Annotations.OptionNotes. Every id beginning with "$" is reserved too.
const (
	OtherID      = "__other__"
	OtherNoteKey = "$other"
)

// OtherLabel is the label of the automatic Other answer, in the list the
// user sees and in the result.
const OtherLabel = "Other"

// Request is one AskUserQuestion call.
type Request struct {
	Questions []Question `json:"questions"`
	Metadata  *Metadata  `json:"metadata,omitempty"`
}

// Metadata is the caller's own data about the request. Source and FlowID
// come back in the result exactly as sent; nil means absent.
type Metadata struct {
	Source *string  `json:"source,omitempty"`
	FlowID *string  `json:"flowId,omitempty"`
	Tags   []string `json:"tags,omitempty"`
}

// Question is one question. Required is nil when the request leaves it
// out, which means true: see IsRequired.
type Question struct {
	ID          string   `json:"id"`
	Question    string   `json:"question"`
	Header      string   `json:"header"`
	MultiSelect bool     `json:"multiSelect,omitempty"`
	Required    *bool    `json:"required,omitempty"`
	Options     []Option `json:"options"`
}

// IsRequired reports whether the question must be answered before the
// questionnaire can be submitted.
func (q *Question) IsRequired() bool { return q.Required == nil || *q.Required }

// Recommended returns the index of the recommended option, or -1 when no
// option is recommended.
func (q *Question) Recommended() int {
	for i := range q.Options {
		if q.Options[i].Recommended {
			return i
		}
	}
	return -1
}

// Option is one option of a question. Preview is plain text shown beside
// or below the list while the option has focus; "" means none.
type Option struct {
	ID          string `json:"id"`
	Label       string `json:"label"`
	Description string `json:"description"`
	Preview     string `json:"preview,omitempty"`
	Recommended bool   `json:"recommended,omitempty"`
}

// Kind is the kind of an answer.
type Kind string

// The kinds of answer.
const (
	KindSingle Kind = "single"
	KindMulti  Kind = "multi"
)

// Result is what the model gets back. Answers and Annotations are keyed by
// question id; a question left unanswered has no entry. Cancelled is true
// when the questionnaire ended without being submitted (dismissed, timed
// out or aborted), and then Answers and Annotations are nil.
type Result struct {
	Cancelled   bool                   `json:"cancelled"`
	Answers     map[string]Answer      `json:"answers,omitempty"`
	Annotations map[string]Annotations `json:"annotations,omitempty"`
	Metadata    *ResultMetadata        `json:"metadata,omitempty"`
}

// ResultMetadata is the part of the request's Metadata that comes back.
type ResultMetadata struct {
	Source *string `json:"source,omitempty"`
	FlowID *string `json:"flowId,omitempty"`
}

// Answer is the answer to one question: Choice for a single-select
// question (Kind KindSingle), Selections and Empty for a multi-select one
// (Kind KindMulti). Its JSON has only the members of its kind.
type Answer struct {
	Kind       Kind
	Choice     Choice
	Selections []Choice
	Empty      bool
}

// Choice is one chosen answer: an option, by id and label, or the Other
// answer, with Other set, OptionID empty, Label OtherLabel and Text the
// user's text.
type Choice struct {
	OptionID string `json:"optionId,omitempty"`
	Label    string `json:"label"`
	Other    bool   `json:"other,omitempty"`
	Text     string `json:"text,omitempty"`
}

// Annotations are the notes on one question: the user's note on the
// question, notes on options keyed by option id (or OtherNoteKey), and
// the preview of the chosen option of a single-select question.
type Annotations struct {
	QuestionNotes   string            `json:"questionNotes,omitempty"`
	OptionNotes     map[string]string `json:"optionNotes,omitempty"`
	SelectedPreview string            `json:"selectedPreview,omitempty"`
}

// Status says how a call ended. Only StatusSubmitted carries answers; the
// model reads the other three endings as Cancelled, with a text that says
// which it was, and an error as a failed call.
type Status string

// The endings of a call.
const (
	StatusSubmitted Status = "submitted"
	StatusDismissed Status = "dismissed"
	StatusTimeout   Status = "timeout"
	StatusAborted   Status = "aborted"
	StatusError     Status = "error"
)

// Outcome is the whole outcome of a call, as a host sees it: how it
// ended, on which route ("custom" or "native", "" when none ran), the
// Result the model gets, and for StatusError what went wrong. Error codes
// are those of ask_user's results (invalid_request, custom_ui_failed,
// native_ui_failed, unsupported_mode, invalid_config, not_initialized,
// internal), with the same meaning.
type Outcome struct {
	Status Status
	Route  string
	Result Result
	Error  *Error
}

// Error describes why a call ended with StatusError.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}
