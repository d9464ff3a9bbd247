package native

import (
	"slices"
	"strconv"
	"strings"
)

// The readers of option numbers, for both contracts' replies. Each
// contract splits a reply into fields its own way and words its own
// errors; what a number is, and when one is taken, is decided here.

// badNumber is the field of a list of option numbers that was not taken:
// one out of range, too long to be a number, or naming an option already
// given.
type badNumber struct {
	field string // as typed
	n     int    // its value, when it is a number
	twice bool   // it names an option already given
}

// readNumbers reads fields, each a decimal number, as option numbers from
// 1 to options, in the order given. It stops at the first field it cannot
// take and returns it.
func readNumbers(fields []string, options int) ([]int, *badNumber) {
	nums := make([]int, 0, len(fields))
	for _, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 || n > options {
			return nil, &badNumber{field: f, n: n}
		}
		if slices.Contains(nums, n) {
			return nil, &badNumber{field: f, n: n, twice: true}
		}
		nums = append(nums, n)
	}
	return nums, nil
}

// isNumber reports whether field is a decimal number without a sign that
// fits an int.
func isNumber(field string) bool {
	_, err := strconv.Atoi(field)
	return err == nil && !strings.ContainsAny(field, "+-")
}

// choiceNumber reads s, spaces around it ignored, as the number of one of
// n choices, from 1 to n.
func choiceNumber(s string, n int) (int, bool) {
	k, err := strconv.Atoi(strings.TrimSpace(s))
	return k, err == nil && k >= 1 && k <= n
}
