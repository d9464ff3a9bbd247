package strictjson

import (
	"bytes"
	"errors"
	"testing"
)

type countingWriter struct {
	bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.Buffer.Write(p)
}

func TestWrite(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{map[string]any{"a": "<b> & c"}, `{"a":"<b> & c"}` + "\n"},
		{[]int{1, 2}, "[1,2]\n"},
		{"line\nbreak", `"line\nbreak"` + "\n"},
	}
	for _, tt := range tests {
		var w countingWriter
		if err := WriteLine(&w, tt.v); err != nil {
			t.Fatal(err)
		}
		if got := w.String(); got != tt.want || w.writes != 1 {
			t.Errorf("WriteLine(%v) = %q in %d writes, want %q in one", tt.v, got, w.writes, tt.want)
		}
	}
}

func TestWriteUnencodable(t *testing.T) {
	var w countingWriter
	if err := WriteLine(&w, func() {}); err == nil || w.writes != 0 {
		t.Errorf("WriteLine(func) = %v after %d writes, want an error and nothing written", err, w.writes)
	}
	wantErr := errors.New("closed")
	if err := WriteLine(errWriter{wantErr}, 1); !errors.Is(err, wantErr) {
		t.Errorf("Write to a failing writer = %v, want %v", err, wantErr)
	}
}

type errWriter struct{ err error }

func (e errWriter) Write([]byte) (int, error) { return 0, e.err }
