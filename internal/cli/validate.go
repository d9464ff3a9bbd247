package cli

import (
	"context"
	"fmt"

	"github.com/askuser/askuser/contract"
)

const validateUsage = `usage: askuser validate [FILE|-]

Check the questionnaire in FILE (or on standard input) against the ask_user
contract without asking it. Prints {"valid":true,"request":...,"warnings":[...]}
with the normalized request and exits 0, or prints {"valid":false,"error":...}
listing every problem with its JSON path and exits 1.
`

type validReport struct {
	Valid    bool              `json:"valid"`
	Request  *contract.Request `json:"request"`
	Warnings []string          `json:"warnings"`
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
	fs := newFlagSet("validate", env, validateUsage, nil)
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
	req, warnings, err := contract.Parse(data)
	if err != nil {
		problems := contract.Problems(err)
		if problems == nil {
			problems = []contract.Problem{{Message: err.Error()}}
		}
		rep := invalidReport{Error: invalidDetail{
			Code:     contract.ErrInvalidRequest,
			Message:  fmt.Sprintf("the questionnaire has %s: %v", count(len(problems), "problem"), err),
			Problems: problems,
		}}
		if err := writeJSONIndented(env.Stdout, rep); err != nil {
			fmt.Fprintf(env.Stderr, "askuser validate: writing the report: %v\n", err)
			return ExitError
		}
		fmt.Fprintf(env.Stderr, "askuser validate: the questionnaire has %s:\n", count(len(problems), "problem"))
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
