package strictjson

import (
	_ "embed" // shared.md
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// The text the model reads about a tool (package contract's ask_user.md,
// package auq's AskUserQuestion.md) is a list of "## name" sections; the
// sentences both tools say are the sections of shared.md here, so that
// each is written once. A section names another section of shared.md as
// {name}, and the tool's name as {tool}, and these are filled in when the
// text loads. Any other {name} is a value filled in when the text is
// used, or, in the shim.* sections, by the Pi package's shim. The texts
// load on first use, so that a program that never shows them to a model,
// such as the WebAssembly dialog, does not carry them.

//go:embed shared.md
var sharedFile string

// sharedFilled says whether v is a value the sections of shared.md leave
// to the code that uses them: the error of tool-failed and
// tool-unknown-status, the hub's lines and, in the shim.* sections, the
// shim's reason.
func sharedFilled(v string) bool {
	switch v {
	case "code", "message", "status", "local", "where", "reason":
		return true
	}
	return false
}

// ModelText is the text the model reads about one tool. Its methods are
// safe for concurrent use.
type ModelText struct {
	name  string
	texts map[string]string
}

// LoadModelText returns the texts of the tool name: the sections of file,
// the tool's Markdown file, and those of shared.md, with the sections of
// shared.md and the tool's name filled in. filled are the names of the
// values the tool's code fills in. The files are embedded, so a defect in
// them (a section written twice, a cycle, a {name} that nothing fills
// in) is a defect of the build, which the tests rule out: LoadModelText
// panics.
func LoadModelText(name, file string, filled ...string) *ModelText {
	common := sections("shared.md", sharedFile)
	own := sections(name+".md", file)
	t := &ModelText{name: name, texts: fill(name, common, common)}
	for k, s := range fill(name, own, common) {
		if _, ok := common[k]; ok {
			panic(fmt.Sprintf("strictjson: %s.md and shared.md both have a section %q", name, k))
		}
		t.texts[k] = s
	}
	for k, s := range t.texts {
		eachPlaceholder(s, func(v string) string {
			if !slices.Contains(filled, v) && !sharedFilled(v) {
				panic(fmt.Sprintf("strictjson: the text %q of %s holds {%s}, which nothing fills in", k, name, v))
			}
			return ""
		})
	}
	return t
}

// LazyModelText is a ModelText loaded on first use, so that a program
// that never shows the text to a model, such as the WebAssembly dialog,
// does not carry it. The zero value is ready; its methods are safe for
// concurrent use.
//
// It holds a plain pointer, set with sync/atomic's functions, rather than
// a sync.Once or an atomic.Pointer, because a package variable of those
// types stays in the WebAssembly dialog even when nothing uses it.
type LazyModelText struct {
	t unsafe.Pointer // *ModelText
}

// Get returns LoadModelText(name, file, filled...), loaded on the first
// call; later calls return the same text whatever their arguments. Two
// first calls at once may both load it, and then return the same one.
func (l *LazyModelText) Get(name, file string, filled ...string) *ModelText {
	if t := atomic.LoadPointer(&l.t); t != nil {
		return (*ModelText)(t)
	}
	atomic.CompareAndSwapPointer(&l.t, nil, unsafe.Pointer(LoadModelText(name, file, filled...)))
	return (*ModelText)(atomic.LoadPointer(&l.t))
}

// Description returns the tool's description for the model.
func (t *ModelText) Description() string { return t.Text("description") }

// Guidelines returns the guidelines for the model on when to ask and how,
// one sentence or two each, in order. The slice is a fresh copy.
func (t *ModelText) Guidelines() []string {
	var out []string
	for _, line := range strings.Split(t.Text("guidelines"), "\n") {
		if g, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
			out = append(out, g)
		}
	}
	return out
}

// ShimTexts returns the sentences the Pi package's TypeScript shim gives
// the model when it cannot reach askuser at all, keyed by the shim's
// names for the cases; {reason} in each stands for the reason, which the
// shim fills in. The map is a fresh copy.
func (t *ModelText) ShimTexts() map[string]string {
	out := map[string]string{}
	for name, s := range t.texts {
		if key, ok := strings.CutPrefix(name, "shim."); ok {
			out[key] = s
		}
	}
	return out
}

// Text returns the section name with each {key} of args, given as key
// and value pairs, replaced by its value, in one pass over the text
// rather than through a strings.Replacer built for each call. The values
// are not searched for placeholders in turn. A missing section is a
// defect of the embedded files, which the tests rule out.
func (t *ModelText) Text(name string, args ...string) string {
	s, ok := t.texts[name]
	if !ok {
		panic(fmt.Sprintf("strictjson: %s has no text %q", t.name, name))
	}
	if len(args) == 0 {
		return s
	}
	return eachPlaceholder(s, func(key string) string {
		for i := 0; i+1 < len(args); i += 2 {
			if args[i] == key {
				return args[i+1]
			}
		}
		return "{" + key + "}"
	})
}

// Line writes the text name, filled in with args, and a newline.
func (t *ModelText) Line(b *strings.Builder, name string, args ...string) {
	b.WriteString(t.Text(name, args...))
	b.WriteString("\n")
}

// Indented writes the text name, filled in with args, after indent.
func (t *ModelText) Indented(b *strings.Builder, indent, name string, args ...string) {
	b.WriteString(indent)
	t.Line(b, name, args...)
}

// AskInText writes the tool's text that no dialog could show the
// questions (no-dialog, with the error's code and message), the advice
// to ask the user in text, and, when there are questions, list, which
// writes them.
func (t *ModelText) AskInText(b *strings.Builder, code, msg string, questions int, list func()) {
	t.Line(b, "no-dialog", "code", code, "message", msg)
	if questions == 0 {
		t.Line(b, "ask-in-text")
		return
	}
	t.Line(b, "ask-in-text-listing")
	b.WriteString("\n")
	list()
}

// Sentence is msg, a Go-style message, as the start of a sentence: with
// a capital letter.
func Sentence(msg string) string {
	if msg == "" {
		return ""
	}
	r, n := utf8.DecodeRuneInString(msg)
	return string(unicode.ToUpper(r)) + msg[n:]
}

// eachPlaceholder returns s with each {name} in it, name a run of ASCII
// letters, dots and hyphens, replaced by f(name).
func eachPlaceholder(s string, f func(name string) string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		n := 1
		for n < len(s)-i && isNameByte(s[i+n]) {
			n++
		}
		if n == 1 || n == len(s)-i || s[i+n] != '}' {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(f(s[i+1 : i+n]))
		s = s[i+n+1:]
	}
}

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '.' || c == '-'
}

// fill returns texts with each {name} of a section of common and {tool}
// filled in; tool "" leaves {tool}.
func fill(tool string, texts, common map[string]string) map[string]string {
	var one func(s string, depth int) string
	one = func(s string, depth int) string {
		if depth > 8 {
			panic("strictjson: the sections of shared.md name each other in a cycle")
		}
		return eachPlaceholder(s, func(key string) string {
			if key == "tool" && tool != "" {
				return tool
			}
			if f, ok := common[key]; ok {
				return one(f, depth+1)
			}
			return "{" + key + "}"
		})
	}
	out := make(map[string]string, len(texts))
	for k, s := range texts {
		out[k] = one(s, 0)
	}
	return out
}

// sections reads the "## name" sections of data, the file named file;
// the text before the first is a comment for the reader. A section's
// text is its lines without the blank lines at either end.
func sections(file, data string) map[string]string {
	out := map[string]string{}
	var name string
	var body []string
	flush := func() {
		if name == "" {
			return
		}
		if _, dup := out[name]; dup {
			panic(fmt.Sprintf("strictjson: %s has two sections %q", file, name))
		}
		out[name] = strings.Trim(strings.Join(body, "\n"), "\n")
	}
	for _, line := range strings.Split(data, "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			flush()
			name, body = strings.TrimSpace(h), nil
			continue
		}
		body = append(body, line)
	}
	flush()
	return out
}
