package dialog_test

import (
	"encoding/json"
	"fmt"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/internal/dialog"
)

// A host keeps one Questions per call: it gives the size, sends each key,
// draws the frame and acts on the effect.
func ExampleNewQuestions() {
	req, err := auq.Parse([]byte(`{"questions":[{"id":"db","question":"Which database?","header":"Database",` +
		`"options":[{"id":"pg","label":"Postgres","description":"Relational"},` +
		`{"id":"lite","label":"SQLite","description":"Embedded","recommended":true}]}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	m := dialog.NewQuestions(req, &dialog.Options{Theme: dialog.PlainTheme()})
	m.SetSize(60, 16)
	fmt.Println(len(m.View(60, 16).Lines) <= 16)
	// The host reports dialog.MilestoneDialogOpened once it has drawn
	// that frame.
	for _, k := range []dialog.Key{{Text: "n"}, {Text: "no server"}, {Name: "enter"}, {Name: "enter"}} {
		e := m.Update(k)
		switch e.Kind {
		case dialog.EffectSubmit:
			out, _ := json.Marshal(e.Answer)
			fmt.Println(e.Milestones)
			fmt.Println(string(out))
		case dialog.EffectDismiss:
			fmt.Println("cancelled")
		}
	}
	// Output:
	// true
	// [question_answered submitted]
	// {"cancelled":false,"answers":{"db":{"kind":"single","optionId":"lite","label":"SQLite"}},"annotations":{"db":{"optionNotes":{"lite":"no server"}}}}
}
