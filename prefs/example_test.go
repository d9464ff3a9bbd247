package prefs_test

import (
	"fmt"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/prefs"
)

// A program sets the knobs it wants; a host fills in the rest with the
// config file's values or the built-in defaults.
func ExamplePrefs() {
	timeout := int64(30000)
	off := false
	host := ask.NewHost(ask.Capabilities{}, &ask.HostOptions{Options: prefs.Prefs{
		DisplayMode:          contract.DisplayInline,
		TimeoutPerQuestionMs: &timeout,
		Notify:               prefs.Notify{Bell: &off, Desktop: prefs.DesktopOSC777},
		Hub:                  prefs.HubOff,
	}})
	eff := host.Preferences()
	fmt.Println(eff.DisplayMode, eff.TimeoutPerQuestionMs, eff.TimeoutSet, eff.ToggleKey, eff.Hub)
	fmt.Println(eff.Notify.Bell, eff.Notify.Title, eff.Notify.Desktop)
	// Output:
	// inline 30000 true alt+o off
	// false true osc777
}

// Preferences built in Go are checked by the config file's rules: a host
// given a wrong value refuses every call, saying what is wrong.
func ExamplePrefs_invalid() {
	host := ask.NewHost(ask.Capabilities{}, &ask.HostOptions{Options: prefs.Prefs{
		Notify: prefs.Notify{Desktop: "loud"},
	}})
	fmt.Println(host.Support().Status)
	fmt.Println(host.Support().Reason)
	// Output:
	// invalid_config
	// options: invalid config: notify.desktop: must be true, false, "osc9", "osc777" or "osc99", got "loud"; correct it, then start a new session so that it is read again
}
