package cli

import (
	"context"
	"fmt"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
)

const validateUsage = `usage: askuser validate [--tool ask_user|AskUserQuestion] [FILE|-]

Check the request in FILE (or on standard input) against the contract of
the tool --tool names (ask_user unless given) without asking it. Prints
{"valid":true,"request":...,"warnings":[...]} with the request, normalized
for ask_user, and exits 0, or prints {"valid":false,"error":...} listing
every problem with its JSON path and exits 1.
`

type validReport struct {
	Valid    bool     `json:"valid"`
	Request  any      `json:"request"`
	Warnings []string `json:"warnings"`
}

type invalidReport struct {
	Valid bool          `json:"valid"`
	Error invalidDetail `json:"error"`
}

type invalidDetail struct {
	Code     contract.ErrorCode `json:"code"`
	Message  string             `json:"message"`
	Problems []contract.Problem `json:"problems"`
}

func runValidate(ctx context.Context, env *Env, args []string) int {
	var tool toolFlag
	fs := newFlagSet("validate", env, validateUsage, tool.register)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 1 {
		return usageError(env, "validate", "give at most one questionnaire FILE")
	}
	data, code, ok := readQuestionnaire(env, "validate", fs.Arg(0))
	if !ok {
		return code
	}
	var (
		req      any
		warnings []string
		problems []contract.Problem
		err      error
	)
	what := "questionnaire"
	if tool.questions() {
		what = "request"
		var r *auq.Request
		r, err = auq.Parse(data)
		req, problems = r, auq.Problems(err)
	} else {
		var r *contract.Request
		r, warnings, err = contract.Parse(data)
		req, problems = r, contract.Problems(err)
	}
	if err != nil {
		if problems == nil {
			problems = []contract.Problem{{Message: err.Error()}}
		}
		rep := invalidReport{Error: invalidDetail{
			Code:     contract.ErrInvalidRequest,
			Message:  fmt.Sprintf("the %s has %s: %v", what, count(len(problems), "problem"), err),
			Problems: problems,
		}}
		if err := writeJSONIndented(env.Stdout, rep); err != nil {
			fmt.Fprintf(env.Stderr, "askuser validate: writing the report: %v\n", err)
			return ExitError
		}
		fmt.Fprintf(env.Stderr, "askuser validate: the %s has %s:\n", what, count(len(problems), "problem"))
		for _, p := range problems {
			fmt.Fprintf(env.Stderr, "  %s\n", p)
		}
		return 1
	}
	if warnings == nil {
		warnings = []string{}
	}
	if err := writeJSONIndented(env.Stdout, validReport{Valid: true, Request: req, Warnings: warnings}); err != nil {
		fmt.Fprintf(env.Stderr, "askuser validate: writing the report: %v\n", err)
		return ExitError
	}
	return 0
}

// count says n things: "1 problem", "3 problems".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
