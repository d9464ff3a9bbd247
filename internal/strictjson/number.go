// Whole numbers. askuser's requests and config files carry one kind of
// number, a timeout in milliseconds, and both read it here, so the rule
// and its wording exist once.
//
// The decision is made on the literal's exact decimal value: 1e3 and
// 1000.0 are 1000, 1.5 and 1e-3 are refused, and nothing is rounded the
// way a float64 would round 9007199254740993. The work is bounded by the
// literal's length, whatever its exponent: strconv reads the exponent and
// the final digits, and an exponent too large for an int64 is read as one
// larger than any literal could need.

package strictjson

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxSafeInteger is 2⁵³−1, the largest integer that every JSON
// implementation carries exactly, and so the largest timeout askuser takes.
const MaxSafeInteger = 1<<53 - 1

// maxExponent bounds the exponents used in arithmetic. A literal has far
// fewer digits than this, so a value with a larger exponent is out of
// range or not whole whatever its digits, and sums with a digit count can
// never overflow.
const maxExponent = 1 << 40

// numProblem says why a literal is not a whole number in range.
type numProblem int

const (
	numOK numProblem = iota
	numNotNumber
	numNegative
	numFraction
	numTooLarge
)

// WholeMillis reads lit, a JSON number literal, as a whole number of
// milliseconds from 0 to max. It returns the value, or a message for the
// user that names what is wrong and quotes the literal (shortened when it
// is long). -0 and 0.0 are 0.
func WholeMillis(lit string, max int64) (int64, string) {
	n, p := parseWhole(lit, max)
	switch p {
	case numNotNumber:
		return 0, "must be a whole number of milliseconds, got " + quoteNumber(lit)
	case numNegative:
		return 0, fmt.Sprintf("must not be negative, got %s; use 0 for no deadline", quoteNumber(lit))
	case numFraction:
		return 0, "must be a whole number of milliseconds, got " + quoteNumber(lit)
	case numTooLarge:
		return 0, fmt.Sprintf("must be at most %d milliseconds, got %s", max, quoteNumber(lit))
	}
	return n, ""
}

// CheckMillis says what is wrong with n as a number of milliseconds from 0
// to max, in the words WholeMillis uses, or returns "".
func CheckMillis(n, max int64) string {
	switch {
	case n < 0:
		return fmt.Sprintf("must not be negative, got %d; use 0 for no deadline", n)
	case n > max:
		return fmt.Sprintf("must be at most %d milliseconds, got %d", max, n)
	}
	return ""
}

// quoteMax is the longest literal quoted whole in a message.
const quoteMax = 32

// quoteNumber returns lit for a message: whole when short, otherwise its start
// and its length, so that a megabyte of digits does not become a megabyte
// of error text. Bytes other than those of a JSON number are never
// quoted raw.
func quoteNumber(lit string) string {
	for i := 0; i < len(lit); i++ {
		if !numberByte(lit[i]) {
			return strconv.QuoteToASCII(shorten(lit))
		}
	}
	return shorten(lit)
}

func shorten(lit string) string {
	if len(lit) <= quoteMax {
		return lit
	}
	return fmt.Sprintf("%s… (%d characters)", lit[:quoteMax-8], len(lit))
}

func numberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// parseWhole decides lit's value. It checks the JSON number grammar itself, so
// it is safe on any string.
func parseWhole(lit string, max int64) (int64, numProblem) {
	if n, err := strconv.ParseInt(lit, 10, 64); err == nil && !strings.HasPrefix(lit, "+") && canonicalInt(lit) {
		switch {
		case n < 0:
			return 0, numNegative
		case n > max:
			return 0, numTooLarge
		}
		return n, numOK
	}

	s, neg := strings.CutPrefix(lit, "-")
	intPart, rest := cutDigits(s)
	if intPart == "" || len(intPart) > 1 && intPart[0] == '0' {
		return 0, numNotNumber
	}
	var frac string
	if r, found := strings.CutPrefix(rest, "."); found {
		frac, rest = cutDigits(r)
		if frac == "" {
			return 0, numNotNumber
		}
	}
	var exp int64
	if rest != "" {
		if rest[0] != 'e' && rest[0] != 'E' {
			return 0, numNotNumber
		}
		sign, digits := "", rest[1:]
		if digits != "" && (digits[0] == '+' || digits[0] == '-') {
			sign, digits = digits[:1], digits[1:]
		}
		if d, r := cutDigits(digits); d == "" || r != "" {
			return 0, numNotNumber
		}
		e, err := strconv.ParseInt(sign+digits, 10, 64)
		if err != nil || e > maxExponent || e < -maxExponent {
			// Only a range error is possible here: saturate.
			e = maxExponent
			if sign == "-" {
				e = -maxExponent
			}
		}
		exp = e
	}

	// The value is mant × 10^exp, with mant the digits of both parts
	// without leading or trailing zeros.
	mant := strings.TrimLeft(intPart+frac, "0")
	exp -= int64(len(frac))
	trimmed := strings.TrimRight(mant, "0")
	exp += int64(len(mant) - len(trimmed))
	mant = trimmed
	switch {
	case mant == "":
		return 0, numOK
	case neg:
		return 0, numNegative
	case exp < 0:
		return 0, numFraction
	case int64(len(mant))+exp > 19:
		return 0, numTooLarge
	}
	n, err := strconv.ParseInt(mant+strings.Repeat("0", int(exp)), 10, 64)
	if err != nil || n > max {
		return 0, numTooLarge
	}
	return n, numOK
}

// canonicalInt reports whether lit, which strconv read as an integer, is
// one in JSON's grammar too: strconv also takes leading zeros ("007").
func canonicalInt(lit string) bool {
	s := strings.TrimPrefix(lit, "-")
	return s == "0" || s[0] != '0'
}

// cutDigits splits s after its leading ASCII digits.
func cutDigits(s string) (digits, rest string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i], s[i:]
}
