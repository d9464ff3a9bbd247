package cli

import (
	"flag"
	"fmt"

	"github.com/askuser/askuser/auq"
)

// The tools askuser serves, by the name the model calls them by. The two
// contracts never mix: a command serves the one --tool names.
const (
	toolAskUser   = "ask_user"
	toolQuestions = auq.ToolName
)

// toolFlag is the --tool flag of validate, ask and mcp. It is checked as
// it is parsed, so a command never sees a tool name it does not know.
type toolFlag struct{ name string }

// register adds --tool to fs, ask_user unless given.
func (t *toolFlag) register(fs *flag.FlagSet) {
	t.name = toolAskUser
	fs.Var(t, "tool", "the tool whose contract to serve: "+toolAskUser+" or "+toolQuestions)
}

// String is the tool's name.
func (t *toolFlag) String() string {
	if t == nil {
		return ""
	}
	return t.name
}

// Set takes the name given on the command line, or says which names
// there are.
func (t *toolFlag) Set(s string) error {
	if s != toolAskUser && s != toolQuestions {
		return fmt.Errorf("unknown tool %q: want %s or %s", s, toolAskUser, toolQuestions)
	}
	t.name = s
	return nil
}

// questions reports whether the tool is AskUserQuestion.
func (t *toolFlag) questions() bool { return t.name == toolQuestions }
