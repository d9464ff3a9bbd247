package config

import (
	"encoding/json"
	"testing"

	"github.com/askuser/askuser/prefs"
)

// The names the tests of package config_test reach inside the package
// and its own tests. Those tests are apart because they import testkit,
// which imports packages built on this one.
var Encode = encode

// Pub is pub, a public key a config names as a recipient.
const Pub = pub

// encode writes p as a config file.
func encode(t *testing.T, p prefs.Prefs) []byte {
	m := map[string]any{}
	if p.Mode != "" {
		m[keyMode] = p.Mode
	}
	if p.DisplayMode != "" {
		m[keyDisplayMode] = p.DisplayMode
	}
	if p.ToggleKey != nil {
		if *p.ToggleKey == "" {
			m[keyToggle] = nil
		} else {
			m[keyToggle] = *p.ToggleKey
		}
	}
	if p.TimeoutPerQuestionMs != nil {
		m[keyTimeout] = *p.TimeoutPerQuestionMs
	}
	if n := encodeNotify(p.Notify); n != nil {
		m[keyNotify] = n
	}
	if p.Tool != "" {
		m[keyTool] = p.Tool
	}
	switch r := p.HubRemote; {
	case r != nil:
		h := map[string]any{keyURL: r.URL, keyCredentials: r.Credentials, keyRecipients: r.Recipients}
		if r.IdleMs != 0 {
			h[keyIdle] = r.IdleMs
		}
		m[keyHub] = h
	case p.Hub != "":
		m[keyHub] = p.Hub
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// encodeNotify writes a Notify as the config file's notify object, or
// returns nil when it sets nothing.
func encodeNotify(n prefs.Notify) map[string]any {
	m := map[string]any{}
	if n.Bell != nil {
		m[keyBell] = *n.Bell
	}
	if n.Title != nil {
		m[keyTitle] = *n.Title
	}
	switch n.Desktop {
	case "":
	case prefs.DesktopOn:
		m[keyDesktop] = true
	case prefs.DesktopOff:
		m[keyDesktop] = false
	default:
		m[keyDesktop] = n.Desktop
	}
	if n.Command != nil {
		if len(n.Command) == 0 {
			m[keyCommand] = nil
		} else {
			m[keyCommand] = n.Command
		}
	}
	if len(m) == 0 {
		return nil
	}
	return m
}
