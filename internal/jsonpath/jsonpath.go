// Package jsonpath writes the paths that name a place in a JSON document
// in askuser's problem reports, such as questions[1].fields[2].default,
// the same way for a questionnaire and a config file.
//
// A key the document's author wrote may hold anything, escape sequences
// and invisible characters included, so a key that is not a plain name is
// written Go-quoted in brackets, ["like\u200bthis"]: nothing in a path
// can act on a terminal.
package jsonpath

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// IsName reports whether key can stand in a path as it is: a non-empty
// run of ASCII letters, digits, '_' and '-'.
func IsName(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Member appends the member key to path: path.key, or path["key"] when
// key is not a plain name. An empty path gives key alone.
func Member(path, key string) string {
	switch {
	case !IsName(key):
		return path + "[" + Quote(key) + "]"
	case path == "":
		return key
	}
	return path + "." + key
}

// AppendMember writes the path element of the member key to b: ".key",
// or ["key"] when key is not a plain name. A caller starting a path
// drops the leading dot.
func AppendMember(b *strings.Builder, key string) {
	if IsName(key) {
		b.WriteByte('.')
		b.WriteString(key)
		return
	}
	b.WriteByte('[')
	b.WriteString(Quote(key))
	b.WriteByte(']')
}

// Index appends the array index i to path: path[i].
func Index(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// MaxQuoted is how many characters of a text Quote keeps.
const MaxQuoted = 60

// Quote returns s quoted as Go quotes it, every control and invisible
// character escaped, cut after MaxQuoted characters with "…".
func Quote(s string) string {
	if utf8.RuneCountInString(s) > MaxQuoted {
		return strconv.Quote(string([]rune(s)[:MaxQuoted])) + "…"
	}
	return strconv.Quote(s)
}
