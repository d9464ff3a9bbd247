// What the differential fuzz targets of the strict JSON decoders share:
// what encoding/json, the reference, says of a text, the same text written
// with other white space, and the text with a key given twice.
//
// A strict decoder refuses more than encoding/json does, on purpose:
// duplicate keys, invalid UTF-8, unpaired surrogate escapes, and nesting
// or sizes past its limits. On any other text encoding/json accepts, it
// must accept the JSON too, and white space between tokens, which RFC 8259
// allows anywhere between them, must change neither its verdict nor what
// it reads. The functions here take only text json.Valid accepts; they are
// for tests, and a binary that does not call them does not hold them.

package testkit

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"
)

// JSONInfo is what InspectJSON found in a text.
type JSONInfo struct {
	// Depth is how deep objects and arrays nest outside the skipped
	// members: 1 for {} or [].
	Depth int
	// Duplicate reports a key given twice in one object outside the
	// skipped members, compared after unescaping.
	Duplicate bool
	// BadText reports invalid UTF-8 or an unpaired surrogate escape
	// anywhere in the text, skipped members included.
	BadText bool
}

// Clean reports whether the text InspectJSON described is one every strict
// decoder reads as JSON: no duplicate key, no bad text, at most maxDepth
// levels deep.
func (i JSONInfo) Clean(maxDepth int) bool {
	return !i.Duplicate && !i.BadText && i.Depth <= maxDepth
}

// InspectJSON describes data, which must be valid JSON. skip names top-level
// members whose values Depth and Duplicate leave out, as a decoder that
// hands them to another parser does.
func InspectJSON(data []byte, skip ...string) JSONInfo {
	toks := JSONTokens(data)
	var info JSONInfo
	for _, t := range toks {
		if t[0] == '"' && badString(t) {
			info.BadText = true
		}
	}
	w := walker{toks: toks, skip: skip, info: &info}
	w.walk(0, false)
	return info
}

type walker struct {
	toks [][]byte
	i    int
	skip []string
	info *JSONInfo
}

// walk walks the value at w.i, depth levels down, and moves past it. A
// skipped value is walked for its extent only.
func (w *walker) walk(depth int, skipped bool) {
	t := w.toks[w.i]
	w.i++
	if t[0] != '{' && t[0] != '[' {
		return
	}
	if !skipped {
		w.info.Depth = max(w.info.Depth, depth+1)
	}
	var seen []string
	for w.toks[w.i][0] != '}' && w.toks[w.i][0] != ']' {
		if w.toks[w.i][0] == ',' {
			w.i++
		}
		skipMember := skipped
		if t[0] == '{' {
			key := unquote(w.toks[w.i])
			if !skipped {
				if slices.Contains(seen, key) {
					w.info.Duplicate = true
				}
				seen = append(seen, key)
				skipMember = depth == 0 && slices.Contains(w.skip, key)
			}
			w.i += 2 // the key and the colon
		}
		w.walk(depth+1, skipMember)
	}
	w.i++
}

// unquote returns the text of the JSON string tok, as encoding/json reads
// it.
func unquote(tok []byte) string {
	var s string
	if err := json.Unmarshal(tok, &s); err != nil {
		panic("strictjson: a string token that is not valid JSON: " + string(tok))
	}
	return s
}

// badString reports whether the JSON string tok holds invalid UTF-8 or an
// unpaired surrogate escape.
func badString(tok []byte) bool {
	if !utf8.Valid(tok) {
		return true
	}
	pending := false // a high surrogate escape waits for its low half
	for i := 1; i < len(tok)-1; i++ {
		if tok[i] != '\\' {
			if pending {
				return true
			}
			continue
		}
		i++
		if tok[i] != 'u' {
			if pending {
				return true
			}
			continue
		}
		n, _ := strconv.ParseUint(string(tok[i+1:i+5]), 16, 32)
		i += 4
		switch {
		case n >= 0xD800 && n < 0xDC00:
			if pending {
				return true
			}
			pending = true
		case n >= 0xDC00 && n < 0xE000:
			if !pending {
				return true
			}
			pending = false
		default:
			if pending {
				return true
			}
		}
	}
	return pending
}

// JSONTokens splits data, valid JSON, into its tokens: punctuation, strings
// with their quotes, numbers and literals, without the white space.
func JSONTokens(data []byte) [][]byte {
	var out [][]byte
	for i := 0; i < len(data); {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		case '{', '}', '[', ']', ',', ':':
			out = append(out, data[i:i+1])
			i++
		case '"':
			j := i + 1
			for ; j < len(data) && data[j] != '"'; j++ {
				if data[j] == '\\' {
					j++
				}
			}
			out = append(out, data[i:j+1])
			i = j + 1
		default:
			j := i
			for j < len(data) && bytes.IndexByte([]byte(" \t\n\r{}[],:\""), data[j]) < 0 {
				j++
			}
			out = append(out, data[i:j])
			i = j
		}
	}
	return out
}

// space is the white space RFC 8259 allows between tokens.
const space = " \t\n\r"

// Respace writes data, valid JSON, with white space between its tokens
// and around them as seed says: each byte of seed, in turn and round
// again, gives the white space of one gap, none to three characters. An
// empty seed gives the compact text.
func Respace(data, seed []byte) []byte {
	toks := JSONTokens(data)
	var b []byte
	for i := 0; i <= len(toks); i++ {
		if len(seed) > 0 {
			s := seed[i%len(seed)]
			for k := range int(s & 3) {
				b = append(b, space[(int(s>>2)+k*int(s>>4))&3])
			}
		}
		if i < len(toks) {
			b = append(b, toks[i]...)
		}
	}
	return b
}

// Forms returns data, valid JSON, written other ways with the same
// tokens: compacted by json.Compact, indented by json.Indent with tabs
// and with CR LF line ends, and respaced by Respace with seed.
func Forms(data, seed []byte) [][]byte {
	var compact, tabs, crlf bytes.Buffer
	if json.Compact(&compact, data) != nil || json.Indent(&tabs, data, "", "\t") != nil || json.Indent(&crlf, data, "\r", "  ") != nil {
		panic("strictjson: Forms of a text that is not valid JSON")
	}
	return [][]byte{compact.Bytes(), tabs.Bytes(), crlf.Bytes(), Respace(data, seed)}
}

// WithDuplicate returns data, valid JSON, compacted and with one member
// of one of its objects given a second time right after the first. n
// picks the member among all members of all objects, round again when n
// is past the last. It reports false when data has no object member.
func WithDuplicate(data []byte, n uint) ([]byte, bool) {
	toks := JSONTokens(data)
	var keys []int // where each member's key is
	for i, t := range toks {
		if t[0] == '"' && i+1 < len(toks) && toks[i+1][0] == ':' {
			keys = append(keys, i)
		}
	}
	if len(keys) == 0 {
		return nil, false
	}
	start := keys[n%uint(len(keys))]
	end := start + 2 // the value's first token
	for depth := 0; ; end++ {
		switch toks[end][0] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
		if depth == 0 {
			end++
			break
		}
	}
	var b []byte
	for _, t := range toks[:end] {
		b = append(b, t...)
	}
	b = append(b, ',')
	for _, t := range toks[start:] {
		b = append(b, t...)
	}
	return b, true
}
