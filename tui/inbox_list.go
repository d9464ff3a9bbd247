package tui

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/dialog"
	"github.com/askuser/askuser/internal/safetext"
)

// inboxRow is one waiting question of the inbox, with its text made safe
// once, when it is first drawn: of ten thousand questions, a screen
// shows a few dozen.
type inboxRow struct {
	q    *hub.Question
	here string // this machine's name
	made bool
	// The columns, escaped to one line each: agent, project, contract,
	// questions, machine ("" on this machine) and the first question.
	// An approval's contract column marks it as one, its count is
	// blank, and its text is what the agent wants to do.
	agent, project, contract, count, machine, title string
	// kind is the kind of a questionnaire a View shows, such as
	// "approval", which the list and its dialog's heading mark; "" for
	// a question.
	kind string
}

// newInboxRow makes the row of q. here is this machine's name. Its
// machine is known at once, for the list's machine column.
func newInboxRow(q *hub.Question, here string) *inboxRow {
	r := &inboxRow{q: q, here: here}
	if m := oneLine(q.Tag.Machine); m != oneLine(here) {
		r.machine = m
	}
	return r
}

// text makes the row's columns, once, and returns the row.
func (r *inboxRow) text() *inboxRow {
	if r.made {
		return r
	}
	q := r.q
	r.made = true
	r.agent = oneLine(q.Tag.Agent)
	r.project = oneLine(q.Tag.Project)
	r.contract = oneLine(q.Tag.Contract)
	r.count = strconv.Itoa(q.Tag.Questions)
	r.title = oneLine(firstTitle(q.Request))
	if _, ok := ask.LookupKind(q.Tag.Kind); ok {
		r.kind = oneLine(q.Tag.Kind)
		r.contract, r.count = r.kind, ""
		if q.Tag.Wants != "" {
			r.title = oneLine("wants to " + q.Tag.Wants)
		}
	}
	if r.agent == "" {
		r.agent = "?"
	}
	return r
}

// oneLine shows a claim of an asker on one line, its control characters
// made harmless.
func oneLine(s string) string { return safetext.Line(strings.TrimSpace(s)) }

// firstTitle returns the text of a questionnaire's first question, in
// either contract, or "".
func firstTitle(request json.RawMessage) string {
	var req struct {
		Header    string `json:"header"`
		Questions []struct {
			Title    string `json:"title"`
			Question string `json:"question"`
		} `json:"questions"`
	}
	if json.Unmarshal(request, &req) != nil || len(req.Questions) == 0 {
		return ""
	}
	q := req.Questions[0]
	t := q.Title
	if t == "" {
		t = q.Question
	}
	if req.Header != "" && len(req.Questions) > 1 {
		t = req.Header + ": " + t
	}
	return t
}

// newer reports whether a is listed above b: newest first, then by id,
// so that the order is total.
func newer(a, b *inboxRow) int {
	if c := b.q.Created.Compare(a.q.Created); c != 0 {
		return c
	}
	return strings.Compare(a.q.ID, b.q.ID)
}

// inboxList is the list of waiting questions, newest first, and the
// selected one. It knows nothing of terminals: it takes the hub's events
// and draws lines.
type inboxList struct {
	here string // this machine's name
	rows []*inboxRow
	byID map[string]*inboxRow
	sel  int // index of the selected row
	top  int // the first row shown
	// loading is set while the hub's stored questions are read: rows
	// are then appended, and merged in order by settle, after each
	// batch; the first sorted of them are in order.
	loading bool
	sorted  int
	// others counts the rows from another machine: the machine column
	// shows while there is one.
	others int
}

func newInboxList(here string) *inboxList {
	return &inboxList{here: here, byID: map[string]*inboxRow{}, loading: true}
}

// loaded sorts the rows appended while loading. The selection stays
// where the person moved it, on the newest row otherwise.
func (l *inboxList) loaded() {
	l.settle()
	l.loading = false
	if l.sel == 0 {
		l.top = 0
	}
}

// settle sorts the rows appended while loading, newest first, so that
// the list can be drawn before every stored question is read.
// A row the person moved to stays selected; otherwise the newest is.
// Only the rows appended since are sorted, then merged with the others:
// ten thousand stored questions read in a hundred batches cost a
// hundred merges, not a hundred sorts.
func (l *inboxList) settle() {
	if l.sorted >= len(l.rows) {
		return
	}
	id := ""
	if l.sel > 0 {
		id = l.selectedID()
	}
	head, tail := l.rows[:l.sorted], l.rows[l.sorted:]
	slices.SortFunc(tail, newer)
	merged := make([]*inboxRow, 0, len(l.rows))
	for len(head) > 0 && len(tail) > 0 {
		if newer(tail[0], head[0]) < 0 {
			merged, tail = append(merged, tail[0]), tail[1:]
		} else {
			merged, head = append(merged, head[0]), head[1:]
		}
	}
	l.rows = append(append(merged, head...), tail...)
	l.sorted = len(l.rows)
	if id != "" {
		l.reselect(id)
	}
}

// count adds n rows like r to others, when r is from another machine.
func (l *inboxList) count(r *inboxRow, n int) {
	if r.machine != "" {
		l.others += n
	}
}

// put adds q, or replaces the row of a question already listed, keeping
// the selection on the question it was on.
func (l *inboxList) put(q *hub.Question) {
	r := newInboxRow(q, l.here)
	if old := l.byID[q.ID]; old != nil && old.q.Created.Equal(q.Created) {
		// Read again, as the hub's newest are, or after a reconnection:
		// its place in the list is the same.
		l.count(old, -1)
		*old = *r
		l.count(old, 1)
		return
	}
	if l.loading {
		if old := l.byID[q.ID]; old != nil {
			l.count(old, -1)
			*old = *r
			l.count(old, 1)
			l.sorted = 0 // its place may have changed
		} else {
			l.rows = append(l.rows, r)
			l.byID[q.ID] = r
			l.count(r, 1)
		}
		return
	}
	selID := l.selectedID()
	if old := l.byID[q.ID]; old != nil {
		l.removeRow(old)
	}
	i, _ := slices.BinarySearchFunc(l.rows, r, newer)
	l.rows = slices.Insert(l.rows, i, r)
	l.byID[q.ID] = r
	l.count(r, 1)
	l.reselect(selID)
}

// remove takes the question id off the list; it reports whether it was
// listed.
func (l *inboxList) remove(id string) bool {
	r := l.byID[id]
	if r == nil {
		return false
	}
	selID := l.selectedID()
	l.removeRow(r)
	if selID != id {
		l.reselect(selID)
	}
	l.sel = min(l.sel, max(len(l.rows)-1, 0))
	return true
}

func (l *inboxList) removeRow(r *inboxRow) {
	l.count(r, -1)
	if l.loading {
		if i := slices.Index(l.rows, r); i >= 0 {
			l.rows = slices.Delete(l.rows, i, i+1)
			if i < l.sorted {
				l.sorted--
			}
		}
		delete(l.byID, r.q.ID)
		return
	}
	i, found := slices.BinarySearchFunc(l.rows, r, newer)
	if found {
		l.rows = slices.Delete(l.rows, i, i+1)
	}
	delete(l.byID, r.q.ID)
}

// reselect puts the selection on id again, if it is listed.
func (l *inboxList) reselect(id string) {
	if r := l.byID[id]; r != nil {
		if i, found := slices.BinarySearchFunc(l.rows, r, newer); found {
			l.sel = i
		}
	}
}

func (l *inboxList) selectedID() string {
	if l.sel < len(l.rows) {
		return l.rows[l.sel].q.ID
	}
	return ""
}

// selected returns the selected row, or nil when the list is empty.
func (l *inboxList) selected() *inboxRow {
	if l.sel < len(l.rows) {
		return l.rows[l.sel]
	}
	return nil
}

// move moves the selection by d rows, within the list.
func (l *inboxList) move(d int) {
	l.sel = max(min(l.sel+d, len(l.rows)-1), 0)
}

// expire takes off the list the questions whose deadline passed at now,
// and returns them.
func (l *inboxList) expire(now time.Time) []*inboxRow {
	var gone []*inboxRow
	for _, r := range l.rows {
		if d := r.q.Tag.Deadline; d != nil && !now.Before(*d) {
			gone = append(gone, r)
		}
	}
	for _, r := range gone {
		l.remove(r.q.ID)
	}
	return gone
}

// timeLeft is a row's countdown as the list shows it.
func timeLeft(q *hub.Question, now time.Time) string {
	d := q.Tag.Deadline
	if d == nil {
		return "no deadline"
	}
	left := d.Sub(now)
	if left <= 0 {
		return "timed out"
	}
	return clock(left) + " left"
}

// The list's columns, in cells; the question's text takes what is left.
const (
	colAgent    = 18
	colProject  = 24
	colContract = 15
	colCount    = 3
	colLeft     = 12
	colMachine  = 14
	colGap      = 2
)

// lines draws the rows that fit in h rows of width w at now, with a
// heading, keeping the selected row in sight.
func (l *inboxList) lines(th dialog.Theme, w, h int, now time.Time) []string {
	if h <= 0 {
		return nil
	}
	// The machine column is shown only when a question comes from
	// another machine: on one machine it would be empty, and the
	// question's text needs the room more.
	machines := l.others > 0
	out := []string{th.Muted.Render(rowText(w, machines, "AGENT", "PROJECT", "CONTRACT", "QS", "LEFT", "MACHINE", "QUESTION"))}
	h--
	if h <= 0 {
		return out
	}
	if l.sel < l.top {
		l.top = l.sel
	}
	if l.sel >= l.top+h {
		l.top = l.sel - h + 1
	}
	l.top = max(min(l.top, len(l.rows)-h), 0)
	for i := l.top; i < len(l.rows) && i < l.top+h; i++ {
		r := l.rows[i].text()
		text := rowText(w, machines, r.agent, tail(r.project, colProject), r.contract, r.count, timeLeft(r.q, now), r.machine, r.title)
		switch {
		case i == l.sel:
			out = append(out, th.Accent.Render("›"+text[1:]))
		case r.q.Tag.Deadline != nil && r.q.Tag.Deadline.Sub(now) < 30*time.Second:
			out = append(out, th.Warning.Render(text))
		default:
			out = append(out, text)
		}
	}
	return out
}

// rowText lays out one row's columns in w cells, with a column for the
// selection mark first, and the machine's column only with machines.
func rowText(w int, machines bool, agent, project, contract, count, left, machine, title string) string {
	var b strings.Builder
	b.WriteString("  ")
	for _, c := range []struct {
		s string
		w int
	}{{agent, colAgent}, {project, colProject}, {contract, colContract}, {count, colCount}, {left, colLeft}, {machine, colMachine}} {
		if c.w == colMachine && !machines {
			continue
		}
		b.WriteString(fit(c.s, c.w))
		b.WriteString(spaces(colGap))
	}
	b.WriteString(title)
	return ansi.Truncate(b.String(), max(w, 2), "…")
}

// fit truncates s to w cells, or pads it to w.
func fit(s string, w int) string {
	s = ansi.Truncate(s, w, "…")
	return s + spaces(w-ansi.StringWidth(s))
}

// tail keeps the end of a path that is wider than w cells: its last
// folders say more than its first.
func tail(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return "…" + ansi.TruncateLeft(s, ansi.StringWidth(s)-w+1, "")
}
