// Paths that name a place in a JSON document in askuser's problem
// reports, such as questions[1].fields[2].default, written the same way
// for a questionnaire and a config file.
//
// A key the document's author wrote may hold anything, escape sequences
// and invisible characters included, so a key that is not a plain name is
// written Go-quoted in brackets, ["like\u200bthis"]: nothing in a path
// can act on a terminal.

package strictjson

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

// MemberPath appends the member key to path: path.key, or path["key"] when
// key is not a plain name. An empty path gives key alone.
func MemberPath(path, key string) string {
	switch {
	case !IsName(key):
		return path + "[" + quoteKey(key) + "]"
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
	b.WriteString(quoteKey(key))
	b.WriteByte(']')
}

// IndexPath appends the array index i to path: path[i].
func IndexPath(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// maxQuoted is how many characters of a key quoteKey keeps.
const maxQuoted = 60

// quoteKey returns s quoted as Go quotes it, every control and invisible
// character escaped, cut after maxQuoted characters with "…".
func quoteKey(s string) string {
	if utf8.RuneCountInString(s) > maxQuoted {
		return strconv.Quote(string([]rune(s)[:maxQuoted])) + "…"
	}
	return strconv.Quote(s)
}
