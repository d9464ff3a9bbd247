// Package cli is the askuser command line: it parses arguments, wires the
// engine to the terminal, Pi or MCP hosts, and maps outcomes to exit codes.
package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/askuser/askuser/internal/strictjson"
)

// Exit codes of askuser.
const (
	ExitAnswered = 0
	ExitAborted  = 1
	ExitUsage    = 2 // bad arguments, or an invalid_request
	ExitError    = 3 // any other error
	ExitTimeout  = 124
)

// Env is what a command gets from its process.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Getenv reads the environment; nil means no variables.
	Getenv func(string) string
}

type command struct {
	summary string
	run     func(ctx context.Context, env *Env, args []string) int
}

// hidden are the commands askuser starts itself; the usage leaves them out.
var hidden = map[string]bool{"popup": true}

// commands is the table of subcommands. Each lives in its own file.
var commands = map[string]command{
	"ask":      {"ask a questionnaire and print the result as JSON", runAsk},
	"demo":     {"ask a built-in example questionnaire", runDemo},
	"validate": {"check a questionnaire and print it normalized", runValidate},
	"schema":   {"print the JSON Schema of a questionnaire", runSchema},
	"version":  {"print the version", runVersion},
	"bridge":   {"serve the Pi package over JSON lines on stdin and stdout", runBridge},
	"mcp":      {"serve ask_user over MCP on stdin and stdout", runMCP},
	"popup":    {"show a dialog for a waiting askuser mcp (started by it)", runPopup},
	"hub":      {"run the user's hub, or say whether one runs (hub status)", runHub},
	"pending":  {"list the questions that wait on the hub", runPending},
	"answer":   {"answer a question waiting on the hub: KEY=VALUE, or a JSON file", runAnswer},
	"inbox":    {"answer the questions waiting on the hub in a terminal view", runInbox},
	"setup":    {"register askuser's MCP server in a client's configuration", runSetup},
	"hook":     {"answer a client's hook event: its own questions and permission prompts", runHook},
}

// Run runs askuser with args (without the program name) and returns the
// process exit code.
func Run(ctx context.Context, args []string, env *Env) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(env.Stderr)
		if len(args) == 0 {
			return ExitUsage
		}
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "askuser: unknown command %q (run 'askuser help')\n", args[0])
		return ExitUsage
	}
	return cmd.run(ctx, env, args[1:])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: askuser <command> [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		if !hidden[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
}

// newFlagSet returns a flag set for a subcommand whose usage text is
// intro followed by the flags, written to stderr.
func newFlagSet(name string, env *Env, intro string, register func(*flag.FlagSet)) *flag.FlagSet {
	fs := flag.NewFlagSet("askuser "+name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	if register != nil {
		register(fs)
	}
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, intro)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args; when it reports false the command returns code:
// 0 after -h, ExitUsage after a bad flag (the flag package has said why).
func parseFlags(fs *flag.FlagSet, args []string) (int, bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return 0, true
	case errors.Is(err, flag.ErrHelp):
		return 0, false
	default:
		return ExitUsage, false
	}
}

// usageError reports a bad invocation and returns ExitUsage.
func usageError(env *Env, name, msg string) int {
	fmt.Fprintf(env.Stderr, "askuser %s: %s (run 'askuser %s -h')\n", name, msg, name)
	return ExitUsage
}

// writeJSONIndented writes v as indented JSON and a newline, escaped as
// strictjson.Escape escapes every JSON text askuser writes.
func writeJSONIndented(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(strictjson.Escape(buf.Bytes()))
	return err
}

// isTerminal reports whether r is a character device, such as a terminal
// (or /dev/null), rather than a file or a pipe.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
