package strictjson

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// item is one result of Next, written as the line, "!long", "!eof" or
// "!partial:<line>" for a line returned with io.ErrUnexpectedEOF.
func readAll(t *testing.T, lr *LineReader) []string {
	t.Helper()
	var got []string
	for range 100 {
		line, err := lr.Next()
		var tl *LineTooLongError
		switch {
		case err == nil:
			got = append(got, string(line))
		case errors.As(err, &tl):
			got = append(got, "!long")
		case err == io.ErrUnexpectedEOF:
			got = append(got, "!partial:"+string(line))
		case err == io.EOF:
			return append(got, "!eof")
		default:
			t.Fatalf("Next: %v", err)
		}
	}
	t.Fatal("Next never returned io.EOF")
	return nil
}

func TestNext(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", []string{"!eof"}},
		{"one line", "abc\n", []string{"abc", "!eof"}},
		{"empty lines", "\n\n", []string{"", "", "!eof"}},
		{"exactly the limit", "abcde\n", []string{"abcde", "!eof"}},
		{"one over the limit", "abcdef\nok\n", []string{"!long", "ok", "!eof"}},
		{"long, then short", strings.Repeat("x", 100) + "\nab\n", []string{"!long", "ab", "!eof"}},
		{"two long lines", strings.Repeat("x", 9) + "\n" + strings.Repeat("y", 9) + "\n", []string{"!long", "!long", "!eof"}},
		{"last line without newline", "ab\ncd", []string{"ab", "!partial:cd", "!eof"}},
		{"last line at the limit without newline", "abcde", []string{"!partial:abcde", "!eof"}},
		{"long last line without newline", "ab\n" + strings.Repeat("x", 100), []string{"ab", "!long", "!eof"}},
		{"one over, without newline", "abcdef", []string{"!long", "!eof"}},
		{"CR is kept", "ab\r\n", []string{"ab\r", "!eof"}},
		{"NUL bytes", "a\x00b\n", []string{"a\x00b", "!eof"}},
	}
	for _, tt := range tests {
		for _, slow := range []bool{false, true} {
			name := tt.name
			var r io.Reader = strings.NewReader(tt.in)
			if slow {
				name += ", a byte at a time"
				r = iotest.OneByteReader(r)
			}
			t.Run(name, func(t *testing.T) {
				if diff := cmp.Diff(tt.want, readAll(t, NewLineReader(r, 5))); diff != "" {
					t.Errorf("lines (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// Lines longer than the read buffer are put together, and reported when
// over the limit, with or without a newline.
func TestNextBeyondTheBuffer(t *testing.T) {
	const max = 200 << 10
	fit := strings.Repeat("a", max)
	over := strings.Repeat("b", max+1)
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"fits", fit + "\nz\n", []string{fit, "z", "!eof"}},
		{"over", over + "\nz\n", []string{"!long", "z", "!eof"}},
		{"over at the end", "z\n" + over, []string{"z", "!long", "!eof"}},
		{"fits at the end", fit, []string{"!partial:" + fit, "!eof"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, readAll(t, NewLineReader(strings.NewReader(tt.in), max))); diff != "" {
				t.Errorf("lines (-want +got):\n%.300s", diff)
			}
		})
	}
}

func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	lr := NewLineReader(io.MultiReader(strings.NewReader("ok\npart"), iotest.ErrReader(boom)), 10)
	if line, err := lr.Next(); err != nil || string(line) != "ok" {
		t.Fatalf("Next = %q, %v; want ok", line, err)
	}
	if _, err := lr.Next(); !errors.Is(err, boom) {
		t.Fatalf("Next = %v; want the read error", err)
	}
}

// longLine is a line of n bytes 'x', then a newline.
type longLine struct{ n int }

func (l *longLine) Read(p []byte) (int, error) {
	if l.n < 0 {
		return 0, io.EOF
	}
	i := 0
	for ; i < len(p) && l.n > 0; i++ {
		p[i] = 'x'
		l.n--
	}
	if i < len(p) && l.n == 0 {
		p[i] = '\n'
		i++
		l.n = -1
	}
	return i, nil
}

// A 10 MB line is skipped in bounded memory: the reader never holds
// more than its limit and its buffer.
func TestLongLineMemory(t *testing.T) {
	const max = 1 << 20
	for _, newline := range []bool{true, false} {
		var src io.Reader = &longLine{n: 10 << 20}
		if !newline {
			src = io.LimitReader(src, 10<<20)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		lr := NewLineReader(src, max)
		_, err := lr.Next()
		runtime.ReadMemStats(&after)
		var tl *LineTooLongError
		if !errors.As(err, &tl) || tl.Max != max {
			t.Fatalf("newline %v: Next = %v; want a LineTooLongError of %d", newline, err, max)
		}
		// The line buffer grows by doubling up to the limit: a few times
		// the limit in all, and far less than the line.
		if got := after.TotalAlloc - before.TotalAlloc; got > 6*max {
			t.Errorf("newline %v: reading a 10 MB line allocated %d bytes; want at most %d", newline, got, 6*max)
		}
		if _, err := lr.Next(); err != io.EOF {
			t.Errorf("newline %v: then Next = %v; want io.EOF", newline, err)
		}
	}
}
