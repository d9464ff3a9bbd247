package mcpserver

import (
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/config"
)

// preload reads the config file of o once, at start, and folds it under
// the programmatic options knob by knob, so that every session's host is
// built from the same preferences without reading the file again. When the
// file or the options are invalid, o is returned as it is: each session's
// host then reports the problem as invalid_config.
func preload(o ask.HostOptions) ask.HostOptions {
	if o.ConfigFile == "" {
		return o
	}
	if err := config.CheckPrefs(config.OptionsSource, o.Options); err != nil {
		return o
	}
	load := config.Load
	if o.ConfigNamed {
		load = config.LoadNamed
	}
	file, err := load(o.ConfigFile)
	if err != nil {
		return o
	}
	merged := file
	p := o.Options
	if p.Mode != "" {
		merged.Mode = p.Mode
	}
	if p.DisplayMode != "" {
		merged.DisplayMode = p.DisplayMode
	}
	if p.TimeoutPerQuestionMs != nil {
		merged.TimeoutPerQuestionMs = p.TimeoutPerQuestionMs
	}
	if p.ToggleKey != nil {
		merged.ToggleKey = p.ToggleKey
	}
	return ask.HostOptions{Options: merged}
}
