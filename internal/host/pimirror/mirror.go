// Package pimirror is a copy of the dialog of one Pi component that runs
// inside Pi's own process (compiled to WebAssembly by
// cmd/askuser-dialog-wasm), so that Pi draws a key's frame without a trip
// to the askuser child. The child stays the authority: it gets every key
// too, and alone decides the answer, the deadline and the call's end. The
// copy only draws, from the same dialog code and the same inputs, which
// the child sends as a Spec with the component's open message.
package pimirror

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/internal/dialog"
)

// The dialogs a Spec names.
const (
	// DialogAskUser is the ask_user dialog, dialog.Model.
	DialogAskUser = "ask_user"
	// DialogQuestions is the AskUserQuestion dialog, dialog.Questions.
	DialogQuestions = "questions"
)

// SGR is the prefix and suffix of one colour role, as Pi's theme gives it.
type SGR struct {
	Prefix string `json:"prefix"`
	Suffix string `json:"suffix"`
}

// Theme builds the dialog's theme from Pi's colours. Roles Pi did not
// send keep the built-in colours.
func Theme(roles map[string]SGR) dialog.Theme {
	th := dialog.DefaultTheme()
	set := func(name string, st *dialog.Style) {
		if c, ok := roles[name]; ok {
			*st = dialog.Style{Prefix: c.Prefix, Suffix: c.Suffix}
		}
	}
	set("accent", &th.Accent)
	set("muted", &th.Muted)
	set("selection", &th.Selection)
	set("warning", &th.Warning)
	set("error", &th.Error)
	set("border", &th.Border)
	set("bold", &th.Bold)
	set("code", &th.Code)
	return th
}

// Spec is everything a copy needs to draw the same dialog as the child:
// the normalized request and the dialog's options.
type Spec struct {
	// Dialog is DialogAskUser or DialogQuestions.
	Dialog string `json:"dialog"`
	// Request is the request the child's dialog was made from: a
	// contract.Request or an auq.Request.
	Request json.RawMessage `json:"request"`
	// Theme is the colours of the child's theme, as the hello gave them.
	Theme map[string]SGR `json:"theme,omitempty"`
	// ToggleKey, Overlay and Title are dialog.Options' (DialogAskUser).
	ToggleKey string `json:"toggleKey,omitempty"`
	Overlay   bool   `json:"overlay,omitempty"`
	Title     string `json:"title,omitempty"`
	// Deadline is when the call times out, in Unix microseconds; 0 for
	// no deadline.
	Deadline int64 `json:"deadline,omitempty"`
}

// Frame is one frame of the copy, whole.
type Frame struct {
	Lines  []string `json:"lines"`
	Cursor *Cursor  `json:"cursor,omitempty"`
}

// Cursor is where a focused text input wants the terminal cursor.
type Cursor struct {
	Row int `json:"row"`
	Col int `json:"col"`
}

// Dialog is what both dialogs are to a copy and to the child's
// component: *dialog.Model (ask_user) or *dialog.Questions
// (AskUserQuestion).
type Dialog interface {
	View(width, rows int) dialog.Frame
	SetSize(width, rows int)
}

// TryOn returns the frame key k would bring to m at width×rows, drawn on
// a copy of m: m is left as it was, and nothing the key does (a
// milestone, stopping the countdown) happens. ok is false for a key that
// ends the dialog, which has no frame. The child calls it between keys,
// so that the shim has the likely next keys' frames before they come.
func TryOn(m Dialog, k dialog.Key, width, rows int) (f dialog.Frame, ok bool) {
	c, _, ok := tryCopy(m, k)
	if !ok {
		return dialog.Frame{}, false
	}
	return c.View(width, rows), true
}

// tryCopy applies k to a copy of m and returns the copy with the key's
// effect; ok is false, and there is no copy, for a key that ends the
// dialog.
func tryCopy(m Dialog, k dialog.Key) (c Dialog, eff dialog.EffectKind, ok bool) {
	c = clone(m)
	eff = update(c, k)
	if eff == dialog.EffectSubmit || eff == dialog.EffectDismiss {
		return nil, eff, false
	}
	return c, eff, true
}

// update applies k to m and returns the kind of its effect.
func update(m Dialog, k dialog.Key) dialog.EffectKind {
	switch m := m.(type) {
	case *dialog.Model:
		return m.Update(k).Kind
	case *dialog.Questions:
		return m.Update(k).Kind
	}
	return dialog.EffectNone
}

// clone copies m, as its Clone does.
func clone(m Dialog) Dialog {
	switch m := m.(type) {
	case *dialog.Model:
		return m.Clone()
	case *dialog.Questions:
		return m.Clone()
	}
	panic(fmt.Sprintf("pimirror: a %T cannot be copied", m))
}

// countdown is the child's deadline as the Spec gives it; a key that
// cancels the countdown cancels it here too, as it does in the child.
type countdown struct {
	mu       sync.Mutex
	deadline time.Time
	ok       bool
}

// Remaining returns the time left, never negative, and false when there
// is no deadline.
func (c *countdown) Remaining() (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.ok {
		return 0, false
	}
	return max(time.Until(c.deadline), 0), true
}

func (c *countdown) cancel() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ok = false
}

// ErrEnded is returned for a key or size given to a dialog that has ended.
var ErrEnded = errors.New("pimirror: the dialog has ended")

// Mirror is the copy of one component's dialog. Its methods are safe for
// concurrent use.
type Mirror struct {
	mu          sync.Mutex
	m           Dialog
	cd          *countdown
	width, rows int
	ended       bool
	// tried holds the copies Try made since the last key or size, each
	// with its key applied, by the key (name or text; see tryKey).
	tried map[string]tried
}

// tried is a copy Try made: the dialog with the key applied, and whether
// the key stops the countdown, which only Adopt may do (the copies share
// the countdown with the dialog).
type tried struct {
	m      Dialog
	cancel bool
}

// New makes the dialog spec describes. It fails for a Spec the child
// never sends: an unknown dialog, or a request that is not JSON of its
// type.
func New(spec *Spec) (*Mirror, error) {
	cd := &countdown{}
	if spec.Deadline > 0 {
		cd.deadline, cd.ok = time.UnixMicro(spec.Deadline), true
	}
	opts := &dialog.Options{Theme: Theme(spec.Theme), Countdown: cd}
	var m Dialog
	switch spec.Dialog {
	case DialogAskUser:
		var req contract.Request
		if err := json.Unmarshal(spec.Request, &req); err != nil {
			return nil, fmt.Errorf("pimirror: the ask_user request: %w", err)
		}
		opts.ToggleKey, opts.Overlay, opts.Title = spec.ToggleKey, spec.Overlay, spec.Title
		m = dialog.New(&req, opts)
	case DialogQuestions:
		var req auq.Request
		if err := json.Unmarshal(spec.Request, &req); err != nil {
			return nil, fmt.Errorf("pimirror: the AskUserQuestion request: %w", err)
		}
		m = dialog.NewQuestions(&req, opts)
	default:
		return nil, fmt.Errorf("pimirror: unknown dialog %q", spec.Dialog)
	}
	return &Mirror{m: m, cd: cd}, nil
}

// Resize sets the size the component renders at and returns its frame.
func (x *Mirror) Resize(width, rows int) (Frame, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.ended {
		return Frame{}, ErrEnded
	}
	x.width, x.rows = width, rows
	clear(x.tried)
	x.m.SetSize(width, rows)
	return x.view(), nil
}

// Key applies a key, a Pi key name or printable text, as the child does,
// and returns the frame after it. ended reports that the key ended the
// dialog: the child sends the close, and there is no frame.
func (x *Mirror) Key(name, text string) (f Frame, ended bool, err error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.ended {
		return Frame{}, true, ErrEnded
	}
	clear(x.tried)
	if k, ok := ToKey(name, text); ok {
		switch update(x.m, k) {
		case dialog.EffectSubmit, dialog.EffectDismiss:
			x.ended = true
			return Frame{}, true, nil
		case dialog.EffectCancelCountdown:
			x.cd.cancel()
		}
	}
	return x.view(), false, nil
}

// Try draws the frame a key would bring without applying it: it applies
// the key to a copy of the dialog, and keeps the copy for Adopt until the
// next Key or Resize. Nothing a key does reaches the dialog or its
// countdown before Adopt: a key that stops the countdown (Alt+Q) stops
// it in the copy's frame only, which says so, and the countdown runs on
// until Adopt. ok is false, and nothing is kept, for a key Try cannot
// stand for: one that is no key, or that ends the dialog (it has no
// frame: the child closes the component), or one given before the
// dialog has a size. A host calls it while the person has not typed yet,
// so that the frame is ready when they do.
func (x *Mirror) Try(name, text string) (f Frame, ok bool, err error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.ended {
		return Frame{}, false, ErrEnded
	}
	k, ok := ToKey(name, text)
	if !ok || x.width == 0 {
		return Frame{}, false, nil
	}
	c, eff, ok := tryCopy(x.m, k)
	if !ok {
		return Frame{}, false, nil
	}
	if x.tried == nil {
		x.tried = map[string]tried{}
	}
	x.tried[tryKey(name, text)] = tried{m: c, cancel: eff == dialog.EffectCancelCountdown}
	return viewOf(c, x.width, x.rows), true, nil
}

// Adopt applies a key that Try tried since the last Key or Resize by
// taking the copy Try made: the dialog is then as Key would have left
// it, and its frame is the one Try returned; a key that stops the
// countdown stops it now. It reports false, and changes nothing, when Try
// did not keep a copy for this key.
func (x *Mirror) Adopt(name, text string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	c, ok := x.tried[tryKey(name, text)]
	if !ok || x.ended {
		return false
	}
	x.m = c.m
	if c.cancel {
		x.cd.cancel()
	}
	clear(x.tried)
	return true
}

// tryKey is the key of tried for a key's name or text: a name cannot
// begin with a NUL, text can hold none (ToKey's callers pass printable
// text).
func tryKey(name, text string) string {
	if text != "" {
		return "\x00" + text
	}
	return name
}

// view draws the dialog at its size; it runs under mu.
func (x *Mirror) view() Frame {
	if x.width == 0 {
		return Frame{Lines: []string{}}
	}
	return viewOf(x.m, x.width, x.rows)
}

// viewOf draws m at width×rows as a Frame.
func viewOf(m Dialog, width, rows int) Frame {
	f := m.View(width, rows)
	out := Frame{Lines: f.Lines}
	if out.Lines == nil {
		out.Lines = []string{}
	}
	if f.Cursor != nil {
		out.Cursor = &Cursor{Row: f.Cursor.Row, Col: f.Cursor.Col}
	}
	return out
}

// ToKey turns a key message's members into a dialog key: text as it is,
// a Pi key name in the canonical form of config.ParseKey. A name
// config.ParseKey does not know is no key.
func ToKey(name, text string) (dialog.Key, bool) {
	if text != "" {
		return dialog.Key{Text: text}, true
	}
	canonical, err := config.ParseKey(name)
	if err != nil {
		return dialog.Key{}, false
	}
	return dialog.Key{Name: canonical}, true
}
