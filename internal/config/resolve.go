package config

import (
	"github.com/askuser/askuser/contract"
)

// Effective is the resolved preferences of one host, fixed when the host
// is created. The zero value is not meaningful; build it with Resolve.
type Effective struct {
	// Mode is the configured route, or "" to probe the host.
	Mode contract.Route
	// DisplayMode is the display mode the user configured (through
	// programmatic options or the file), or "" when they set none and the
	// request decides.
	DisplayMode contract.DisplayMode
	// TimeoutPerQuestionMs is the per-question timeout the user configured
	// when TimeoutSet is true. 0 means no deadline.
	TimeoutPerQuestionMs int64
	// TimeoutSet reports whether the user configured a timeout.
	TimeoutSet bool
	// ToggleKey is the overlay show/hide chord in the canonical form of ParseKey,
	// "" when the user disabled it, DefaultToggle when they set
	// nothing.
	ToggleKey string
	// Notify is how the user is told that a question is waiting.
	Notify NotifyPrefs
	// Tool is the tool the user chose for the Pi package, "" when they
	// chose none.
	Tool string
	// Hub is HubOff when the user opted out of the hub; "" or HubAuto
	// publish questions to a hub when one runs.
	Hub string
	// HubRemote is the remote hub the user named, nil for none: with
	// it, askuser starts a hub that relays there when none runs.
	HubRemote *Remote
}

// Resolve combines two checked sources of preferences knob by knob: an
// explicit programmatic option wins over the config file, which wins over
// the built-in default. Both must come from Parse, ParseOptions or a
// successful CheckPrefs; Resolve itself reports nothing.
func Resolve(programmatic, file Prefs) Effective {
	e := Effective{ToggleKey: DefaultToggle, Notify: defaultNotify()}
	for _, p := range [...]Prefs{file, programmatic} {
		if p.Mode != "" {
			e.Mode = p.Mode
		}
		if p.DisplayMode != "" {
			e.DisplayMode = p.DisplayMode
		}
		if p.TimeoutPerQuestionMs != nil {
			e.TimeoutPerQuestionMs, e.TimeoutSet = *p.TimeoutPerQuestionMs, true
		}
		e.Notify.merge(p.Notify)
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
func (e Effective) ForRequest(r *contract.Request) (contract.DisplayMode, int64) {
	if r == nil {
		return e.For("", nil)
	}
	return e.For(r.DisplayMode, r.TimeoutPerQuestionMs)
}

// For is ForRequest for a request that asks for display ("" for none)
// and timeoutMs per question (nil for none).
func (e Effective) For(display contract.DisplayMode, timeoutMs *int64) (contract.DisplayMode, int64) {
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
