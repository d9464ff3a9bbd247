package popup

import (
	"context"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/term"

	"github.com/askuser/askuser/tui"
)

// overtakenNotice is what a dialog shown after a newer call has begun
// says before its questions: the client may have given up on its call
// without saying so, as clients do when their user interrupts a call.
var overtakenNotice = []string{
	"The agent asked a newer question after this one.",
	"It may no longer be waiting for this answer: an answer here may reach no one.",
	"",
	"Enter  answer it anyway",
	"Esc    dismiss it",
}

// overtaken shows dlg once the user has read overtakenNotice and pressed
// Enter; Esc or Ctrl+C instead dismisses the dialog, as dismissed.
type overtaken[O any] struct {
	dlg       shown[O]
	dismissed O
}

func (o *overtaken[O]) Fit(maxW, maxH int) (int, int) { return o.dlg.Fit(maxW, maxH) }

func (o *overtaken[O]) Show(ctx context.Context, t tui.Terminal) (O, error) {
	ok, err := confirm(ctx, t, overtakenNotice)
	if err != nil || !ok {
		return o.dismissed, err
	}
	return o.dlg.Show(ctx, t)
}

// confirm draws lines on t and waits for Enter (true) or Esc or Ctrl+C
// (false), while ctx allows. Other keys are ignored.
func confirm(ctx context.Context, t tui.Terminal, lines []string) (bool, error) {
	fd := t.File.Fd()
	state, err := term.MakeRaw(fd)
	if err != nil {
		return false, fmt.Errorf("popup: setting up the terminal: %w", err)
	}
	defer term.Restore(fd, state)
	draw := func() {
		w, h, err := term.GetSize(fd)
		if err != nil || w <= 0 || h <= 0 {
			w, h = 80, 24 // a terminal that does not know its size
		}
		t.File.WriteString(boxed(lines, w, h))
	}
	draw()
	defer t.File.WriteString("\x1b[2J\x1b[H\x1b[?25h")
	type read struct {
		b   []byte
		err error
	}
	reads := make(chan read, 1)
	// One read at a time, so that none is left to take the dialog's keys
	// once the user has answered.
	next := func() {
		go func() {
			buf := make([]byte, 64)
			n, err := t.File.Read(buf)
			reads <- read{buf[:n], err}
		}()
	}
	next()
	for {
		select {
		case <-ctx.Done():
			return false, context.Cause(ctx)
		case <-t.Resize:
			draw()
		case r := <-reads:
			if r.err != nil {
				return false, connLost{r.err}
			}
			if ok, decided := decide(r.b); decided {
				return ok, nil
			}
			next()
		}
	}
}

// decide reads the keys in b, as one read from a terminal gives them:
// Enter says yes, Esc alone or Ctrl+C no, and anything else, such as an
// arrow's escape sequence or an Alt chord, nothing.
func decide(b []byte) (ok, decided bool) {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\r', '\n':
			return true, true
		case 0x03:
			return false, true
		case 0x1b:
			if i == len(b)-1 {
				return false, true
			}
			if b[i+1] != '[' && b[i+1] != 'O' {
				i++ // an Alt chord
				continue
			}
			// A CSI or SS3 sequence runs to its final byte.
			for i += 2; i < len(b) && (b[i] < 0x40 || b[i] > 0x7e); i++ {
			}
		}
	}
	return false, false
}

// boxed draws lines, wrapped, in a box that fills a w×h screen, as the
// dialog draws its own in a popup without a border of tmux's.
func boxed(lines []string, w, h int) string {
	w, h = max(w, 14), max(h, 3)
	var body []string
	for _, l := range lines {
		body = append(body, wrap(l, w-4)...)
	}
	var b strings.Builder
	b.WriteString("\x1b[?25l\x1b[2J\x1b[H")
	b.WriteString("╭" + strings.Repeat("─", w-2) + "╮")
	for i := range h - 2 {
		l := ""
		if i < len(body) {
			l = body[i]
		}
		b.WriteString("\r\n│ " + l + strings.Repeat(" ", max(w-4-len(l), 0)) + " │")
	}
	b.WriteString("\r\n╰" + strings.Repeat("─", w-2) + "╯")
	return b.String()
}

// wrap breaks s into lines of at most w cells at spaces; the notice is
// plain ASCII.
func wrap(s string, w int) []string {
	if len(s) <= w || w < 10 {
		return []string{s}
	}
	var out []string
	for len(s) > w {
		cut := strings.LastIndexByte(s[:w+1], ' ')
		if cut <= 0 {
			cut = w
		}
		out = append(out, s[:cut])
		s = strings.TrimLeft(s[cut:], " ")
	}
	return append(out, s)
}
