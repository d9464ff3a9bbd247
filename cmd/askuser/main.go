// Command askuser asks a human structured questions on behalf of an AI
// agent: from the shell, as a Pi package's engine, or as an MCP server.
//
// SIGINT and SIGTERM cancel the command's context: a dialog is closed and
// the terminal given back, pending calls are answered, and the command
// ends with its usual exit status. Work that does not stop within half a
// second of the signal, or a second signal, ends the process at once with
// status 128 plus the signal's number, as shells report it: 130 for
// SIGINT, 143 for SIGTERM.
package main

import (
	"context"
	"os"
	"time"

	"github.com/askuser/askuser/internal/host/cli"
	"github.com/askuser/askuser/internal/program"
)

// grace is how long a command may go on after the first signal has
// cancelled its context. Code that watches the context ends well within
// it; code that cannot (a read from a pipe that nobody writes) is cut off,
// so that askuser always ends within a second of the signal.
const grace = 500 * time.Millisecond

func main() {
	program.Main("askuser", "the work in progress", grace, func(ctx context.Context) int {
		return cli.Run(ctx, os.Args[1:], &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
	})
}
