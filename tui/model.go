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
	"github.com/askuser/askuser/dialog"
	"github.com/askuser/askuser/internal/keyid"
	"github.com/askuser/askuser/internal/safetext"
	"github.com/askuser/askuser/internal/theme"
)

// model is the Bubble Tea model around one dialog.Model. It turns key
// messages into dialog keys, places the dialog inline or in a centred box,
// hides and restores the overlay, redraws the countdown, and draws the
// last frame when the call is over.
type model struct {
	d         *dialog.Model
	th        theme.Theme
	req       *contract.Request
	countdown *ask.Countdown
	overlay   bool
	toggle    string // the overlay's show/hide chord, "" when there is none
	// popup is set when the terminal is a popup made for the dialog: the
	// box fills it, and the toggle key quits the program with hid set, so
	// that the host can close the popup.
	popup, hid bool

	width, height int
	// frameH is the tallest dialog frame drawn so far at this size.
	// Frames never get shorter, so the dialog does not jump around.
	frameH int
	// hidden is set while the overlay is hidden. clearing is the step
	// between hidden and shown again: the notice on the normal screen is
	// erased first, because switching to the alternate screen would leave
	// it there for good.
	hidden, clearing bool

	// done is set when the program is quitting; View then draws the last
	// frame. finished says the user ended the call, with outcome;
	// otherwise stopped is why the call ended from outside.
	done     bool
	finished bool
	outcome  ask.Outcome
	stopped  error
}

func newModel(s *ask.Session, th theme.Theme) *model {
	m := &model{
		d:         newDialog(s, th),
		th:        th,
		req:       s.Request,
		countdown: s.Countdown,
		overlay:   overlay(s),
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
func (m *model) Init() tea.Cmd { return m.tick() }

// tick schedules the next redraw for when the shown time changes: the
// header shows whole seconds.
func (m *model) tick() tea.Cmd {
	left, ok := m.countdown.Remaining()
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
	if m.done {
		return m, nil
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.frameH = 0
		m.d.SetSize(m.dialogSize())
	case tickMsg:
		return m, m.tick()
	case stopMsg:
		m.stopped = msg.cause
		m.done = true
		return m, tea.Quit
	case showMsg:
		if m.clearing {
			m.hidden, m.clearing = false, false
		}
	case tea.PasteMsg:
		if !m.hidden {
			return m.key(dialog.Key{Text: msg.Content})
		}
	case tea.KeyPressMsg:
		k, ok := toKey(msg)
		if !ok {
			return m, nil
		}
		if m.toggle != "" && k.Name == m.toggle {
			// A held key repeats; only a fresh press toggles, so one
			// press cannot hide and show again.
			if msg.IsRepeat {
				return m, nil
			}
			switch {
			case m.popup:
				m.hid, m.done = true, true
				return m, tea.Quit
			case !m.hidden:
				m.hidden = true
			case m.clearing:
				m.clearing = false
			default:
				m.clearing = true
				return m, tea.Tick(clearDelay, func(time.Time) tea.Msg { return showMsg{} })
			}
			return m, nil
		}
		if m.hidden {
			// Hidden, the dialog takes no keys, so nothing changes out of
			// sight; but the keys that dismiss it still do.
			if isDismissKey(k.Name) {
				return m.finish(ask.Outcome{Dismissed: true})
			}
			return m, nil
		}
		return m.key(k)
	}
	return m, nil
}

// isDismissKey reports whether name dismisses the dialog: the dialog's
// own Esc and Ctrl+C bindings.
func isDismissKey(name string) bool { return name == "esc" || name == "ctrl+c" }

// key passes k to the dialog and acts on its effect.
func (m *model) key(k dialog.Key) (tea.Model, tea.Cmd) {
	eff := m.d.Update(k)
	switch eff.Kind {
	case dialog.EffectSubmit:
		return m.finish(ask.Outcome{Answers: eff.Answers})
	case dialog.EffectDismiss:
		return m.finish(ask.Outcome{Dismissed: true})
	case dialog.EffectCancelCountdown:
		m.countdown.Cancel()
	}
	return m, nil
}

func (m *model) finish(o ask.Outcome) (tea.Model, tea.Cmd) {
	m.outcome, m.finished, m.done = o, true, true
	return m, tea.Quit
}

// toKey turns a key press into a dialog key: printable text as typed, and
// everything else as a chord in keyid's canonical form. It reports false
// for a key keyid has no name for, such as a media key; the dialog binds
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
	name, err := keyid.Parse(key.Keystroke())
	if err != nil {
		return dialog.Key{}, false
	}
	return dialog.Key{Name: name}, true
}

// View draws the current state.
func (m *model) View() tea.View {
	switch {
	case m.done:
		return m.lastView()
	case m.clearing:
		return tea.NewView("")
	case m.hidden:
		return tea.NewView(m.hiddenLine())
	case m.overlay:
		return m.boxView()
	}
	return m.inlineView()
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
func (m *model) steady(f *dialog.Frame) {
	if n := m.frameH - len(f.Lines); n > 0 {
		at := len(f.Lines) - f.Hints
		lines := make([]string, 0, m.frameH)
		lines = append(lines, f.Lines[:at]...)
		lines = append(lines, make([]string, n)...)
		f.Lines = append(lines, f.Lines[at:]...)
	}
	m.frameH = len(f.Lines)
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
	if w < minBoxWidth || h < minBoxHeight {
		return 0, w, h, false
	}
	if m.popup {
		return w, w - borderColumns - 1, h - 2, true
	}
	hm, vm := 0, 0
	if w >= marginWidth {
		hm = hMargin
	}
	if h >= marginHeight {
		vm = vMargin
	}
	boxW = min(w-2*hm, maxBoxWidth)
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
	w, h := m.width, m.height
	boxW, innerW, innerH, ok := m.box(w, h)
	if !ok {
		v := frameView(m.d.View(w, h), 0, 0)
		v.AltScreen = true
		return v
	}
	f := m.d.View(innerW, innerH)
	// Like the inline frame, the box keeps its height, so it does not
	// jump around the screen from one tab to the next. In a popup it
	// fills the popup, which tmux paints opaque around it anyway.
	if m.popup {
		m.frameH = max(m.frameH, innerH)
	}
	m.steady(&f)
	boxH := len(f.Lines) + 2
	top, left := (h-boxH)/2, (w-boxW)/2

	var b strings.Builder
	pad := strings.Repeat(" ", left)
	rule := strings.Repeat("─", innerW+1)
	b.WriteString(strings.Repeat("\n", top))
	b.WriteString(pad + m.th.Border.Render("╭"+rule+"╮"))
	side := m.th.Border.Render("│")
	for _, l := range f.Lines {
		b.WriteString("\n" + pad + side + l)
		fill := max(innerW-ansi.StringWidth(l), 0) + 1
		if strings.HasSuffix(ansi.Strip(l), "─") {
			// A rule runs on to the border.
			b.WriteString(m.th.Border.Render(strings.Repeat("─", fill)))
		} else {
			b.WriteString(strings.Repeat(" ", fill))
		}
		b.WriteString(side)
	}
	b.WriteString("\n" + pad + m.th.Border.Render("╰"+rule+"╯"))
	v := tea.NewView(b.String())
	v.AltScreen = true
	if f.Cursor != nil {
		v.Cursor = tea.NewCursor(left+1+f.Cursor.Col, top+1+f.Cursor.Row)
	}
	return v
}

// hiddenLine is what a hidden overlay leaves on the normal screen: one
// line saying how to bring it back, and the time left.
func (m *model) hiddenLine() string {
	s := "askuser is hidden: " + m.toggle + " shows it, esc dismisses it"
	if left, ok := m.countdown.Remaining(); ok {
		s += " (" + clock(left) + " left)"
	}
	return m.th.Muted.Render(ansi.Truncate(s, max(m.width, 0), "…"))
}

// lastView is the frame left when the program ends: nothing in the
// overlay, a one-line summary inline.
func (m *model) lastView() tea.View {
	if m.overlay {
		// Leaving the alternate screen restores the normal one; a hidden
		// overlay's notice is erased by the empty view. A popup is closed
		// when the program ends, and its terminal thrown away.
		var v tea.View
		v.AltScreen = !m.hidden && !m.popup
		return v
	}
	// On exit Bubble Tea clears the view's last line, where the cursor
	// ends: an empty line after the summary keeps it.
	return tea.NewView(m.summary() + "\n")
}

// summary is the one line an inline dialog leaves behind.
func (m *model) summary() string {
	mark, st, what := "✓", m.th.Selection, ""
	switch {
	case m.finished && m.outcome.Dismissed:
		mark, st, what = "✗", m.th.Warning, "dismissed"
	case m.finished:
		what = answersText(m.outcome.Answers)
	case errors.Is(m.stopped, ask.ErrTimeout):
		mark, st, what = "⏱", m.th.Warning, "timed out"
	default:
		mark, st, what = "✗", m.th.Warning, "cancelled"
	}
	title := m.req.Header
	if len(m.req.Questions) == 1 {
		title = m.req.Questions[0].Title
	}
	if title == "" {
		title = "askuser"
	}
	s := ansi.Truncate(mark+" "+safetext.Line(title)+": "+safetext.Line(what), max(m.width, 1), "…")
	return st.Render(s)
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
