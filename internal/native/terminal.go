package native

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/internal/safetext"
)

// Prompter asks on one terminal. Prompts are shown one at a time; it is
// safe to call from several goroutines, which then take turns.
//
// One goroutine reads the input, line by line, for the Prompter's whole
// life, and keeps its buffer across prompts, so no typed byte is lost when
// a prompt returns early: a line typed ahead is the reply to the next
// prompt. After the end of input every prompt reports a dismissal.
type Prompter struct {
	w     io.Writer
	r     io.Reader
	start sync.Once
	lines chan readResult
	quit  chan struct{}
	close sync.Once
	turn  sync.Mutex
	// err is why the reader stopped; it is set before lines is closed.
	err error
}

type readResult struct {
	line string
	err  error
}

// NewPrompter returns a Prompter that reads replies from r and writes prompts to
// w, normally both the controlling terminal.
func NewPrompter(r io.Reader, w io.Writer) *Prompter {
	return &Prompter{r: r, w: w, lines: make(chan readResult), quit: make(chan struct{})}
}

// Close lets the reading goroutine end once its current read returns;
// Close does not close the reader, and a read blocked in it stays blocked
// until the reader returns (closing the terminal ends it). Prompts after
// Close report the end of input. Close is idempotent.
func (p *Prompter) Close() error {
	p.close.Do(func() { close(p.quit) })
	return nil
}

// Input prints title and reads one line, which it returns as typed,
// without its line ending. It returns ok=false when the user ends the line
// with Esc or ends the input. A line holding other escape sequences, from
// arrow or function keys, is refused and the prompt repeated. When ctx is
// done it prints why and returns context.Cause(ctx).
func (p *Prompter) Input(ctx context.Context, title, placeholder string) (string, bool, error) {
	p.turn.Lock()
	defer p.turn.Unlock()
	if err := p.show(ctx, title, nil); err != nil {
		return "", false, err
	}
	label := "Answer"
	if placeholder != "" {
		label += " (" + safetext.Line(placeholder) + ")"
	}
	line, err := p.ask(ctx, label)
	if errors.Is(err, errDismissed) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return line, true, nil
}

// Select prints title and the choices numbered from 1, and reads a number
// until it names one of them, which it returns. It returns ok=false when
// the user ends the line with Esc or ends the input. When ctx is done it
// prints why and returns context.Cause(ctx).
func (p *Prompter) Select(ctx context.Context, title string, choices []string) (string, bool, error) {
	if len(choices) == 0 {
		return "", false, errors.New("lineprompt: Select needs at least one choice")
	}
	p.turn.Lock()
	defer p.turn.Unlock()
	if err := p.show(ctx, title, choices); err != nil {
		return "", false, err
	}
	label := fmt.Sprintf("Choose 1-%d", len(choices))
	if len(choices) == 1 {
		label = "Choose 1"
	}
	for {
		line, err := p.ask(ctx, label)
		if errors.Is(err, errDismissed) {
			return "", false, nil
		}
		if err != nil {
			return "", false, err
		}
		if n, ok := choiceNumber(line, len(choices)); ok {
			return choices[n-1], true, nil
		}
		if err := p.write(fmt.Sprintf("Not accepted: type a number from 1 to %d, or Esc and Enter to cancel.\n", len(choices))); err != nil {
			return "", false, err
		}
	}
}

// ask prints the prompt label with the time left and reads one line,
// repeating the prompt while the line holds escape sequences.
func (p *Prompter) ask(ctx context.Context, label string) (string, error) {
	for {
		if err := p.write(promptLine(ctx, label)); err != nil {
			return "", err
		}
		line, err := p.readLine(ctx)
		if err != nil {
			return "", err
		}
		if strings.ContainsRune(line, '\x1b') {
			if strings.HasSuffix(strings.TrimRight(line, " \t"), "\x1b") {
				return "", errDismissed
			}
			if err := p.write("Not accepted: arrow and function keys do not work here; type the answer as text and press Enter (Esc, then Enter, cancels).\n"); err != nil {
				return "", err
			}
			continue
		}
		return line, nil
	}
}

// readLine returns the next line without its line ending. It returns
// errDismissed at the end of input, dropping any text typed before it
// without Enter, and context.Cause(ctx) when ctx is done first.
func (p *Prompter) readLine(ctx context.Context) (string, error) {
	if ctx.Err() != nil {
		return "", p.stopped(ctx)
	}
	p.start.Do(func() { go p.readLoop() })
	select {
	case <-p.quit:
		return "", errDismissed
	case r, ok := <-p.lines:
		if !ok {
			return "", p.finalErr()
		}
		if r.err != nil {
			p.write("\n")
			return "", p.finalErr()
		}
		return strings.TrimSuffix(strings.TrimSuffix(r.line, "\n"), "\r"), nil
	case <-ctx.Done():
		return "", p.stopped(ctx)
	}
}

func (p *Prompter) finalErr() error {
	if errors.Is(p.err, io.EOF) {
		return errDismissed
	}
	return fmt.Errorf("lineprompt: reading the terminal: %w", p.err)
}

// readLoop reads lines until the input ends or fails. It sets err before
// sending the failing read, so readers see it once they get that result.
func (p *Prompter) readLoop() {
	defer close(p.lines)
	br := bufio.NewReader(p.r)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			p.err = err
		}
		select {
		case p.lines <- readResult{line: line, err: err}:
		case <-p.quit:
			if err == nil {
				p.err = io.EOF
			}
			return
		}
		if err != nil {
			return
		}
	}
}

// stopped tells the user that the prompt is over and returns the cause.
func (p *Prompter) stopped(ctx context.Context) error {
	msg := "\nThe questionnaire was cancelled.\n"
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		msg = "\nTime is up; no answer was recorded.\n"
	}
	p.write(msg)
	return context.Cause(ctx)
}

func (p *Prompter) write(s string) error {
	if _, err := io.WriteString(p.w, s); err != nil {
		return fmt.Errorf("lineprompt: writing to the terminal: %w", err)
	}
	return nil
}

// show prints title and the choices numbered from 1, unless ctx is
// already done, when it prints nothing and returns the cause.
func (p *Prompter) show(ctx context.Context, title string, choices []string) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	var b strings.Builder
	b.WriteByte('\n')
	for _, l := range safetext.Lines(title) {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	for i, c := range choices {
		fmt.Fprintf(&b, "  %d) %s\n", i+1, safetext.Line(c))
	}
	return p.write(b.String())
}

// promptLine is the label, the time left when ctx has a deadline, and the
// separator after which the user types.
func promptLine(ctx context.Context, label string) string {
	if d, ok := ctx.Deadline(); ok {
		return fmt.Sprintf("%s [%s left]: ", label, formatLeft(time.Until(d)))
	}
	return label + ": "
}

// formatLeft writes a duration in whole seconds, rounded up, the way a
// person says it: "45s", "2m05s", "1h10m".
func formatLeft(d time.Duration) string {
	s := int64((d + time.Second - 1) / time.Second)
	switch {
	case s < 0:
		s = 0
		fallthrough
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	default:
		return fmt.Sprintf("%dh%02dm", s/3600, s/60%60)
	}
}
