package notify

import (
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/prefs"
)

func TestDetect(t *testing.T) {
	tests := []struct {
		name string
		env  []string
		want Terminal
	}{
		{"nothing", nil, Terminal{}},
		{"xterm", []string{"TERM=xterm-256color"}, Terminal{}},
		{"gnome terminal", []string{"TERM=xterm-256color", "VTE_VERSION=7600", "COLORTERM=truecolor"}, Terminal{}},
		{"windows terminal", []string{"TERM=xterm-256color", "WT_SESSION=1234"}, Terminal{}},
		{"kitty", []string{"TERM=xterm-kitty", "KITTY_WINDOW_ID=1"}, Terminal{Known: OSC99}},
		{"kitty term only", []string{"TERM=xterm-kitty"}, Terminal{Known: OSC99}},
		{"iterm2", []string{"TERM_PROGRAM=iTerm.app"}, Terminal{Known: OSC9}},
		{"wezterm", []string{"TERM_PROGRAM=WezTerm"}, Terminal{Known: OSC9}},
		{"ghostty", []string{"TERM=xterm-ghostty", "TERM_PROGRAM=ghostty"}, Terminal{Known: OSC777}},
		{"foot", []string{"TERM=foot"}, Terminal{Known: OSC777}},
		{"foot extra", []string{"TERM=foot-extra"}, Terminal{Known: OSC777}},
		{"tmux alone", []string{"TERM=tmux-256color", "TERM_PROGRAM=tmux", "TMUX=/tmp/tmux-1/default,1,0"}, Terminal{Tmux: true}},
		{"tmux in kitty", []string{"TERM=tmux-256color", "TERM_PROGRAM=tmux", "TMUX=/tmp/x,1,0", "KITTY_WINDOW_ID=3"}, Terminal{Known: OSC99, Tmux: true}},
		{"tmux in iterm2", []string{"TERM_PROGRAM=tmux", "TMUX=/tmp/x,1,0", "LC_TERMINAL=iTerm2"}, Terminal{Known: OSC9, Tmux: true}},
		{"tmux in wezterm", []string{"TERM_PROGRAM=tmux", "TMUX=/tmp/x,1,0", "WEZTERM_PANE=0"}, Terminal{Known: OSC9, Tmux: true}},
		{"tmux in ghostty", []string{"TERM_PROGRAM=tmux", "TMUX=/tmp/x,1,0", "GHOSTTY_RESOURCES_DIR=/usr/share/ghostty"}, Terminal{Known: OSC777, Tmux: true}},
		{"malformed entries", []string{"TERM", "=x", "KITTY_WINDOW_ID="}, Terminal{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Detect(tt.env)); diff != "" {
				t.Errorf("Detect (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTerminalDesktop(t *testing.T) {
	known, unknown := Terminal{Known: OSC99}, Terminal{}
	tests := []struct {
		pref           string
		known, unknown Protocol
	}{
		{prefs.DesktopAuto, OSC99, None},
		{prefs.DesktopOn, OSC99, OSC9},
		{prefs.DesktopOff, None, None},
		{prefs.DesktopOSC9, OSC9, OSC9},
		{prefs.DesktopOSC777, OSC777, OSC777},
		{prefs.DesktopOSC99, OSC99, OSC99},
	}
	for _, tt := range tests {
		t.Run(tt.pref, func(t *testing.T) {
			if got := known.Desktop(tt.pref); got != tt.known {
				t.Errorf("known terminal: %q, want %q", got, tt.known)
			}
			if got := unknown.Desktop(tt.pref); got != tt.unknown {
				t.Errorf("unknown terminal: %q, want %q", got, tt.unknown)
			}
		})
	}
}

func TestSequences(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"osc9", Desktop(OSC9, "T", "B"), "\x1b]9;T: B\x1b\\"},
		{"osc777", Desktop(OSC777, "T", "B"), "\x1b]777;notify;T;B\x1b\\"},
		{"osc99", Desktop(OSC99, "T", "B"), "\x1b]99;i=askuser:d=0:p=title;T\x1b\\\x1b]99;i=askuser:d=1:p=body;B\x1b\\"},
		{"none", Desktop(None, "T", "B"), ""},
		{"title", SetTitle("x"), "\x1b]2;x\x1b\\"},
		{"title with tmux directives", SetTitle("#[fg=red]X##"), "\x1b]2;##[fg=red]X####\x1b\\"},
		{"passthrough", Passthrough("\x1b]9;T\x1b\\"), "\x1bPtmux;\x1b\x1b]9;T\x1b\x1b\\\x1b\\"},
		{"passthrough empty", Passthrough(""), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}

func TestNotifier(t *testing.T) {
	all := prefs.NotifyPrefs{Bell: true, Title: true, Desktop: prefs.DesktopOSC777}
	tests := []struct {
		name       string
		prefs      prefs.NotifyPrefs
		term       Terminal
		header     string
		approval   bool
		open, rem  string
		close      string
		off        bool
		noDeadline bool
	}{
		{name: "all", prefs: all, header: "Deploy",
			open:  "\a\x1b]777;notify;askuser: question waiting;Deploy · 5m left\x1b\\\x1b[22;0t\x1b]2;askuser: question waiting · Deploy\x1b\\",
			rem:   "\a\x1b]777;notify;askuser: question waiting;Deploy · 2m left\x1b\\",
			close: "\x1b[23;0t"},
		{name: "no header, no deadline", prefs: all, noDeadline: true,
			open:  "\a\x1b]777;notify;askuser: question waiting;answer in the terminal\x1b\\\x1b[22;0t\x1b]2;askuser: question waiting\x1b\\",
			rem:   "\a\x1b]777;notify;askuser: question waiting;2m left\x1b\\",
			close: "\x1b[23;0t"},
		{name: "tmux", prefs: prefs.NotifyPrefs{Bell: true, Desktop: prefs.DesktopOSC9}, term: Terminal{Tmux: true},
			open: "\a\x1bPtmux;\x1b\x1b]9;askuser: question waiting: 5m left\x1b\x1b\\\x1b\\",
			rem:  "\a\x1bPtmux;\x1b\x1b]9;askuser: question waiting: 2m left\x1b\x1b\\\x1b\\"},
		{name: "bell only", prefs: prefs.NotifyPrefs{Bell: true, Desktop: prefs.DesktopAuto}, open: "\a", rem: "\a"},
		{name: "off", prefs: prefs.NotifyPrefs{Desktop: prefs.DesktopOff}, off: true},
		{name: "tmux directives in the header", prefs: prefs.NotifyPrefs{Title: true, Desktop: prefs.DesktopOSC9}, header: "#[fg=red,bg=blue]X#[default]",
			open:  "\x1b]9;askuser: question waiting: #[fg=red,bg=blue]X#[default] · 5m left\x1b\\\x1b[22;0t\x1b]2;askuser: question waiting · ##[fg=red,bg=blue]X##[default]\x1b\\",
			rem:   "\x1b]9;askuser: question waiting: #[fg=red,bg=blue]X#[default] · 2m left\x1b\\",
			close: "\x1b[23;0t"},
		{name: "approval", prefs: all, approval: true, header: "codex wants to run a command",
			open:  "\a\x1b]777;notify;askuser: approval waiting;codex wants to run a command · 5m left\x1b\\\x1b[22;0t\x1b]2;askuser: approval waiting · codex wants to run a command\x1b\\",
			rem:   "\a\x1b]777;notify;askuser: approval waiting;codex wants to run a command · 2m left\x1b\\",
			close: "\x1b[23;0t"},
		{name: "hostile header", prefs: prefs.NotifyPrefs{Title: true}, header: "a\x1b]2;pwned\a;b\u009b",
			open:  "\x1b[22;0t\x1b]2;askuser: question waiting · a␛]2,pwned␇,b<U+009B>\x1b\\",
			close: "\x1b[23;0t"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := New(tt.prefs, tt.term, Subject{Header: tt.header, Approval: tt.approval})
			if n.Off() != tt.off {
				t.Errorf("Off = %v", n.Off())
			}
			if got := n.Open(5*time.Minute, !tt.noDeadline); got != tt.open {
				t.Errorf("Open = %q\nwant %q", got, tt.open)
			}
			if got := n.Remind(2 * time.Minute); got != tt.rem {
				t.Errorf("Remind = %q\nwant %q", got, tt.rem)
			}
			if got := n.Close(); got != tt.close {
				t.Errorf("Close = %q\nwant %q", got, tt.close)
			}
		})
	}
	var nilN *Notifier
	if !nilN.Off() || nilN.Open(time.Second, true) != "" || nilN.Remind(time.Second) != "" || nilN.Close() != "" {
		t.Error("a nil Notifier sends something")
	}
}

func TestHeader(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"Deploy plan", "Deploy plan"},
		{"  many   spaces\there ", "many spaces␉here"},
		{"a;b", "a,b"},
		{"esc\x1b[31m", "esc␛[31m"},
		{strings.Repeat("é", 70), strings.Repeat("é", MaxHeader-1) + "…"},
	}
	for _, tt := range tests {
		if got := Header(tt.in); got != tt.want {
			t.Errorf("Header(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLeft(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{-time.Second, "0s"},
		{0, "0s"},
		{time.Millisecond, "1s"},
		{45 * time.Second, "45s"},
		{time.Minute, "1m"},
		{time.Minute + time.Millisecond, "2m"},
		{59 * time.Minute, "59m"},
		{time.Hour, "1h"},
		{65 * time.Minute, "1h 5m"},
		{100 * time.Hour, "100h"},
	}
	for _, tt := range tests {
		if got := Left(tt.d); got != tt.want {
			t.Errorf("Left(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestRemindLead(t *testing.T) {
	tests := []struct {
		total, lead time.Duration
		ok          bool
	}{
		{0, 0, false},
		{19 * time.Second, 0, false},
		{20 * time.Second, 10 * time.Second, true},
		{60 * time.Second, 30 * time.Second, true},
		{2 * time.Minute, time.Minute, true},
		{3 * time.Minute, time.Minute, true},
		{4 * time.Minute, time.Minute, true},
		{10 * time.Minute, 150 * time.Second, true},
		{time.Hour, 15 * time.Minute, true},
	}
	for _, tt := range tests {
		lead, ok := RemindLead(tt.total)
		if lead != tt.lead || ok != tt.ok {
			t.Errorf("RemindLead(%v) = %v, %v; want %v, %v", tt.total, lead, ok, tt.lead, tt.ok)
		}
	}
}

// deadline is a Deadline whose answer a test changes.
type deadline struct {
	mu sync.Mutex
	at time.Time
	ok bool
}

func (d *deadline) Deadline() (time.Time, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.at, d.ok
}

func TestStart(t *testing.T) {
	prefs := prefs.NotifyPrefs{Bell: true, Title: true, Desktop: prefs.DesktopOSC9}
	tests := []struct {
		name   string
		total  time.Duration
		cancel bool // the countdown is stopped before the reminder
		want   []string
	}{
		{"reminder", 4 * time.Minute, false, []string{"open", "\a\x1b]9;askuser: question waiting: 1m left\x1b\\", "\x1b[23;0t"}},
		{"stopped countdown", 4 * time.Minute, true, []string{"open", "\x1b[23;0t"}},
		{"short deadline", 10 * time.Second, false, []string{"open", "\x1b[23;0t"}},
		// Opened 5 ms after its 20 s deadline started.
		{"shortest deadline with a reminder", 20*time.Second - 5*time.Millisecond, false, []string{"open", "\a\x1b]9;askuser: question waiting: 10s left\x1b\\", "\x1b[23;0t"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				d := &deadline{at: time.Now().Add(tt.total), ok: true}
				var got []string
				s := Start(New(prefs, Terminal{}, Subject{}), d, func(seq string) {
					if strings.Contains(seq, TitlePush) {
						seq = "open"
					}
					got = append(got, seq)
				})
				if tt.cancel {
					time.Sleep(tt.total / 2)
					d.mu.Lock()
					d.ok = false
					d.mu.Unlock()
				}
				time.Sleep(tt.total + time.Second)
				s.Stop()
				s.Stop()
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("writes (-want +got):\n%s", diff)
				}
			})
		})
	}
}

func TestStartOff(t *testing.T) {
	wrote := false
	s := Start(New(prefs.NotifyPrefs{Desktop: prefs.DesktopOff}, Terminal{}, Subject{Header: "h"}), nil, func(string) { wrote = true })
	s.Stop()
	if wrote {
		t.Error("notifications that are all off wrote something")
	}
}

func FuzzHeader(f *testing.F) {
	for _, s := range []string{"", "Deploy", "a\x1b]2;x\a", "\x9b31m", "\xff\xfe", strings.Repeat("ab;", 40), "\u202e\u200b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h := Header(s)
		if !utf8.ValidString(h) {
			t.Fatalf("Header(%q) = %q: invalid UTF-8", s, h)
		}
		if n := utf8.RuneCountInString(h); n > MaxHeader {
			t.Fatalf("Header(%q) has %d characters", s, n)
		}
		for _, r := range h {
			if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == ';' {
				t.Fatalf("Header(%q) = %q holds %U", s, h, r)
			}
		}
		if b := Body(s, time.Minute, true); strings.ContainsAny(b, "\x1b\a") {
			t.Fatalf("Body(%q) = %q", s, b)
		}
	})
}

// TestQuestionsSubject marks an approval, with what its summary says
// the agent wants to do and never the command, whatever the command
// holds; a question's subject is a question's.
func TestQuestionsSubject(t *testing.T) {
	tests := []struct {
		name string
		kind string
		sum  ask.Summary
		want Subject
	}{
		{"a question", ask.KindQuestion, ask.Summary{}, Subject{}},
		{"a question with a summary", ask.KindQuestion, ask.Summary{Agent: "codex", Wants: "run a command"}, Subject{}},
		{"an approval", ask.KindApproval, ask.Summary{Agent: "codex", Wants: "run a command"}, Subject{Header: "codex wants to run a command", Approval: true}},
		{"an approval of another tool", ask.KindApproval, ask.Summary{Agent: "codex", Wants: "use mcp__x__y"}, Subject{Header: "codex wants to use mcp__x__y", Approval: true}},
		{"an approval whose summary says nothing", ask.KindApproval, ask.Summary{}, Subject{Approval: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := QuestionsSubject(tt.kind, tt.sum); got != tt.want {
				t.Errorf("QuestionsSubject = %+v, want %+v", got, tt.want)
			}
		})
	}
	for _, hc := range testkit.HostileCommands {
		t.Run(hc.Name, func(t *testing.T) {
			r := &approval.Request{Agent: "claude-code", Tool: "Bash", Action: approval.ActionRun, Command: hc.Command}
			sum := ask.Summary{Agent: r.Agent, Wants: r.What()}
			n := New(prefs.NotifyPrefs{Bell: true, Title: true, Desktop: prefs.DesktopOSC9}, Terminal{}, QuestionsSubject(ask.KindApproval, sum))
			want := "\a\x1b]9;askuser: approval waiting: claude-code wants to run a command · 5m left\x1b\\\x1b[22;0t\x1b]2;askuser: approval waiting · claude-code wants to run a command\x1b\\"
			if got := n.Open(5*time.Minute, true); got != want {
				t.Errorf("Open = %q\nwant %q", got, want)
			}
		})
	}
}
