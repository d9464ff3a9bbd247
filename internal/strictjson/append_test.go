package strictjson

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// marshal is what encoding/json writes for v with HTML escaping off.
func marshal(t testing.TB, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain", `"quoted" \back`, "\b\f\n\r\t\x00\x1f\x7f", "<&>",
		"é ✓ 😀", "\u2028\u2029", "\xff bad \xe2\x80", "\xe2\x80\xa8x", "a\xe2"} {
		if got, want := string(AppendString(nil, s)), marshal(t, s); got != want {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
}

func TestAppendInt(t *testing.T) {
	for _, n := range []int{0, 7, -7, 1234567890, math.MaxInt, math.MinInt} {
		if got, want := string(AppendInt(nil, n)), marshal(t, n); got != want {
			t.Errorf("AppendInt(%d) = %s, want %s", n, got, want)
		}
	}
	if got := string(AppendUint([]byte("x"), math.MaxUint)); got != "x18446744073709551615" {
		t.Errorf("AppendUint(MaxUint) = %s", got)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a\"b", "\xff", "\u2028", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(AppendString(nil, s)), marshal(t, s); got != want {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}
