package dialog

import (
	"slices"
	"strconv"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/safetext"
)

// Model is the ask_user dialog: the state of one questionnaire on screen,
// with the tab shown, the control that has focus, and every value
// entered so far. Update changes it; View draws it. Neither does I/O,
// starts goroutines or reads a clock. A Model is not safe for concurrent
// use, except that View may be called from several goroutines at once
// while none calls Update or SetSize.
type Model struct {
	req       *contract.Request
	th        Theme
	countdown Countdown
	toggleKey string
	overlay   bool
	// dismissHint is Options.DismissHint.
	dismissHint string
	title       string // the sanitized header text

	tabs []*tab
	cur  int
	// tabLabels are the tab bar's labels, "2. title" or "Review".
	tabLabels []measured

	// noTimeout is set by Alt+Q: the header then says "No timeout" even
	// before the host has cancelled the countdown.
	noTimeout bool
	// msg is a validation message, shown until the next key.
	msg string

	cache layoutCache

	// width and rows are the size the host last gave with SetSize; 0
	// until it gives one.
	width, rows int
	// planned is the current tab laid out at that size, made by Update
	// and SetSize after every change, and drawn by View at that size.
	planned *plan
}

// ctrlKind is the kind of a focusable control.
type ctrlKind uint8

const (
	ctrlOption ctrlKind = iota // one option of a single or multi field
	ctrlFree                   // the supplemental text row of a choice question
	ctrlText                   // the text of an input question or field
	ctrlBool                   // a True/False pair
	ctrlButton                 // Continue or Submit
	ctrlItem                   // a question row of the review tab
)

// control is one focus target of a tab.
type control struct {
	kind  ctrlKind
	field int // index into tab.fields; for ctrlItem the question's tab
	opt   int // option index for ctrlOption
}

// field is one answerable thing: a whole question of a legacy kind or a
// bool, or one field of a simple-form.
type field struct {
	kind     contract.Kind
	name     string // form field name; "" for a question
	label    string // sanitized form field label; "" for a question
	required bool
	options  []contract.Option
	labels   []string // sanitized option labels
	descs    []string // sanitized option descriptions
	free     bool     // a single/multi question with a supplemental text row

	sel     []bool
	text    textInput
	boolSet bool
	boolVal bool

	hasDefault bool
	initial    snapshot
}

// snapshot is a field's value, for telling whether it is still the default.
type snapshot struct {
	sel     []bool
	text    string
	boolSet bool
	boolVal bool
}

func (f *field) snap() snapshot {
	return snapshot{sel: append([]bool(nil), f.sel...), text: f.text.Value(), boolSet: f.boolSet, boolVal: f.boolVal}
}

// unchanged reports whether the field still holds its initial value.
func (f *field) unchanged() bool {
	s := f.initial
	if s.text != f.text.Value() || s.boolSet != f.boolSet || s.boolVal != f.boolVal || len(s.sel) != len(f.sel) {
		return false
	}
	for i := range s.sel {
		if s.sel[i] != f.sel[i] {
			return false
		}
	}
	return true
}

// tab is one question, or the review tab when q is nil.
type tab struct {
	index  int // question index, or -1 for the review tab
	q      *contract.Question
	title  string // sanitized
	prompt string // sanitized, line breaks kept
	form   bool
	fields []*field
	ctrls  []control
	focus  int
	side   int // focused side of a bool control: 0 True, 1 False

	// scroll is the first body line shown. View keeps the focused control
	// in view and records the body's height for paging.
	scroll  int
	pscroll int // first preview line shown
	lastOpt int // option whose preview is shown
	preview bool
	bodyH   int
	ctrlTop []int // first body line of each control, from the last View
}

// New returns a Model for req, which must be normalized (contract.Normalize
// or contract.Parse accepted it). Defaults are applied at once: a default
// option is selected, a default text fills its input, a default bool side
// is chosen, and focus starts on the selected option or side.
func New(req *contract.Request, opts *Options) *Model {
	m := &Model{req: req}
	m.th, m.countdown = themeOf(opts)
	if opts != nil {
		m.toggleKey = opts.ToggleKey
		m.overlay = opts.Overlay
		m.title = opts.Title
		m.dismissHint = opts.DismissHint
	}
	if req.Header != "" {
		m.title = req.Header
	}
	m.title = safetext.Line(m.title)
	free := req.FreeTextAllowed()
	for i := range req.Questions {
		m.tabs = append(m.tabs, newTab(i, &req.Questions[i], free, len(req.Questions) > 1))
	}
	if len(req.Questions) > 1 {
		m.tabs = append(m.tabs, m.newReview())
	}
	for i, t := range m.tabs {
		if t.index < 0 {
			m.tabLabels = append(m.tabLabels, measure("Review"))
		} else {
			m.tabLabels = append(m.tabLabels, measure(strconv.Itoa(i+1)+". "+t.title))
		}
	}
	return m
}

func newTab(i int, q *contract.Question, free, many bool) *tab {
	t := &tab{index: i, q: q, title: safetext.Line(q.Title), prompt: safetext.Text(q.Prompt)}
	if q.Kind == contract.KindForm {
		t.form = true
		for _, cf := range q.Fields {
			def, hasDef := cf.EffectiveDefault()
			f := newField(cf.Kind, cf.Options, def, hasDef, false)
			f.name = cf.Name
			f.label = safetext.Line(cf.Label)
			f.required = cf.Required
			t.fields = append(t.fields, f)
		}
	} else {
		def, hasDef := questionDefault(q)
		f := newField(q.Kind, q.Options, def, hasDef, free)
		f.required = true
		t.fields = []*field{f}
	}
	for fi, f := range t.fields {
		switch f.kind {
		case contract.KindBool:
			t.ctrls = append(t.ctrls, control{kind: ctrlBool, field: fi})
		case contract.KindInput:
			t.ctrls = append(t.ctrls, control{kind: ctrlText, field: fi})
		default:
			for oi := range f.options {
				t.ctrls = append(t.ctrls, control{kind: ctrlOption, field: fi, opt: oi})
			}
			if f.free {
				t.ctrls = append(t.ctrls, control{kind: ctrlFree, field: fi})
			}
		}
		for _, o := range f.options {
			if o.Preview != "" && !t.form {
				t.preview = true
			}
		}
	}
	if t.form || q.Kind == contract.KindMulti {
		t.ctrls = append(t.ctrls, control{kind: ctrlButton, field: -1})
	}
	// Initial focus: the first selected option, else the first control.
	// A bool control's side follows its selection.
	t.focus = 0
	if !t.form {
		for ci, c := range t.ctrls {
			if c.kind == ctrlOption && t.fields[0].sel[c.opt] {
				t.focus = ci
				break
			}
			if c.kind == ctrlFree && t.fields[0].text.Value() != "" && !anyTrue(t.fields[0].sel) {
				t.focus = ci
				break
			}
		}
	}
	t.enter(t.focus)
	return t
}

// questionDefault is what the default of q, a question that is not a
// form, gives its one field, by the contract's rules.
func questionDefault(q *contract.Question) (contract.Value, bool) {
	switch q.Kind {
	case contract.KindBool:
		if q.Default != nil {
			if _, ok := q.Default.Bool(); ok {
				return *q.Default, true
			}
		}
	case contract.KindInput:
		if s, ok := q.TextDefault(); ok {
			return contract.StringValue(s), true
		}
	case contract.KindSingle, contract.KindMulti:
		if i, free, ok := q.ChoiceDefault(); ok {
			if i >= 0 {
				return contract.StringValue(q.Options[i].Label), true
			}
			return contract.StringValue(free), true
		}
	}
	return contract.Value{}, false
}

// newField makes the field of one question or form field, filled with
// def, the value its default gives it (ok false for none): a label that
// is an option selects it, any other text of a choice with free text
// fills the text box.
func newField(kind contract.Kind, opts []contract.Option, def contract.Value, hasDef, free bool) *field {
	f := &field{kind: kind, options: opts, sel: make([]bool, len(opts))}
	f.free = free && (kind == contract.KindSingle || kind == contract.KindMulti)
	for _, o := range opts {
		f.labels = append(f.labels, safetext.Line(o.Label))
		f.descs = append(f.descs, safetext.Text(o.Description))
	}
	if hasDef {
		switch kind {
		case contract.KindBool:
			if b, ok := def.Bool(); ok {
				f.boolSet, f.boolVal, f.hasDefault = true, b, true
			}
		case contract.KindInput:
			if s, ok := def.String(); ok {
				f.text, f.hasDefault = newTextInput(s, inputOptions{}), true
			}
		case contract.KindSingle, contract.KindMulti:
			labels, ok := def.Strings()
			if s, isStr := def.String(); isStr {
				labels, ok = []string{s}, true
			}
			if !ok {
				break
			}
			for _, l := range labels {
				if i := slices.IndexFunc(opts, func(o contract.Option) bool { return o.Label == l }); i >= 0 {
					f.sel[i], f.hasDefault = true, true
				} else if f.free {
					f.text, f.hasDefault = newTextInput(l, inputOptions{}), true
				}
			}
		}
	}
	f.initial = f.snap()
	return f
}

func (m *Model) newReview() *tab {
	t := &tab{index: -1, title: "Review"}
	for i := range m.req.Questions {
		t.ctrls = append(t.ctrls, control{kind: ctrlItem, field: i})
	}
	t.ctrls = append(t.ctrls, control{kind: ctrlButton, field: -1})
	t.focus = len(t.ctrls) - 1
	return t
}

// enter gives focus to control ci, placing a bool control's side on its
// selected value, and the text cursor at the end of an input.
func (t *tab) enter(ci int) {
	if ci < 0 || ci >= len(t.ctrls) {
		return
	}
	t.focus = ci
	c := t.ctrls[ci]
	switch c.kind {
	case ctrlBool:
		f := t.fields[c.field]
		t.side = 0
		if f.boolSet && !f.boolVal {
			t.side = 1
		}
	case ctrlOption:
		t.lastOpt = c.opt
		t.pscroll = 0
	}
}

func (t *tab) ctrl() control {
	if t.focus < 0 || t.focus >= len(t.ctrls) {
		return control{kind: ctrlButton, field: -1}
	}
	return t.ctrls[t.focus]
}

// text returns the text input with focus, or nil.
func (t *tab) text() *textInput {
	c := t.ctrl()
	if c.kind == ctrlFree || c.kind == ctrlText {
		return &t.fields[c.field].text
	}
	return nil
}

func (m *Model) tab() *tab { return m.tabs[m.cur] }

// counting reports whether a countdown is running, so Alt+Q means
// something.
func (m *Model) counting() bool {
	if m.noTimeout || m.countdown == nil {
		return false
	}
	left, ok := m.countdown.Remaining()
	return ok && left > 0
}
