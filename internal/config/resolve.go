package config

import (
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/prefs"
)

// Resolve combines two checked sources of preferences knob by knob: an
// explicit programmatic option wins over the config file, which wins over
// the built-in default. Both must come from Parse, ParseOptions or a
// successful CheckPrefs; Resolve itself reports nothing.
func Resolve(programmatic, file prefs.Prefs) prefs.Effective {
	e := prefs.Effective{ToggleKey: DefaultToggle, Notify: defaultNotify()}
	for _, p := range [...]prefs.Prefs{file, programmatic} {
		if p.Mode != "" {
			e.Mode = p.Mode
		}
		if p.DisplayMode != "" {
			e.DisplayMode = p.DisplayMode
		}
		if p.TimeoutPerQuestionMs != nil {
			e.TimeoutPerQuestionMs, e.TimeoutSet = *p.TimeoutPerQuestionMs, true
		}
		mergeNotify(&e.Notify, p.Notify)
		if p.Tool != "" {
			e.Tool = p.Tool
		}
		if p.Hub != "" {
			e.Hub, e.HubRemote = p.Hub, p.HubRemote
		}
		if p.ToggleKey != nil {
			e.ToggleKey = *p.ToggleKey
			if e.ToggleKey != "" {
				if k, err := ParseToggle(e.ToggleKey); err == nil {
					e.ToggleKey = k
				}
			}
		}
	}
	return e
}

// ForRequest returns the display mode and per-question timeout for one
// request: what the user configured, else what the request asks for,
// else the built-in default (overlay, contract.DefaultTimeoutPerQuestionMs).
// A timeout of 0 means no deadline. r may be nil. The caller derives the
// whole questionnaire's deadline from the timeout and clamps it.
func ForRequest(e prefs.Effective, r *contract.Request) (contract.DisplayMode, int64) {
	if r == nil {
		return For(e, "", nil)
	}
	return For(e, r.DisplayMode, r.TimeoutPerQuestionMs)
}

// For is ForRequest for a request that asks for display ("" for none)
// and timeoutMs per question (nil for none).
func For(e prefs.Effective, display contract.DisplayMode, timeoutMs *int64) (contract.DisplayMode, int64) {
	mode := contract.DisplayOverlay
	switch {
	case e.DisplayMode != "":
		mode = e.DisplayMode
	case display != "":
		mode = display
	}
	timeout := int64(contract.DefaultTimeoutPerQuestionMs)
	switch {
	case e.TimeoutSet:
		timeout = e.TimeoutPerQuestionMs
	case timeoutMs != nil:
		timeout = *timeoutMs
	}
	return mode, timeout
}
