package tui

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/testkit"
)

func plainPopup(t *testing.T, req string) *askUserPopup {
	t.Helper()
	pl := PlainTheme()
	return newAskUserPopup(session(t, req, contract.DisplayInline), &Options{Theme: &pl})
}

func TestPopupFit(t *testing.T) {
	long := strings.Repeat("word ", 40)
	tests := []struct {
		name       string
		req        string
		maxW, maxH int
		w, h       int
	}{
		{"one question", reqSingle, 100, 30, 48, 12},
		{"two questions and the review", reqTwo, 100, 30, 61, 16},
		{"a long title wraps in the widest box", `{"questions":[{"title":"` + long + `","kind":"bool"}]}`, 200, 60, 139, 9},
		{"a long title on a narrow client", `{"questions":[{"title":"` + long + `","kind":"bool"}]}`, 70, 30, 69, 12},
		{"previews side by side", `{"questions":[{"title":"Pick","options":[{"label":"a","preview":"# A\n\ntext"},{"label":"b"}]}]}`, 200, 60, 103, 12},
		{"a short client", reqTwo, 100, 12, 61, 12},
		{"too small for a box", reqSingle, 20, 5, 20, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := plainPopup(t, tt.req)
			w, h := p.Fit(tt.maxW, tt.maxH)
			if diff := cmp.Diff([2]int{tt.w, tt.h}, [2]int{w, h}); diff != "" {
				t.Errorf("Fit(%d, %d) (-want +got):\n%s", tt.maxW, tt.maxH, diff)
			}
		})
	}
}

// At the size Fit gives, the box fills the popup, and every state of the
// dialog shows all it shows in the widest box, unwrapped and uncut, but
// for the key hints.
func TestPopupFitHoldsTheDialog(t *testing.T) {
	for _, req := range []string{reqSingle, reqTwo, reqInput,
		`{"questions":[{"title":"Deploy","kind":"simple-form","fields":[{"name":"host","label":"Host name of the target machine","kind":"input"},{"name":"port","label":"Port","kind":"input"}]}]}`,
		`{"questions":[{"title":"Pick many","kind":"multi","options":[{"label":"one","description":"the first of them, with a description that is long enough"},{"label":"two"}]}]}`,
	} {
		p := plainPopup(t, req)
		w, h := p.Fit(200, 60)
		wide := p.frames(maxBoxWidth-3, measureRows)
		fit := p.frames(w-3, h-2)
		if len(wide) != len(fit) {
			t.Errorf("%s: %d states at the widest, %d at %d×%d", req, len(wide), len(fit), w, h)
			continue
		}
		for i := range wide {
			a, b := wide[i], fit[i]
			if len(a.Lines)-a.Hints != len(b.Lines)-b.Hints {
				t.Errorf("%s: state %d has %d rows but hints at the widest and %d in the popup:\n%s", req, i, len(a.Lines)-a.Hints, len(b.Lines)-b.Hints, strings.Join(b.Lines, "\n"))
			}
			for _, l := range b.Lines {
				if strings.Contains(l, "…") {
					t.Errorf("%s: state %d cuts %q", req, i, l)
				}
			}
		}
		m := p.newModel()
		m.width, m.height = w, h
		m.d.SetSize(m.dialogSize())
		lines := strings.Split(m.boxView().Content, "\n")
		if len(lines) != h || ansi.StringWidth(lines[0]) != w || !strings.HasPrefix(lines[0], "╭") {
			t.Errorf("%s: the box is %d rows, the first %q; want it to fill %d×%d", req, len(lines), lines[0], w, h)
		}
	}
}

// Show ends on the toggle key; the next Show carries on where the user
// left off.
func TestPopupHideAndShowAgain(t *testing.T) {
	s := session(t, reqSingle, contract.DisplayOverlay)
	pl := PlainTheme()
	p := newAskUserPopup(s, &Options{Theme: &pl, Environ: []string{"TERM=xterm-256color"}})
	show := func(keys string) (ask.Outcome[[]contract.Answer], error) { return showOnPTY(t, p, keys) }
	if _, err := show("\x1b[B\x1bo"); !errors.Is(err, ErrHidden) { // Down, Alt+O
		t.Fatalf("Show = %v; want ErrHidden", err)
	}
	out, err := show("\r")
	if err != nil {
		t.Fatal(err)
	}
	want := contract.NewAnswer(s.Request, 0)
	want.Selections = []string{"prod"}
	if diff := cmp.Diff(ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{want}}, out); diff != "" {
		t.Errorf("outcome after showing again (-want +got):\n%s", diff)
	}
}

// showOnPTY shows p on a 48×12 pseudo-terminal and types keys, as bytes
// a terminal sends, once the program has put it in raw mode.
func showOnPTY(t *testing.T, p *askUserPopup, keys string) (ask.Outcome[[]contract.Answer], error) {
	t.Helper()
	ptm, pts, err := pty.Open()
	if err != nil {
		t.Fatalf("opening a pty: %v", err)
	}
	defer ptm.Close()
	defer pts.Close()
	if err := pty.Setsize(pts, &pty.Winsize{Rows: 12, Cols: 48}); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, ptm)
	ctx, cancel := context.WithDeadline(t.Context(), testkit.PatienceDeadline(t))
	defer cancel()
	go func() {
		// Keys typed before the program puts the terminal in raw
		// mode would wait in the line discipline for a newline.
		for ctx.Err() == nil {
			if st, err := unix.IoctlGetTermios(int(pts.Fd()), unix.TCGETS); err == nil && st.Lflag&unix.ICANON == 0 {
				break
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Millisecond):
			}
		}
		ptm.WriteString(keys)
	}()
	return p.Show(ctx, Terminal{File: pts})
}

// TestPopupBoolArrows answers a yes/no in the popup with the arrow keys
// a terminal sends: Down reaches False, Up goes back to True.
func TestPopupBoolArrows(t *testing.T) {
	tests := []struct {
		name, keys string
		want       bool
	}{
		{"down enter", "\x1b[B\r", false},
		{"down up enter", "\x1b[B\x1b[A\r", true},
		{"right enter", "\x1b[C\r", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := session(t, `{"questions":[{"title":"Run the migrations?","kind":"bool"}]}`, contract.DisplayOverlay)
			pl := PlainTheme()
			out, err := showOnPTY(t, newAskUserPopup(s, &Options{Theme: &pl, Environ: []string{"TERM=xterm-256color"}}), tt.keys)
			if err != nil {
				t.Fatal(err)
			}
			want := contract.NewAnswer(s.Request, 0)
			want.Value = &contract.AnswerValue{Bool: tt.want}
			if diff := cmp.Diff(ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{want}}, out); diff != "" {
				t.Errorf("outcome (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPopupShowDoneContext(t *testing.T) {
	p := plainPopup(t, reqSingle)
	ctx, cancel := context.WithCancelCause(t.Context())
	why := errors.New("timed out")
	cancel(why)
	if _, err := p.Show(ctx, Terminal{}); !errors.Is(err, why) {
		t.Errorf("Show = %v; want %v", err, why)
	}
}

// BenchmarkPopupFit sizes the popup of five questions of five options
// with previews, which the server does before each popup opens.
func BenchmarkPopupFit(b *testing.B) {
	var qs []string
	for q := range 5 {
		var opts []string
		for o := range 5 {
			opts = append(opts, `{"label":"option `+string(rune('a'+o))+`","description":"what choosing it means for the release","preview":"# Option\n\nSome **text** and a list:\n\n- one\n- two"}`)
		}
		qs = append(qs, `{"title":"Question `+string(rune('1'+q))+`","options":[`+strings.Join(opts, ",")+`]}`)
	}
	req, _, err := contract.Parse([]byte(`{"questions":[` + strings.Join(qs, ",") + `]}`))
	if err != nil {
		b.Fatal(err)
	}
	p := newAskUserPopup(&ask.Session[*contract.Request]{Request: req, ToggleKey: "alt+o"}, nil)
	for b.Loop() {
		p.Fit(200, 60)
	}
}
