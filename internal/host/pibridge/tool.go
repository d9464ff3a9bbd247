package pibridge

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
)

// ToolName is the name of the registered tool.
const ToolName = "ask_user"

// ToolSpec returns what the Pi package registers ask_user with, as indented
// JSON: name, label, description, prompt snippet, guidelines and the
// parameter schema. The package commits a copy (pi/src/tool.json), which
// a test keeps equal to this, because Pi needs the tool before any child
// runs.
func ToolSpec() ([]byte, error) {
	return toolSpec(ToolName, "Ask user", contract.Description(), contract.Guidelines(), contract.ShimTexts(), contract.Schema())
}

// QuestionToolSpec is ToolSpec for AskUserQuestion, which the package
// registers instead of ask_user when the user chooses it. Its copy is
// pi/src/auq-tool.json.
func QuestionToolSpec() ([]byte, error) {
	return toolSpec(auq.ToolName, "Ask user question", auq.Description(), auq.Guidelines(), auq.ShimTexts(), auq.Schema())
}

func toolSpec(name, label, desc string, guidelines []string, texts map[string]string, schema []byte) ([]byte, error) {
	snippet, _, _ := strings.Cut(desc, ". ")
	spec := struct {
		Name             string            `json:"name"`
		Label            string            `json:"label"`
		Description      string            `json:"description"`
		PromptSnippet    string            `json:"promptSnippet"`
		PromptGuidelines []string          `json:"promptGuidelines"`
		Parameters       json.RawMessage   `json:"parameters"`
		Texts            map[string]string `json:"texts"`
	}{name, label, desc, strings.TrimSuffix(snippet, ".") + ".", guidelines, schema, texts}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(spec); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
