package strictjson

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestEscape(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", `{"a":"b c","n":[1,2]}`, `{"a":"b c","n":[1,2]}`},
		{"visible non-ASCII", `"日本 é 👍🏽 …"`, `"日本 é 👍🏽 …"`},
		{"C0 already escaped", `"\u001b[31m\n\t"`, `"\u001b[31m\n\t"`},
		{"whitespace between tokens", "{\n\t\"a\": 1\r\n}", "{\n\t\"a\": 1\r\n}"},
		{"DEL", "\"a\x7fb\"", `"a\u007fb"`},
		{"C1", "\"\u0080\u0085\u009b\u009f\"", `"\u0080\u0085\u009b\u009f"`},
		{"bidi embeddings and overrides", "\"\u202a\u202b\u202c\u202d\u202e\"", `"\u202a\u202b\u202c\u202d\u202e"`},
		{"bidi isolates", "\"\u2066\u2067\u2068\u2069\"", `"\u2066\u2067\u2068\u2069"`},
		{"bidi marks", "\"\u200e\u200f\u061c\"", `"\u200e\u200f\u061c"`},
		{"zero-width", "\"a\u200bb\u200cc\u200dd\"", `"a\u200bb\u200cc\u200dd"`},
		{"word joiner and invisible operators", "\"\u2060\u2061\u2062\u2063\u2064\"", `"\u2060\u2061\u2062\u2063\u2064"`},
		{"byte order mark and soft hyphen", "\"\ufeff\u00ad\"", `"\ufeff\u00ad"`},
		{"line and paragraph separators", "\"\u2028\u2029\"", `"\u2028\u2029"`},
		{"tag characters as surrogate pairs", "\"\U000E0001\U000E0041\U000E007F\"", `"\udb40\udc01\udb40\udc41\udb40\udc7f"`},
		{"in a key", "{\"\u202e\":\"x\"}", `{"\u202e":"x"}`},
		{"escaped backslash before", "\"\\\\\u202e\"", `"\\\u202e"`},
		{"invalid UTF-8 passes", "\"a\xffb\"", "\"a\xffb\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(Escape([]byte(tt.in)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Escape(%q) (-want +got):\n%s", tt.in, diff)
			}
			if !utf8.ValidString(tt.in) {
				return
			}
			var before, after any
			if err := json.Unmarshal([]byte(tt.in), &before); err != nil {
				t.Fatalf("the case is not JSON: %v", err)
			}
			if err := json.Unmarshal([]byte(got), &after); err != nil {
				t.Fatalf("Escape gave invalid JSON: %v", err)
			}
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("decoded value changed (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEscapeKeepsPlainText(t *testing.T) {
	in := []byte(`{"title":"Deploy 日本"}`)
	if got := Escape(in); &got[0] != &in[0] {
		t.Error("Escape copied a text with nothing to escape")
	}
}

func TestWriteEscapes(t *testing.T) {
	var w countingWriter
	if err := WriteLine(&w, map[string]string{"source": "a\u009b\u202eb"}); err != nil {
		t.Fatal(err)
	}
	if got, want := w.String(), `{"source":"a\u009b\u202eb"}`+"\n"; got != want || w.writes != 1 {
		t.Errorf("Write = %q in %d writes, want %q in one", got, w.writes, want)
	}
}

// TestEscaper writes a JSON text through NewEscaper cut at every byte,
// so that characters are split between writes.
func TestEscaper(t *testing.T) {
	in := "{\"a\":\"x\u202e日\U000E0041👍\u0085\"}\n"
	want := `{"a":"x\u202e日\udb40\udc41👍\u0085"}` + "\n"
	for cut := 0; cut <= len(in); cut++ {
		var out bytes.Buffer
		e := NewEscaper(&out)
		for _, part := range []string{in[:cut], in[cut:]} {
			if n, err := e.Write([]byte(part)); n != len(part) || err != nil {
				t.Fatalf("cut %d: Write = %d, %v; want %d, nil", cut, n, err, len(part))
			}
		}
		if got := out.String(); got != want {
			t.Errorf("cut %d: wrote %q, want %q", cut, got, want)
		}
	}
	var out bytes.Buffer
	e := NewEscaper(&out)
	for i := range len(in) {
		e.Write([]byte{in[i]})
	}
	if got := out.String(); got != want {
		t.Errorf("byte by byte: wrote %q, want %q", got, want)
	}
}

func TestEscaperError(t *testing.T) {
	if n, err := NewEscaper(errWriter{errClosed}).Write([]byte(`"a"`)); n != 0 || err != errClosed {
		t.Errorf("Write to a failing writer = %d, %v; want 0, %v", n, err, errClosed)
	}
}

var errClosed = &json.UnsupportedValueError{Str: "closed"}

// unsafeRune reports the first character of js that a terminal obeys or does
// not show, by the unicode package's categories, apart from the
// whitespace between JSON tokens; -1 for none.
func unsafeRune(js string) rune {
	for _, r := range js {
		switch {
		case r == '\n' || r == '\t' || r == '\r':
		case unicode.Is(unicode.Cc, r), unicode.Is(unicode.Cf, r), r == 0x2028, r == 0x2029,
			unicode.Is(unicode.Variation_Selector, r), unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r),
			r >= 0xe0000 && r <= 0xe0fff:
			return r
		}
	}
	return -1
}

func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "plain", "a\u009b\u202eb", "\u200b\u200d\ufeff", "\U000E0041\U000E007F", "🏴\U000E0067\U000E0062\U000E007F", "a\x7f\x00\x1b", "\xff\xfe", "\u2028\u2029"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, v := range []any{s, map[string]any{s: []string{s, "x"}}} {
			js, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			esc := Escape(js)
			var want, got any
			if err := json.Unmarshal(js, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(esc, &got); err != nil {
				t.Fatalf("Escape(%q) = %q, not JSON: %v", js, esc, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Escape(%q) decodes to another value (-want +got):\n%s", js, diff)
			}
			if r := unsafeRune(string(esc)); r >= 0 {
				t.Errorf("Escape(%q) = %q holds %U", js, esc, r)
			}
			if str, ok := got.(string); ok && utf8.ValidString(s) && str != s {
				t.Errorf("Escape(%q) = %q decodes to %q, not %q", js, esc, str, s)
			}
		}
	})
}

// BenchmarkEscape is Escape on a message like the bridge's frame: 4 KB
// of ANSI-styled lines with CJK and an emoji, nothing to escape, and the
// same with one zero-width space in it.
func BenchmarkEscape(b *testing.B) {
	line := `"\u001b[1m Deploy 日本語 👍🏽\u001b[0m ▸ ( ) staging  Internal smoke test",`
	plain := []byte(`{"type":"frame","call":"c1","lines":[` + strings.Repeat(line, 4096/len(line)) + `""]}` + "\n")
	hidden := bytes.Replace(plain, []byte("staging"), []byte("stag\u200bing"), 1)
	for _, c := range []struct {
		name string
		js   []byte
	}{{"plain", plain}, {"one hidden", hidden}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.js)))
			b.ReportAllocs()
			for b.Loop() {
				Escape(c.js)
			}
		})
	}
}
