package strictjson

import (
	"strings"
	"testing"
	"time"
)

func TestWholeMillis(t *testing.T) {
	const max = MaxSafeInteger
	digits400 := "1" + strings.Repeat("0", 399)
	tests := []struct {
		lit  string
		want int64
		msg  string
	}{
		{"0", 0, ""},
		{"-0", 0, ""},
		{"0.0", 0, ""},
		{"-0.0e-5", 0, ""},
		{"0e9223372036854775807", 0, ""},
		{"0e-9223372036854775808", 0, ""},
		{"1500", 1500, ""},
		{"1.0", 1, ""},
		{"1e3", 1000, ""},
		{"1E+3", 1000, ""},
		{"60000.000", 60000, ""},
		{"12.5e1", 125, ""},
		{"1250e-1", 125, ""},
		{"9007199254740991", max, ""},
		{"9.007199254740991e15", max, ""},
		{"90071992547409910e-1", max, ""},
		{digits400 + "e-399", 1, ""},
		{"1500.5", 0, "must be a whole number of milliseconds, got 1500.5"},
		{"1e-3", 0, "must be a whole number of milliseconds, got 1e-3"},
		{"1.5e-9223372036854775808", 0, "must be a whole number of milliseconds, got 1.5e-9223372036854775808"},
		{"5e-99999999999999999999999", 0, "must be a whole number of milliseconds, got 5e-99999999999999999999999"},
		{"1e9223372036854775807", 0, "must be at most 9007199254740991 milliseconds, got 1e9223372036854775807"},
		{"1e99999999999999999999999", 0, "must be at most 9007199254740991 milliseconds, got 1e99999999999999999999999"},
		{"9007199254740992", 0, "must be at most 9007199254740991 milliseconds, got 9007199254740992"},
		{"9007199254740993", 0, "must be at most 9007199254740991 milliseconds, got 9007199254740993"},
		{"1e16", 0, "must be at most 9007199254740991 milliseconds, got 1e16"},
		{"9223372036854775808", 0, "must be at most 9007199254740991 milliseconds, got 9223372036854775808"},
		{"123456789012345678901234567890", 0, "must be at most 9007199254740991 milliseconds, got 123456789012345678901234567890"},
		{digits400, 0, "must be at most 9007199254740991 milliseconds, got 100000000000000000000000… (400 characters)"},
		{"-1", 0, "must not be negative, got -1; use 0 for no deadline"},
		{"-0.5", 0, "must not be negative, got -0.5; use 0 for no deadline"},
		{"-1e-9223372036854775808", 0, "must not be negative, got -1e-9223372036854775808; use 0 for no deadline"},
		{"-9223372036854775809", 0, "must not be negative, got -9223372036854775809; use 0 for no deadline"},
		// Not JSON numbers: callers check the grammar first, but a stray
		// literal still gets an answer rather than a guess.
		{"", 0, "must be a whole number of milliseconds, got "},
		{"+5", 0, "must be a whole number of milliseconds, got +5"},
		{"007", 0, "must be a whole number of milliseconds, got 007"},
		{"1.", 0, "must be a whole number of milliseconds, got 1."},
		{".5", 0, "must be a whole number of milliseconds, got .5"},
		{"1e", 0, "must be a whole number of milliseconds, got 1e"},
		{"1e+", 0, "must be a whole number of milliseconds, got 1e+"},
		{"0x10", 0, `must be a whole number of milliseconds, got "0x10"`},
		{"1_000", 0, `must be a whole number of milliseconds, got "1_000"`},
		{"Infinity", 0, `must be a whole number of milliseconds, got "Infinity"`},
		{"1\x1b]0;x\a", 0, `must be a whole number of milliseconds, got "1\x1b]0;x\a"`},
	}
	for _, tt := range tests {
		t.Run(shorten(tt.lit), func(t *testing.T) {
			got, msg := WholeMillis(tt.lit, max)
			if got != tt.want || msg != tt.msg {
				t.Errorf("WholeMillis(%q) = %d, %q; want %d, %q", shorten(tt.lit), got, msg, tt.want, tt.msg)
			}
		})
	}
}

func TestWholeMillisAccepts(t *testing.T) {
	tests := []struct {
		lit     string
		want    int64
		problem bool
	}{
		{"0", 0, false},
		{"-0", 0, false},
		{"0.000", 0, false},
		{"0e99999999999", 0, false},
		{"-0.0e-5", 0, false},
		{"1", 1, false},
		{"60000", 60000, false},
		{"6E+4", 60000, false},
		{"6e04", 60000, false},
		{"10.50e1", 105, false},
		{"0.001e3", 1, false},
		{"123456789012345e1", 1234567890123450, false},
		{"9007199254740991", MaxSafeInteger, false},
		{"9007199254740991.0", MaxSafeInteger, false},
		{"9.007199254740991e15", MaxSafeInteger, false},
		{"9007199254740992", 0, true},
		{"9007199254740991.5", 0, true},
		{"99999999999999999", 0, true},
		{"1e16", 0, true},
		{"0.5", 0, true},
		{"1e-1", 0, true},
		{"-1", 0, true},
		{"-1e-400", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.lit, func(t *testing.T) {
			got, problem := WholeMillis(tt.lit, MaxSafeInteger)
			if (problem != "") != tt.problem {
				t.Fatalf("WholeMillis(%q) problem = %q, want a problem: %v", tt.lit, problem, tt.problem)
			}
			if got != tt.want {
				t.Errorf("WholeMillis(%q) = %d, want %d", tt.lit, got, tt.want)
			}
		})
	}
}

func TestWholeMillisMax(t *testing.T) {
	if n, msg := WholeMillis("1000", 999); msg != "must be at most 999 milliseconds, got 1000" {
		t.Errorf("over max = %d, %q", n, msg)
	}
	if n, msg := WholeMillis("9.99e2", 999); n != 999 || msg != "" {
		t.Errorf("at max = %d, %q", n, msg)
	}
}

func TestCheckMillis(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, ""},
		{MaxSafeInteger, ""},
		{-2, "must not be negative, got -2; use 0 for no deadline"},
		{MaxSafeInteger + 1, "must be at most 9007199254740991 milliseconds, got 9007199254740992"},
	}
	for _, tt := range tests {
		if got := CheckMillis(tt.n, MaxSafeInteger); got != tt.want {
			t.Errorf("CheckMillis(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

// TestLongLiterals checks that work grows with the literal, not with its
// exponent, and never faster than linearly: megabyte literals of every
// shape are decided at once.
func TestLongLiterals(t *testing.T) {
	const n = 1 << 20
	lits := []string{
		strings.Repeat("9", n),
		"1." + strings.Repeat("0", n),
		"1." + strings.Repeat("0", n) + "1",
		"0." + strings.Repeat("0", n) + "1e" + strings.Repeat("9", 100),
		"1e" + strings.Repeat("9", n),
		"1e-" + strings.Repeat("9", n),
		strings.Repeat("0", n),
	}
	for _, lit := range lits {
		done := make(chan struct{})
		go func() {
			defer close(done)
			WholeMillis(lit, MaxSafeInteger)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("WholeMillis(%s) did not return", quoteNumber(lit))
		}
	}
}
