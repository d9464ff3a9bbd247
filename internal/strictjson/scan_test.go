package strictjson

import (
	"encoding/binary"
	"strings"
	"testing"
)

func TestPlainASCII(t *testing.T) {
	// Every byte value at every position of an otherwise plain word, and
	// next to a byte that borrows.
	for _, base := range []string{"abcdefgh", "\x1fbcdefgh"} {
		for pos := range 8 {
			for b := range 256 {
				word := []byte(base)
				word[pos] = byte(b)
				want := true
				for _, c := range word {
					if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
						want = false
					}
				}
				if got := plainASCII(binary.LittleEndian.Uint64(word)); got != want {
					t.Errorf("plainASCII(%q) = %v, want %v", word, got, want)
				}
			}
		}
	}
}

func TestPlainText(t *testing.T) {
	// Every byte value at every position of texts that take the word
	// loop, its tail, or both, beside bytes that borrow (0x20, 0x00).
	for _, base := range []string{"abcdefghijklmnop", "abcdefghijklmnopq", "abc", "  \x20 abcdefghijklmno pqrstuvw"} {
		for pos := range len(base) {
			for b := range 256 {
				text := []byte(base)
				text[pos] = byte(b)
				wantCtl, wantASCII := true, true
				for _, c := range text {
					if c < 0x20 || c == '\\' {
						wantCtl = false
					}
					if c >= 0x80 {
						wantASCII = false
					}
				}
				noCtl, ascii := plainText(text)
				if noCtl != wantCtl || noCtl && ascii != wantASCII {
					t.Errorf("plainText(%q) = %v, %v, want %v, %v", text, noCtl, ascii, wantCtl, wantASCII)
				}
			}
		}
	}
}

// TestPlainTextLong does the same for texts long enough for the rounds
// of four words, with one odd byte at every position.
func TestPlainTextLong(t *testing.T) {
	base := "The quick brown fox jumps over the lazy dog; then it rests a while."
	for _, n := range []int{32, 40, 63, 64, 67} {
		for pos := range n {
			for _, b := range []byte{0x00, 0x01, 0x1f, 0x20, '\\', '"', 0x7f, 0x80, 0x9f, 0xdc, 0xff} {
				text := []byte(base[:n])
				text[pos] = b
				wantPlain := b >= 0x20 && b != '\\'
				plain, ascii := plainText(text)
				if plain != wantPlain || plain && ascii != (b < 0x80) {
					t.Errorf("plainText(%q) = %v, %v, want %v, %v", text, plain, ascii, wantPlain, b < 0x80)
				}
			}
		}
	}
}

func TestString(t *testing.T) {
	long := strings.Repeat("0123456789abcdef", 5)
	tests := []struct {
		in   string
		want string
		bad  int
		err  string
	}{
		{in: `""`, want: "", bad: -1},
		{in: `"plain"`, want: "plain", bad: -1},
		{in: `"` + long + `"`, want: long, bad: -1},
		{in: `"` + long + `é"`, want: long + "é", bad: -1},
		{in: `"a\"b\\c\/d\b\f\n\r\t"`, want: "a\"b\\c/d\b\f\n\r\t", bad: -1},
		{in: `"` + long + `\u00e9\ud83d\ude00"`, want: long + "é😀", bad: -1},
		{in: `"ab\ud800"`, want: "ab\uFFFD", bad: 3},
		{in: `"ab\udc00x"`, want: "ab\uFFFDx", bad: 3},
		{in: `"ab\ud800\u0041"`, want: "ab\uFFFDA", bad: 3},
		{in: "\"ab\xffc\"", want: "ab\xffc", bad: 3},
		{in: "\"" + long + "\xc3\"", want: long + "\xc3", bad: 81},
		{in: "\"a\\n\xffc\"", want: "a\n\xffc", bad: 4},
		{in: "\"a\x01b\"", err: "control character in a string; escape it, for example as \\n"},
		{in: "\"a\\n\x01b\"", err: "control character in a string; escape it, for example as \\n"},
		{in: `"ab`, err: "unexpected end of input inside a string"},
		{in: `"ab\`, err: "unexpected end of input inside a string"},
		{in: `"\x"`, err: `invalid escape \x in a string`},
		{in: `"\u12"`, err: `incomplete \u escape in a string`},
		{in: `"\u12zz"`, err: `invalid \u escape in a string; it needs four hex digits`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			data := []byte(tt.in)
			s := NewScanner(data)
			got, bad := s.String()
			if _, msg := s.Err(); msg != tt.err {
				t.Fatalf("error %q, want %q", msg, tt.err)
			}
			if tt.err != "" {
				return
			}
			if got != tt.want || bad != tt.bad {
				t.Errorf("String() = %q, %d; want %q, %d", got, bad, tt.want, tt.bad)
			}
			if s.Pos != len(data) {
				t.Errorf("Pos = %d, want %d", s.Pos, len(data))
			}
			// The string is a copy: changing the input leaves it be.
			for i := range data {
				data[i] = 'X'
			}
			if got != tt.want {
				t.Errorf("after the input changed, the string is %q", got)
			}
		})
	}
}

func TestSkip(t *testing.T) {
	tests := []struct {
		in  string
		err string
	}{
		{in: `{"a":[1,-2.5e+3,true,false,null,"x",{}]}`},
		{in: strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)},
		{in: strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2), err: "values are nested too deeply"},
		{in: `[1,]`, err: "expected a value after ','"},
		{in: `{"a" 1}`, err: "expected ':' after a field name"},
		{in: `{"a":1 "b":2}`, err: "expected ',' or '}' after an object member"},
		{in: `{1:2}`, err: "expected a field name in double quotes"},
		{in: `01`, err: ""},
		{in: `-`, err: "invalid number"},
		{in: `1.`, err: "invalid number: expected a digit after '.'"},
		{in: `1e`, err: "invalid number: expected a digit in the exponent"},
		{in: `nul`, err: "unexpected character 'n', expected a value"},
		{in: "\x00", err: `unexpected byte "\x00", expected a value`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			s := NewScanner([]byte(tt.in))
			s.Skip()
			if _, msg := s.Err(); msg != tt.err {
				t.Errorf("error %q, want %q", msg, tt.err)
			}
		})
	}
}

func TestEnd(t *testing.T) {
	s := NewScanner([]byte(`{} x`))
	s.Skip()
	s.End()
	if off, msg := s.Err(); off != 3 || msg != "unexpected data after the top-level value" {
		t.Errorf("Err() = %d, %q", off, msg)
	}
	s = NewScanner([]byte("{} \n"))
	s.Skip()
	s.End()
	if s.Failed() {
		t.Errorf("white space after the value failed")
	}
}
