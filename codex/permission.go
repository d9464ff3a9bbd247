// Package codex holds Codex's own formats: what its PermissionRequest
// hook receives for an action that awaits the person's approval (a
// command to run, a patch to apply, the network to reach), and the
// decision it takes back.
//
// Codex 0.171 sends the hook a JSON object with session_id, turn_id,
// cwd, model, permission_mode, transcript_path, hook_event_name,
// tool_name and tool_input, whose shape is the tool's: "Bash" has
// {"command", "description"}. It takes back nothing (no decision: its
// own prompt asks), or {"hookSpecificOutput": {"hookEventName":
// "PermissionRequest", "decision": {"behavior": "allow"}}} or a deny
// with a message; it refuses updatedInput and updatedPermissions, so an
// approval of Codex offers no standing choice.
//
// The package is pure: it does no I/O.
package codex

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/claudecode"
	"github.com/askuser/askuser/internal/strictjson"
)

// Agent names Codex in an approval.Request.
const Agent = "codex"

// PermissionRequest is what Codex's PermissionRequest hook reads on its
// standard input, in the members askuser uses; other members are let be.
type PermissionRequest struct {
	SessionID     string `json:"session_id"`
	TurnID        string `json:"turn_id"`
	Cwd           string `json:"cwd"`
	HookEventName string `json:"hook_event_name"`
	ToolName      string `json:"tool_name"`
	// ToolInput is the tool's input, as given.
	ToolInput json.RawMessage `json:"tool_input"`
}

// DecodePermissionRequest decodes the hook's input. It fails on anything
// but one JSON object of the PermissionRequest event with a tool name
// and a tool input object, and on one with a duplicate key or an
// unpaired surrogate, which could be read two ways.
func DecodePermissionRequest(data []byte) (*PermissionRequest, error) {
	var h PermissionRequest
	if err := strictjson.Unmarshal(data, &h); err != nil {
		return nil, fmt.Errorf("the hook's input: %w", err)
	}
	switch {
	case h.HookEventName != "PermissionRequest":
		return nil, fmt.Errorf("the hook's input is for the event %q, not PermissionRequest", h.HookEventName)
	case h.ToolName == "":
		return nil, fmt.Errorf("the hook's input names no tool")
	case len(h.ToolInput) == 0 || h.ToolInput[0] != '{':
		return nil, fmt.Errorf("the hook's input has no tool input object")
	}
	return &h, nil
}

// Approval returns the approval that asks the person about h: what the
// tool would do, described as for Claude Code's tools of the same
// names (claudecode.NewPrompt), with Codex as the agent and no standing
// choice.
func (h *PermissionRequest) Approval() (*approval.Request, error) {
	p, err := claudecode.NewPrompt(h.ToolName, h.ToolInput, nil)
	if err != nil {
		return nil, err
	}
	r := *p.Request
	r.Agent = Agent
	return &r, approval.Validate(&r)
}

// HookOutput returns what the hook prints for o: an allow when the
// person allowed the action once, a deny with the person's reason when
// they denied it, and nil for anything else, which decides nothing:
// Codex then asks in its own prompt.
func HookOutput(r *approval.Request, o approval.Outcome) []byte {
	if o.Status != approval.StatusDecided || o.Decision == nil || approval.CheckDecision(r, *o.Decision) != nil || o.Decision.Always != 0 {
		return nil
	}
	d := map[string]any{"behavior": "deny", "message": claudecode.Why(o)}
	if o.Allowed() {
		d = map[string]any{"behavior": "allow"}
	}
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PermissionRequest", "decision": d}}); err != nil {
		return nil
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
