// Package claudecode holds Claude Code's own formats: what its
// PermissionRequest hook and its permission-prompt tool receive for a
// tool call that awaits the person's permission, and the answers they
// take back.
//
// A Prompt turns such a tool call into an approval.Request (NewPrompt,
// or DecodeHookInput and DecodeToolInput for the JSON Claude Code sends)
// and the approval's Outcome into Claude Code's answer (HookOutput,
// ToolResult). Only an Outcome that approval.Outcome.Allowed reports
// allows the call; every other ending is no decision for the hook, which
// leaves the choice to Claude Code's own prompt, and a denial with the
// reason for the permission-prompt tool, which has no prompt to fall
// back to.
//
// What the tool call holds is the model's text: it is carried as given,
// never unescaped or rendered, and a text over an approval limit is an
// error, so the call is not allowed.
//
// The package is pure: it does no I/O.
package claudecode

// Agent names Claude Code in an approval.Request.
const Agent = "claude-code"
