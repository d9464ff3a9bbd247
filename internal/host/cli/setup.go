package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/charmbracelet/x/term"
)

// A setupClient is an MCP client that askuser setup registers askuser in:
// where its configuration file is and how the entry goes into it.
type setupClient struct {
	title string
	// file is the configuration file, from the home directory and the
	// environment.
	file func(home string, getenv func(string) string) string
	// edit returns the file's new text with askuser registered, given its
	// old text (nil when there is none) and the command that serves
	// askuser over MCP. present reports that nothing needs writing.
	edit func(file string, old []byte, cmd []string) (text []byte, present bool, err error)
}

// setupClients are the clients askuser setup knows, by the name given on
// the command line. "pi" is apart: its registration is a Pi package.
var setupClients = map[string]setupClient{
	"claude": {"Claude Code", claudeFile, jsonEdit(false, []string{"mcpServers"}, func(cmd []string) ordered {
		return ordered{{"type", "stdio"}, {"command", cmd[0]}, {"args", cmd[1:]}}
	}, nil)},
	"codex": {"Codex", codexFile, codexEdit},
	"gemini": {"Gemini CLI", homeFile(".gemini", "settings.json"), jsonEdit(true, []string{"mcpServers"}, func(cmd []string) ordered {
		return ordered{{"command", cmd[0]}, {"args", cmd[1:]}, {"trust", true}}
	}, nil)},
	"opencode": {"OpenCode", opencodeFile("opencode", "opencode"), jsonEdit(true, []string{"mcp"}, opencodeEntry, opencodeSchema)},
	"kilo":     {"Kilo CLI", opencodeFile("kilo", "kilo"), jsonEdit(true, []string{"mcp"}, opencodeEntry, nil)},
	"continue": {"Continue CLI", homeFile(".continue", "config.yaml"), continueEdit},
}

// piPackage is the Pi package that registers askuser in Pi.
const piPackage = "npm:@askuser/pi-ask-user"

func opencodeEntry(cmd []string) ordered {
	return ordered{{"type", "local"}, {"command", cmd}}
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

// jsonEdit registers askuser as the member "askuser" of the object at
// path, in JSON (comments: JSONC). A new file starts with first's members.
func jsonEdit(comments bool, path []string, entry func([]string) ordered, first ordered) func(string, []byte, []string) ([]byte, bool, error) {
	return func(file string, old []byte, cmd []string) ([]byte, bool, error) {
		if len(bytes.TrimSpace(old)) == 0 {
			old = []byte(first.render("", "  ") + "\n")
		}
		text, res, err := setJSONMember(file, old, comments, path, "askuser", entry(cmd))
		switch {
		case err != nil:
			return nil, false, err
		case res == jsonDiffers:
			return nil, false, fmt.Errorf("%s: %s.askuser is already there and differs from %s; change or remove it by hand", file, strings.Join(path, "."), entry(cmd).render("", ""))
		}
		return text, res == jsonPresent, nil
	}
}

var codexHeader = regexp.MustCompile(`(?m)^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*("askuser"|askuser)[ \t]*\][ \t]*(#.*)?$`)

// codexEdit appends the table [mcp_servers.askuser] to Codex's TOML.
func codexEdit(file string, old []byte, cmd []string) ([]byte, bool, error) {
	lines := []string{
		"command = " + quoteJSON(cmd[0]),
		"args = " + renderValue(cmd[1:], "", ""),
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
			indent + "  args: " + renderValue(cmd[1:], "", ""),
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

// mcpCommand is the command that serves askuser over MCP, as the client
// is to run it: npx's when asked, or when this binary came with the npm
// package (under node_modules, as in npx's cache); else this binary's
// absolute path.
func mcpCommand(npx bool) ([]string, error) {
	npxCmd := []string{"npx", "-y", "@askuser/askuser", "mcp"}
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
	return []string{self, "mcp"}, nil
}

const setupIntro = `usage: askuser setup [flags] CLIENT

Registers askuser's MCP server (askuser mcp) in CLIENT's configuration for
the user: claude (~/.claude.json), codex (~/.codex/config.toml), gemini
(~/.gemini/settings.json), opencode (~/.config/opencode/opencode.json),
kilo (~/.config/kilo/kilo.json), continue (~/.continue/config.yaml); pi
installs the Pi package ` + piPackage + ` with pi install.
It shows the change and asks before writing; a file it changes keeps its
first original as FILE.askuser-backup, which --undo puts back.

flags:
`

// runSetup is askuser setup.
func runSetup(_ context.Context, env *Env, args []string) int {
	var yes, dryRun, undo, npx bool
	fset := newFlagSet("setup", env, setupIntro, func(fs *flag.FlagSet) {
		fs.BoolVar(&yes, "yes", false, "write without asking")
		fs.BoolVar(&dryRun, "dry-run", false, "show the change and write nothing")
		fs.BoolVar(&undo, "undo", false, "put back the file as it was before askuser setup")
		fs.BoolVar(&npx, "npx", false, "register npx -y @askuser/askuser mcp, not this binary's path")
	})
	if code, ok := parseFlags(fset, args); !ok {
		return code
	}
	if fset.NArg() != 1 {
		return usageError(env, "setup", "name one client: "+strings.Join(setupClientNames(), ", "))
	}
	name := fset.Arg(0)
	if name == "pi" {
		return setupPi(env, yes, dryRun, undo)
	}
	client, ok := setupClients[name]
	if !ok {
		return usageError(env, "setup", fmt.Sprintf("unknown client %q; known: %s", name, strings.Join(setupClientNames(), ", ")))
	}
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	home := getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			fmt.Fprintln(env.Stderr, "askuser setup:", err)
			return ExitError
		}
		home = h
	}
	file := client.file(home, getenv)
	if real, err := filepath.EvalSymlinks(file); err == nil {
		file = real // a link, as dotfile managers make, stays a link
	}
	if undo {
		return setupUndo(env, file, yes, dryRun)
	}
	cmd, err := mcpCommand(npx)
	if err != nil {
		fmt.Fprintln(env.Stderr, "askuser setup:", err)
		return ExitError
	}
	old, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintln(env.Stderr, "askuser setup:", err)
		return ExitError
	}
	existed := err == nil
	text, present, err := client.edit(file, old, cmd)
	if err != nil {
		fmt.Fprintln(env.Stderr, "askuser setup:", err)
		return ExitError
	}
	if present {
		fmt.Fprintf(env.Stdout, "%s is already set up for askuser in %s; nothing written.\n", client.title, file)
		return 0
	}
	fmt.Fprintf(env.Stdout, "askuser setup %s: registers %q in %s\n", name, strings.Join(cmd, " "), file)
	writeDiff(env, file, old, text, existed)
	if dryRun {
		fmt.Fprintln(env.Stdout, "(dry run: nothing written)")
		return 0
	}
	if code, ok := confirm(env, yes, "Write "+file+"?"); !ok {
		return code
	}
	if err := writeWithBackup(file, old, text, existed); err != nil {
		fmt.Fprintln(env.Stderr, "askuser setup:", err)
		return ExitError
	}
	fmt.Fprintf(env.Stdout, "Wrote %s. askuser setup --undo %s puts it back.\n", file, name)
	return 0
}

// confirm asks question on the terminal, y/N, unless yes. Without a
// terminal and without yes it refuses. It reports false with the exit code
// when nothing is to be written.
func confirm(env *Env, yes bool, question string) (int, bool) {
	if yes {
		return 0, true
	}
	if f, ok := env.Stdin.(interface{ Fd() uintptr }); !ok || !term.IsTerminal(f.Fd()) {
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

// Suffixes of the files askuser setup keeps beside a file it changes: the
// original, or a mark that the file is askuser's own.
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
	_, errB := os.Stat(file + backupSuffix)
	_, errC := os.Stat(file + createdSuffix)
	if errors.Is(errB, fs.ErrNotExist) && errors.Is(errC, fs.ErrNotExist) {
		if existed {
			if err := os.WriteFile(file+backupSuffix, old, mode); err != nil {
				return err
			}
		} else {
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(file+createdSuffix, nil, 0o644); err != nil {
				return err
			}
		}
	}
	tmp := file + ".askuser-tmp"
	if err := os.WriteFile(tmp, text, mode); err != nil {
		return err
	}
	return os.Rename(tmp, file)
}

// setupUndo puts back the file askuser setup changed, or removes the one it
// created.
func setupUndo(env *Env, file string, yes, dryRun bool) int {
	cur, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintln(env.Stderr, "askuser setup:", err)
		return ExitError
	}
	exists := err == nil
	orig, errB := os.ReadFile(file + backupSuffix)
	_, errC := os.Stat(file + createdSuffix)
	switch {
	case errB == nil:
		fmt.Fprintf(env.Stdout, "askuser setup --undo: puts back %s from %s\n", file, file+backupSuffix)
		writeDiff(env, file, cur, orig, exists)
	case errC == nil:
		fmt.Fprintf(env.Stdout, "askuser setup --undo: removes %s, which askuser setup created\n", file)
	default:
		fmt.Fprintf(env.Stdout, "Nothing to undo: askuser setup has not changed %s.\n", file)
		return 0
	}
	if dryRun {
		fmt.Fprintln(env.Stdout, "(dry run: nothing written)")
		return 0
	}
	if code, ok := confirm(env, yes, "Undo the change to "+file+"?"); !ok {
		return code
	}
	if errB == nil {
		err = os.Rename(file+backupSuffix, file)
	} else {
		if err = os.Remove(file); errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
		if err == nil {
			err = os.Remove(file + createdSuffix)
		}
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, "askuser setup:", err)
		return ExitError
	}
	fmt.Fprintf(env.Stdout, "Restored %s.\n", file)
	return 0
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
	fmt.Fprintf(env.Stdout, "askuser setup pi: runs %s\n", line)
	if dryRun {
		fmt.Fprintln(env.Stdout, "(dry run: nothing run)")
		return 0
	}
	if code, ok := confirm(env, yes, "Run "+line+"?"); !ok {
		return code
	}
	c := exec.Command(pi, verb, piPackage)
	c.Stdout, c.Stderr = env.Stdout, env.Stderr
	if err := c.Run(); err != nil {
		fmt.Fprintf(env.Stderr, "askuser setup: %s: %v\n", line, err)
		return ExitError
	}
	return 0
}
