package opencode

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
)

// pluginSource is askuser's OpenCode plugin, as the npm package
// @askuser/askuser ships it (as opencode-plugin.js): it runs the
// command on its hookLine.
//
//go:embed plugin.js
var pluginSource []byte

// PluginSource returns the plugin as shipped, running askuser from the
// PATH as askuser hook opencode.
func PluginSource() []byte { return bytes.Clone(pluginSource) }

// hookLine is the line of the plugin that names the command it runs.
const hookLine = `const hook = ["askuser", "hook", "opencode"];`

// PluginFile is the name askuser setup gives the plugin in a plugin
// directory of OpenCode, which loads every .js and .ts file there.
const PluginFile = "askuser.js"

// Plugin returns the plugin running command, askuser hook opencode (or
// kilo) as askuser setup registers it: askuser's command, then hook, any
// flags, and the client's name.
func Plugin(command []string) ([]byte, error) {
	if len(command) == 0 || command[0] == "" {
		return nil, errors.New("no askuser command")
	}
	// The words are JSON strings, which JavaScript reads as its own:
	// only U+2028 and U+2029 differ, and json.Marshal escapes them.
	words, err := json.Marshal(command)
	if err != nil {
		return nil, err
	}
	if bytes.Count(pluginSource, []byte(hookLine)) != 1 {
		return nil, errors.New("the plugin has no line naming its command")
	}
	return bytes.Replace(pluginSource, []byte(hookLine), []byte("const hook = "+string(words)+";"), 1), nil
}

// pluginMark is the first line of askuser's plugin, in every version.
var pluginMark = []byte("// askuser's OpenCode plugin:")

// IsPlugin reports whether text is a version of askuser's plugin, which
// askuser setup may replace.
func IsPlugin(text []byte) bool { return bytes.HasPrefix(text, pluginMark) }
