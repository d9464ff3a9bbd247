package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/askuser/askuser/internal/program"
	"github.com/askuser/askuser/internal/strictjson"
	"github.com/askuser/askuser/mcpserver"
)

const mcpUsage = `usage: askuser mcp [flags]

Serve the ask_user tool, or with --tool AskUserQuestion the
AskUserQuestion tool alone, over the Model Context Protocol on standard input
and standard output, for an MCP client such as a coding agent. The client
starts this command; it runs until the client closes standard input or
stops reading standard output, and then exits with status 0.

The questions are shown as the client's own form when it supports
elicitation, or in a tmux popup when the server runs inside tmux. The flags
are the same preferences as for askuser ask, and take precedence over the
config file, which is read once, at start. Here --mode native is the
client's form and --mode custom the popup. When the user's hub runs (see
askuser hub), each questionnaire is also published there, and the first
answer wins; a client that can show no form, outside tmux, then waits for
the hub's answer.

With --approve-tool the server also lists the tool approve, for Claude
Code's permission prompts rather than the model: run Claude Code as
claude -p --permission-prompt-tool mcp__askuser__approve, and each tool
call that needs the person's permission is asked in the tmux popup and on
the hub. Anything but the person's allow, a timeout or no popup and no hub
among them, denies the call and tells Claude Code why.

flags:
`

func runMCP(ctx context.Context, env *Env, args []string) int {
	var f askFlags
	var tool toolFlag
	var approve bool
	fs := newFlagSet("mcp", env, mcpUsage, func(fs *flag.FlagSet) {
		tool.register(fs)
		f.registerMCP(fs)
		fs.BoolVar(&approve, "approve-tool", false, "also list the tool approve, for Claude Code's --permission-prompt-tool")
	})
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(env, "mcp", "takes no arguments")
	}
	opts, err := f.hostOptions()
	if err != nil {
		return usageError(env, "mcp", err.Error())
	}
	so := &mcpserver.Options{Host: *opts, Version: program.Get().Version, Tool: tool.name,
		NotifyReport: func(err error) { fmt.Fprintf(env.Stderr, "askuser mcp: %v\n", err) },
		Hub:          mcpHub(env, hubPreference(f.hub, opts)), Approve: approve}
	so.Custom = popupCapabilities(env, tool.questions(), approve)
	srv, err := mcpserver.New(so)
	if err != nil {
		fmt.Fprintf(env.Stderr, "askuser mcp: %v\n", err)
		return ExitError
	}
	// A client that dies or closes its end of standard output makes a
	// write to it fail. By default Go's runtime then kills the process
	// with SIGPIPE, leaving any popup's socket directory behind; with
	// SIGPIPE caught, the write returns EPIPE and the server ends as
	// when standard input ends. A caught signal, unlike an ignored one,
	// is reset for the processes the server starts.
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	defer signal.Stop(pipe)
	// The SDK encodes the messages: the escaper keeps the model's text in
	// them as escapes, as in every JSON text askuser writes.
	if err := srv.ServeStdio(ctx, orEOF(env.Stdin), strictjson.NewEscaper(env.Stdout)); err != nil && ctx.Err() == nil {
		fmt.Fprintf(env.Stderr, "askuser mcp: %v\n", err)
		return ExitError
	}
	return 0
}

func orEOF(r io.Reader) io.Reader {
	if r == nil {
		return eofReader{}
	}
	return r
}
