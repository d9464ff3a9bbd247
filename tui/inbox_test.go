package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/dialog"
	"github.com/askuser/askuser/internal/testkit"
)

var inboxT0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// inboxQuestion is a waiting question made at inboxT0 plus created
// seconds, with a deadline left after inboxT0 (none when left is 0).
func inboxQuestion(id string, created int, left time.Duration, agent, title string) *hub.Question {
	req, _ := json.Marshal(map[string]any{"questions": []map[string]any{{"title": title, "options": []map[string]string{{"label": "a"}}}}})
	q := &hub.Question{ID: id, Status: "waiting", Created: inboxT0.Add(time.Duration(created) * time.Second), Request: req,
		Tag: hub.Tag{Agent: agent, Project: "/src/app", Machine: "here", Contract: hub.ContractAskUser, Questions: 1}}
	if left != 0 {
		d := inboxT0.Add(left)
		q.Tag.Deadline = &d
	}
	return q
}

// loadedList is a list on the machine "here" with qs stored.
func loadedList(qs ...*hub.Question) *inboxList {
	l := newInboxList("here")
	for _, q := range qs {
		l.put(q)
	}
	l.loaded()
	return l
}

// TestInboxList checks the list the inbox draws: newest first, the
// countdown's text, the selection kept on its question, and every claim
// of an asker escaped.
func TestInboxList(t *testing.T) {
	tests := []struct {
		name string
		put  []*hub.Question
		live []*hub.Question // after the stored ones are loaded
		drop []string
		move int
		at   time.Duration // after inboxT0
		want []string      // the rows, trailing blanks trimmed, without the heading
	}{
		{
			name: "newest first",
			put: []*hub.Question{
				inboxQuestion("aaaaaaaaaaaa", 1, 0, "old", "First?"),
				inboxQuestion("bbbbbbbbbbbb", 3, 0, "new", "Third?"),
				inboxQuestion("cccccccccccc", 2, 0, "mid", "Second?"),
			},
			want: []string{"› new", "  mid", "  old"},
		},
		{
			name: "a question arriving keeps the selection",
			put: []*hub.Question{
				inboxQuestion("aaaaaaaaaaaa", 1, 0, "a", "A?"),
				inboxQuestion("bbbbbbbbbbbb", 2, 0, "b", "B?"),
			},
			live: []*hub.Question{inboxQuestion("cccccccccccc", 3, 0, "c", "C?")},
			want: []string{"  c", "› b", "  a"},
		},
		{
			name: "countdown",
			put: []*hub.Question{
				inboxQuestion("aaaaaaaaaaaa", 1, 90*time.Second, "a", "A?"),
				inboxQuestion("bbbbbbbbbbbb", 2, 0, "b", "B?"),
				inboxQuestion("cccccccccccc", 3, 2*time.Hour, "c", "C?"),
			},
			at:   500 * time.Millisecond,
			want: []string{"2:00:00 left", "no deadline", "1:30 left"},
		},
		{
			name: "selection follows its question",
			put: []*hub.Question{
				inboxQuestion("aaaaaaaaaaaa", 1, 0, "a", "A?"),
				inboxQuestion("bbbbbbbbbbbb", 2, 0, "b", "B?"),
				inboxQuestion("cccccccccccc", 3, 0, "c", "C?"),
			},
			drop: []string{"cccccccccccc"},
			move: -1,
			want: []string{"› b", "  a"},
		},
		{
			name: "escaped",
			put: []*hub.Question{
				inboxQuestion("aaaaaaaaaaaa", 1, 0, "evil\x1b[2J\x1b]0;pwned\x07", "Title\r\nwith\x1b[31mred\u202e"),
			},
			want: []string{"› evil"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := loadedList(tt.put...)
			for _, q := range tt.live {
				l.put(q)
			}
			for _, id := range tt.drop {
				l.remove(id)
			}
			l.move(tt.move)
			lines := l.lines(dialog.PlainTheme(), 200, 10, inboxT0.Add(tt.at))
			var got []string
			for _, line := range lines[1:] {
				if strings.ContainsRune(line, '\x1b') || strings.ContainsAny(line, "\r\n\a\u202e") {
					t.Errorf("a raw control character reaches the terminal: %q", line)
				}
				for _, w := range tt.want {
					if strings.Contains(line, w) || strings.HasPrefix(line, w) {
						got = append(got, w)
						break
					}
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("rows (-want +got):\n%s\nthe list:\n%s", diff, strings.Join(lines, "\n"))
			}
			if n := len(tt.put) + len(tt.live) - len(tt.drop); len(lines)-1 != n {
				t.Errorf("%d rows, want %d", len(lines)-1, n)
			}
		})
	}
}

// TestInboxMachineColumn checks that the machine column is drawn only
// when a question comes from another machine, and then names it.
func TestInboxMachineColumn(t *testing.T) {
	remote := inboxQuestion("bbbbbbbbbbbb", 2, 0, "b", "From afar?")
	remote.Tag.Machine = "build-server"
	tests := []struct {
		name        string
		put         []*hub.Question
		wantHeading bool
		wantMachine string
	}{
		{"one machine", []*hub.Question{inboxQuestion("aaaaaaaaaaaa", 1, 0, "a", "Here?")}, false, ""},
		{"another machine too", []*hub.Question{inboxQuestion("aaaaaaaaaaaa", 1, 0, "a", "Here?"), remote}, true, "build-server"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := loadedList(tt.put...)
			lines := l.lines(dialog.PlainTheme(), 200, 10, inboxT0)
			all := strings.Join(lines, "\n")
			if got := strings.Contains(lines[0], "MACHINE"); got != tt.wantHeading {
				t.Errorf("the heading names MACHINE: %v, want %v:\n%s", got, tt.wantHeading, all)
			}
			if tt.wantMachine != "" && !strings.Contains(all, tt.wantMachine) {
				t.Errorf("no row names %q:\n%s", tt.wantMachine, all)
			}
			// The question's text follows the columns in every row.
			for _, q := range tt.put {
				if title := firstTitle(q.Request); !strings.Contains(all, title) {
					t.Errorf("no row shows %q:\n%s", title, all)
				}
			}
		})
	}
}

// TestInboxTimeLeft checks the countdown's words.
func TestInboxTimeLeft(t *testing.T) {
	for _, tt := range []struct {
		left time.Duration
		none bool
		want string
	}{
		{none: true, want: "no deadline"},
		{left: 59*time.Second + 100*time.Millisecond, want: "1:00 left"},
		{left: 61 * time.Second, want: "1:01 left"},
		{left: 3*time.Hour + 5*time.Second, want: "3:00:05 left"},
		{left: 0, want: "timed out"},
		{left: -time.Second, want: "timed out"},
	} {
		q := inboxQuestion("aaaaaaaaaaaa", 0, 0, "a", "A?")
		if !tt.none {
			d := inboxT0.Add(tt.left)
			q.Tag.Deadline = &d
		}
		if got := timeLeft(q, inboxT0); got != tt.want {
			t.Errorf("timeLeft(%v) = %q, want %q", tt.left, got, tt.want)
		}
	}
}

// TestInboxClosedText checks how the inbox says where a question went.
func TestInboxClosedText(t *testing.T) {
	for _, tt := range []struct {
		a    *hub.Answer
		want string
	}{
		{nil, "no longer waits (its deadline passed, or its agent went away)"},
		{&hub.Answer{Status: hub.StatusAnswered, By: "ci-policy (askuser answer) on box"}, "answered by ci-policy (askuser answer) on box"},
		{&hub.Answer{Status: hub.StatusDismissed, By: "the person in askuser inbox"}, "dismissed by the person in askuser inbox"},
		{&hub.Answer{Status: hub.StatusClosed, Note: "answered", By: "the terminal of askuser ask on box"}, "answered in the terminal of askuser ask on box"},
		{&hub.Answer{Status: hub.StatusClosed, Note: "timed out", By: "the terminal of askuser ask"}, "timed out (the terminal of askuser ask)"},
		{&hub.Answer{Status: hub.StatusAnswered, By: "x\x1b[2Jy"}, "answered by x␛[2Jy"},
	} {
		got := closedText(tt.a)
		if strings.ContainsRune(got, '\x1b') {
			t.Errorf("closedText(%+v) holds a raw escape: %q", tt.a, got)
		}
		if tt.a != nil && strings.ContainsRune(tt.a.By, '\x1b') {
			continue
		}
		if got != tt.want {
			t.Errorf("closedText(%+v) = %q, want %q", tt.a, got, tt.want)
		}
	}
}

// TestInboxBatches feeds the inbox the hub's events in batches, as next
// reads them: the list drawn after each batch is newest first while the
// stored questions are still read, the machine column comes and goes
// with the questions from another machine, and a question closed in the
// batch that stored it is not listed.
func TestInboxBatches(t *testing.T) {
	m := newInbox(nil, nil, &InboxOptions{Machine: "here"})
	m.width, m.height = 200, 20
	m.now = func() time.Time { return inboxT0 }
	waiting := func(q *hub.Question) hub.WatchEvent {
		return hub.WatchEvent{Kind: hub.WatchWaiting, ID: q.ID, Question: q}
	}
	far := inboxQuestion("ffffffffffff", 9, 0, "far", "Far?")
	far.Tag.Machine = "elsewhere"
	steps := []struct {
		name  string
		batch []hub.WatchEvent
		rows  []string // the agents listed, in order
		mach  bool     // the machine column shows
		head  string
	}{
		{"first stored batch", []hub.WatchEvent{
			waiting(inboxQuestion("aaaaaaaaaaaa", 1, 0, "one", "1?")),
			waiting(inboxQuestion("cccccccccccc", 3, 0, "three", "3?")),
			waiting(inboxQuestion("bbbbbbbbbbbb", 2, 0, "two", "2?")),
		}, []string{"three", "two", "one"}, false, "reading the hub…"},
		{"second stored batch, with a close", []hub.WatchEvent{
			waiting(inboxQuestion("dddddddddddd", 4, 0, "four", "4?")),
			waiting(far),
			{Kind: hub.WatchClosed, ID: "bbbbbbbbbbbb"},
			{Kind: hub.WatchSynced},
		}, []string{"far", "four", "three", "one"}, true, "4 questions wait"},
		{"live: the far one leaves", []hub.WatchEvent{
			{Kind: hub.WatchClosed, ID: far.ID},
			waiting(inboxQuestion("eeeeeeeeeeee", 5, 0, "five", "5?")),
		}, []string{"five", "four", "three", "one"}, false, "4 questions wait"},
	}
	for _, st := range steps {
		m.Update(inboxEvents{es: st.batch})
		screen := ansi.Strip(m.View().Content)
		var got []string
		for _, r := range m.list.rows {
			got = append(got, r.text().agent)
		}
		if d := cmp.Diff(st.rows, got); d != "" {
			t.Errorf("%s: rows (-want +got):\n%s", st.name, d)
		}
		if mach := strings.Contains(screen, "MACHINE"); mach != st.mach {
			t.Errorf("%s: machine column shown %v, want %v:\n%s", st.name, mach, st.mach, screen)
		}
		if !strings.Contains(screen, st.head) {
			t.Errorf("%s: the first line does not say %q:\n%s", st.name, st.head, screen)
		}
		if i := strings.Index(screen, st.rows[0]); i < 0 || strings.Index(screen, st.rows[len(st.rows)-1]) < i {
			t.Errorf("%s: the screen is not newest first:\n%s", st.name, screen)
		}
	}
}

// TestInboxNextBatches checks that next takes what the hub has ready in
// one message, and stops a batch after the hub's newest and synced
// marks.
func TestInboxNextBatches(t *testing.T) {
	ch := make(chan hub.WatchEvent, 10)
	for i := range 5 {
		q := inboxQuestion(fmt.Sprintf("q%011d", i), i, 0, "a", "?")
		ch <- hub.WatchEvent{Kind: hub.WatchWaiting, ID: q.ID, Question: q}
	}
	ch <- hub.WatchEvent{Kind: hub.WatchNewest}
	q := inboxQuestion("q00000000009", 9, 0, "a", "?")
	ch <- hub.WatchEvent{Kind: hub.WatchWaiting, ID: q.ID, Question: q}
	ch <- hub.WatchEvent{Kind: hub.WatchSynced}
	ch <- hub.WatchEvent{Kind: hub.WatchClosed, ID: "q00000000000"}
	m := newInbox(ch, nil, &InboxOptions{})
	msg, ok := m.next()().(inboxEvents)
	if !ok || len(msg.es) != 6 || msg.es[5].Kind != hub.WatchNewest {
		t.Fatalf("first batch %+v, want the 5 questions and the newest mark", msg)
	}
	m.Update(msg)
	msg, ok = m.next()().(inboxEvents)
	if !ok || len(msg.es) != 2 || msg.es[1].Kind != hub.WatchSynced {
		t.Fatalf("second batch %+v, want a question and the synced mark", msg)
	}
	m.Update(msg)
	close(ch)
	msg, ok = m.next()().(inboxEvents)
	if !ok || len(msg.es) != 1 || msg.es[0].Kind != hub.WatchClosed || !msg.ended {
		t.Fatalf("third batch %+v, want the close and the end", msg)
	}
}

// BenchmarkInboxFirstView is the inbox's first screen with 10,000
// waiting questions. "events and view" takes the events in batches of
// 64, the watch's buffer, with a View after each, as a watch slower
// than the inbox would deliver them; "view" is one View of the list.
func BenchmarkInboxFirstView(b *testing.B) {
	qs := make([]*hub.Question, 10000)
	for i := range qs {
		qs[i] = inboxQuestion(fmt.Sprintf("q%011d", i), i%977, time.Duration(i%3)*time.Hour, fmt.Sprintf("agent %d", i%1000), "Deploy where?")
	}
	b.Run("events and view", func(b *testing.B) {
		for b.Loop() {
			firstView(b, qs)
		}
	})
	b.Run("view", func(b *testing.B) {
		m := firstView(b, qs)
		for b.Loop() {
			m.list.top, m.list.sel = 0, 0
			m.View()
		}
	})
}

// firstView takes the hub's events of qs and draws the first screen.
func firstView(b *testing.B, qs []*hub.Question) *inbox {
	{
		m := newInbox(nil, nil, &InboxOptions{Machine: "here"})
		m.width, m.height = 200, 60
		var batch []hub.WatchEvent
		for i, q := range qs {
			batch = append(batch, hub.WatchEvent{Kind: hub.WatchWaiting, ID: q.ID, Question: q})
			if len(batch) == 64 || i == len(qs)-1 {
				m.Update(inboxEvents{es: batch})
				m.View()
				batch = batch[:0]
			}
		}
		m.Update(inboxEvents{es: []hub.WatchEvent{{Kind: hub.WatchSynced}}})
		v := m.View()
		if !strings.Contains(ansi.Strip(v.Content), "10000 questions wait") {
			b.Fatalf("the first screen:\n%s", v.Content)
		}
		return m
	}
}

// TestInboxNewestThenAll feeds the inbox what the hub's watch sends: its
// newest questions first, then every stored question, those again
// among them. The newest are listed at once, nothing is listed twice,
// and the row the person moved to stays selected when the rest arrive.
func TestInboxNewestThenAll(t *testing.T) {
	m := newInbox(nil, nil, &InboxOptions{Machine: "here"})
	m.width, m.height = 200, 20
	m.now = func() time.Time { return inboxT0 }
	qs := make([]*hub.Question, 6)
	var all []hub.WatchEvent
	for i := range qs {
		qs[i] = inboxQuestion(fmt.Sprintf("q%011d", i), i, 0, fmt.Sprintf("agent%d", i), "?")
		all = append(all, hub.WatchEvent{Kind: hub.WatchWaiting, ID: qs[i].ID, Question: qs[i]})
	}
	newest := []hub.WatchEvent{all[5], all[4], all[3]}
	m.Update(inboxEvents{es: newest})
	screen := ansi.Strip(m.View().Content)
	if !strings.Contains(screen, "3 so far, reading the hub…") || !strings.Contains(screen, "agent5") {
		t.Fatalf("the screen with the newest read:\n%s", screen)
	}
	m.list.move(1) // the person presses ↓
	if id := m.list.selectedID(); id != qs[4].ID {
		t.Fatalf("selected %s after ↓, want %s", id, qs[4].ID)
	}
	m.Update(inboxEvents{es: all[:2]})
	m.Update(inboxEvents{es: append(all[2:], hub.WatchEvent{Kind: hub.WatchSynced})})
	var got []string
	for _, r := range m.list.rows {
		got = append(got, r.q.ID)
	}
	want := []string{qs[5].ID, qs[4].ID, qs[3].ID, qs[2].ID, qs[1].ID, qs[0].ID}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
	if id := m.list.selectedID(); id != qs[4].ID {
		t.Errorf("selected %s once all were read, want %s, where the person moved", id, qs[4].ID)
	}
	if screen := ansi.Strip(m.View().Content); !strings.Contains(screen, "6 questions wait") {
		t.Errorf("the screen once all were read:\n%s", screen)
	}
}

// TestInboxSuperseded checks that the inbox tells when an answer given
// here, no longer listed, lost on a relay's remote hub, and says nothing
// of other closes of questions it does not list.
func TestInboxSuperseded(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer *hub.Answer
		want   string
	}{
		{"superseded", &hub.Answer{Status: hub.StatusClosed, Note: hub.StatusAnswered, By: "alice on her phone", Superseded: "alice on her laptop"},
			"question aaaaaaaaaaaa: answered in alice on her phone; the answer given here by alice on her laptop came second"},
		{"closed again", &hub.Answer{Status: hub.StatusAnswered, By: "bob"}, ""},
		{"no answer", nil, ""},
	} {
		m := newInbox(nil, nil, &InboxOptions{Machine: "here"})
		m.now = func() time.Time { return inboxT0 }
		m.Update(inboxEvents{es: []hub.WatchEvent{{Kind: hub.WatchClosed, ID: "aaaaaaaaaaaa", Answer: tc.answer}}})
		if m.flash != tc.want {
			t.Errorf("%s: the inbox says %q, want %q", tc.name, m.flash, tc.want)
		}
	}
}

// fakeAnswerer accepts every answer and dismissal.
type fakeAnswerer struct{}

func (fakeAnswerer) Answer(_ context.Context, id string, data []byte, by string) (hub.Answer, error) {
	return hub.Answer{ID: id, Status: hub.StatusAnswered, By: by, Result: data}, nil
}

func (fakeAnswerer) Dismiss(_ context.Context, id, by string) (hub.Answer, error) {
	return hub.Answer{ID: id, Status: hub.StatusDismissed, By: by}, nil
}

func (fakeAnswerer) StopCountdown(context.Context, string, string) error { return nil }

// TestInboxOpenShowsKeys answers one question with the keys, then opens
// the next: its heading shows the dialog's keys, not the line that told
// of the answer before.
func TestInboxOpenShowsKeys(t *testing.T) {
	m := newInbox(nil, fakeAnswerer{}, &InboxOptions{Machine: "here"})
	m.width, m.height = 120, 24
	m.now = func() time.Time { return inboxT0 }
	q1 := inboxQuestion("aaaaaaaaaaaa", 1, 0, "agent1", "First?")
	q2 := inboxQuestion("bbbbbbbbbbbb", 0, 0, "agent2", "Second?")
	m.Update(inboxEvents{es: []hub.WatchEvent{
		{Kind: hub.WatchWaiting, ID: q1.ID, Question: q1},
		{Kind: hub.WatchWaiting, ID: q2.ID, Question: q2},
		{Kind: hub.WatchSynced},
	}})
	head := func() string {
		first, _, _ := strings.Cut(ansi.Strip(m.View().Content), "\n")
		return first
	}
	m.Update(press("enter")) // opens q1, the newest
	_, cmd := m.Update(press("enter"))
	if cmd == nil {
		t.Fatalf("enter on the open question sent nothing; the screen:\n%s", ansi.Strip(m.View().Content))
	}
	m.Update(cmd())
	if !strings.Contains(m.flash, "answered") {
		t.Fatalf("after the answer the inbox says %q, want that it was answered", m.flash)
	}
	m.Update(press("enter")) // opens q2
	if m.open == nil || m.open.row.q.ID != q2.ID {
		t.Fatalf("enter did not open %s", q2.ID)
	}
	want := "esc " + inboxBack + " · " + InboxDismissKey + " dismiss it for its agent"
	if got := head(); !strings.Contains(got, want) {
		t.Errorf("the opened question's heading is %q, want it to show %q", got, want)
	}
}

// TestInboxQuitWhileSending presses keys in a questionnaire whose answer
// is on its way to a hub that has not replied: q and Ctrl+C quit at once,
// and every other key waits for the hub.
func TestInboxQuitWhileSending(t *testing.T) {
	for _, tc := range []struct {
		key  string
		quit bool
	}{
		{"q", true},
		{"ctrl+c", true},
		{"esc", false},
		{"x", false},
		{"enter", false},
	} {
		m := newInbox(nil, fakeAnswerer{}, &InboxOptions{Machine: "here"})
		m.width, m.height = 120, 24
		m.now = func() time.Time { return inboxT0 }
		q := inboxQuestion("aaaaaaaaaaaa", 1, 0, "agent", "First?")
		m.Update(inboxEvents{es: []hub.WatchEvent{{Kind: hub.WatchWaiting, ID: q.ID, Question: q}, {Kind: hub.WatchSynced}}})
		m.Update(press("enter"))
		if _, send := m.Update(press("enter")); send == nil || m.open == nil || !m.open.sending {
			t.Fatalf("%s: enter on the open question sent nothing", tc.key)
		}
		// The send's reply never comes.
		_, cmd := m.Update(press(tc.key))
		if got := isQuit(cmd); got != tc.quit || m.done != tc.quit {
			t.Errorf("%s while sending: quit %v (done %v), want %v", tc.key, got, m.done, tc.quit)
		}
		if !tc.quit && (m.open == nil || !m.open.sending) {
			t.Errorf("%s while sending: the questionnaire no longer waits for the hub", tc.key)
		}
	}
}

// TestInboxApproval lists and opens an approval of each hostile command:
// its row is marked as one and says what the agent wants to do, its
// dialog's heading marks it too, and the command reaches the terminal as
// text, cut when it is long.
func TestInboxApproval(t *testing.T) {
	for _, hc := range testkit.HostileCommands {
		t.Run(hc.Name, func(t *testing.T) {
			m := newInbox(nil, fakeAnswerer{}, &InboxOptions{Machine: "here"})
			m.width, m.height = 160, 40
			m.now = func() time.Time { return inboxT0 }
			a := testkit.ApprovalQuestion("aaaaaaaaaaaa", "claude-code", "/home/me/api", hc.Command, inboxT0.Add(time.Second))
			q := inboxQuestion("bbbbbbbbbbbb", 0, 0, "pi", "Deploy where?")
			m.Update(inboxEvents{es: []hub.WatchEvent{
				{Kind: hub.WatchWaiting, ID: a.ID, Question: a},
				{Kind: hub.WatchWaiting, ID: q.ID, Question: q},
				{Kind: hub.WatchSynced},
			}})
			list := m.View().Content
			rows := strings.Split(ansi.Strip(list), "\n")
			approvalRow, questionRow := rows[2], rows[3]
			for _, want := range []string{"claude-code", "/home/me/api", "approval", "wants to run a command"} {
				if !strings.Contains(approvalRow, want) {
					t.Errorf("the approval's row %q does not show %q", approvalRow, want)
				}
			}
			if strings.Contains(approvalRow, hub.ContractAskUserQuestion) || strings.Contains(approvalRow, "Allow it?") {
				t.Errorf("the approval's row %q shows it as a question", approvalRow)
			}
			if strings.Contains(questionRow, "approval") || !strings.Contains(questionRow, "Deploy where?") {
				t.Errorf("the question's row %q is marked as an approval, or lost its text", questionRow)
			}
			m.Update(press("enter")) // opens the approval, the newest
			if m.open == nil || m.open.row.q.ID != a.ID {
				t.Fatalf("enter did not open the approval; the screen:\n%s", ansi.Strip(m.View().Content))
			}
			screen := m.View().Content
			head, _, _ := strings.Cut(ansi.Strip(screen), "\n")
			if !strings.HasPrefix(head, "approval · claude-code") {
				t.Errorf("the open approval's heading is %q, want it marked as an approval", head)
			}
			for name, s := range map[string]string{"list": list, "dialog": screen} {
				if strings.Contains(s, "\x1b]") || strings.Contains(s, "\x1b[2J") || strings.Contains(s, "\x1b[1;1H") || strings.ContainsAny(s, "\a\u202e\u202c") {
					t.Errorf("the %s sends the command's controls to the terminal: %q", name, s)
				}
			}
			if !strings.Contains(ansi.Strip(screen), hc.Shown) {
				t.Errorf("the open approval does not show %q as text:\n%s", hc.Shown, ansi.Strip(screen))
			}
			if len(screen) > 64<<10 {
				t.Errorf("the open approval draws %d bytes: the command is not cut", len(screen))
			}
		})
	}
}

// TestInboxUnknownKind refuses to open a question of a kind askuser does
// not know, saying so, as it refuses an unknown contract.
func TestInboxUnknownKind(t *testing.T) {
	m := newInbox(nil, fakeAnswerer{}, &InboxOptions{Machine: "here"})
	m.width, m.height = 120, 24
	m.now = func() time.Time { return inboxT0 }
	q := testkit.ApprovalQuestion("aaaaaaaaaaaa", "codex", "/src/app", "make", inboxT0)
	q.Tag.Kind = "payment"
	m.Update(inboxEvents{es: []hub.WatchEvent{{Kind: hub.WatchWaiting, ID: q.ID, Question: q}, {Kind: hub.WatchSynced}}})
	m.Update(press("enter"))
	if m.open != nil || !strings.Contains(m.flash, `its kind "payment" is not one askuser knows`) {
		t.Errorf("a question of an unknown kind: open %v, the inbox says %q", m.open != nil, m.flash)
	}
}
