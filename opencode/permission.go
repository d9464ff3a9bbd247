// Package opencode holds OpenCode's own formats, as askuser's OpenCode
// plugin hands them to askuser hook opencode: the events of its bus
// that ask the person something (a permission prompt, a question of its
// question tool), and the replies its server takes for them.
//
// OpenCode 1.18.33 publishes permission.asked with the properties
// {"id", "sessionID", "permission", "patterns", "metadata", "always",
// "tool"?}: permission names what is asked ("bash", "edit", "webfetch",
// "external_directory", …), patterns what it applies to (the commands,
// the files), always the patterns an "always" reply allows until
// OpenCode is restarted, and metadata the tool's details (bash:
// {"command"}; edit: {"filepath", "diff"}). Its server takes back
// {"reply": "once"|"always"|"reject", "message"?} at POST
// /permission/{id}/reply; a message with a reject goes to the model as
// the person's feedback.
//
// It publishes question.asked with {"id", "sessionID", "questions",
// "tool"?}, each question {"question", "header", "options": [{"label",
// "description"}], "multiple"?, "custom"?} (custom, true unless false,
// lets the person type their own answer), and takes back {"answers":
// [[label, …], …]} at POST /question/{id}/reply: one array per
// question, of the labels chosen or the text typed.
//
// The package is pure: it does no I/O.
package opencode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/internal/strictjson"
)

// The event types askuser answers, as OpenCode's bus names them.
const (
	PermissionAsked = "permission.asked"
	QuestionAsked   = "question.asked"
)

// Event is one event of OpenCode's bus, as its plugins' event hook gets
// it: the type and the properties, as given.
type Event struct {
	Type       string          `json:"type"`
	Properties json.RawMessage `json:"properties"`
}

// DecodeEvent decodes an event that the plugin hands over. It fails on
// anything but one JSON object with a type and a properties object, and
// on one with a duplicate key or an unpaired surrogate, which could be
// read two ways.
func DecodeEvent(data []byte) (*Event, error) {
	var e Event
	if err := strictjson.Unmarshal(data, &e); err != nil {
		return nil, fmt.Errorf("the event: %w", err)
	}
	switch {
	case e.Type == "":
		return nil, fmt.Errorf("the event has no type")
	case len(e.Properties) == 0 || e.Properties[0] != '{':
		return nil, fmt.Errorf("the event %q has no properties object", e.Type)
	}
	return &e, nil
}

// Permission is the request of a permission.asked event, in the members
// askuser uses; others are let be.
type Permission struct {
	ID         string          `json:"id"`
	SessionID  string          `json:"sessionID"`
	Permission string          `json:"permission"`
	Patterns   []string        `json:"patterns"`
	Always     []string        `json:"always"`
	Metadata   json.RawMessage `json:"metadata"`
}

// DecodePermission decodes the properties of a permission.asked event.
// It fails on one without an id or a permission name.
func DecodePermission(e *Event) (*Permission, error) {
	if e.Type != PermissionAsked {
		return nil, fmt.Errorf("the event is %q, not %s", e.Type, PermissionAsked)
	}
	var p Permission
	if err := strictjson.Unmarshal(e.Properties, &p); err != nil {
		return nil, fmt.Errorf("the permission request: %w", err)
	}
	switch {
	case p.ID == "":
		return nil, fmt.Errorf("the permission request has no id")
	case strings.TrimSpace(p.Permission) == "":
		return nil, fmt.Errorf("the permission request names no permission")
	}
	return &p, nil
}

// metadata is what OpenCode's tools put in a permission request's
// metadata, in the members askuser shows.
type metadata struct {
	Command  string `json:"command"`
	FilePath string `json:"filepath"`
	Diff     string `json:"diff"`
	URL      string `json:"url"`
}

// Approval returns the approval that asks the person about p for agent
// (the client's name, such as "opencode" or "kilo"): a command to run
// for bash, a file to change for edit, a URL to fetch for webfetch, and
// any other permission as the use of a tool, its patterns and metadata
// as the detail. Its one standing choice is OpenCode's "always": to
// allow p's always patterns until OpenCode is restarted.
func (p *Permission) Approval(agent string) (*approval.Request, error) {
	var m metadata
	if len(p.Metadata) > 0 && !bytes.Equal(p.Metadata, []byte("null")) {
		// The members are read loosely: a tool may put other types in
		// them, and then the patterns show what is asked.
		_ = json.Unmarshal(p.Metadata, &m)
	}
	r := &approval.Request{Agent: agent, Tool: p.Permission}
	switch {
	case p.Permission == "bash" && (m.Command != "" || len(p.Patterns) > 0):
		r.Action, r.Command = approval.ActionRun, m.Command
		if r.Command == "" {
			r.Command = strings.Join(p.Patterns, "\n")
		}
	case p.Permission == "edit" && m.FilePath != "":
		r.Action, r.Path, r.Diff = approval.ActionEdit, m.FilePath, m.Diff
	case p.Permission == "webfetch" && m.URL != "":
		r.Action, r.Detail = approval.ActionFetch, m.URL
	default:
		r.Action = approval.ActionUse
		detail, err := json.MarshalIndent(map[string]any{"patterns": orEmpty(p.Patterns), "metadata": p.Metadata}, "", "  ")
		if err != nil {
			return nil, fmt.Errorf("the permission request's metadata: %w", err)
		}
		r.Detail = string(detail)
	}
	if a := p.alwaysChoice(); a != "" {
		r.Always = []string{a}
	}
	return r, approval.Validate(r)
}

// alwaysChoice says what OpenCode's "always" reply would allow, or ""
// when p offers nothing beyond this once or it is too long to say.
func (p *Permission) alwaysChoice() string {
	if len(p.Always) == 0 {
		return ""
	}
	s := "always allow " + p.Permission + " until OpenCode is restarted"
	if len(p.Always) != 1 || p.Always[0] != "*" {
		s = "always allow " + p.Permission + " " + strings.Join(p.Always, ", ") + " until OpenCode is restarted"
	}
	if utf8.RuneCountInString(s) > approval.MaxAlwaysLen || strings.ContainsAny(s, "\n\r") {
		return ""
	}
	return s
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// The replies OpenCode's server takes for a permission request.
const (
	ReplyOnce   = "once"
	ReplyAlways = "always"
	ReplyReject = "reject"
)

// PermissionReply is the body of POST /permission/{id}/reply.
type PermissionReply struct {
	Reply   string `json:"reply"`
	Message string `json:"message,omitempty"`
}

// Reply returns the body of OpenCode's reply to r for o: once, always
// (the standing choice), or reject with the person's reason as the
// message, and nil for anything but the person's decision, which
// replies nothing: OpenCode's own prompt still asks.
func Reply(r *approval.Request, o approval.Outcome) []byte {
	if o.Status != approval.StatusDecided || o.Decision == nil || approval.CheckDecision(r, *o.Decision) != nil {
		return nil
	}
	d := *o.Decision
	reply := PermissionReply{Reply: ReplyReject, Message: d.Reason}
	switch {
	case d.Allow && d.Always == 0:
		reply = PermissionReply{Reply: ReplyOnce}
	case d.Allow:
		reply = PermissionReply{Reply: ReplyAlways}
	}
	return marshal(reply)
}

// marshal encodes v without escaping HTML, or returns nil.
func marshal(v any) []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
