package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/internal/strictjson"
)

// Prompt is one tool call of Claude Code that awaits the person's
// permission, as an approval. Make one with NewPrompt; the zero Prompt
// is not one.
type Prompt struct {
	// Request is the approval that asks the person.
	Request *approval.Request
	// Input is the tool's input as Claude Code gave it, a JSON object;
	// an allow hands it back unchanged.
	Input json.RawMessage
	// offered are the permission suggestions that Request.Always
	// names, in its order, each as Claude Code gave it.
	offered []json.RawMessage
}

// NewPrompt returns the approval of a call of tool with input, a JSON
// object, and Claude Code's permission suggestions for it (the hook's
// permission_suggestions; nil for none).
//
// The request says what the call would do: Bash runs its command, with
// its description as the detail; Edit, MultiEdit and NotebookEdit edit a
// file, and Write writes one, shown as a short unified-style diff;
// WebFetch reaches the domain of its URL; WebSearch searches the web;
// any other tool, an MCP server's among them, is used with its input as
// compact JSON. Input members that the request does not show otherwise
// follow in its detail as compact JSON, so that nothing the call holds is
// hidden.
//
// A suggestion becomes a standing choice when it allows (adds allow
// rules, sets the mode that accepts edits or adds directories), has only
// the members Claude Code's permission updates have, spelled exactly,
// and can be said in at most approval.MaxAlwaysLen characters; the first
// approval.MaxAlways of them are offered, and the rest are left out, as
// is any other suggestion. A mode that turns off the person's approvals
// (bypassPermissions, auto) is never offered.
//
// NewPrompt fails when input is not a JSON object, holds a duplicate key
// or an unpaired surrogate, or when the request breaks the approval's
// rules, such as a text over its limit.
func NewPrompt(tool string, input json.RawMessage, suggestions []json.RawMessage) (*Prompt, error) {
	if err := strictjson.Check(input, nil); err != nil {
		return nil, fmt.Errorf("the tool input: %w", err)
	}
	members, err := objectMembers(input)
	if err != nil {
		return nil, fmt.Errorf("the tool input %w", err)
	}
	r := describe(tool, input, members)
	p := &Prompt{Request: r, Input: input}
	for _, s := range suggestions {
		if len(r.Always) == approval.MaxAlways {
			break
		}
		if label, ok := suggestionLabel(s); ok {
			r.Always = append(r.Always, label)
			p.offered = append(p.offered, s)
		}
	}
	if err := approval.Validate(r); err != nil {
		return nil, err
	}
	return p, nil
}

// member is one member of a JSON object, its value as JSON text.
type member struct {
	name  string
	value json.RawMessage
}

// objectMembers returns the members of obj in their order.
func objectMembers(obj json.RawMessage) ([]member, error) {
	d := json.NewDecoder(bytes.NewReader(obj))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("is not a JSON object")
	}
	var ms []member
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, err
		}
		ms = append(ms, member{t.(string), v})
	}
	return ms, nil
}

// fields reads the members of a tool's input that its request shows.
type fields struct {
	members []member
	used    map[string]bool
	bad     bool
}

// text returns the string member name; "" when it is missing. A member
// of another type spoils the reading.
func (f *fields) text(name string) string {
	var s string
	f.decode(name, &s)
	return s
}

// flag returns the boolean member name; false when it is missing.
func (f *fields) flag(name string) bool {
	var b bool
	f.decode(name, &b)
	return b
}

// member returns the member name as JSON text, and whether it is there.
func (f *fields) member(name string) (json.RawMessage, bool) {
	for _, m := range f.members {
		if m.name == name {
			return m.value, true
		}
	}
	return nil, false
}

func (f *fields) decode(name string, v any) {
	for _, m := range f.members {
		if m.name == name {
			f.used[name] = true
			if json.Unmarshal(m.value, v) != nil {
				f.bad = true
			}
			return
		}
	}
}

// rest returns the members not read, as a compact JSON object; "" when
// every member was read.
func (f *fields) rest() string {
	var b bytes.Buffer
	for _, m := range f.members {
		if f.used[m.name] {
			continue
		}
		if b.Len() == 0 {
			b.WriteByte('{')
		} else {
			b.WriteByte(',')
		}
		b.Write(strictjson.AppendString(nil, m.name))
		b.WriteByte(':')
		_ = json.Compact(&b, m.value) // valid: strictjson.Check passed it
	}
	if b.Len() == 0 {
		return ""
	}
	return b.String() + "}"
}

// describe returns the request for a call of tool with input. A tool it
// knows whose input does not have the types it expects is described as
// any other tool.
func describe(tool string, input json.RawMessage, members []member) *approval.Request {
	r := &approval.Request{Agent: Agent, Tool: tool}
	f := &fields{members: members, used: map[string]bool{}}
	switch tool {
	case "Bash":
		r.Action = approval.ActionRun
		r.Command = f.text("command")
		r.Detail = f.text("description")
	case "Edit":
		r.Action = approval.ActionEdit
		r.Path = f.text("file_path")
		var b strings.Builder
		diffHead(&b, r.Path)
		hunk(&b, "", f.text("old_string"), f.text("new_string"), f.flag("replace_all"))
		r.Diff = bounded(b.String())
	case "MultiEdit":
		r.Action = approval.ActionEdit
		r.Path = f.text("file_path")
		var edits []struct {
			Old string `json:"old_string"`
			New string `json:"new_string"`
			All bool   `json:"replace_all"`
		}
		f.decode("edits", &edits)
		if m, ok := f.member("edits"); ok && !eachOnlyMembers(m, editMembers) {
			f.bad = true // an edit read one way here and another by Claude Code
		}
		var b strings.Builder
		diffHead(&b, r.Path)
		for i, e := range edits {
			hunk(&b, "edit "+strconv.Itoa(i+1)+" of "+strconv.Itoa(len(edits)), e.Old, e.New, e.All)
		}
		r.Diff = bounded(b.String())
	case "Write":
		r.Action = approval.ActionWrite
		r.Path = f.text("file_path")
		content := f.text("content")
		var b strings.Builder
		b.WriteString("+++ " + r.Path + " (" + count(lines(content), "line") + ", written whole)\n")
		prefixed(&b, "+", content)
		r.Diff = bounded(b.String())
	case "NotebookEdit":
		r.Action = approval.ActionEdit
		r.Path = f.text("notebook_path")
		cell, kind, mode := f.text("cell_id"), f.text("cell_type"), f.text("edit_mode")
		var b strings.Builder
		diffHead(&b, r.Path)
		b.WriteString("@@ cell " + orNone(cell) + ", " + orNone(mode) + ", " + orNone(kind) + " @@\n")
		prefixed(&b, "+", f.text("new_source"))
		r.Diff = bounded(b.String())
	case "WebFetch":
		r.Action = approval.ActionFetch
		u := f.text("url")
		if p, err := url.Parse(u); err == nil {
			r.Domain = p.Hostname()
		}
		r.Detail = u
	case "WebSearch":
		r.Action = approval.ActionFetch
		if q := f.text("query"); q != "" {
			r.Detail = "Search the web for: " + q
		}
	default:
		f.bad = true
	}
	if f.bad {
		return &approval.Request{Agent: Agent, Tool: tool, Action: approval.ActionUse, Detail: compact(input)}
	}
	if rest := f.rest(); rest != "" {
		if r.Detail != "" {
			r.Detail += "\n\n"
		}
		r.Detail += "Also: " + rest
	}
	return r
}

// bounded returns diff, a summary built from the tool's input, cut at a
// line to fit approval.MaxDiffLen, with a last line saying how many
// lines are left out. Only the summary is cut: the approval still
// applies to the whole change, as a preview too short for it does.
func bounded(diff string) string {
	if utf8.RuneCountInString(diff) <= approval.MaxDiffLen {
		return diff
	}
	const room = 100 // for the last line
	ls := strings.SplitAfter(diff, "\n")
	n := 0
	for i, l := range ls {
		n += utf8.RuneCountInString(l)
		if n > approval.MaxDiffLen-room {
			rest := ls[i:]
			if rest[len(rest)-1] == "" {
				rest = rest[:len(rest)-1]
			}
			return strings.Join(ls[:i], "") + "… " + count(rest, "more line") + " not shown\n"
		}
	}
	return diff
}

func compact(js json.RawMessage) string {
	var b bytes.Buffer
	_ = json.Compact(&b, js) // valid: strictjson.Check passed it
	return b.String()
}

func diffHead(b *strings.Builder, path string) {
	b.WriteString("--- " + path + "\n+++ " + path + "\n")
}

// hunk writes the change of old into new: the old lines with "-", the
// new with "+", under a header that names the edit and whether every
// occurrence is replaced.
func hunk(b *strings.Builder, name, old, new string, all bool) {
	var head []string
	if name != "" {
		head = append(head, name)
	}
	if all {
		head = append(head, "every occurrence")
	}
	if head != nil {
		b.WriteString("@@ " + strings.Join(head, ", ") + " @@\n")
	} else {
		b.WriteString("@@\n")
	}
	prefixed(b, "-", old)
	prefixed(b, "+", new)
}

// lines returns the lines of s; a last newline ends the last line rather
// than starting another.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func prefixed(b *strings.Builder, mark, s string) {
	for _, l := range lines(s) {
		b.WriteString(mark + l + "\n")
	}
}

func count(ls []string, what string) string {
	if len(ls) == 1 {
		return "1 " + what
	}
	return strconv.Itoa(len(ls)) + " " + what + "s"
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// permissionUpdate is one of Claude Code's permission updates, in the
// members a label reads.
type permissionUpdate struct {
	Type  string `json:"type"`
	Rules []struct {
		ToolName    string `json:"toolName"`
		RuleContent string `json:"ruleContent"`
	} `json:"rules"`
	Behavior    string   `json:"behavior"`
	Destination string   `json:"destination"`
	Mode        string   `json:"mode"`
	Directories []string `json:"directories"`
}

// places says in words where a permission update is kept, by its
// destination; lasting is false for one that ends with the session.
var places = map[string]struct {
	words   string
	lasting bool
}{
	"session":         {"for the rest of this session", false},
	"cliArg":          {"for the rest of this run", false},
	"localSettings":   {"in this project", true},
	"projectSettings": {"in this project, for everyone who shares its settings", true},
	"userSettings":    {"in every project", true},
}

// modes says in words the permission modes of Claude Code that a
// standing choice may set. Only acceptEdits is one: bypassPermissions
// and auto would turn off the person's approvals altogether (everything
// allowed, or a model deciding), which no single approval should offer,
// and dontAsk, plan and default allow nothing more, so they are no
// allow at all.
var modes = map[string]string{
	"acceptEdits": "accept every edit without asking",
}

// The member names of a permission update and of one of its rules, as
// Claude Code spells them. A suggestion with any other member is left
// out: encoding/json matches names regardless of case and Claude Code
// does not, so "Destination" beside "destination" would let the label
// say one thing and Claude Code apply another.
var (
	updateMembers = []string{"type", "rules", "behavior", "destination", "mode", "directories"}
	ruleMembers   = []string{"toolName", "ruleContent"}
	editMembers   = []string{"old_string", "new_string", "replace_all"}
)

// onlyMembers reports whether raw is a JSON object whose member names
// are all among names, exactly.
func onlyMembers(raw json.RawMessage, names []string) bool {
	ms, err := objectMembers(raw)
	if err != nil {
		return false
	}
	for _, m := range ms {
		if !slices.Contains(names, m.name) {
			return false
		}
	}
	return true
}

// eachOnlyMembers reports whether raw is a JSON array of objects whose
// member names are all among names, exactly.
func eachOnlyMembers(raw json.RawMessage, names []string) bool {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return false
	}
	for _, it := range items {
		if !onlyMembers(it, names) {
			return false
		}
	}
	return true
}

// suggestionLabel says a permission suggestion that allows more in plain
// words: "always allow Bash(npm publish:*) in this project", "accept
// every edit without asking for the rest of this session". It reports
// false for a suggestion that does not decode, does not allow more, or
// does not fit approval.MaxAlwaysLen.
func suggestionLabel(s json.RawMessage) (string, bool) {
	if strictjson.Check(s, nil) != nil {
		return "", false
	}
	var u permissionUpdate
	if json.Unmarshal(s, &u) != nil || !onlyMembers(s, updateMembers) {
		return "", false
	}
	if ms, _ := objectMembers(s); slices.ContainsFunc(ms, func(m member) bool { return m.name == "rules" && !eachOnlyMembers(m.value, ruleMembers) }) {
		return "", false
	}
	place, ok := places[u.Destination]
	if !ok {
		return "", false
	}
	allow := "allow "
	if place.lasting {
		allow = "always allow "
	}
	var label string
	switch {
	case u.Type == "addRules" && u.Behavior == "allow" && len(u.Rules) > 0:
		rules := make([]string, len(u.Rules))
		for i, r := range u.Rules {
			if r.ToolName == "" {
				return "", false
			}
			rules[i] = r.ToolName
			if r.RuleContent != "" {
				rules[i] += "(" + r.RuleContent + ")"
			}
		}
		label = allow + strings.Join(rules, ", ") + " " + place.words
	case u.Type == "setMode" && modes[u.Mode] != "":
		label = modes[u.Mode] + " " + place.words
	case u.Type == "addDirectories" && len(u.Directories) > 0:
		label = allow + "access to " + strings.Join(u.Directories, ", ") + " " + place.words
	default:
		return "", false
	}
	if approval.Validate(&approval.Request{Agent: Agent, Tool: "-", Action: approval.ActionUse, Detail: "-", Always: []string{label}}) != nil {
		return "", false
	}
	return label, true
}
