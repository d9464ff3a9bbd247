package auq_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/askuser/askuser/auq"
)

func ExampleParse() {
	req, err := auq.Parse([]byte(`{"questions":[{"id":"db","question":"Which database should I use?","header":"Database",
		"options":[{"id":"pg","label":"Postgres","description":"A server","recommended":true},{"id":"lite","label":"SQLite","description":"A file"}]}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	q := req.Questions[0]
	fmt.Println(q.ID, q.IsRequired(), q.Options[q.Recommended()].Label)
	// Output: db true Postgres
}

func ExampleParse_problems() {
	_, err := auq.Parse([]byte(`{"questions":[{"id":"db","question":"Which database","header":"Database",
		"options":[{"id":"pg","label":"Postgres","description":"A server"},{"id":"other","label":"Other","description":"Anything else"}]}]}`))
	for _, p := range auq.Problems(err) {
		fmt.Println(p)
	}
	// Output:
	// questions[0].question: must end with "?": phrase it as a question, such as "Which database should I use?"
	// questions[0].options[1].label: "Other" is not allowed: the tool adds an Other answer to every question by itself; remove this option
}

func ExampleCheckResult() {
	req, _ := auq.Parse([]byte(`{"questions":[{"id":"db","question":"Which database should I use?","header":"Database",
		"options":[{"id":"pg","label":"Postgres","description":"A server"},{"id":"lite","label":"SQLite","description":"A file"}]}],
		"metadata":{"flowId":"setup-1"}}`))
	res := auq.Result{
		Answers:  map[string]auq.Answer{"db": {Kind: auq.KindSingle, Choice: auq.Choice{Label: auq.OtherLabel, Other: true, Text: "MySQL"}}},
		Metadata: req.ResultMetadata(),
	}
	if err := auq.CheckResult(req, res); err != nil {
		fmt.Println(err)
		return
	}
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		fmt.Println(err)
	}

	res.Answers["db"] = auq.Answer{Kind: auq.KindSingle, Choice: auq.Choice{OptionID: "mysql", Label: "MySQL"}}
	fmt.Println(auq.CheckResult(req, res))
	// Output:
	// {"cancelled":false,"answers":{"db":{"kind":"single","label":"Other","other":true,"text":"MySQL"}},"metadata":{"flowId":"setup-1"}}
	// the result does not fit the request: answers.db.optionId: the question has no option "mysql"
}
