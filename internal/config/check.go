package config

import (
	"fmt"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/strictjson"
	"github.com/askuser/askuser/prefs"
)

// CheckPrefs checks preferences built in Go, such as options from command
// line flags, by the rules of the config file. source names them in the
// error, which is an *Error listing every problem (code invalid_config).
// A pointer to "" as ToggleKey disables the toggle; any other ToggleKey
// must pass ParseToggle.
func CheckPrefs(source string, p prefs.Prefs) error {
	var problems []contract.Problem
	add := func(path, format string, args ...any) {
		problems = append(problems, contract.Problem{Path: path, Message: fmt.Sprintf(format, args...)})
	}
	switch p.Mode {
	case "", contract.RouteCustom, contract.RouteNative:
	default:
		add(keyMode, `must be "custom" or "native", got %s`, quote(string(p.Mode)))
	}
	switch p.DisplayMode {
	case "", contract.DisplayOverlay, contract.DisplayInline:
	default:
		add(keyDisplayMode, `must be "overlay" or "inline", got %s`, quote(string(p.DisplayMode)))
	}
	if p.ToggleKey != nil && *p.ToggleKey != "" {
		if _, err := ParseToggle(*p.ToggleKey); err != nil {
			add(keyToggle, "%v", err)
		}
	}
	if t := p.TimeoutPerQuestionMs; t != nil {
		if msg := strictjson.CheckMillis(*t, MaxTimeoutPerQuestionMs); msg != "" {
			add(keyTimeout, "%s", msg)
		}
	}
	checkNotify(p.Notify, add)
	switch p.Tool {
	case "", prefs.ToolAskUser, prefs.ToolAskUserQuestion:
	default:
		add(keyTool, "must be %s, got %s", toolWant, quote(p.Tool))
	}
	switch p.Hub {
	case "", prefs.HubAuto, prefs.HubOff:
	default:
		add(keyHub, "must be %s, got %s", hubWant, quote(p.Hub))
	}
	if r := p.HubRemote; r != nil {
		if p.Hub != prefs.HubAuto {
			add(keyHub, "names a remote hub, so it must be %q, got %s", prefs.HubAuto, quote(p.Hub))
		}
		checkRemote(r, func(string) int64 { return -1 }, func(path string, _ int64, format string, args ...any) { add(path, format, args...) })
	}
	if problems != nil {
		return &Error{File: source, Problems: problems}
	}
	return nil
}

// CheckNoTool refuses preferences that set Tool, for every host but the
// Pi package's: the others choose their contract explicitly, with --tool,
// and a tool the user set there would be ignored. source names the
// preferences, as for CheckPrefs.
func CheckNoTool(source string, p prefs.Prefs) error {
	if p.Tool == "" {
		return nil
	}
	return &Error{File: source, Problems: []contract.Problem{{Path: keyTool,
		Message: "only the Pi package reads tool; this host serves the contract chosen with --tool (ask_user unless it says AskUserQuestion): leave tool out"}}}
}
