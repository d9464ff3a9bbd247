package pibridge

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/askuser/askuser/internal/host/pimirror"
)

// generalDecode is decode without its fast path for keys.
func generalDecode(line []byte) (inMsg, error) {
	// A leading space is nothing to the general decoder and keeps the
	// line away from decodeKey.
	return decode(append([]byte(" "), line...))
}

// encodeFrame is what the bridge wrote for a frame before appendFrame.
func encodeFrame(t testing.TB, msg *frameMsg) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(msg); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDecodeKey(t *testing.T) {
	tests := []struct {
		line string
		want *inMsg // nil: left to the general decoder
	}{
		{`{"type":"key","call":"c1","key":"down"}`, &inMsg{Type: typeKey, Call: "c1", Key: "down"}},
		{`{"type":"key","call":"c1","text":"日本"}`, &inMsg{Type: typeKey, Call: "c1", Text: "日本"}},
		{`{"type":"key","call":"","key":""}`, &inMsg{Type: typeKey}},
		{`{"type":"key","call":"c1","text":"a` + "\u2028" + `b"}`, &inMsg{Type: typeKey, Call: "c1", Text: "a\u2028b"}},
		{`{"type":"key","call":"c1","text":"a\u2028b"}`, nil},
		{`{"type":"key","call":"c1","text":"\"}`, nil},
		{`{"type":"key","call":"c1","text":"\n"}`, nil},
		{`{"type":"key","call":"c1","text":"a` + "\t" + `"}`, nil},
		{`{"type":"key","call":"c1","text":"` + "\xff" + `"}`, nil},
		{`{"type":"key","call":"c1","key":"down"}` + "\r", nil},
		{`{"type":"key","call":"c1","key":"down"} `, nil},
		{`{"type":"key","call":"c1","key":"down","key":"up"}`, nil},
		{`{"type":"key","call":"c1","key":"down","text":"a"}`, nil},
		{`{"type":"key","call":"c1","key":"down"}}`, nil},
		{`{"type":"key","call":"c1","key":"down"`, nil},
		{`{"type":"key", "call":"c1","key":"down"}`, nil},
		{`{"type":"key","call":"c1","width":3}`, nil},
		{`{"type":"resize","call":"c1","width":3,"rows":4}`, nil},
	}
	for _, tt := range tests {
		got, ok := decodeKey([]byte(tt.line))
		if tt.want == nil {
			if ok {
				t.Errorf("decodeKey(%q) = %+v; want it left to the general decoder", tt.line, got)
			}
			continue
		}
		if !ok {
			t.Errorf("decodeKey(%q) refused it", tt.line)
			continue
		}
		if diff := cmp.Diff(*tt.want, got); diff != "" {
			t.Errorf("decodeKey(%q) (-want +got):\n%s", tt.line, diff)
		}
	}
}

// FuzzDecodeKey checks that decodeKey reads only lines the general
// decoder reads to the same message.
func FuzzDecodeKey(f *testing.F) {
	for _, l := range []string{
		`{"type":"key","call":"c1","key":"down"}`,
		`{"type":"key","call":"c1","text":"日本"}`,
		`{"type":"key","call":"c1","text":"\u2029"}`,
		`{"type":"key","call":"c1","text":"` + "\u2028" + `"}`,
		`{"type":"key","call":"c1","key":"down"}` + "\r",
	} {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		got, ok := decodeKey([]byte(line))
		if !ok {
			return
		}
		want, err := generalDecode([]byte(line))
		if err != nil {
			t.Fatalf("decodeKey(%q) = %+v, but the general decoder refuses it: %v", line, got, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("decodeKey(%q) (-general +fast):\n%s", line, diff)
		}
	})
}

func TestAppendFrame(t *testing.T) {
	tests := []frameMsg{
		{Type: typeFrame, Call: "c1", Lines: []string{}},
		{Type: typeFrame, Call: "c1"},
		{Type: typeFrame, Call: "c1", Lines: []string{"", " \x1b[36mask_user\x1b[39m", "───", "日本 ▸ ✎"}},
		{Type: typeFrame, Call: `q"\`, Lines: []string{"\b\f\n\r\t\x00\x01\x1f\x7f", "<&>", "\u2028\u2029\u2027\u202a", "\xff\xe2\x80", "\xe2\x80\xa8", "a\xe2"}},
		{Type: typeFrame, Call: "c1", Lines: []string{"x"}, Cursor: &pimirror.Cursor{Row: 3, Col: 17}},
		{Type: typeFrame, Call: "c1", Lines: []string{"x"}, Cursor: &pimirror.Cursor{Row: -1, Col: math.MinInt}},
		{Type: typeFrame, Call: "c1", Lines: []string{"x"}, Cursor: &pimirror.Cursor{Row: math.MaxInt, Col: 0}},
	}
	for _, msg := range tests {
		want := encodeFrame(t, &msg)
		got := appendFrame([]byte("kept"), &msg)
		if diff := cmp.Diff("kept"+string(want), string(got)); diff != "" {
			t.Errorf("appendFrame(%+v) (-encoding/json +got):\n%s", msg, diff)
		}
	}
}

// FuzzAppendFrame checks appendFrame against encoding/json, byte for byte.
func FuzzAppendFrame(f *testing.F) {
	f.Add("c1", " \x1b[36mask_user\x1b[39m", "日本\u2028", 3, 7)
	f.Add("", "\xff\xe2\x80\xa9", "\"\\\n", -1, 0)
	f.Fuzz(func(t *testing.T, call, a, b string, row, col int) {
		msg := frameMsg{Type: typeFrame, Call: call, Lines: []string{a, b}}
		if row >= 0 {
			msg.Cursor = &pimirror.Cursor{Row: row, Col: col}
		}
		if diff := cmp.Diff(string(encodeFrame(t, &msg)), string(appendFrame(nil, &msg))); diff != "" {
			t.Errorf("appendFrame(%+v) (-encoding/json +got):\n%s", msg, diff)
		}
	})
}

func TestChanged(t *testing.T) {
	abc := []string{"a", "b", "c"}
	tests := []struct {
		name       string
		last, next []string
		at         int
		lines      []string
	}{
		{"same", abc, abc, 0, nil},
		{"one line", abc, []string{"a", "B", "c"}, 1, []string{"B"}},
		{"first and last", abc, []string{"A", "b", "C"}, 0, []string{"A", "b", "C"}},
		{"longer", abc, []string{"a", "b", "c", "d"}, 3, []string{"d"}},
		{"longer and changed", abc, []string{"a", "B", "c", "d"}, 1, []string{"B", "c", "d"}},
		{"shorter", abc, []string{"a", "b"}, 0, nil},
		{"shorter and changed", abc, []string{"A"}, 0, []string{"A"}},
		{"from nothing", nil, abc, 0, abc},
		{"to nothing", abc, nil, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at, lines := changed(tt.last, tt.next)
			if at != tt.at {
				t.Errorf("at = %d, want %d", at, tt.at)
			}
			if diff := cmp.Diff(tt.lines, lines); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
			// The shim's rule gives next back.
			got := append(append(slices.Clone(tt.last[:at]), lines...), tt.last[min(at+len(lines), len(tt.last)):]...)
			if diff := cmp.Diff(tt.next, got[:len(tt.next)], cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("the patched frame (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAppendPatch(t *testing.T) {
	msg := frameMsg{Type: typeFrame, Call: "c1", Patch: true, At: 0, Length: 10, Lines: []string{"x"}, Cursor: &pimirror.Cursor{Row: 1, Col: 2}}
	want := `{"type":"frame","call":"c1","at":0,"length":10,"lines":["x"],"cursor":{"row":1,"col":2}}` + "\n"
	if diff := cmp.Diff(want, string(appendFrame(nil, &msg))); diff != "" {
		t.Errorf("appendFrame (-want +got):\n%s", diff)
	}
}
