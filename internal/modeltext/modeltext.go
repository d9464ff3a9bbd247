// Package modeltext holds the text the model reads about both tools,
// ask_user and AskUserQuestion: each tool's description, its usage
// guidelines, the tool result for each outcome, and the sentences the Pi
// package's shim gives when it cannot reach askuser.
//
// The sentences live in embedded Markdown files, one per tool and one
// (shared.md) for what both tools say, so that each sentence is written
// once. A file is a list of "## name" sections; a section names another
// section of shared.md as {name}, and the tool's name as {tool}, and
// these are filled in when the package loads. Any other {name} is a value
// filled in when the text is used.
//
// A result text says what happened and never suggests an answer the user
// did not give. When no dialog could run or finish (unsupported_mode,
// invalid_config, not_initialized, custom_ui_failed, native_ui_failed),
// it advises the model to ask the user in ordinary text and lists every
// question with its options; for invalid_request it gives the problems
// and asks the model to fix the call; any other error it tells plainly.
//
// The text is plain text for a model, not terminal output. It always
// tells the model not to invent an answer. The package is pure and safe
// for concurrent use.
package modeltext

import (
	"embed"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/askuser/askuser/contract"
)

//go:embed *.md
var files embed.FS

// Tool is the text of one tool. Its methods are safe for concurrent use.
type Tool struct {
	name  string
	texts map[string]string
}

// AskUser is the text of ask_user.
var AskUser = load("ask_user")

// AskUserQuestion is the text of AskUserQuestion.
var AskUserQuestion = load("AskUserQuestion")

// Description returns the tool's description for the model.
func (t *Tool) Description() string { return t.text("description") }

// Guidelines returns the guidelines for the model on when to ask and how,
// one sentence or two each, in order. The slice is a fresh copy.
func (t *Tool) Guidelines() []string {
	var out []string
	for _, line := range strings.Split(t.text("guidelines"), "\n") {
		if g, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
			out = append(out, g)
		}
	}
	return out
}

// ShimTexts returns the sentences the Pi package's TypeScript shim gives
// the model when it cannot reach askuser at all (no binary, a dead
// child, a session that has ended), so that every sentence the model
// reads comes from here. Each is a template: {reason} stands for the
// reason, which the shim fills in. The keys are the shim's names for the
// cases. The map is a fresh copy.
func (t *Tool) ShimTexts() map[string]string {
	out := map[string]string{}
	for name, s := range t.texts {
		if key, ok := strings.CutPrefix(name, "shim."); ok {
			out[key] = s
		}
	}
	return out
}

// text returns the section name with each {key} of args, given as key
// and value pairs, replaced by its value. The values are not searched
// for placeholders in turn. A missing section is a defect of the
// embedded files, which the tests rule out.
func (t *Tool) text(name string, args ...string) string {
	s, ok := t.texts[name]
	if !ok {
		panic(fmt.Sprintf("modeltext: %s has no text %q", t.name, name))
	}
	if len(args) == 0 {
		return s
	}
	pairs := make([]string, len(args))
	for i := 0; i < len(args); i += 2 {
		pairs[i], pairs[i+1] = "{"+args[i]+"}", args[i+1]
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// line writes the text name, filled in with args, and a newline.
func (t *Tool) line(b *strings.Builder, name string, args ...string) {
	b.WriteString(t.text(name, args...))
	b.WriteString("\n")
}

var placeholder = regexp.MustCompile(`\{[a-zA-Z.-]+\}`)

// load reads the texts of the tool name from name.md and shared.md, with
// the sections of shared.md and the tool's name filled in. Both files are
// embedded, so an error is a defect of the build.
func load(name string) *Tool {
	shared := sections("shared.md")
	own := sections(name + ".md")
	var fill func(s string, depth int) string
	fill = func(s string, depth int) string {
		if depth > 8 {
			panic("modeltext: the sections of shared.md name each other in a cycle")
		}
		return placeholder.ReplaceAllStringFunc(s, func(p string) string {
			key := p[1 : len(p)-1]
			if key == "tool" {
				return name
			}
			if f, ok := shared[key]; ok {
				return fill(f, depth+1)
			}
			return p
		})
	}
	t := &Tool{name: name, texts: map[string]string{}}
	for k, s := range shared {
		t.texts[k] = fill(s, 0)
	}
	for k, s := range own {
		if _, ok := shared[k]; ok {
			panic(fmt.Sprintf("modeltext: %s.md and shared.md both have a section %q", name, k))
		}
		t.texts[k] = fill(s, 0)
	}
	return t
}

// sections reads the "## name" sections of the embedded file; the text
// before the first is a comment for the reader. A section's text is its
// lines without the blank lines at either end.
func sections(file string) map[string]string {
	data, err := files.ReadFile(file)
	if err != nil {
		panic("modeltext: " + err.Error())
	}
	out := map[string]string{}
	var name string
	var body []string
	flush := func() {
		if name == "" {
			return
		}
		if _, dup := out[name]; dup {
			panic(fmt.Sprintf("modeltext: %s has two sections %q", file, name))
		}
		out[name] = strings.Trim(strings.Join(body, "\n"), "\n")
	}
	for _, line := range strings.Split(string(data), "\n") {
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

// noDialog reports whether code says that no dialog could run or finish,
// so that the model should ask the user in text instead.
func noDialog(code contract.ErrorCode) bool {
	switch code {
	case contract.ErrUnsupportedMode, contract.ErrInvalidConfig, contract.ErrNotInitialized,
		contract.ErrCustomUIFailed, contract.ErrNativeUIFailed:
		return true
	}
	return false
}

// askInText writes the advice to ask the user in text after the text
// that no dialog could show the questions, and the questions as list
// writes them when there are any.
func (t *Tool) askInText(b *strings.Builder, code, msg string, questions int, list func()) {
	t.line(b, "no-dialog", "code", code, "message", msg)
	if questions == 0 {
		t.line(b, "ask-in-text")
		return
	}
	t.line(b, "ask-in-text-listing")
	b.WriteString("\n")
	list()
}

// sentence is msg, a Go-style message, as the start of a sentence: with
// a capital letter.
func sentence(msg string) string {
	r, n := utf8.DecodeRuneInString(msg)
	return string(unicode.ToUpper(r)) + msg[n:]
}
