package cli

import (
	"context"
	_ "embed"
)

// demoQuestionnaire asks one question of each kind, and a form.
//
//go:embed demo.json
var demoQuestionnaire []byte

const demoUsage = `usage: askuser demo [flags]

Ask a built-in example questionnaire, one question of each kind and a form,
on the controlling terminal, exactly as askuser ask would, and print the
result as JSON. The flags are those of askuser ask.

flags:
`

func runDemo(ctx context.Context, env *Env, args []string) int {
	var f askFlags
	fs := newFlagSet("demo", env, demoUsage, f.register)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(env, "demo", "takes no questionnaire; use askuser ask FILE for your own")
	}
	opts, err := f.hostOptions()
	if err != nil {
		return usageError(env, "demo", err.Error())
	}
	return askOnTerminal(ctx, env, "demo", opts, hubPreference(f.hub, opts), demoQuestionnaire)
}
