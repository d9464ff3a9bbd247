package strictjson

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The rules both contracts apply to text after decoding, each returning
// the message of the problem, for the member's path, or "" when there is
// none.

// requiredProblem checks a text that must be sent and must not be blank;
// why says what it is for. An empty string counts as not sent, so that a
// request built in Go and its JSON get the same message.
func requiredProblem(s, why string) string {
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

// textProblem checks a text against its limit in characters (code
// points) and, when typed, that it is UTF-8: the decoder has checked that
// already for a decoded request, but not for one built in Go.
func textProblem(s string, limit int, typed bool) string {
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

// SizeProblem holds v, a request built in Go, to a limit of bytes on its
// JSON encoding, as a decoder holds the bytes it is given, and returns
// the message of its problem, or "". text is the length of the request's
// text alone, counted by the caller: a request whose text is under half
// the limit is not encoded. advice says how to make a request smaller.
func SizeProblem(v any, text, limit int, advice string) string {
	if text < limit/2 {
		return ""
	}
	data, err := json.Marshal(v)
	switch {
	case err != nil:
		return "the request cannot be encoded as JSON: " + err.Error()
	case len(data) > limit:
		return TooLarge(len(data), limit, advice)
	}
	return ""
}

// TooLarge is the message of a request over the limit of bytes: n bytes
// long, or of unknown length when n < 0. advice says how to make it
// smaller.
func TooLarge(n, limit int, advice string) string {
	size := "over the " + strconv.Itoa(limit) + "-byte limit (" + strconv.Itoa(limit>>10) + " KiB)"
	if n >= 0 {
		size = strconv.Itoa(n) + " bytes long, " + size
	}
	return "the request is " + size + ": " + advice
}
