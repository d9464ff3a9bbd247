package cli

import (
	"context"
	"fmt"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/strictjson"
)

// askQuestionsOnTerminal asks the AskUserQuestion request in data on the
// controlling terminal and prints its result: askOnTerminal's
// counterpart for the second contract.
func askQuestionsOnTerminal(ctx context.Context, env *Env, opts *ask.HostOptions, hubPref hubPref, data []byte) int {
	caps, closeTTY := terminalCapabilities(true)
	caps, closeHub := joinHub(ctx, env, "ask", hubPref, caps)
	defer closeHub()
	host := ask.NewHost(caps, opts)
	askOpts, finish := terminalNotify(env, "ask", host)
	out := ask.AskJSON(ctx, ask.NewAsker(host, askOpts), ask.AskUserQuestion, data, nil)
	// As for ask_user: the terminal goes back before the result is
	// printed, and the notify command is waited for after it.
	closeTTY()
	code := questionsExit(env, "ask", out)
	endResult(env)
	finish(ctx)
	return code
}

// questionsExit prints a settled call's result and maps its outcome to
// the exit status of askuser ask. An error has no result: it is said on
// stderr.
func questionsExit(env *Env, name string, out auq.Outcome) int {
	if out.Status == auq.StatusError {
		code, msg := string(contract.ErrInternal), "the request could not be asked"
		if out.Error != nil {
			code, msg = out.Error.Code, out.Error.Message
		}
		fmt.Fprintf(env.Stderr, "askuser %s: %s: %s\n", name, code, msg)
		if code == string(contract.ErrInvalidRequest) {
			return ExitUsage
		}
		return ExitError
	}
	if err := strictjson.WriteLine(env.Stdout, out.Result); err != nil {
		fmt.Fprintf(env.Stderr, "askuser %s: writing the result: %v\n", name, err)
		return ExitError
	}
	switch out.Status {
	case auq.StatusSubmitted:
		return ExitAnswered
	case auq.StatusTimeout:
		return ExitTimeout
	}
	return ExitAborted
}
