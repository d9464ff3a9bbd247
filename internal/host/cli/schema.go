package cli

import (
	"context"
	"fmt"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/strictjson"
)

const schemaUsage = `usage: askuser schema

Print the JSON Schema (draft 2020-12) of an ask_user questionnaire.
`

func runSchema(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet("schema", env, schemaUsage, nil)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(env, "schema", "takes no arguments")
	}
	s := contract.Schema()
	if len(s) > 0 && s[len(s)-1] != '\n' {
		s = append(s, '\n')
	}
	if _, err := env.Stdout.Write(strictjson.Escape(s)); err != nil {
		fmt.Fprintf(env.Stderr, "askuser schema: %v\n", err)
		return ExitError
	}
	return 0
}
