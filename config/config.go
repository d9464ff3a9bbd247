// Package config reads and checks askuser's user preferences: the route
// mode, the display mode, the overlay toggle key and the per-question
// timeout. It also combines them with programmatic options and a request's
// own values, in the contract's order of precedence.
package config

import "github.com/askuser/askuser/contract"

// Prefs is one source of preferences: a config file or the programmatic
// options of a host. The zero value sets nothing.
type Prefs struct {
	// Mode forces a route; "" leaves it to the probe.
	Mode contract.Route
	// DisplayMode is the custom dialog's presentation; "" is unset.
	DisplayMode contract.DisplayMode
	// ToggleKey is the overlay show/hide chord in keyid's canonical form;
	// nil is unset, and a pointer to "" disables the toggle.
	ToggleKey *string
	// TimeoutPerQuestionMs is the per-question timeout; nil is unset and 0
	// means no deadline.
	TimeoutPerQuestionMs *int64
}
