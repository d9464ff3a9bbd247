package strictjson_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	. "github.com/askuser/askuser/internal/strictjson"

	"github.com/askuser/askuser/internal/testkit"
	"github.com/google/go-cmp/cmp"
)

// readValue reads the value at s.Pos as encoding/json reads it into an
// any with UseNumber, and reports whether every string in it was valid
// text and no object gave a key twice.
func readValue(s *Scanner) (v any, clean bool) {
	clean = true
	var read func() any
	read = func() any {
		s.Space()
		switch s.Peek() {
		case '{':
			s.Open()
			m := map[string]any{}
			for first := true; ; {
				k, ok := s.NextKey(&first)
				if !ok {
					return m
				}
				k = string(bytes.Clone([]byte(k)))
				if _, dup := m[k]; dup {
					clean = false
				}
				m[k] = read()
			}
		case '[':
			s.Open()
			a := []any{}
			for first := true; s.NextElem(&first); {
				a = append(a, read())
			}
			return a
		case '"':
			str, bad := s.String()
			if bad >= 0 {
				clean = false
			}
			return str
		case 't', 'f':
			b, ok := s.Bool()
			if !ok {
				s.Fail(s.Pos, "not a boolean")
			}
			return b
		case 'n':
			if !bytes.HasPrefix(s.Data[s.Pos:], []byte("null")) {
				s.Fail(s.Pos, "not null")
			}
			s.Pos += 4
			return nil
		}
		start := s.Pos
		s.Number()
		return json.Number(s.Data[start:s.Pos])
	}
	v = read()
	s.End()
	return v, clean
}

// badKey reports whether a member name in v has U+FFFD in it.
func badKey(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if strings.ContainsRune(k, utf8.RuneError) || badKey(e) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if badKey(e) {
				return true
			}
		}
	}
	return false
}

// FuzzScanJSON holds the Scanner to encoding/json: on a text json.Valid
// accepts and no deeper than MaxDepth, neither reading it nor Skip fails;
// a clean text reads to the value encoding/json reads; a duplicate key or
// bad text is seen; and white space changes nothing of that.
func FuzzScanJSON(f *testing.F) {
	for _, s := range []string{
		`{"type":"ask","call":"c1","params": {"header":"abc","questions":[{"title":"a"}]}}`,
		`{"type":"abort","call":"c1","params": {"header":"abc"},"type":"ask"}`,
		` { "a" : [ 1 , -0.5e+3 , true , false , null , "\u00e9\ud83d\ude00" ] } `,
		`{"a":"\ud800"}`,
		"[\"\xff\"]",
		`{"a":1,"\u0061":2}`,
	} {
		f.Add(s, []byte{0x17, 0x01}, uint(0))
	}
	f.Fuzz(func(t *testing.T, in string, seed []byte, n uint) {
		testkit.FuzzBound(t, in, func() {
			data := []byte(in)
			if !json.Valid(data) {
				return
			}
			info := testkit.InspectJSON(data)
			if info.Depth > MaxDepth {
				return
			}
			var want any
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber()
			if err := dec.Decode(&want); err != nil {
				t.Fatal(err)
			}
			check := func(text []byte) {
				t.Helper()
				s := NewScanner(text)
				got, clean := readValue(s)
				if off, msg := s.Err(); off >= 0 {
					t.Fatalf("reading %q fails at byte %d: %s", text, off, msg)
				}
				// NextKey hands a name that is not text over with U+FFFD
				// in it, to match no member, and says nothing.
				if want := info.Clean(MaxDepth); clean != want && (want || !badKey(got)) {
					t.Fatalf("reading %q: clean %v; encoding/json's reading is clean: %v", text, clean, want)
				}
				// cmp.Diff takes time exponential in the nesting of
				// equal values: it only explains a difference.
				if info.Clean(MaxDepth) && !reflect.DeepEqual(want, got) {
					t.Fatalf("reading %q (-encoding/json +Scanner):\n%s", text, cmp.Diff(want, got))
				}
				s = NewScanner(text)
				s.Space() // Skip starts at a value
				s.Skip()
				s.End()
				if off, msg := s.Err(); off >= 0 {
					t.Fatalf("Skip of %q fails at byte %d: %s", text, off, msg)
				}
			}
			check(data)
			for _, form := range testkit.Forms(data, seed) {
				check(form)
			}
			if dup, ok := testkit.WithDuplicate(data, n); ok {
				if _, clean := readValue(NewScanner(testkit.Respace(dup, seed))); clean {
					t.Fatalf("reading %q does not see its duplicate key", testkit.Respace(dup, seed))
				}
			}
		})
	})
}

// FuzzString checks String against encoding/json on every string both
// read: the same text, and an offset exactly when the text is not UTF-8.
func FuzzString(f *testing.F) {
	for _, s := range []string{`"a"`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, "\"\xff\"", `"` + strings.Repeat("abcdefgh", 4) + `\n"`, `"\"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		testkit.FuzzBound(t, data, func() {
			s := NewScanner(data)
			if s.Peek() != '"' {
				return
			}
			got, bad := s.String()
			if s.Failed() {
				return
			}
			var want string
			if err := json.Unmarshal(data[:s.Pos], &want); err != nil {
				t.Fatalf("String read %q, encoding/json does not: %v", data[:s.Pos], err)
			}
			switch {
			case bad >= 0 && !strings.ContainsRune(want, utf8.RuneError):
				t.Fatalf("offset %d for %q, which encoding/json reads as valid text %q", bad, data[:s.Pos], want)
			case bad < 0 && got != want:
				t.Fatalf("String() = %q, encoding/json %q", got, want)
			case bad < 0 && !utf8.ValidString(got):
				t.Fatalf("String() = %q, not UTF-8, with no offset", got)
			}
		})
	})
}

func FuzzWholeMillis(f *testing.F) {
	for _, s := range []string{"0", "-0", "1.0", "1e3", "1500.5", "1.5e-9223372036854775808", "1e9223372036854775807", "9007199254740992", "-1", "1e-99999999999999999999"} {
		f.Add(s)
	}
	for _, n := range testkit.FuzzNumbers() {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		testkit.FuzzBound(t, lit, func() {
			n, msg := WholeMillis(lit, MaxSafeInteger)
			if msg != "" {
				if n != 0 {
					t.Fatalf("WholeMillis(%q) = %d with a message", lit, n)
				}
				return
			}
			if n < 0 || n > MaxSafeInteger {
				t.Fatalf("WholeMillis(%q) = %d, out of range", lit, n)
			}
			// An accepted literal is a JSON number whose value is n.
			if f, err := strconv.ParseFloat(lit, 64); err != nil || f != float64(n) {
				t.Fatalf("WholeMillis(%q) = %d, but ParseFloat says %v, %v", lit, n, f, err)
			}
		})
	})
}
