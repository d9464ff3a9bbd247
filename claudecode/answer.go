package claudecode

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/askuser/askuser/approval"
)

// HookOutput returns what Claude Code's PermissionRequest hook prints
// for o: an allow, with the permission suggestion the person took as
// updatedPermissions when they took one, or a denial with the person's
// reason. Any other ending, and a decision the prompt did not offer,
// returns nil: the hook prints nothing, which decides nothing, and
// Claude Code asks in its own prompt.
func (p *Prompt) HookOutput(o approval.Outcome) []byte {
	d, ok := p.decision(o)
	if !ok {
		return nil
	}
	return encode(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PermissionRequest",
		"decision":      d,
	}})
}

// ToolResult returns the text that the permission-prompt tool answers
// with for o: {"behavior":"allow","updatedInput":...} with the tool's
// input unchanged (and the permission suggestion the person took as
// updatedPermissions), or {"behavior":"deny","message":...} with why:
// the person's reason, or that the approval timed out, was dismissed or
// could not be asked. Only an allowed outcome allows.
func (p *Prompt) ToolResult(o approval.Outcome) []byte {
	d, ok := p.decision(o)
	if !ok {
		return DenyResult(Why(o))
	}
	if d["behavior"] == "allow" {
		d["updatedInput"] = p.Input
	}
	return encode(d)
}

// DenyResult returns the permission-prompt tool's denial with message,
// for a call that could not be asked at all, such as one whose input
// does not decode.
func DenyResult(message string) []byte {
	return encode(map[string]any{"behavior": "deny", "message": message})
}

// decision returns Claude Code's decision for o, as the hook and the tool
// both spell it, and whether o holds one.
func (p *Prompt) decision(o approval.Outcome) (map[string]any, bool) {
	if o.Status != approval.StatusDecided || o.Decision == nil {
		return nil, false
	}
	d := o.Decision
	if approval.CheckDecision(p.Request, *d) != nil || d.Always > len(p.offered) {
		return nil, false
	}
	if !o.Allowed() {
		return map[string]any{"behavior": "deny", "message": Why(o)}, true
	}
	out := map[string]any{"behavior": "allow"}
	if d.Always > 0 {
		out["updatedPermissions"] = []json.RawMessage{p.offered[d.Always-1]}
	}
	return out, true
}

// maxWhyError bounds the part of an error's message that Why passes on.
const maxWhyError = 500

// Why says why o does not allow the call, for Claude Code to tell the
// model: the person's denial with their reason, or how the approval
// ended without a decision.
func Why(o approval.Outcome) string {
	switch o.Status {
	case approval.StatusDecided:
		switch {
		case o.Decision == nil:
			return "The approval ended without a decision, so the call is denied."
		case o.Decision.Allow:
			return "The approval's decision does not fit the request, so the call is denied."
		case o.Decision.Reason != "":
			return "The person denied this call: " + o.Decision.Reason
		}
		return "The person denied this call."
	case approval.StatusDismissed:
		return "The person dismissed the approval without deciding, so the call is denied."
	case approval.StatusTimeout:
		return "Nobody answered the approval in time, so the call is denied."
	case approval.StatusAborted:
		return "The approval was cancelled before anyone decided, so the call is denied."
	case approval.StatusError:
		msg := "unknown error"
		if o.Error != nil {
			msg = o.Error.Message
			if o.Error.Code != "" {
				msg = o.Error.Code + ": " + msg
			}
			if utf8.RuneCountInString(msg) > maxWhyError {
				msg = string([]rune(msg)[:maxWhyError-1]) + "…"
			}
		}
		return "The approval could not be asked (" + msg + "), so the call is denied."
	}
	return "The approval ended without a decision, so the call is denied."
}

// encode returns v as one line of JSON, with <, > and & as they are.
func encode(v any) []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		panic("claudecode: " + err.Error()) // v holds only strings, maps and valid JSON
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
