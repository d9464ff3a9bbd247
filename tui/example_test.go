package tui_test

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/tui"
)

// A Renderer reads keys and draws on whatever it is given. Here the keys
// come from a pipe, written before the dialog opens as a terminal would
// send them: Down, then Enter. On a real terminal both ends are the
// controlling terminal, an *os.File.
func Example() {
	in, keys, err := os.Pipe()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer in.Close()
	defer keys.Close()
	if _, err := keys.WriteString("\x1b[B\r"); err != nil {
		fmt.Println(err)
		return
	}

	plain := tui.PlainTheme()
	r := tui.New(in, io.Discard, &tui.Options{Theme: &plain, Width: 80, Height: 24, Environ: []string{"TERM=xterm-256color"}})
	defer r.Close()
	asker := ask.NewAsker(ask.NewHost(ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, r), nil), nil)
	res := ask.AskJSON(context.Background(), asker, ask.AskUser, []byte(`{"questions": [
  {"title": "Deploy where?", "kind": "single", "options": [{"label": "staging"}, {"label": "prod"}]}
]}`), nil)
	if len(res.Answers) == 0 {
		fmt.Println(res.Status, res.Route)
		return
	}
	fmt.Println(res.Status, res.Route, res.Answers[0].Selections)
	// Output: answered custom [prod]
}
