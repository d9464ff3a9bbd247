package claudecode

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/askuser/askuser/internal/strictjson"
)

// PermissionRequest is what Claude Code's PermissionRequest hook reads
// on its standard input, in the members askuser uses; Claude Code sends
// more (transcript_path, permission_mode and others), which are let be.
type PermissionRequest struct {
	SessionID     string `json:"session_id"`
	Cwd           string `json:"cwd"`
	HookEventName string `json:"hook_event_name"`
	ToolName      string `json:"tool_name"`
	// ToolInput is the tool's input, a JSON object, as given.
	ToolInput json.RawMessage `json:"tool_input"`
	// PermissionSuggestions are Claude Code's permission updates that
	// would allow calls like this one from now on, each as given.
	PermissionSuggestions []json.RawMessage `json:"permission_suggestions"`
	ToolUseID             string            `json:"tool_use_id"`
}

// PromptToolInput is the input of the permission-prompt tool that
// Claude Code's -p --permission-prompt-tool names: the tool call that
// awaits permission.
type PromptToolInput struct {
	ToolName string `json:"tool_name"`
	// Input is the tool's input, a JSON object, as given.
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
}

// DecodePermissionRequest decodes the PermissionRequest hook's input. It
// fails on anything but one JSON object of that event with a tool name
// and a tool input object, or one with a duplicate key or an unpaired
// surrogate, which could be read two ways.
func DecodePermissionRequest(data []byte) (*PermissionRequest, error) {
	return decodeHook[PermissionRequest](data, "PermissionRequest")
}

func (h *PermissionRequest) call() (event, tool string, input json.RawMessage) {
	return h.HookEventName, h.ToolName, h.ToolInput
}

// hookCall is a pointer to the input of a hook about a tool call, which
// says the hook's event, the tool and its input.
type hookCall[H any] interface {
	*H
	call() (event, tool string, input json.RawMessage)
}

// decodeHook decodes the input of the hook event about a tool call, with
// the rules of DecodePermissionRequest.
func decodeHook[H any, P hookCall[H]](data []byte, event string) (*H, error) {
	h := P(new(H))
	if err := strictjson.Unmarshal(data, h); err != nil {
		return nil, fmt.Errorf("the hook's input: %w", err)
	}
	name, tool, input := h.call()
	if name != event {
		return nil, fmt.Errorf("the hook's input is for the event %q, not %s", name, event)
	}
	if err := checkCall(tool, input); err != nil {
		return nil, fmt.Errorf("the hook's input %w", err)
	}
	return h, nil
}

// Prompt returns the approval of h's tool call; see NewPrompt.
func (h *PermissionRequest) Prompt() (*Prompt, error) {
	return NewPrompt(h.ToolName, h.ToolInput, h.PermissionSuggestions)
}

// DecodePromptToolInput decodes the permission-prompt tool's input, with
// the rules of DecodePermissionRequest.
func DecodePromptToolInput(data []byte) (*PromptToolInput, error) {
	var in PromptToolInput
	if err := strictjson.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("the permission prompt: %w", err)
	}
	if err := checkCall(in.ToolName, in.Input); err != nil {
		return nil, fmt.Errorf("the permission prompt %w", err)
	}
	return &in, nil
}

// Prompt returns the approval of in's tool call; see NewPrompt.
func (in *PromptToolInput) Prompt() (*Prompt, error) {
	return NewPrompt(in.ToolName, in.Input, nil)
}

func checkCall(tool string, input json.RawMessage) error {
	switch {
	case tool == "":
		return errors.New("names no tool")
	case len(input) == 0 || input[0] != '{':
		return errors.New("has no tool input object")
	}
	return nil
}
