package contract_test

import (
	"fmt"

	"github.com/askuser/askuser/contract"
)

func ExampleParse() {
	req, warnings, err := contract.Parse([]byte(`{"questions": [
  {"title": "Deploy where?", "kind": "single", "options": [{"label": "staging"}, {"label": "prod", "description": "the live site"}]},
  {"title": "Release notes", "kind": "input"}
]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, q := range req.Questions {
		fmt.Println(q.ID, q.Kind, q.Title, len(q.Options))
	}
	fmt.Println(len(warnings), "warnings")
	// Output:
	// q1 single Deploy where? 2
	// q2 input Release notes 0
	// 0 warnings
}

// A bad request is refused with every problem at once, each at its JSON
// path, in words a model can act on.
func ExampleParse_problems() {
	_, _, err := contract.Parse([]byte(`{"questions": [
  {"title": "", "kind": "single", "options": []},
  {"title": "How many?", "kind": "number"}
]}`))
	for _, p := range contract.Problems(err) {
		fmt.Println(p)
	}
	// Output:
	// questions[0].title: is required: give the question a short heading
	// questions[0].options: must hold at least 1 option (at most 5), such as [{"label":"Yes"}]
	// questions[1].kind: must be single, multi, input, bool or simple-form, got "number"
}
