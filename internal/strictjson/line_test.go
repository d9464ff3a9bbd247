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

// TestDecodeOne takes one value whose members v knows, and refuses an
// unknown member, data after the value and what is not JSON.
func TestDecodeOne(t *testing.T) {
	type msg struct {
		A int `json:"a"`
	}
	tests := []struct {
		in       string
		want     int
		trailing bool // ErrTrailing
		ok       bool
	}{
		{`{"a":1}`, 1, false, true},
		{` {"a":2} `, 2, false, true},
		{`{"a":1,"b":2}`, 0, false, false},
		{`{"a":1} {"a":2}`, 1, true, false},
		{`{"a":1} x`, 1, true, false},
		{`{"a":`, 0, false, false},
		{``, 0, false, false},
	}
	for _, tt := range tests {
		var m msg
		err := DecodeOne([]byte(tt.in), &m)
		if (err == nil) != tt.ok || errors.Is(err, ErrTrailing) != tt.trailing || tt.ok && m.A != tt.want {
			t.Errorf("DecodeOne(%q) = %+v, %v; want ok %v, trailing %v, a %d", tt.in, m, err, tt.ok, tt.trailing, tt.want)
		}
	}
}
