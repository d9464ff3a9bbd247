package jsondecode

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The rules both contracts apply to text after decoding, each returning
// the message of the problem, for the member's path, or "" when there is
// none.

// RequiredProblem checks a text that must be sent and must not be blank;
// why says what it is for. An empty string counts as not sent, so that a
// request built in Go and its JSON get the same message.
func RequiredProblem(s, why string) string {
	switch {
	case s == "":
		return "is required: " + why
	case Blank(s):
		return "must not be blank: " + why
	}
	return ""
}

// Blank reports whether s is empty or white space alone, as
// strings.TrimSpace(s) == "" does, at once for text that starts with a
// printable ASCII character.
func Blank(s string) bool {
	if len(s) > 0 && s[0] > ' ' && s[0] < utf8.RuneSelf {
		return false
	}
	return strings.TrimSpace(s) == ""
}

// TextProblem checks a text against its limit in characters (code
// points) and, when typed, that it is UTF-8: the decoder has checked that
// already for a decoded request, but not for one built in Go.
func TextProblem(s string, limit int, typed bool) string {
	if typed && !utf8.ValidString(s) {
		return "is not valid UTF-8"
	}
	if len(s) <= limit {
		return ""
	}
	if n := utf8.RuneCountInString(s); n > limit {
		return "is " + strconv.Itoa(n) + " characters long; the limit is " + strconv.Itoa(limit)
	}
	return ""
}

// Quote quotes s for a message, escaping what is not printable and
// keeping the first 60 characters, then "…", of a text longer than 80
// bytes.
func Quote(s string) string {
	if len(s) > 80 {
		s = string([]rune(s)[:min(utf8.RuneCountInString(s), 60)]) + "…"
	}
	return strconv.Quote(s)
}
