package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/charmbracelet/x/term"

	"github.com/askuser/askuser/opencode"
)

// A setupClient is a client askuser setup registers askuser in: the
// configuration files it changes, each with its edit, and a setting it
// offers apart.
type setupClient struct {
	title string
	files []setupFile
	offer *setupOffer
	// hooks tells that the files hold askuser's hooks too; note is said
	// after writing them.
	hooks bool
	note  string
}

// A setupFile is one configuration file of a client and how askuser goes
// into it.
type setupFile struct {
	// path is the file, from the home directory and the environment.
	path func(home string, getenv func(string) string) string
	// edit returns the file's new text with askuser in it, given its old
	// text (nil when there is none) and the command that runs askuser
	// (without a subcommand). present reports that nothing needs writing;
	// note, when not empty, says what the change does beyond adding.
	edit func(file string, old []byte, cmd []string) (text []byte, present bool, note string, err error)
}

// adds is a setup edit that only ever adds askuser: it has no note.
func adds(edit func(string, []byte, []string) ([]byte, bool, error)) func(string, []byte, []string) ([]byte, bool, string, error) {
	return func(file string, old []byte, cmd []string) ([]byte, bool, string, error) {
		text, present, err := edit(file, old, cmd)
		return text, present, "", err
	}
}

// A setupOffer is a setting that setup offers besides registering
// askuser: explained and asked about on its own, y/N, and set without
// asking only with its flag.
type setupOffer struct {
	flag, usage string
	// text explains the setting before the question.
	text, question string
	// file is the index in the client's files of the file it goes in.
	file int
	edit func(file string, old []byte) (text []byte, present bool, err error)
}

// setupClients are the clients askuser setup knows, by the name given on
// the command line. "pi" is apart: its registration is a Pi package.
var setupClients = map[string]setupClient{
	"claude-code": {
		title: "Claude Code",
		files: []setupFile{
			{claudeFile, jsonEdit(false, []string{"mcpServers"}, func(cmd []string) ordered {
				return ordered{{"type", "stdio"}, {"command", cmd[0]}, {"args", append(slices.Clone(cmd[1:]), "mcp", "--approve-tool")}}
			}, nil, claudeOlderEntry)},
			{claudeSettingsFile, adds(claudeHooksEdit)},
		},
		offer: &setupOffer{
			flag:  "keep-popup-answers",
			usage: "claude-code: also set CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS=0 in Claude Code's settings (explained when asked)",
			text: `Claude Code moves an MCP call still running after two minutes to the
background. An answer given in askuser's popup after that reaches the
model marked "NOT USER INPUT", so the model does not take it as your
answer. The setting CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS = "0" in the env of
Claude Code's settings turns that off, for the calls of every MCP server:
a long call then holds the turn until it ends.`,
			question: "Set " + claudeBackgroundVar + ` to "0"`,
			file:     1,
			edit: func(file string, old []byte) ([]byte, bool, error) {
				return jsonMemberEdit(file, old, false, []string{"env"}, claudeBackgroundVar, "0")
			},
		},
		hooks: true,
	},
	"codex": {title: "Codex", files: []setupFile{{codexFile, adds(codexEdit)}}, hooks: true, note: codexTrustNote},
	"gemini": {title: "Gemini CLI", files: []setupFile{{homeFile(".gemini", "settings.json"), jsonEdit(true, []string{"mcpServers"}, func(cmd []string) ordered {
		return ordered{{"command", cmd[0]}, {"args", mcpArgs(cmd)}, {"trust", true}}
	}, nil, nil)}}},
	"opencode": {title: "OpenCode", files: []setupFile{
		{opencodeFile("opencode", "opencode"), jsonEdit(true, []string{"mcp"}, opencodeEntry, opencodeSchema, nil)},
		{opencodePluginFile("opencode"), opencodePluginEdit("opencode")},
	}, hooks: true},
	"kilo": {title: "Kilo CLI", files: []setupFile{
		{opencodeFile("kilo", "kilo"), jsonEdit(true, []string{"mcp"}, opencodeEntry, nil, nil)},
		{opencodePluginFile("kilo"), opencodePluginEdit("kilo")},
	}, hooks: true},
	"continue": {title: "Continue CLI", files: []setupFile{{homeFile(".continue", "config.yaml"), adds(continueEdit)}}},
}

// setupAliases are other names of clients: claude, the name of Claude
// Code's command.
var setupAliases = map[string]string{"claude": "claude-code"}

// piPackage is the Pi package that registers askuser in Pi.
const piPackage = "npm:@askuser/pi-ask-user"

// claudeBackgroundVar is Claude Code's setting for when a running MCP
// call moves to the background, in milliseconds; 0 is never.
const claudeBackgroundVar = "CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS"

// mcpArgs are the arguments of the command that serves askuser over MCP.
func mcpArgs(cmd []string) []string { return append(slices.Clone(cmd[1:]), "mcp") }

func opencodeEntry(cmd []string) ordered {
	return ordered{{"type", "local"}, {"command", append(slices.Clone(cmd), "mcp")}}
}

var opencodeSchema = ordered{{"$schema", "https://opencode.ai/config.json"}}

func setupClientNames() []string {
	names := []string{"pi"}
	for n := range setupClients {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// claudeFile is Claude Code's user configuration, ~/.claude.json (in
// CLAUDE_CONFIG_DIR when set), whose mcpServers are the user's servers
// in every project (claude mcp add --scope user).
func claudeFile(home string, getenv func(string) string) string {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, ".claude.json")
	}
	return filepath.Join(home, ".claude.json")
}

// claudeSettingsFile is Claude Code's user settings, settings.json in its
// configuration directory: $CLAUDE_CONFIG_DIR when set, else ~/.claude.
func claudeSettingsFile(home string, getenv func(string) string) string {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, "settings.json")
	}
	return filepath.Join(home, ".claude", "settings.json")
}

// The timeouts, in seconds, of the hooks setup registers: how long the
// client waits for askuser's hook before it goes on without it. Each is
// longer than askuser's hook waits, which ends itself first and hands the
// client its own prompt back (or a denial), so the client's timeout is
// only a backstop. A question waits on a person, who may be away: a day.
// A permission prompt holds the agent's work: ten minutes, Codex's own
// default for a hook.
const (
	questionHookTimeout   = 86400
	permissionHookTimeout = 600
)

// hookCommand is the shell command of askuser's hook for client, as the
// client runs it: askuser's command, quoted for the shell, then "hook"
// and the client's name.
func hookCommand(cmd []string, client string) string {
	words := make([]string, 0, len(cmd)+2)
	for _, w := range append(slices.Clone(cmd), "hook", client) {
		words = append(words, shellQuote(w))
	}
	return strings.Join(words, " ")
}

var shellPlain = regexp.MustCompile(`^[A-Za-z0-9@%_+=:,./-]+$`)

// shellQuote quotes s for a POSIX shell, unless it needs no quotes.
func shellQuote(s string) string {
	if shellPlain.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// A hookGroup is a matcher group of a client's hooks that runs one
// command: Claude Code's settings and Codex's config share the shape.
type hookGroup struct {
	event, matcher, command string
	timeout                 int
}

// json is the group as a member of the event's list.
func (h hookGroup) json() ordered {
	return ordered{{"matcher", h.matcher}, {"hooks", []any{
		ordered{{"type", "command"}, {"command", h.command}, {"timeout", h.timeout}},
	}}}
}

// claudeHooks are the hook groups askuser's hook is registered with in
// Claude Code's settings: for its AskUserQuestion before the tool runs,
// and for every permission prompt.
func claudeHooks(cmd []string) []hookGroup {
	command := hookCommand(cmd, "claude-code")
	return []hookGroup{
		{"PreToolUse", "AskUserQuestion", command, questionHookTimeout},
		{"PermissionRequest", "*", command, permissionHookTimeout},
	}
}

// claudeHooksEdit adds askuser's hooks to Claude Code's settings: a group
// of its own in each event's list, unless a group with the same matcher
// already runs the same command.
func claudeHooksEdit(file string, old []byte, cmd []string) ([]byte, bool, error) {
	if len(bytes.TrimSpace(old)) == 0 {
		old = []byte("{}\n")
	}
	text, present := old, true
	for _, h := range claudeHooks(cmd) {
		var res jsonSetResult
		var err error
		text, res, err = addJSONArrayElement(file, text, false, []string{"hooks", h.event}, h.json(), func(raw []byte) bool {
			return hookGroupRuns(raw, h.matcher, h.command)
		})
		if err != nil {
			return nil, false, err
		}
		present = present && res == jsonPresent
	}
	return text, present, nil
}

// hookGroupRuns reports whether raw, a hook group of Claude Code's
// settings, has the matcher and runs the command.
func hookGroupRuns(raw []byte, matcher, command string) bool {
	var g struct {
		Matcher string `json:"matcher"`
		Hooks   []struct {
			Type, Command string
		} `json:"hooks"`
	}
	if json.Unmarshal(raw, &g) != nil || g.Matcher != matcher {
		return false
	}
	for _, h := range g.Hooks {
		if h.Type == "command" && h.Command == command {
			return true
		}
	}
	return false
}

// codexFile is $CODEX_HOME/config.toml, ~/.codex/config.toml by default.
func codexFile(home string, getenv func(string) string) string {
	if d := getenv("CODEX_HOME"); d != "" {
		return filepath.Join(d, "config.toml")
	}
	return filepath.Join(home, ".codex", "config.toml")
}

// homeFile is the file NAME in DIR of the home directory.
func homeFile(dir, name string) func(string, func(string) string) string {
	return func(home string, _ func(string) string) string { return filepath.Join(home, dir, name) }
}

// opencodeFile is $XDG_CONFIG_HOME/DIR/NAME.jsonc when it exists, else
// NAME.json there (~/.config by default).
func opencodeFile(dir, name string) func(string, func(string) string) string {
	return func(home string, getenv func(string) string) string {
		base := getenv("XDG_CONFIG_HOME")
		if base == "" {
			base = filepath.Join(home, ".config")
		}
		jsonc := filepath.Join(base, dir, name+".jsonc")
		if _, err := os.Stat(jsonc); err == nil {
			return jsonc
		}
		return filepath.Join(base, dir, name+".json")
	}
}

// opencodePluginFile is askuser's plugin in the plugin directory of
// OpenCode's (or Kilo's, DIR) configuration, $XDG_CONFIG_HOME/DIR/plugin
// (~/.config by default), whose .js and .ts files it loads at start.
func opencodePluginFile(dir string) func(string, func(string) string) string {
	return func(home string, getenv func(string) string) string {
		base := getenv("XDG_CONFIG_HOME")
		if base == "" {
			base = filepath.Join(home, ".config")
		}
		return filepath.Join(base, dir, "plugin", opencode.PluginFile)
	}
}

// opencodePluginEdit writes askuser's OpenCode plugin running askuser
// hook CLIENT, in place of an older one of askuser's; a file of that
// name that is not askuser's plugin is left alone.
func opencodePluginEdit(client string) func(string, []byte, []string) ([]byte, bool, string, error) {
	return func(file string, old []byte, cmd []string) ([]byte, bool, string, error) {
		text, err := opencode.Plugin(append(slices.Clone(cmd), "hook", client))
		if err != nil {
			return nil, false, "", err
		}
		switch {
		case bytes.Equal(old, text):
			return old, true, "", nil
		case len(old) > 0 && !opencode.IsPlugin(old):
			return nil, false, "", fmt.Errorf("%s is there and is not askuser's plugin; move it away or remove it by hand", file)
		case len(old) > 0:
			return text, false, file + " is askuser's plugin as another askuser setup wrote it; it is replaced.", nil
		}
		return text, false, "", nil
	}
}

// jsonEdit registers askuser as the member "askuser" of the object at
// path, in JSON (comments: JSONC). A new file starts with first's members.
// A member "askuser" already there that differs is an error, unless older
// (when not nil) reports it is a form an older askuser setup wrote: then
// the members of the entry in it are made the current ones, and the
// members of the user's own are kept.
func jsonEdit(comments bool, path []string, entry func([]string) ordered, first ordered, older func(have any, cmd []string) bool) func(string, []byte, []string) ([]byte, bool, string, error) {
	return func(file string, old []byte, cmd []string) ([]byte, bool, string, error) {
		if len(bytes.TrimSpace(old)) == 0 {
			old = []byte(first.render("", "  ") + "\n")
		}
		text, res, err := setJSONMember(file, old, comments, path, "askuser", entry(cmd))
		if err != nil {
			return nil, false, "", err
		}
		if res != jsonDiffers {
			return text, res == jsonPresent, "", nil
		}
		name := strings.Join(path, ".") + ".askuser"
		at := append(slices.Clone(path), "askuser")
		if have, err := jsonValueAt(file, old, comments, at); err == nil && older != nil && older(have, cmd) {
			text, err := updateJSONObject(file, old, comments, at, entry(cmd))
			if err != nil {
				return nil, false, "", err
			}
			return text, false, fmt.Sprintf("%s: %s is askuser's entry as an older askuser setup wrote it; it becomes the current one.", file, name), nil
		}
		return nil, false, "", fmt.Errorf("%s: %s is already there and differs from %s, and is not an entry askuser setup wrote; change or remove it by hand", file, name, entry(cmd).render("", ""))
	}
}

// claudeOlderEntry reports whether have, askuser's entry among Claude
// Code's MCP servers, is one an older askuser setup wrote: a stdio server
// running askuser mcp without --approve-tool (askuser setup added it
// with the approve tool, which answers Claude Code's permission prompts
// in -p), by npx or an askuser binary. Members of the user's own, such as
// env, may be there too.
func claudeOlderEntry(have any, cmd []string) bool {
	e, ok := have.(map[string]any)
	if !ok {
		return false
	}
	if t, ok := e["type"]; ok && t != "stdio" {
		return false
	}
	command, ok := e["command"].(string)
	list, ok2 := e["args"].([]any)
	if !ok || !ok2 || len(list) == 0 || list[len(list)-1] != "mcp" {
		return false
	}
	args := make([]string, len(list)-1)
	for i, a := range list[:len(list)-1] {
		if args[i], ok = a.(string); !ok {
			return false
		}
	}
	return runsAskuser(command, args, cmd)
}

// runsAskuser reports whether command with args (before askuser's
// subcommand) runs askuser: as cmd, the command setup registers now, as
// npx's package, or as a binary named askuser.
func runsAskuser(command string, args, cmd []string) bool {
	switch {
	case slices.Equal(append([]string{command}, args...), cmd):
		return true
	case command == "npx":
		return slices.Equal(args, []string{"-y", "@askuser/askuser"}) || slices.Equal(args, []string{"@askuser/askuser"})
	}
	return filepath.Base(command) == "askuser" && len(args) == 0
}

var codexHeader = regexp.MustCompile(`(?m)^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*("askuser"|askuser)[ \t]*\][ \t]*(#.*)?$`)

// codexEdit registers askuser's MCP server and its PermissionRequest hook
// in Codex's config.toml.
func codexEdit(file string, old []byte, cmd []string) ([]byte, bool, error) {
	text, present, err := codexServerEdit(file, old, cmd)
	if err != nil {
		return nil, false, err
	}
	text, hookPresent, err := codexHookEdit(file, text, cmd)
	if err != nil {
		return nil, false, err
	}
	return text, present && hookPresent, nil
}

// codexServerEdit appends the table [mcp_servers.askuser] to Codex's TOML.
func codexServerEdit(file string, old []byte, cmd []string) ([]byte, bool, error) {
	lines := []string{
		"command = " + quoteJSON(cmd[0]),
		"args = " + renderValue(mcpArgs(cmd), "", ""),
		`env_vars = ["TMUX", "TMUX_PANE"]`,
	}
	if loc := codexHeader.FindIndex(old); loc != nil {
		have := map[string]bool{}
		for _, l := range strings.Split(string(tomlTableBody(old, loc[1])), "\n") {
			have[strings.Join(strings.Fields(l), " ")] = true
		}
		for _, l := range lines {
			if !have[l] {
				line, _ := lineCol(old, loc[0])
				return nil, false, fmt.Errorf("%s:%d: [mcp_servers.askuser] is already there and differs (it lacks %s); change or remove it by hand", file, line, l)
			}
		}
		return old, true, nil
	}
	if codexInlineServers.Match(tomlTableBody(old, 0)) {
		return nil, false, fmt.Errorf("%s: mcp_servers is an inline table, which the table [mcp_servers.askuser] cannot add to; add askuser to it by hand", file)
	}
	if codexOtherForm(old) {
		return nil, false, fmt.Errorf("%s: askuser is already among mcp_servers, not as a table [mcp_servers.askuser]; change or remove it by hand", file)
	}
	return appendLines(old, true, "[mcp_servers.askuser]\n"+strings.Join(lines, "\n")+"\n"), false, nil
}

// codexHookGroup is the group askuser's hook is registered with in Codex:
// every permission prompt (PermissionRequest matches all without a
// matcher).
func codexHookGroup(cmd []string) hookGroup {
	return hookGroup{"PermissionRequest", "", hookCommand(cmd, "codex"), permissionHookTimeout}
}

var (
	codexHookHeader = regexp.MustCompile(`(?m)^[ \t]*\[\[[ \t]*hooks[ \t]*\.[ \t]*("PermissionRequest"|PermissionRequest)[ \t]*\.[ \t]*("hooks"|hooks)[ \t]*\]\][ \t]*(#.*)?$`)
	// codexHookOther are the forms of hooks.PermissionRequest to which an
	// array of tables cannot add: a table, a key of [hooks], a dotted key,
	// or hooks as an inline table.
	codexHookTable  = regexp.MustCompile(`(?m)^[ \t]*\[[ \t]*hooks[ \t]*\.[ \t]*("PermissionRequest"|PermissionRequest)[ \t]*\][ \t]*(#.*)?$`)
	codexHooksTable = regexp.MustCompile(`(?m)^[ \t]*\[[ \t]*hooks[ \t]*\][ \t]*(#.*)?$`)
	codexHookKey    = regexp.MustCompile(`(?m)^[ \t]*("PermissionRequest"|PermissionRequest)[ \t]*=`)
	codexHookDotted = regexp.MustCompile(`(?m)^[ \t]*(hooks[ \t]*\.[ \t]*("PermissionRequest"|PermissionRequest)|hooks)[ \t]*=`)
)

// codexHookEdit appends askuser's PermissionRequest hook to Codex's TOML,
// as a matcher group of its own, unless a group already runs the same
// command.
func codexHookEdit(file string, old []byte, cmd []string) ([]byte, bool, error) {
	h := codexHookGroup(cmd)
	want := "command = " + quoteJSON(h.command)
	for _, loc := range codexHookHeader.FindAllIndex(old, -1) {
		for _, l := range strings.Split(string(tomlTableBody(old, loc[1])), "\n") {
			if strings.Join(strings.Fields(l), " ") == want {
				return old, true, nil
			}
		}
	}
	other := codexHookTable.Match(old) || codexHookDotted.Match(tomlTableBody(old, 0))
	for _, loc := range codexHooksTable.FindAllIndex(old, -1) {
		other = other || codexHookKey.Match(tomlTableBody(old, loc[1]))
	}
	if other {
		return nil, false, fmt.Errorf("%s: hooks.PermissionRequest is not a list of tables ([[hooks.PermissionRequest]]) that askuser's hook can be added to; add it by hand", file)
	}
	return appendLines(old, true, fmt.Sprintf("[[hooks.PermissionRequest]]\n[[hooks.PermissionRequest.hooks]]\ntype = \"command\"\n%s\ntimeout = %d\n", want, h.timeout)), false, nil
}

// appendLines returns old with block on lines of its own after it, and
// after a blank line when gap is set and old is not empty.
func appendLines(old []byte, gap bool, block string) []byte {
	b := bytes.Clone(old)
	if len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	if len(b) > 0 && gap {
		b = append(b, '\n')
	}
	return append(b, block...)
}

var (
	// codexInlineServers is mcp_servers as a key, before any table: an
	// inline table, closed to tables that would add to it.
	codexInlineServers = regexp.MustCompile(`(?m)^[ \t]*("mcp_servers"|mcp_servers)[ \t]*=`)
	codexDotted        = regexp.MustCompile(`(?m)^[ \t]*mcp_servers[ \t]*\.[ \t]*("askuser"|askuser)[ \t]*[.=]`)
	codexServers       = regexp.MustCompile(`(?m)^[ \t]*\[[ \t]*mcp_servers[ \t]*\][ \t]*(#.*)?$`)
	codexInline        = regexp.MustCompile(`(?m)^[ \t]*("askuser"|askuser)[ \t]*[.=]`)
	tomlTableHeader    = regexp.MustCompile(`(?m)^[ \t]*\[`)
)

// codexOtherForm reports whether old defines askuser's server other than
// as the table [mcp_servers.askuser]: as dotted keys, or inside the table
// [mcp_servers]. A table appended then would define it twice.
func codexOtherForm(old []byte) bool {
	if codexDotted.Match(old) {
		return true
	}
	for _, loc := range codexServers.FindAllIndex(old, -1) {
		if codexInline.Match(tomlTableBody(old, loc[1])) {
			return true
		}
	}
	return false
}

// tomlTableBody is the body of the table whose header ends at off: the
// text up to the next table header.
func tomlTableBody(old []byte, off int) []byte {
	body := old[off:]
	if next := tomlTableHeader.FindIndex(body); next != nil {
		body = body[:next[0]]
	}
	return body
}

var (
	continueKey  = regexp.MustCompile(`(?m)^mcpServers:[ \t]*(#.*)?$`)
	continueName = regexp.MustCompile(`(?m)^([ \t]*)- name:[ \t]*("askuser"|'askuser'|askuser)[ \t]*$`)
)

// continueEdit adds askuser to the mcpServers list of Continue's
// config.yaml: as the list's first item, with the list's indentation, or
// as a new list at the end.
func continueEdit(file string, old []byte, cmd []string) ([]byte, bool, error) {
	item := func(indent string) []string {
		return []string{
			indent + "- name: askuser",
			indent + "  command: " + quoteJSON(cmd[0]),
			indent + "  args: " + renderValue(mcpArgs(cmd), "", ""),
		}
	}
	if loc := continueName.FindSubmatchIndex(old); loc != nil {
		want := item(string(old[loc[2]:loc[3]]))
		rest := strings.SplitN(string(old[loc[0]:]), "\n", len(want)+1)
		for i, l := range want {
			if i >= len(rest) || strings.TrimRight(rest[i], " \t\r") != l {
				line, _ := lineCol(old, loc[0])
				return nil, false, fmt.Errorf("%s:%d: the mcpServers item askuser is already there and differs; change or remove it by hand", file, line)
			}
		}
		return old, true, nil
	}
	loc := continueKey.FindIndex(old)
	if loc == nil {
		if bytes.Contains(old, []byte("mcpServers")) {
			return nil, false, fmt.Errorf("%s: mcpServers is not a block list askuser can add to; add the askuser item by hand", file)
		}
		return appendLines(old, false, "mcpServers:\n"+strings.Join(item("  "), "\n")+"\n"), false, nil
	}
	// The list's indentation: that of its first item, if any.
	indent := "  "
	after := old[loc[1]:]
	for _, l := range strings.Split(string(after), "\n")[1:] {
		t := strings.TrimLeft(l, " ")
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if strings.HasPrefix(t, "- ") {
			indent = l[:len(l)-len(t)]
		}
		break
	}
	at := loc[1]
	var b bytes.Buffer
	b.Write(old[:at])
	b.WriteString("\n" + strings.Join(item(indent), "\n"))
	b.Write(old[at:])
	if at == len(old) {
		b.WriteByte('\n')
	}
	return b.Bytes(), false, nil
}

// askuserCommand is the command that runs askuser, as a client is to
// run it: npx's when asked, or when this binary came with the npm package
// (under node_modules, as in npx's cache); else this binary's absolute
// path. The subcommand (mcp, hook) follows it.
func askuserCommand(npx bool) ([]string, error) {
	npxCmd := []string{"npx", "-y", "@askuser/askuser"}
	if npx {
		return npxCmd, nil
	}
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find askuser's own path (%v); use --npx", err)
	}
	if r, err := filepath.EvalSymlinks(self); err == nil {
		self = r
	}
	if strings.Contains(filepath.ToSlash(self), "/node_modules/") {
		return npxCmd, nil
	}
	return []string{self}, nil
}

const setupIntro = `usage: askuser setup [flags] CLIENT

Registers askuser in CLIENT's configuration for the user: its MCP server
(askuser mcp) and, where the client has them, its hooks (askuser hook),
which bring the client's own questions and permission prompts to askuser.
claude-code (or claude): ~/.claude.json and ~/.claude/settings.json;
codex: ~/.codex/config.toml; gemini: ~/.gemini/settings.json; opencode:
~/.config/opencode/opencode.json and the plugin
~/.config/opencode/plugin/askuser.js; kilo: the same in ~/.config/kilo;
continue: ~/.continue/config.yaml; pi installs the Pi package
` + piPackage + ` with pi install, which changes ~/.pi/agent/settings.json.
It shows the change and asks before writing; a file it changes keeps its
first original as FILE.askuser-backup, which --undo puts back.

flags:
`

// A setupChange is the new text of one file.
type setupChange struct {
	path      string
	old, text []byte
	existed   bool
	note      string // what the change does beyond adding, if anything
}

// runSetup is askuser setup.
func runSetup(_ context.Context, env *Env, args []string) int {
	var yes, dryRun, undo, npx, keepPopup bool
	claudeOffer := setupClients["claude-code"].offer
	fset := newFlagSet("setup", env, setupIntro, func(fs *flag.FlagSet) {
		fs.BoolVar(&yes, "yes", false, "write without asking")
		fs.BoolVar(&dryRun, "dry-run", false, "show the change and write nothing")
		fs.BoolVar(&undo, "undo", false, "put back the files as they were before askuser setup")
		fs.BoolVar(&npx, "npx", false, "register npx -y @askuser/askuser, not this binary's path")
		fs.BoolVar(&keepPopup, claudeOffer.flag, false, claudeOffer.usage)
	})
	if code, ok := parseFlags(fset, args); !ok {
		return code
	}
	if fset.NArg() != 1 {
		return usageError(env, "setup", "name one client: "+strings.Join(setupClientNames(), ", "))
	}
	name := fset.Arg(0)
	if n, ok := setupAliases[name]; ok {
		name = n
	}
	if name == "pi" {
		return setupPi(env, yes, dryRun, undo)
	}
	client, ok := setupClients[name]
	if !ok {
		return usageError(env, "setup", fmt.Sprintf("unknown client %q; known: %s", name, strings.Join(setupClientNames(), ", ")))
	}
	if keepPopup && client.offer == nil {
		return usageError(env, "setup", "--"+claudeOffer.flag+" is for claude-code")
	}
	fail := func(err error) int {
		fmt.Fprintln(env.Stderr, "askuser setup:", err)
		return ExitError
	}
	getenv, home, err := setupEnv(env)
	if err != nil {
		return fail(err)
	}
	paths := make([]string, len(client.files))
	for i, f := range client.files {
		paths[i] = f.path(home, getenv)
		if real, err := filepath.EvalSymlinks(paths[i]); err == nil {
			paths[i] = real // a link, as dotfile managers make, stays a link
		}
	}
	if undo {
		return setupUndo(env, paths, yes, dryRun)
	}
	cmd, err := askuserCommand(npx)
	if err != nil {
		return fail(err)
	}
	files, changes, err := setupChanges(client, paths, cmd)
	if err != nil {
		return fail(err)
	}
	// The offered setting goes on top of its file's new text; a fault in
	// it stops setup before anything is written.
	var offered []byte
	if o := client.offer; o != nil {
		text, present, err := o.edit(files[o.file].path, files[o.file].text)
		if err != nil {
			return fail(err)
		}
		if !present {
			offered = text
		}
	}
	if len(changes) == 0 {
		fmt.Fprintf(env.Stdout, "%s is already set up for askuser in %s; nothing written.\n", client.title, strings.Join(paths, " and "))
	} else {
		fmt.Fprintf(env.Stdout, "askuser setup %s: registers %s in %s\n", name, setupWhat(client, cmd), strings.Join(changedPaths(changes), " and "))
		for _, c := range changes {
			if c.note != "" {
				fmt.Fprintln(env.Stdout, c.note)
			}
			writeDiff(env, c.path, c.old, c.text, c.existed)
		}
		if dryRun {
			fmt.Fprintln(env.Stdout, "(dry run: nothing written)")
		} else {
			if code, ok := confirm(env, yes, "Write "+strings.Join(changedPaths(changes), " and ")+"?"); !ok {
				return code
			}
			for _, c := range changes {
				if err := writeWithBackup(c.path, c.old, c.text, c.existed); err != nil {
					return fail(err)
				}
			}
			fmt.Fprintf(env.Stdout, "Wrote %s. askuser setup --undo %s puts back what was there.\n", strings.Join(changedPaths(changes), " and "), name)
			if client.note != "" {
				fmt.Fprintln(env.Stdout, client.note)
			}
		}
	}
	if offered == nil {
		return 0
	}
	return setupOfferAsk(env, name, client.offer, files[client.offer.file], offered, keepPopup, yes, dryRun)
}

// setupChanges reads the client's files, at paths, and returns each with
// its new text (its old text when nothing changes) and, apart, those that
// change.
func setupChanges(client setupClient, paths []string, cmd []string) (files, changes []setupChange, err error) {
	files = make([]setupChange, len(paths))
	for i, f := range client.files {
		c := setupChange{path: paths[i]}
		c.old, err = os.ReadFile(c.path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, err
		}
		c.existed = err == nil
		text, present, note, err := f.edit(c.path, c.old, cmd)
		if err != nil {
			return nil, nil, err
		}
		c.text, c.note = text, note
		if present {
			c.text = c.old
		} else {
			changes = append(changes, c)
		}
		files[i] = c
	}
	return files, changes, nil
}

// codexTrustNote says what Codex asks before it runs a new hook.
const codexTrustNote = `Codex runs a new or changed hook only once it is trusted: at its next
start it says "Hooks need review"; choose "Trust all and continue" (or t
in its hook review). codex exec runs only hooks trusted there, unless
started with --dangerously-bypass-hook-trust.`

// setupWhat names what setup registers, with the command.
func setupWhat(client setupClient, cmd []string) string {
	what := fmt.Sprintf("%q", strings.Join(append(slices.Clone(cmd), "mcp"), " "))
	if client.hooks {
		what += " and askuser's hooks"
	}
	return what
}

func changedPaths(changes []setupChange) []string {
	p := make([]string, len(changes))
	for i, c := range changes {
		p[i] = c.path
	}
	return p
}

// setupOfferAsk offers the setting o: text is the file c with it, on top
// of c.text, the file as setup made it (or would, in a dry run). With its
// flag it is set without asking; on a terminal without --yes it is
// explained and asked about, y/N; otherwise setup says how to set it.
func setupOfferAsk(env *Env, name string, o *setupOffer, c setupChange, text []byte, flagSet, yes, dryRun bool) int {
	if !flagSet && (yes || dryRun || !onTerminal(env.Stdin)) {
		fmt.Fprintf(env.Stdout, "\nNot set (--%s sets it):\n%s\n", o.flag, o.text)
		return 0
	}
	fmt.Fprintf(env.Stdout, "\n%s\n", o.text)
	writeDiff(env, c.path, c.text, text, c.existed || len(c.text) > 0)
	if dryRun {
		fmt.Fprintln(env.Stdout, "(dry run: nothing written)")
		return 0
	}
	if !flagSet {
		if code, ok := confirm(env, false, o.question+" in "+c.path+"?"); !ok {
			if code == ExitAborted {
				return 0 // the rest is written
			}
			return code
		}
	}
	if err := writeWithBackup(c.path, c.old, text, c.existed); err != nil {
		fmt.Fprintln(env.Stderr, "askuser setup:", err)
		return ExitError
	}
	fmt.Fprintf(env.Stdout, "Wrote %s. askuser setup --undo %s puts it back.\n", c.path, name)
	return 0
}

// confirm asks question on the terminal, y/N, unless yes. Without a
// terminal and without yes it refuses. It reports false with the exit code
// when nothing is to be written.
func confirm(env *Env, yes bool, question string) (int, bool) {
	if yes {
		return 0, true
	}
	if !onTerminal(env.Stdin) {
		fmt.Fprintln(env.Stderr, "askuser setup: no terminal to ask on; run it again with --yes to write, or --dry-run to see the change")
		return ExitUsage, false
	}
	fmt.Fprintf(env.Stdout, "%s [y/N] ", question)
	line, _ := bufio.NewReader(env.Stdin).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
		fmt.Fprintln(env.Stdout, "Nothing written.")
		return ExitAborted, false
	}
	return 0, true
}

// onTerminal reports whether r is a terminal.
func onTerminal(r io.Reader) bool {
	f, ok := r.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(f.Fd())
}

// Suffixes of the files askuser setup keeps beside a file it changes: the
// original, or a mark that the file is askuser's own, which names the
// directories setup made for it, if any.
const (
	backupSuffix  = ".askuser-backup"
	createdSuffix = ".askuser-created"
)

// writeWithBackup writes text to file, first keeping old as the backup,
// or marking the file as created, unless an earlier run did.
func writeWithBackup(file string, old, text []byte, existed bool) error {
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(file); err == nil {
		mode = st.Mode().Perm()
	}
	made := missingDirs(filepath.Dir(file))
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	if err := keepOriginal(file, old, existed, made); err != nil {
		return err
	}
	tmp := file + ".askuser-tmp"
	if err := os.WriteFile(tmp, text, mode); err != nil {
		return err
	}
	return os.Rename(tmp, file)
}

// keepOriginal keeps what file held before askuser setup first changed
// it: old as the backup when the file existed, else a mark that setup
// created it, naming made, the topmost directory made for it. A file that
// has either already is left as it is, so that the first original stays.
func keepOriginal(file string, old []byte, existed bool, made string) error {
	_, errB := os.Stat(file + backupSuffix)
	_, errC := os.Stat(file + createdSuffix)
	if !errors.Is(errB, fs.ErrNotExist) || !errors.Is(errC, fs.ErrNotExist) {
		return nil
	}
	if existed {
		mode := fs.FileMode(0o644)
		if st, err := os.Stat(file); err == nil {
			mode = st.Mode().Perm()
		}
		return os.WriteFile(file+backupSuffix, old, mode)
	}
	return os.WriteFile(file+createdSuffix, []byte(made), 0o644)
}

// missingDirs returns the topmost of dir and the directories above it
// that are missing, or "" when dir is there.
func missingDirs(dir string) string {
	top := ""
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		top = d
	}
	return top
}

// An undoStep puts back one file askuser setup changed, or removes one it
// created.
type undoStep struct {
	path      string
	cur, orig []byte
	exists    bool
	backup    bool   // else the file was created
	made      string // the topmost directory setup made for it, if any
}

// setupUndo puts back the files askuser setup changed, and removes those
// it created.
func setupUndo(env *Env, paths []string, yes, dryRun bool) int {
	fail := func(err error) int {
		fmt.Fprintln(env.Stderr, "askuser setup:", err)
		return ExitError
	}
	var steps []undoStep
	for _, file := range paths {
		st := undoStep{path: file}
		var err error
		st.cur, err = os.ReadFile(file)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fail(err)
		}
		st.exists = err == nil
		orig, errB := os.ReadFile(file + backupSuffix)
		made, errC := os.ReadFile(file + createdSuffix)
		switch {
		case errB == nil:
			st.backup, st.orig = true, orig
			fmt.Fprintf(env.Stdout, "askuser setup --undo: puts back %s from %s\n", file, file+backupSuffix)
			writeDiff(env, file, st.cur, orig, st.exists)
		case errC == nil:
			st.made = strings.TrimSpace(string(made))
			fmt.Fprintf(env.Stdout, "askuser setup --undo: removes %s, which askuser setup created\n", file)
		default:
			continue
		}
		steps = append(steps, st)
	}
	if len(steps) == 0 {
		fmt.Fprintf(env.Stdout, "Nothing to undo: askuser setup has not changed %s.\n", strings.Join(paths, " or "))
		return 0
	}
	if dryRun {
		fmt.Fprintln(env.Stdout, "(dry run: nothing written)")
		return 0
	}
	names := make([]string, len(steps))
	for i, st := range steps {
		names[i] = st.path
	}
	if code, ok := confirm(env, yes, "Undo the changes to "+strings.Join(names, " and ")+"?"); !ok {
		return code
	}
	// Last written, first undone: a file setup wrote into a directory
	// that setup made for an earlier one goes before that directory.
	for _, st := range slices.Backward(steps) {
		if err := st.run(); err != nil {
			return fail(err)
		}
		fmt.Fprintf(env.Stdout, "Restored %s.\n", st.path)
	}
	return 0
}

// run takes the step: the backup back in place, or the created file, its
// mark and the directories setup made for it (when empty) removed.
func (st undoStep) run() error {
	if st.backup {
		return os.Rename(st.path+backupSuffix, st.path)
	}
	if err := os.Remove(st.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.Remove(st.path + createdSuffix); err != nil {
		return err
	}
	if st.made == "" {
		return nil
	}
	for d := filepath.Dir(st.path); ; d = filepath.Dir(d) {
		if os.Remove(d) != nil || d == st.made || filepath.Dir(d) == d {
			return nil // not empty, or the last setup made
		}
	}
}

// writeDiff shows the change from old to text as one unified hunk with
// three lines of context.
func writeDiff(env *Env, file string, old, text []byte, existed bool) {
	a, b := diffLines(old), diffLines(text)
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	from, to := max(p-3, 0), min(s, 3)
	oldName := file
	if !existed {
		oldName = "/dev/null"
	}
	fmt.Fprintf(env.Stdout, "--- %s\n+++ %s\n", oldName, file)
	start := func(n int) int { // a range of no lines names the line before it
		if n == 0 {
			return from
		}
		return from + 1
	}
	na, nb := len(a)-s+to-from, len(b)-s+to-from
	fmt.Fprintf(env.Stdout, "@@ -%d,%d +%d,%d @@\n", start(na), na, start(nb), nb)
	for _, l := range a[from:p] {
		fmt.Fprintln(env.Stdout, " "+l)
	}
	for _, l := range a[p : len(a)-s] {
		fmt.Fprintln(env.Stdout, "-"+l)
	}
	for _, l := range b[p : len(b)-s] {
		fmt.Fprintln(env.Stdout, "+"+l)
	}
	for _, l := range a[len(a)-s : len(a)-s+to] {
		fmt.Fprintln(env.Stdout, " "+l)
	}
}

func diffLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// setupPi installs the Pi package with pi install when pi is on the PATH,
// after asking as for a file; without pi it prints the command to run.
// Pi's settings file, which pi install changes, is kept as any other
// client's file is: its first original as the backup, or a mark that pi
// install created it. --undo runs pi remove, so that Pi deletes the
// package's files, and then puts the settings file back byte for byte.
func setupPi(env *Env, yes, dryRun, undo bool) int {
	verb := "install"
	if undo {
		verb = "remove"
	}
	line := "pi " + verb + " " + piPackage
	pi, err := exec.LookPath("pi")
	if err != nil {
		fmt.Fprintf(env.Stdout, "askuser is registered in Pi by its package; pi is not on the PATH, so run:\n  %s\n", line)
		return 0
	}
	settings, err := piSettings(env)
	if err != nil {
		fmt.Fprintln(env.Stderr, "askuser setup:", err)
		return ExitError
	}
	fmt.Fprintf(env.Stdout, "askuser setup pi: runs %s, which changes %s\n", line, settings)
	if dryRun {
		fmt.Fprintln(env.Stdout, "(dry run: nothing run)")
		return 0
	}
	if code, ok := confirm(env, yes, "Run "+line+"?"); !ok {
		return code
	}
	old, errOld := os.ReadFile(settings)
	if errOld != nil && !errors.Is(errOld, fs.ErrNotExist) {
		fmt.Fprintln(env.Stderr, "askuser setup:", errOld)
		return ExitError
	}
	made := missingDirs(filepath.Dir(settings))
	c := exec.Command(pi, verb, piPackage)
	c.Stdout, c.Stderr = env.Stdout, env.Stderr
	if err := c.Run(); err != nil {
		fmt.Fprintf(env.Stderr, "askuser setup: %s: %v\n", line, err)
		return ExitError
	}
	if undo {
		return setupUndo(env, []string{settings}, true, false)
	}
	if _, err := os.Stat(settings); errors.Is(err, fs.ErrNotExist) {
		return 0 // pi install left no settings file to keep
	}
	if err := keepOriginal(settings, old, errOld == nil, made); err != nil {
		fmt.Fprintln(env.Stderr, "askuser setup:", err)
		return ExitError
	}
	return 0
}

// piSettings is the path of Pi's settings file: settings.json in
// PI_CODING_AGENT_DIR, else in ~/.pi/agent.
func piSettings(env *Env) (string, error) {
	getenv, home, err := setupEnv(env)
	if err != nil {
		return "", err
	}
	if dir := getenv("PI_CODING_AGENT_DIR"); dir != "" {
		return filepath.Join(dir, "settings.json"), nil
	}
	return filepath.Join(home, ".pi", "agent", "settings.json"), nil
}

// setupEnv is the environment setup reads the clients' paths from (none
// when env has no Getenv) and the user's home: HOME, else the system's.
func setupEnv(env *Env) (getenv func(string) string, home string, err error) {
	getenv = env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if home = getenv("HOME"); home == "" {
		home, err = os.UserHomeDir()
	}
	return getenv, home, err
}
