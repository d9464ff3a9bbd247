package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/dialog"
)

// Answerer is where the inbox sends what the person decided: a
// *hub.Client.
type Answerer interface {
	Answer(ctx context.Context, id string, data []byte, by string) (hub.Answer, error)
	Dismiss(ctx context.Context, id, by string) (hub.Answer, error)
	StopCountdown(ctx context.Context, id, by string) error
}

// InboxOptions configures RunInbox. A nil *InboxOptions means the
// defaults.
type InboxOptions struct {
	// Theme supplies the colours; nil means DefaultTheme().
	Theme *Theme
	// Environ is the environment used to detect the terminal's colour
	// support; nil means the process's own.
	Environ []string
	// Width and Height are the size to assume when the output is not a
	// terminal whose size can be read; zero means 80×24.
	Width, Height int
	// By names who answers, as the asker and its model are told; ""
	// means "the person in askuser inbox".
	By string
	// Machine is this machine's name: rows from it show no machine.
	Machine string
}

// The inbox's own keys. In an open questionnaire every other key is the
// dialog's.
const (
	// InboxDismissKey dismisses the open questionnaire for its asker, as
	// the dialog's dismissal does where the question was asked. The
	// dialog's own dismissal (Esc, or Esc Esc) only goes back to the
	// list: the question keeps waiting.
	InboxDismissKey = "ctrl+x"
	// inboxBack is what the dialog's own dismissal does in the inbox,
	// as its hints and the inbox's heading say.
	inboxBack = "back to the list"
	// flashFor is how long a transient line stays.
	flashFor = 8 * time.Second
)

// RunInbox shows the inbox on the terminal in and out until the person
// quits it or ctx is done: every question that events reports waiting,
// newest first, live, and the dialog of the one the person opens. What
// the person submits or dismisses goes through a. It returns nil when
// the person quit, context.Cause(ctx) when ctx is done, and the
// terminal's error otherwise.
func RunInbox(ctx context.Context, in io.Reader, out io.Writer, events <-chan hub.WatchEvent, a Answerer, opts *InboxOptions) error {
	var o InboxOptions
	if opts != nil {
		o = *opts
	}
	m := newInbox(events, a, &o)
	_, err := runProgram(ctx, m, in, out, Options{Environ: o.Environ, Width: o.Width, Height: o.Height}, nil)
	return err
}

// inbox is the Bubble Tea model of askuser inbox.
type inbox struct {
	screen
	events <-chan hub.WatchEvent
	ans    Answerer
	by     string
	now    func() time.Time

	list   *inboxList
	synced bool // the hub's questions have all been read once
	lost   bool // the connection to the hub is lost

	open   *openQuestion            // the questionnaire shown, or nil
	drafts map[string]*openQuestion // questionnaires left with Esc, as they were

	flash      string // a transient line
	flashStyle dialog.Style
	flashEnd   time.Time
}

// openQuestion is one questionnaire in its dialog.
type openQuestion struct {
	row     *inboxRow
	d       inboxDialog
	sending bool // an answer or dismissal is on its way
}

func newInbox(events <-chan hub.WatchEvent, a Answerer, o *InboxOptions) *inbox {
	th := dialogTheme(o.Theme)
	by := o.By
	if by == "" {
		by = "the person in askuser inbox"
	}
	if o.Machine != "" {
		by += " on " + o.Machine
	}
	return &inbox{
		screen: screen{th: th, overlay: true},
		events: events, ans: a, by: by, now: time.Now,
		list:   newInboxList(o.Machine),
		drafts: map[string]*openQuestion{},
	}
}

// Messages of the inbox.
type (
	// inboxEvents is the hub's events that were ready at once: ten
	// thousand stored questions make a few updates and redraws, not ten
	// thousand.
	inboxEvents struct {
		es    []hub.WatchEvent
		ended bool // the hub's events ended after these
	}
	inboxEnded   struct{}
	inboxTick    struct{}
	inboxDecided struct {
		id      string
		a       hub.Answer
		err     error
		dismiss bool
	}
	// inboxStopped says how the hub took a stopped countdown.
	inboxStopped struct {
		id  string
		err error
	}
)

// Batches of the hub's events: at most maxBatch, and, while the stored
// questions are read, whatever comes within batchWait of the first, so
// that the first screen shows them without a redraw for each.
const (
	maxBatch  = 4096
	batchWait = 40 * time.Millisecond
)

// next reads the next events of the hub: the first, and every other one
// that is ready by then, or, before the hub's questions have all been
// read, that comes within batchWait. A batch ends at the mark that the
// newest questions or all of them have been read, to be drawn at once.
func (m *inbox) next() tea.Cmd {
	ch, loading := m.events, !m.synced
	return func() tea.Msg {
		e, ok := <-ch
		if !ok {
			return inboxEnded{}
		}
		es := []hub.WatchEvent{e}
		var wait <-chan time.Time
		if loading {
			t := time.NewTimer(batchWait)
			defer t.Stop()
			wait = t.C
		}
		for len(es) < maxBatch && e.Kind != hub.WatchSynced && e.Kind != hub.WatchNewest {
			if wait == nil {
				select {
				case e, ok = <-ch:
				default:
					return inboxEvents{es: es}
				}
			} else {
				select {
				case e, ok = <-ch:
				case <-wait:
					return inboxEvents{es: es}
				}
			}
			if !ok {
				return inboxEvents{es: es, ended: true}
			}
			es = append(es, e)
		}
		return inboxEvents{es: es}
	}
}

func inboxTickCmd() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return inboxTick{} })
}

// Init starts reading the hub and the countdowns' redraws.
func (m *inbox) Init() tea.Cmd { return tea.Batch(m.next(), inboxTickCmd()) }

// Update handles one message.
func (m *inbox) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.frameH = 0
		m.sizeDialog()
		return m, nil
	case stopMsg:
		m.done = true
		return m, tea.Quit
	case inboxEvents:
		for _, e := range msg.es {
			m.apply(e)
		}
		m.list.settle()
		if msg.ended {
			return m, nil
		}
		return m, m.next()
	case inboxEnded:
		return m, nil
	case inboxTick:
		m.tick()
		return m, inboxTickCmd()
	case inboxDecided:
		m.decided(msg)
		return m, nil
	case inboxStopped:
		m.stopped(msg)
		return m, nil
	}
	k, _, ok := m.input(msg)
	if !ok {
		return m, nil
	}
	if m.open != nil {
		return m, m.dialogKey(k)
	}
	return m, m.listKey(k)
}

// apply takes one event of the hub.
func (m *inbox) apply(e hub.WatchEvent) {
	switch e.Kind {
	case hub.WatchWaiting:
		m.list.put(e.Question)
		if m.open != nil && m.open.row.q.ID == e.ID {
			m.open.row = m.list.byID[e.ID]
		}
	case hub.WatchClosed:
		r := m.list.byID[e.ID]
		if r == nil {
			if e.Answer != nil && e.Answer.Superseded != "" {
				// An answer given here lost on the remote hub.
				m.say(m.th.Warning, "question "+e.ID+": "+closedText(e.Answer))
			}
			return
		}
		m.list.remove(e.ID)
		delete(m.drafts, e.ID)
		mine := m.open != nil && m.open.row.q.ID == e.ID && m.open.sending
		if m.open != nil && m.open.row.q.ID == e.ID && !mine {
			m.open = nil
		}
		if !mine {
			m.say(m.th.Warning, rowName(r)+": "+closedText(e.Answer))
		}
	case hub.WatchSynced:
		if !m.synced {
			// The list opens on the newest question.
			m.list.loaded()
		}
		m.synced, m.lost = true, false
	case hub.WatchLost:
		m.lost = true
	}
}

// rowName names a question in a transient line.
func rowName(r *inboxRow) string {
	r.text()
	name := r.title
	if name == "" {
		name = "a question"
	}
	return r.agent + ", " + name
}

// closedText says how a question ended elsewhere, from the hub's record.
func closedText(a *hub.Answer) string {
	if a == nil {
		return "no longer waits (its deadline passed, or its agent went away)"
	}
	return oneLine(a.Where())
}

// say shows a transient line.
func (m *inbox) say(st dialog.Style, text string) {
	m.flash, m.flashStyle, m.flashEnd = text, st, m.now().Add(flashFor)
}

// tick ends questions past their deadline and old transient lines.
func (m *inbox) tick() {
	now := m.now()
	for _, r := range m.list.expire(now) {
		delete(m.drafts, r.q.ID)
		if m.open != nil && m.open.row == r && !m.open.sending {
			m.open = nil
			m.say(m.th.Warning, rowName(r)+": timed out")
		}
	}
	if m.flash != "" && !now.Before(m.flashEnd) {
		m.flash = ""
	}
}

// listKey handles a key on the list.
func (m *inbox) listKey(k dialog.Key) tea.Cmd {
	switch {
	case k.Name == "up" || k.Name == "ctrl+p" || k.Text == "k":
		m.list.move(-1)
	case k.Name == "down" || k.Name == "ctrl+n" || k.Text == "j":
		m.list.move(1)
	case k.Name == "pgup":
		m.list.move(-max(m.height-4, 1))
	case k.Name == "pgdown":
		m.list.move(max(m.height-4, 1))
	case k.Name == "home":
		m.list.move(-len(m.list.rows))
	case k.Name == "end":
		m.list.move(len(m.list.rows))
	case k.Name == "enter":
		m.openSelected()
	case isQuitKey(k) || k.Name == "esc":
		return m.quit()
	}
	return nil
}

// isQuitKey reports whether k is q or Ctrl+C, which quit the inbox from
// the list, and from a questionnaire whose answer is on its way.
func isQuitKey(k dialog.Key) bool { return k.Text == "q" || k.Name == "ctrl+c" }

// quit ends the inbox at once, whatever waits on the hub: an answer on
// its way is not waited for.
func (m *inbox) quit() tea.Cmd {
	m.done = true
	return tea.Quit
}

// openSelected opens the selected question in its dialog, as it was left
// if it was opened before.
func (m *inbox) openSelected() {
	r := m.list.selected()
	if r == nil {
		return
	}
	// What the last action said is done with: the heading of the
	// question opened shows its keys.
	m.flash = ""
	if o := m.drafts[r.q.ID]; o != nil {
		o.row = r
		m.open = o
		m.sizeDialog()
		return
	}
	if err := hub.CheckKind(r.q.Tag); err != nil {
		m.say(m.th.Error, rowName(r)+": cannot be shown: "+oneLine(err.Error()))
		return
	}
	o := &openQuestion{row: r}
	cd := questionCountdown{o: o, now: m.now}
	open, ok := inboxDialogs[r.q.Tag.Contract]
	if !ok {
		m.say(m.th.Error, rowName(r)+": cannot be shown: its contract is not one askuser knows")
		return
	}
	d, err := open(r.q.Request, dialog.Options{Theme: m.th, Countdown: cd, DismissHint: inboxBack})
	if err != nil {
		m.say(m.th.Error, rowName(r)+": cannot be shown: "+oneLine(err.Error()))
		return
	}
	o.d = d
	m.open = o
	m.frameH = 0
	m.sizeDialog()
}

// questionCountdown is an open question's deadline as the dialog reads
// it: the one its row holds now, which loses its deadline when a surface
// stops the countdown.
type questionCountdown struct {
	o   *openQuestion
	now func() time.Time
}

// Remaining returns the time left until the question's deadline.
func (c questionCountdown) Remaining() (time.Duration, bool) {
	d := c.o.row.q.Tag.Deadline
	if d == nil {
		return 0, false
	}
	return max(d.Sub(c.now()), 0), true
}

// dialogSize is the size of the open dialog: the box, below the inbox's
// line.
func (m *inbox) dialogSize() (int, int) {
	_, w, h, _ := boxIn(m.width, max(m.height-1, 0), false, maxBoxWidth)
	return w, h
}

func (m *inbox) sizeDialog() {
	if m.open == nil {
		return
	}
	w, h := m.dialogSize()
	m.open.d.SetSize(w, h)
}

// dialogKey handles a key in the open questionnaire.
func (m *inbox) dialogKey(k dialog.Key) tea.Cmd {
	o := m.open
	if o.sending {
		// The dialog waits for the hub to take what was sent, which a
		// hub that does not answer holds up for seconds; the person can
		// leave meanwhile.
		if isQuitKey(k) {
			return m.quit()
		}
		return nil
	}
	if k.Name == InboxDismissKey {
		return m.send(o, nil, true)
	}
	// The answer goes to the hub in the contract's result JSON.
	kind, answer := o.d.Update(k)
	switch kind {
	case dialog.EffectSubmit:
		data, err := answer()
		if err != nil {
			m.say(m.th.Error, "the answer cannot be sent: "+err.Error())
			return nil
		}
		return m.send(o, data, false)
	case dialog.EffectDismiss:
		// Back to the list: the question keeps waiting, and opens again
		// as it was left.
		m.drafts[o.row.q.ID] = o
		m.open = nil
	case dialog.EffectCancelCountdown:
		return m.stopCountdown(o.row.q.ID)
	}
	return nil
}

// stopCountdown stops the countdown of the question id for every surface
// and its asker, as Alt+Q does where it was asked.
func (m *inbox) stopCountdown(id string) tea.Cmd {
	by, a := m.by, m.ans
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return inboxStopped{id: id, err: a.StopCountdown(ctx, id, by)}
	}
}

// stopped shows how the hub took a stopped countdown.
func (m *inbox) stopped(msg inboxStopped) {
	if msg.err != nil {
		m.say(m.th.Error, "the countdown was not stopped: "+oneLine(msg.err.Error()))
		return
	}
	if r := m.list.byID[msg.id]; r != nil {
		// The hub's watch brings the same change; the row need not wait
		// for it.
		q := *r.q
		q.Tag.Deadline = nil
		m.list.put(&q)
		if m.open != nil && m.open.row.q.ID == msg.id {
			m.open.row = m.list.byID[msg.id]
		}
	}
	m.say(m.th.Selection, "the countdown is stopped for every surface and the agent that asked")
}

// send sends the person's answer (data) or dismissal through the hub.
func (m *inbox) send(o *openQuestion, data []byte, dismiss bool) tea.Cmd {
	o.sending = true
	id, by, a := o.row.q.ID, m.by, m.ans
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		var ans hub.Answer
		var err error
		if dismiss {
			ans, err = a.Dismiss(ctx, id, by)
		} else {
			ans, err = a.Answer(ctx, id, data, by)
		}
		return inboxDecided{id: id, a: ans, err: err, dismiss: dismiss}
	}
}

// decided shows how the hub took what the person sent.
func (m *inbox) decided(msg inboxDecided) {
	o := m.open
	if o == nil || o.row.q.ID != msg.id {
		return
	}
	r := o.row
	m.open = nil
	delete(m.drafts, msg.id)
	var re *hub.RefusedError
	switch {
	case msg.err == nil && msg.dismiss:
		m.list.remove(msg.id)
		m.say(m.th.Selection, rowName(r)+": dismissed; its agent is told you dismissed it")
	case msg.err == nil:
		m.list.remove(msg.id)
		m.say(m.th.Selection, rowName(r)+": answered; its agent has the answer")
	case errors.As(msg.err, &re) && re.Reason == hub.RefusedInvalid:
		m.say(m.th.Error, rowName(r)+": the hub refused the answer: "+oneLine(re.Message))
	case errors.As(msg.err, &re):
		m.list.remove(msg.id)
		m.say(m.th.Warning, rowName(r)+": "+oneLine(re.Message))
	default:
		m.say(m.th.Error, rowName(r)+": the answer did not reach the hub: "+oneLine(msg.err.Error())+"; open it again to retry")
	}
}

// View draws the list, or the open questionnaire over it.
func (m *inbox) View() tea.View {
	if m.done {
		var v tea.View
		v.AltScreen = true
		return v
	}
	if m.open != nil {
		return m.dialogView()
	}
	return m.listView()
}

// status is the inbox's first line: what waits, and the hub's state.
func (m *inbox) status() string {
	n := len(m.list.rows)
	text := "askuser inbox · "
	switch {
	case !m.synced && !m.lost && n > 0:
		text += fmt.Sprintf("%d so far, reading the hub…", n)
	case !m.synced && !m.lost:
		text += "reading the hub…"
	case n == 1:
		text += "1 question waits"
	default:
		text += fmt.Sprintf("%d questions wait", n)
	}
	line := m.th.Accent.Render(text)
	if m.lost {
		line += "  " + m.th.Warning.Render("the hub went away; reconnecting…")
	}
	return ansi.Truncate(line, max(m.width, 1), "…")
}

// hintsLine is the list's key hints.
func (m *inbox) hintsLine() string {
	return m.th.Muted.Render(ansi.Truncate("↑↓ move · enter open · q quit", max(m.width, 1), "…"))
}

func (m *inbox) flashLine() string {
	if m.flash == "" {
		return ""
	}
	return m.flashStyle.Render(ansi.Truncate(m.flash, max(m.width, 1), "…"))
}

func (m *inbox) listView() tea.View {
	h := max(m.height, 3)
	lines := make([]string, 0, h)
	lines = append(lines, m.status())
	body := h - 3
	if m.synced && len(m.list.rows) == 0 {
		lines = append(lines, "", m.th.Muted.Render("  no questions wait"))
	} else {
		lines = append(lines, m.list.lines(m.th, m.width, body, m.now())...)
	}
	for len(lines) < h-2 {
		lines = append(lines, "")
	}
	lines = append(lines, m.flashLine(), m.hintsLine())
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	return v
}

// dialogView draws the open questionnaire in its box, under a line
// saying whose it is and how to leave it.
func (m *inbox) dialogView() tea.View {
	o := m.open
	r := o.row.text()
	head := r.agent
	if r.kind != "" {
		head = r.kind + " · " + head
	}
	if r.project != "" {
		head += " · " + tail(r.project, 40)
	}
	if r.machine != "" {
		head += " on " + r.machine
	}
	keys := "esc " + inboxBack + " · " + InboxDismissKey + " dismiss it for its agent"
	keyStyle := m.th.Muted
	switch {
	case o.sending:
		keys = "sending…"
	case m.flash != "":
		keys, keyStyle = m.flash, m.flashStyle
	}
	line := m.th.Accent.Render(ansi.Truncate(head, max(m.width/2, 1), "…")) + "  " + keyStyle.Render(keys)
	line = ansi.Truncate(line, max(m.width, 1), "…")
	view := o.view
	full := m.height
	m.height = max(full-1, 0)
	v := m.boxed(view, maxBoxWidth)
	m.height = full
	v.Content = line + "\n" + v.Content
	if v.Cursor != nil {
		v.Cursor.Y++
	}
	return v
}

// view draws the questionnaire's dialog at w×h.
func (o *openQuestion) view(w, h int) dialog.Frame {
	return o.d.View(w, h)
}
