// Package contract defines the ask_user questionnaire: the request a model
// sends, the strict rules it must follow, and the result it gets back.
//
// The types mirror the JSON of the tool exactly. A Request is only
// meaningful after Parse or Normalize has accepted it: both report every
// problem at once, each with its JSON path, and return a normalized copy in
// which every question has a kind and a unique id, duplicate option labels
// are merged, and the options of a legacy input question are dropped.
//
// The text the model reads about the tool comes from here too:
// Description, Guidelines, ResultText for each outcome, and ShimTexts for
// the Pi package's shim.
//
// The package is pure: it does no I/O and holds no global state but its
// embedded text, read once on first use.
package contract

// Limits of a questionnaire. Lengths count characters (Unicode code points).
const (
	MaxQuestions  = 5
	MaxOptions    = 5
	MaxFormFields = 10

	MaxIDLen          = 64
	MaxHeaderLen      = 200
	MaxTitleLen       = 200
	MaxFieldLabelLen  = 200
	MaxFieldNameLen   = 64
	MaxPromptLen      = 2000
	MaxOptionLabelLen = 120
	MaxDescriptionLen = 500
	MaxPreviewLen     = 16000
	MaxTextDefaultLen = 2000
	MaxRequestBytes   = 256 << 10

	// DefaultTimeoutPerQuestionMs is the built-in per-question timeout.
	DefaultTimeoutPerQuestionMs = 60000
	// MaxSafeTimeoutMs is the largest deadline, in milliseconds, that any
	// questionnaire gets: 2³¹−1, the largest delay a JavaScript timer takes.
	MaxSafeTimeoutMs = 1<<31 - 1
)

// Kind is the kind of a question.
type Kind string

// The question kinds. A form field may be any kind but KindForm.
const (
	KindSingle Kind = "single"
	KindMulti  Kind = "multi"
	KindInput  Kind = "input"
	KindBool   Kind = "bool"
	KindForm   Kind = "simple-form"
)

// Route names how a questionnaire is shown: our own dialog (custom) or the
// host's dialogs (native).
type Route string

// The two routes.
const (
	RouteCustom Route = "custom"
	RouteNative Route = "native"
)

// DisplayMode is how the custom dialog is presented.
type DisplayMode string

// The display modes. Overlay is the default.
const (
	DisplayOverlay DisplayMode = "overlay"
	DisplayInline  DisplayMode = "inline"
)

// Request is one ask_user call: 1 to MaxQuestions questions.
//
// Pointer fields are optional; nil means the field was not sent.
type Request struct {
	Questions            []Question  `json:"questions"`
	Header               string      `json:"header,omitempty"`
	AllowFreeText        *bool       `json:"allowFreeText,omitempty"`
	DisplayMode          DisplayMode `json:"displayMode,omitempty"`
	TimeoutPerQuestionMs *int64      `json:"timeoutPerQuestionMs,omitempty"`
}

// FreeTextAllowed reports whether choice questions offer a supplemental
// free-text answer. It is true unless allowFreeText is false.
func (r *Request) FreeTextAllowed() bool {
	return r.AllowFreeText == nil || *r.AllowFreeText
}

// Question is one question of a Request.
type Question struct {
	ID      string   `json:"id,omitempty"`
	Title   string   `json:"title"`
	Prompt  string   `json:"prompt,omitempty"`
	Kind    Kind     `json:"kind,omitempty"`
	Options []Option `json:"options,omitempty"`
	// Default is a string for single, multi and input questions and a
	// boolean for bool questions. Forms use field defaults instead.
	Default *Value  `json:"default,omitempty"`
	Fields  []Field `json:"fields,omitempty"`
}

// Option is one choice of a single or multi question or field.
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
	// Preview is Markdown shown beside the options when this one has focus.
	Preview string `json:"preview,omitempty"`
}

// Field is one flat field of a simple-form question.
type Field struct {
	Name     string   `json:"name"`
	Label    string   `json:"label"`
	Kind     Kind     `json:"kind"`
	Required bool     `json:"required,omitempty"`
	Options  []Option `json:"options,omitempty"`
	// Default is a boolean for bool fields, a label for single fields, a
	// list of labels for multi fields, and text for input fields.
	Default *Value `json:"default,omitempty"`
}
