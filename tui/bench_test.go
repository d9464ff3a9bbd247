package tui

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/testkit"
)

// benchRequest is five questions with Markdown previews.
var benchRequest = func() string {
	q := `{"title":"Which cache layout?","options":[` +
		`{"label":"Write-through","description":"Simple","preview":"# A\n\nSome **text** here.\n\n- one\n- two"},` +
		`{"label":"Write-back","preview":"# B\n\nMore text, and ` + "`code`" + `."},` +
		`{"label":"None","preview":"# C"}]}`
	return `{"header":"Bench","questions":[` + strings.Repeat(q+",", 4) + `{"title":"Name?","kind":"input"}]}`
}()

// ptyOutput counts the bytes the program writes to the terminal and
// tells a waiter when more have come.
type ptyOutput struct {
	mu    sync.Mutex
	n     int
	more  chan struct{}
	ended chan struct{}
}

func readPty(f *os.File) *ptyOutput {
	o := &ptyOutput{more: make(chan struct{}, 1), ended: make(chan struct{})}
	go func() {
		defer close(o.ended)
		buf := make([]byte, 64<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				o.mu.Lock()
				o.n += n
				o.mu.Unlock()
				select {
				case o.more <- struct{}{}:
				default:
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return o
}

func (o *ptyOutput) total() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.n
}

// settle waits until nothing more has been written for quiet.
func (o *ptyOutput) settle(quiet time.Duration) {
	t := time.NewTimer(quiet)
	defer t.Stop()
	for {
		select {
		case <-o.more:
			t.Reset(quiet)
		case <-t.C:
			return
		}
	}
}

// BenchmarkKeyBytes measures the bytes Bubble Tea writes to a real
// terminal, a pty of 100×30, for one keystroke: moving between options
// whose previews differ, and typing one letter into a text input.
func BenchmarkKeyBytes(b *testing.B) {
	for _, display := range []contract.DisplayMode{contract.DisplayInline, contract.DisplayOverlay} {
		for _, kind := range []string{"move", "type"} {
			b.Run(string(display)+"/"+kind, func(b *testing.B) {
				benchKeyBytes(b, display, kind)
			})
		}
	}
}

func benchKeyBytes(b *testing.B, display contract.DisplayMode, kind string) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		b.Skipf("no pty on this system (%v): the benchmark needs a real terminal", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: 100, Rows: 30}); err != nil {
		b.Fatal(err)
	}
	out := readPty(ptmx)
	r := New(tty, tty, &Options{Environ: []string{"TERM=xterm-256color"}})

	req, _, err := contract.Parse([]byte(benchRequest))
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(b.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Render(ctx, &ask.Session[*contract.Request]{Request: req, Display: display, ToggleKey: "alt+o"})
	}()
	defer func() { cancel(); <-done }()

	keys := []string{"\x1b[B", "\x1b[A"} // down, up
	if kind == "type" {
		// Shift+Tab to the last question, a text input.
		ptmx.WriteString("\x1b[Z\x1b[Z")
		keys = []string{"a", "b", "c", "d"}
	}
	out.settle(200 * time.Millisecond)
	start := out.total()
	n := 0
	for b.Loop() {
		before := out.total()
		if _, err := ptmx.WriteString(keys[n%len(keys)]); err != nil {
			b.Fatal(err)
		}
		n++
		for out.total() == before {
			select {
			case <-out.more:
			case <-time.After(testkit.Patience(b)):
				b.Fatalf("no frame after key %d", n)
			}
		}
	}
	b.StopTimer()
	out.settle(100 * time.Millisecond)
	b.ReportMetric(float64(out.total()-start)/float64(n), "bytes/key")
}
