package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/dialog"
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

// BenchmarkInboxFirstView is the inbox's first screen with 10,000
// waiting questions: every event taken, then one View.
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
		for _, q := range qs {
			m.apply(hub.WatchEvent{Kind: hub.WatchWaiting, ID: q.ID, Question: q})
		}
		m.apply(hub.WatchEvent{Kind: hub.WatchSynced})
		v := m.View()
		if !strings.Contains(ansi.Strip(v.Content), "10000 questions wait") {
			b.Fatalf("the first screen:\n%s", v.Content)
		}
		return m
	}
}
