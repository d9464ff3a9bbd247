// Command askuser asks a human structured questions on behalf of an AI
// agent: from the shell, as a Pi package's engine, or as an MCP server.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/askuser/askuser/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
	stop()
	os.Exit(code)
}
