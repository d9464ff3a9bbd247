package tui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/internal/dialog"
	"github.com/askuser/askuser/internal/safetext"
)

// model is the Bubble Tea model around one dialog.Model. It turns key
// messages into dialog keys, places the dialog inline or in a centred box,
// hides and restores the overlay, redraws the countdown, and draws the
// last frame when the call is over.
type model struct {
	screen
	d      *dialog.Model
	req    *contract.Request
	toggle string // the overlay's show/hide chord, "" when there is none
	ending[[]contract.Answer]
}

// ending is how the user ended a dialog's program, which the models of
// both dialogs keep alike.
type ending[Ans any] struct {
	// hid is set when the hide key quit the program in a popup.
	hid bool
	// finished says the user ended the call, with outcome; otherwise
	// screen.stopped is why the call ended from outside.
	finished bool
	outcome  ask.Outcome[Ans]
}

func (e *ending[Ans]) ended() *ending[Ans] { return e }

// dialogModel is the Bubble Tea model of either dialog, as run runs it.
type dialogModel[Ans any] interface {
	tea.Model
	ended() *ending[Ans]
	reshow()
}

// screen is the state the models of both dialogs keep alike: the
// terminal's size, the frame's height, hiding, the countdown, and how
// the program ended.
type screen struct {
	th        dialog.Theme
	countdown *ask.Countdown
	overlay   bool

	width, height int
	// frameH is the tallest dialog frame drawn so far at this size.
	// Frames never get shorter, so the dialog does not jump around.
	frameH int
	// hidden is set while the dialog is hidden. clearing is the step
	// between hidden and shown again: the notice on the normal screen is
	// erased first, because switching to the alternate screen would leave
	// it there for good.
	hidden, clearing bool

	// done is set when the program is quitting; View then draws the last
	// frame. stopped is why the call ended from outside, if it did.
	done    bool
	stopped error

	// boxc is what the overlay's box keeps between frames.
	boxc boxCache

	// popup is set when the terminal is a popup made for the dialog: the
	// box fills it, and the hide key quits the program, so that the host
	// can close the popup.
	popup bool
}

// handle acts on the messages both models treat alike: a resize (then
// it calls resize, for the model to size its dialog), a countdown
// redraw, the end of the call from outside and the end of the clearing
// step; once the program is quitting, it takes every message. It reports
// false for any other message.
func (s *screen) handle(msg tea.Msg, resize func()) (tea.Cmd, bool) {
	if s.done {
		return nil, true
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		s.width, s.height = msg.Width, msg.Height
		s.frameH = 0
		resize()
	case tickMsg:
		return tickFor(s.countdown), true
	case stopMsg:
		s.stopped = msg.cause
		s.done = true
		return tea.Quit, true
	case showMsg:
		if s.clearing {
			s.hidden, s.clearing = false, false
		}
	default:
		return nil, false
	}
	return nil, true
}

// input reads msg as what the user typed: a key, or pasted text, which
// a hidden dialog does not take. repeat says a held key repeats. It
// reports false for anything else, and for a key without a name.
func (s *screen) input(msg tea.Msg) (k dialog.Key, repeat, ok bool) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		return dialog.Key{Text: msg.Content}, false, !s.hidden
	case tea.KeyPressMsg:
		k, ok := toKey(msg)
		return k, msg.IsRepeat, ok
	}
	return dialog.Key{}, false, false
}

// reshow makes the screen ready to show a dialog again on a new
// terminal: shown, and drawn afresh.
func (s *screen) reshow() {
	s.done, s.hidden, s.clearing, s.frameH = false, false, false, 0
}

// flip hides a dialog that is shown, and starts showing a hidden one
// again.
func (s *screen) flip() tea.Cmd {
	switch {
	case !s.hidden:
		s.hidden = true
	case s.clearing:
		s.clearing = false
	default:
		s.clearing = true
		return tea.Tick(clearDelay, func(time.Time) tea.Msg { return showMsg{} })
	}
	return nil
}

func newModel(s *ask.Session[*contract.Request], th dialog.Theme) *model {
	m := &model{
		screen: screen{th: th, countdown: s.Countdown, overlay: overlay(s)},
		d:      newDialog(s, th),
		req:    s.Request,
	}
	if m.overlay {
		m.toggle = s.ToggleKey
	}
	return m
}

// tickMsg asks for a redraw of the countdown.
type tickMsg struct{}

// showMsg ends the clearing step and shows the overlay again.
type showMsg struct{}

// clearDelay is how long the erased notice stays on screen before the
// overlay returns: more than one frame of Bubble Tea's renderer, so the
// two views are not merged into one.
const clearDelay = 40 * time.Millisecond

// Init starts the countdown's redraws.
func (m *model) Init() tea.Cmd { return tickFor(m.countdown) }

// tickFor schedules the next redraw of cd's time left for when the shown
// time changes: the header shows whole seconds.
func tickFor(cd *ask.Countdown) tea.Cmd {
	left, ok := cd.Remaining()
	if !ok || left <= 0 {
		return nil
	}
	d := left % time.Second
	if d <= 0 {
		d = time.Second
	}
	return tea.Tick(d+time.Millisecond, func(time.Time) tea.Msg { return tickMsg{} })
}

// Update handles one message.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if cmd, ok := m.handle(msg, func() { m.d.SetSize(m.dialogSize()) }); ok {
		return m, cmd
	}
	k, repeat, ok := m.input(msg)
	if !ok {
		return m, nil
	}
	if m.toggle != "" && k.Name == m.toggle {
		switch {
		case repeat:
			// A held key repeats; only a fresh press toggles, so one
			// press cannot hide and show again.
			return m, nil
		case m.popup:
			m.hid, m.done = true, true
			return m, tea.Quit
		}
		return m, m.flip()
	}
	if m.hidden {
		// Hidden, the dialog takes no keys, so nothing changes out of
		// sight; but the keys that dismiss it still do.
		if isDismissKey(k.Name) {
			return m.finish(ask.Outcome[[]contract.Answer]{Dismissed: true})
		}
		return m, nil
	}
	return m.key(k)
}

// isDismissKey reports whether name dismisses the dialog: the dialog's
// own Esc and Ctrl+C bindings.
func isDismissKey(name string) bool { return name == "esc" || name == "ctrl+c" }

// key passes k to the dialog and acts on its effect.
func (m *model) key(k dialog.Key) (tea.Model, tea.Cmd) {
	eff := m.d.Update(k)
	switch eff.Kind {
	case dialog.EffectSubmit:
		return m.finish(ask.Outcome[[]contract.Answer]{Answer: eff.Answer})
	case dialog.EffectDismiss:
		return m.finish(ask.Outcome[[]contract.Answer]{Dismissed: true})
	case dialog.EffectCancelCountdown:
		m.countdown.Cancel()
	}
	return m, nil
}

func (m *model) finish(o ask.Outcome[[]contract.Answer]) (tea.Model, tea.Cmd) {
	m.outcome, m.finished, m.done = o, true, true
	return m, tea.Quit
}

// toKey turns a key press into a dialog key: printable text as typed, and
// everything else as a chord in the canonical form of config.ParseKey. It reports false
// for a key config.ParseKey has no name for, such as a media key; the dialog binds
// none of them.
func toKey(k tea.KeyPressMsg) (dialog.Key, bool) {
	const locks = tea.ModCapsLock | tea.ModNumLock | tea.ModScrollLock
	mod := k.Mod &^ locks
	if k.Text != "" && mod&^tea.ModShift == 0 {
		if k.Text == " " {
			return dialog.Key{Name: "space"}, true
		}
		return dialog.Key{Text: k.Text}, true
	}
	key := tea.Key(k)
	key.Mod = mod
	name, err := config.ParseKey(key.Keystroke())
	if err != nil {
		return dialog.Key{}, false
	}
	return dialog.Key{Name: name}, true
}

// View draws the current state.
func (m *model) View() tea.View {
	if v, ok := m.offView(m.summary, m.hiddenLine); ok {
		return v
	}
	if m.overlay {
		return m.boxView()
	}
	return m.inlineView()
}

// offView is the view of a screen that does not show its dialog: the
// last frame, with summary, once the program is quitting, nothing while
// clearing, and hiddenLine while hidden. It reports false when the
// dialog is to be drawn.
func (s *screen) offView(summary, hiddenLine func() string) (tea.View, bool) {
	switch {
	case s.done:
		return s.lastView(summary), true
	case s.clearing:
		return tea.NewView(""), true
	case s.hidden:
		return tea.NewView(hiddenLine()), true
	}
	return tea.View{}, false
}

// inlineView draws the dialog below the prompt. The frame never gets
// shorter while the size stays the same: a dialog that jumps up and down
// as the focus moves between previews of different lengths is hard to
// read, and Bubble Tea redraws an inline frame whole when its height
// changes (about 2.5 times the bytes per key).
func (m *model) inlineView() tea.View {
	f := m.d.View(m.width, m.height)
	m.steady(&f)
	return frameView(f, 0, 0)
}

// steady pads f with blank lines above its key hints to the tallest frame
// drawn at this size, and records its height.
func (m *model) steady(f *dialog.Frame) { steady(f, &m.frameH) }

// steady pads f with blank lines above its key hints to *frameH rows,
// and records its height in *frameH.
func steady(f *dialog.Frame, frameH *int) {
	if n := *frameH - len(f.Lines); n > 0 {
		at := len(f.Lines) - f.Hints
		lines := make([]string, 0, *frameH)
		lines = append(lines, f.Lines[:at]...)
		lines = append(lines, make([]string, n)...)
		if len(f.Widths) == len(f.Lines) {
			ws := make([]int, 0, *frameH)
			ws = append(ws, f.Widths[:at]...)
			ws = append(ws, make([]int, n)...)
			f.Widths = append(ws, f.Widths[at:]...)
		}
		f.Lines = append(lines, f.Lines[at:]...)
	}
	*frameH = len(f.Lines)
}

// frameView places a dialog frame at column x, row y of the view.
func frameView(f dialog.Frame, x, y int) tea.View {
	v := tea.NewView(strings.Join(f.Lines, "\n"))
	if f.Cursor != nil {
		v.Cursor = tea.NewCursor(x+f.Cursor.Col, y+f.Cursor.Row)
	}
	return v
}

// The overlay box: a margin around it when the terminal has room, and no
// border at all when it is too small for one to help.
const (
	maxBoxWidth   = 140
	minBoxWidth   = 24
	minBoxHeight  = 6
	marginWidth   = 60 // from this width, two columns of margin each side
	marginHeight  = 16 // from this height, one row of margin above and below
	hMargin       = 2
	vMargin       = 1
	borderColumns = 2
)

// box is where the overlay box goes on a w×h screen: its width and the
// dialog's size inside it. ok is false when the screen is
// too small for a box, and the dialog then takes all of it. A popup's box
// fills the popup, with no margin.
func (m *model) box(w, h int) (boxW, innerW, innerH int, ok bool) {
	return boxIn(w, h, m.popup, maxBoxWidth)
}

// boxIn is where a box at most maxW wide goes on a w×h screen, as box
// describes.
func boxIn(w, h int, popup bool, maxW int) (boxW, innerW, innerH int, ok bool) {
	if w < minBoxWidth || h < minBoxHeight {
		return 0, w, h, false
	}
	if popup {
		return w, w - borderColumns - 1, h - 2, true
	}
	hm, vm := 0, 0
	if w >= marginWidth {
		hm = hMargin
	}
	if h >= marginHeight {
		vm = vMargin
	}
	boxW = min(w-2*hm, maxW)
	// The dialog keeps a column of margin on its left; the box gives it
	// the same on its right.
	return boxW, boxW - borderColumns - 1, h - 2*vm - 2, true
}

// dialogSize is the size the dialog is drawn at on this screen.
func (m *model) dialogSize() (int, int) {
	if m.overlay {
		_, w, h, _ := m.box(m.width, m.height)
		return w, h
	}
	return m.width, m.height
}

// boxView draws the dialog in a box centred on the alternate screen.
func (m *model) boxView() tea.View {
	return m.boxed(m.d.View, maxBoxWidth)
}

// boxed draws a frame of view in a box at most maxW wide, centred on the
// alternate screen, or the frame alone there when the screen is too
// small for a box.
func (s *screen) boxed(view func(w, h int) dialog.Frame, maxW int) tea.View {
	w, h := s.width, s.height
	boxW, innerW, innerH, ok := boxIn(w, h, s.popup, maxW)
	if !ok {
		v := frameView(view(w, h), 0, 0)
		v.AltScreen = true
		return v
	}
	f := view(innerW, innerH)
	// Like the inline frame, the box keeps its height, so it does not
	// jump around the screen from one tab to the next. In a popup it
	// fills the popup, which tmux paints opaque around it anyway.
	if s.popup {
		s.frameH = max(s.frameH, innerH)
	}
	steady(&f, &s.frameH)
	return drawBox(s.th, f, w, h, boxW, innerW, &s.boxc)
}

// drawBox draws f, innerW wide, in a box boxW wide centred on the
// alternate screen of a w×h terminal. Measuring the lines is most of the
// cost of a frame: it takes their widths from f when the dialog gives
// them, and c keeps what it measured otherwise, so that a line that has
// not changed since the last frame is not measured again.
func drawBox(th dialog.Theme, f dialog.Frame, w, h, boxW, innerW int, c *boxCache) tea.View {
	boxH := len(f.Lines) + 2
	top, left := (h-boxH)/2, (w-boxW)/2
	c.at(th, innerW)

	var b strings.Builder
	size := top + 2*(left+len(c.top)+1)
	for _, l := range f.Lines {
		size += 1 + left + 2*len(c.side) + len(l) + innerW + 1
	}
	b.Grow(size)
	pad := spaces(left)
	b.WriteString(strings.Repeat("\n", top))
	b.WriteString(pad + c.top)
	if len(c.lines) > len(f.Lines) {
		c.lines = c.lines[:len(f.Lines)]
	}
	given := len(f.Widths) == len(f.Lines)
	for i, l := range f.Lines {
		var lw int
		if given {
			lw = f.Widths[i]
		} else {
			if i == len(c.lines) {
				c.lines = append(c.lines, boxLine{})
			}
			bl := &c.lines[i]
			if bl.s != l || !bl.ok {
				bl.s, bl.w, bl.ok = l, ansi.StringWidth(l), true
			}
			lw = bl.w
		}
		b.WriteString("\n")
		b.WriteString(pad)
		b.WriteString(c.side)
		b.WriteString(l)
		fill := max(innerW-lw, 0) + 1
		if endsInRule(l) {
			// A rule runs on to the border.
			b.WriteString(th.Border.Render(strings.Repeat("─", fill)))
		} else {
			b.WriteString(spaces(fill))
		}
		b.WriteString(c.side)
	}
	b.WriteString("\n" + pad + c.bottom)
	v := tea.NewView(b.String())
	v.AltScreen = true
	if f.Cursor != nil {
		v.Cursor = tea.NewCursor(left+1+f.Cursor.Col, top+1+f.Cursor.Row)
	}
	return v
}

// boxCache is what drawBox keeps from one frame to the next: the border
// for a width, and each line as it was last drawn with its width and
// whether it ends in a rule.
type boxCache struct {
	th                dialog.Theme
	innerW            int
	set               bool
	top, bottom, side string
	lines             []boxLine
}

type boxLine struct {
	s  string
	w  int
	ok bool
}

// endsInRule reports whether the last character l shows is "─", past any
// SGR sequences (colours) after it.
func endsInRule(l string) bool {
	for strings.HasSuffix(l, "m") {
		at := strings.LastIndex(l, "\x1b[")
		if at < 0 || strings.Trim(l[at+2:len(l)-1], "0123456789;:") != "" {
			break
		}
		l = l[:at]
	}
	return strings.HasSuffix(l, "─")
}

// at makes the border for innerW in th's colours, unless c has it.
func (c *boxCache) at(th dialog.Theme, innerW int) {
	if c.set && c.innerW == innerW && c.th == th {
		return
	}
	rule := strings.Repeat("─", innerW+1)
	c.th, c.innerW, c.set = th, innerW, true
	c.top, c.bottom, c.side = th.Border.Render("╭"+rule+"╮"), th.Border.Render("╰"+rule+"╯"), th.Border.Render("│")
}

// spaces returns n spaces.
func spaces(n int) string {
	const many = "                                                                                                                                "
	if n <= len(many) {
		return many[:n]
	}
	return strings.Repeat(" ", n)
}

// hiddenLine is what a hidden overlay leaves on the normal screen: one
// line saying how to bring it back, and the time left.
func (m *model) hiddenLine() string {
	return m.notice("askuser is hidden: " + m.toggle + " shows it, esc dismisses it")
}

// notice is the line a hidden dialog leaves: s, and the time left.
func (s *screen) notice(text string) string {
	if left, ok := s.countdown.Remaining(); ok {
		text += " (" + clock(left) + " left)"
	}
	return s.th.Muted.Render(ansi.Truncate(text, max(s.width, 0), "…"))
}

// lastView is the frame left when the program ends: nothing in the
// overlay, the one line summary returns inline.
func (s *screen) lastView(summary func() string) tea.View {
	if s.overlay {
		// Leaving the alternate screen restores the normal one; a hidden
		// overlay's notice is erased by the empty view. A popup is closed
		// when the program ends, and its terminal thrown away.
		var v tea.View
		v.AltScreen = !s.hidden && !s.popup
		return v
	}
	// On exit Bubble Tea clears the view's last line, where the cursor
	// ends: an empty line after the summary keeps it.
	return tea.NewView(summary() + "\n")
}

// summary is the one line an inline dialog leaves behind.
func (m *model) summary() string {
	what := ""
	if m.finished && !m.outcome.Dismissed {
		what = answersText(m.outcome.Answer)
	}
	title := m.req.Header
	if len(m.req.Questions) == 1 {
		title = m.req.Questions[0].Title
	}
	if title == "" {
		title = "askuser"
	}
	return m.summaryLine(m.finished, m.outcome.Dismissed, title, what)
}

// summaryLine is the summary of a call the user ended (finished), by
// dismissing it or with answers, or that ended from outside: a mark, the
// title and what the answers were, made safe and fitted to the width.
func (s *screen) summaryLine(finished, dismissed bool, title, answers string) string {
	mark, st, what := "✓", s.th.Selection, answers
	switch {
	case finished && dismissed:
		mark, st, what = "✗", s.th.Warning, "dismissed"
	case finished:
	case errors.Is(s.stopped, ask.ErrTimeout):
		mark, st, what = "⏱", s.th.Warning, "timed out"
	default:
		mark, st, what = "✗", s.th.Warning, "cancelled"
	}
	line := ansi.Truncate(mark+" "+safetext.Line(title)+": "+safetext.Line(what), max(s.width, 1), "…")
	return st.Render(line)
}

// answersText reads a submitted questionnaire in a few words: the answer
// itself for one question, a count for several.
func answersText(as []contract.Answer) string {
	if len(as) != 1 {
		return fmt.Sprintf("%d answers", len(as))
	}
	a := as[0]
	var parts []string
	switch v := a.Value; {
	case v != nil && !v.IsForm:
		parts = append(parts, strconv.FormatBool(v.Bool))
	case v != nil:
		for _, e := range v.Form {
			parts = append(parts, e.Name)
		}
		return "filled in " + strings.Join(parts, ", ")
	default:
		parts = append(parts, a.Selections...)
		if a.FreeText != "" {
			parts = append(parts, a.FreeText)
		}
	}
	return strings.Join(parts, ", ")
}

// clock writes a duration as the header does: m:ss, or h:mm:ss.
func clock(d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
