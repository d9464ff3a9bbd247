package native

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

var (
	_ Inputter = (*Prompter)(nil)
	_ Selector = (*Prompter)(nil)
)

type result struct {
	Text string
	OK   bool
	Err  string
}

func TestInput(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []result // one per Input call
		out   string
	}{
		{
			name:  "a line",
			input: "2 | note\n",
			want:  []result{{Text: "2 | note", OK: true}},
			out:   "\nPick one\n  1. a\nAnswer (number): ",
		},
		{
			name:  "CRLF and spaces kept for the caller",
			input: "  x  \r\n",
			want:  []result{{Text: "  x  ", OK: true}},
			out:   "\nPick one\n  1. a\nAnswer (number): ",
		},
		{
			name:  "lines typed ahead answer later prompts",
			input: "one\ntwo\n",
			want:  []result{{Text: "one", OK: true}, {Text: "two", OK: true}},
			out:   "\nPick one\n  1. a\nAnswer (number): \nPick one\n  1. a\nAnswer (number): ",
		},
		{
			name:  "Esc then Enter dismisses",
			input: "\x1b\n",
			want:  []result{{}},
			out:   "\nPick one\n  1. a\nAnswer (number): ",
		},
		{
			name:  "text then Esc dismisses",
			input: "abc\x1b \n",
			want:  []result{{}},
			out:   "\nPick one\n  1. a\nAnswer (number): ",
		},
		{
			name:  "arrow keys are refused",
			input: "\x1b[A2\nok\n",
			want:  []result{{Text: "ok", OK: true}},
			out: "\nPick one\n  1. a\nAnswer (number): " +
				"Not accepted: arrow and function keys do not work here; type the answer as text and press Enter (Esc, then Enter, cancels).\n" +
				"Answer (number): ",
		},
		{
			name:  "end of input dismisses, for good",
			input: "",
			want:  []result{{}, {}},
			out:   "\nPick one\n  1. a\nAnswer (number): \n\nPick one\n  1. a\nAnswer (number): ",
		},
		{
			name:  "text without Enter before the end of input is dropped",
			input: "half",
			want:  []result{{}},
			out:   "\nPick one\n  1. a\nAnswer (number): \n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			p := NewPrompter(strings.NewReader(tt.input), &out)
			var got []result
			for range tt.want {
				text, ok, err := p.Input(t.Context(), "Pick one\n  1. a", "number")
				got = append(got, res(text, ok, err))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Input results mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.out, out.String()); diff != "" {
				t.Errorf("terminal output mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func res(text string, ok bool, err error) result {
	r := result{Text: text, OK: ok}
	if err != nil {
		r.Err = err.Error()
	}
	return r
}

func TestSelect(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  result
		out   string
	}{
		{
			name:  "a number",
			input: "2\n",
			want:  result{Text: "False", OK: true},
			out:   "\nProceed?\n  1) True\n  2) False\nChoose 1-2: ",
		},
		{
			name:  "wrong replies repeat the prompt",
			input: "\n3\nTrue\n 1 \n",
			want:  result{Text: "True", OK: true},
			out: "\nProceed?\n  1) True\n  2) False\nChoose 1-2: " +
				strings.Repeat("Not accepted: type a number from 1 to 2, or Esc and Enter to cancel.\nChoose 1-2: ", 3),
		},
		{
			name:  "Esc dismisses",
			input: "\x1b\n",
			want:  result{},
			out:   "\nProceed?\n  1) True\n  2) False\nChoose 1-2: ",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			p := NewPrompter(strings.NewReader(tt.input), &out)
			got := res(p.Select(t.Context(), "Proceed?", []string{"True", "False"}))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Select result mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.out, out.String()); diff != "" {
				t.Errorf("terminal output mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUntrustedTextIsNeutralized(t *testing.T) {
	var out bytes.Buffer
	p := NewPrompter(strings.NewReader("1\n1\n"), &out)
	if _, _, err := p.Input(t.Context(), "Title \x1b]52;c;aGk=\x07\nline two\x1b[2J", "\x1b[31mred"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Select(t.Context(), "t", []string{"a\x1b[1Ab"}); err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsAny(out.Bytes(), "\x1b\x07") {
		t.Errorf("output holds control characters: %q", out.String())
	}
	for _, want := range []string{"Title ␛]52;c;aGk=␇\nline two␛[2J\n", "Answer (␛[31mred)", "  1) a␛[1Ab\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output %q does not contain %q", out.String(), want)
		}
	}
}

func TestTimeLeftAndTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, w := io.Pipe()
		defer w.Close()
		var out bytes.Buffer
		p := NewPrompter(r, &out)
		defer p.Close()
		ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
		defer cancel()
		start := time.Now()
		_, ok, err := p.Input(ctx, "Name?", "")
		if !errors.Is(err, context.DeadlineExceeded) || ok {
			t.Fatalf("Input = ok %v, err %v; want context.DeadlineExceeded", ok, err)
		}
		if waited := time.Since(start); waited != 90*time.Second {
			t.Errorf("Input returned after %v, want 1m30s", waited)
		}
		want := "\nName?\nAnswer [1m30s left]: \nTime is up; no answer was recorded.\n"
		if diff := cmp.Diff(want, out.String()); diff != "" {
			t.Errorf("terminal output mismatch (-want +got):\n%s", diff)
		}
	})
}

func TestCancelWhileReadingKeepsInput(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, w := io.Pipe()
		defer w.Close()
		var out bytes.Buffer
		p := NewPrompter(r, &out)
		defer p.Close()
		cause := errors.New("caller aborted")
		ctx, cancel := context.WithCancelCause(t.Context())
		done := make(chan error)
		go func() {
			_, _, err := p.Input(ctx, "First?", "")
			done <- err
		}()
		synctest.Wait() // the prompt is blocked reading
		cancel(cause)
		if err := <-done; !errors.Is(err, cause) {
			t.Fatalf("Input error = %v, want %v", err, cause)
		}
		if !strings.HasSuffix(out.String(), "\nThe questionnaire was cancelled.\n") {
			t.Errorf("output %q does not end with the cancel notice", out.String())
		}
		// The line typed after the cancel still reaches the next prompt.
		go func() { io.WriteString(w, "late\n") }()
		text, ok, err := p.Input(t.Context(), "Second?", "")
		if text != "late" || !ok || err != nil {
			t.Errorf("Input = %q, %v, %v; want \"late\", true, nil", text, ok, err)
		}
	})
}

func TestAlreadyCancelledPrintsNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var out bytes.Buffer
	p := NewPrompter(strings.NewReader("1\n"), &out)
	if _, _, err := p.Input(ctx, "t", ""); !errors.Is(err, context.Canceled) {
		t.Errorf("Input error = %v, want context.Canceled", err)
	}
	if _, _, err := p.Select(ctx, "t", []string{"a"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Select error = %v, want context.Canceled", err)
	}
	if out.Len() != 0 {
		t.Errorf("output = %q, want nothing", out.String())
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("input/output error") }

func TestReadError(t *testing.T) {
	p := NewPrompter(failingReader{}, io.Discard)
	_, ok, err := p.Input(t.Context(), "t", "")
	if ok || err == nil || err.Error() != "lineprompt: reading the terminal: input/output error" {
		t.Errorf("Input = ok %v, err %v; want the read error", ok, err)
	}
}

func TestFormatLeft(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{-time.Second, "0s"},
		{0, "0s"},
		{300 * time.Millisecond, "1s"},
		{59 * time.Second, "59s"},
		{60 * time.Second, "1m00s"},
		{125*time.Second + time.Millisecond, "2m06s"},
		{time.Hour + 10*time.Minute, "1h10m"},
	}
	for _, tt := range tests {
		if got := formatLeft(tt.d); got != tt.want {
			t.Errorf("formatLeft(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}
