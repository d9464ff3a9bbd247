package dialog_test

import (
	"encoding/json"
	"fmt"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/dialog"
)

// A host keeps one Model per ask_user call: it gives the size, sends each
// key, prints the frame and acts on the effect.
func ExampleNew() {
	req, _, err := contract.Parse([]byte(`{"questions":[{"title":"Which database?",` +
		`"options":[{"label":"Postgres"},{"label":"SQLite","description":"Embedded"}]}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	m := dialog.New(req, &dialog.Options{Theme: dialog.PlainTheme()})
	m.SetSize(40, 12)
	for _, l := range m.View(40, 12).Lines {
		fmt.Println(l)
	}
	for _, k := range []dialog.Key{{Name: "down"}, {Name: "enter"}} {
		e := m.Update(k)
		switch e.Kind {
		case dialog.EffectSubmit:
			out, _ := json.Marshal(e.Answer)
			fmt.Println(string(out))
		case dialog.EffectDismiss:
			fmt.Println("aborted")
		}
	}
	// Output:
	// Question                    No timeout
	// ────────────────────────────────────────
	//  Which database?
	//
	//  ▸ ( ) Postgres
	//    ( ) SQLite
	//        Embedded
	//
	//    ✎ type another answer or a note
	//  ↑↓ navigate · space select
	//  enter confirm · esc dismiss
	// [{"index":0,"id":"q1","title":"Which database?","kind":"single","selections":["SQLite"],"usedDefault":false}]
}
