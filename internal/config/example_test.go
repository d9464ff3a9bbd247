package config_test

import (
	"errors"
	"fmt"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/prefs"
)

func ExampleParse() {
	p, err := config.Parse("ask-user.json", []byte(`{
  "displayMode": "inline",
  "overlayToggleKey": "Ctrl+Shift+H",
  "timeoutPerQuestionMs": 0
}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.DisplayMode, *p.ToggleKey, *p.TimeoutPerQuestionMs)
	// Output: inline ctrl+shift+h 0
}

func ExampleParse_invalid() {
	_, err := config.Parse("ask-user.json", []byte(`{
  "mode": "tui",
  "overlayToggleKey": "escape"
}`))
	var e *config.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code())
		for _, p := range e.Problems {
			fmt.Printf("%s: %s\n", p.Path, p.Message)
		}
	}
	// Output:
	// invalid_config
	// mode: must be "custom" or "native", got "tui" (line 2, column 11)
	// overlayToggleKey: "escape" is reserved: esc must keep cancelling the questionnaire (line 3, column 23)
}

func ExampleResolve() {
	file, _ := config.Parse("ask-user.json", []byte(`{"displayMode": "inline", "overlayToggleKey": "off"}`))
	options, _ := config.ParseOptions([]byte(`{"mode": "custom", "overlayToggleKey": "ctrl+o"}`))
	eff := config.Resolve(options, file)
	fmt.Printf("mode=%s toggle=%s\n", eff.Mode, eff.ToggleKey)

	// The user's display mode beats the request's; the request's timeout
	// applies because the user set none.
	timeout := int64(5000)
	display, ms := config.ForRequest(eff, &contract.Request{DisplayMode: contract.DisplayOverlay, TimeoutPerQuestionMs: &timeout})
	fmt.Println(display, ms)

	// Nothing configured anywhere: the built-in defaults.
	display, ms = config.ForRequest(config.Resolve(prefs.Prefs{}, prefs.Prefs{}), &contract.Request{})
	fmt.Println(display, ms)
	// Output:
	// mode=custom toggle=ctrl+o
	// inline 5000
	// overlay 60000
}

func ExampleParseKey() {
	for _, s := range []string{"Alt+O", "shift+ctrl+pageUp", "escape", "ctrl++"} {
		k, _ := config.ParseKey(s)
		fmt.Println(k)
	}
	_, err := config.ParseKey("alt+banana")
	fmt.Println(err != nil)
	// Output:
	// alt+o
	// ctrl+shift+pgup
	// esc
	// ctrl++
	// true
}

func ExampleCheckToggle() {
	for _, s := range []string{"ctrl+shift+h", "escape", "o", "ctrl+c"} {
		k, err := config.CheckToggle(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println("ok:", k)
	}
	// Output:
	// ok: ctrl+shift+h
	// "escape" is reserved: esc must keep cancelling the questionnaire
	// "o" types text: it would swallow typing in the questionnaire's inputs; add ctrl or alt, as in "alt+o"
	// "ctrl+c" conflicts with an existing binding: ctrl+c interrupts the program in terminals and in Pi
}
