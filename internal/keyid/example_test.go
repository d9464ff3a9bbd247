package keyid_test

import (
	"fmt"

	"github.com/askuser/askuser/internal/keyid"
)

func ExampleParse() {
	for _, s := range []string{"Alt+O", "shift+ctrl+pageUp", "escape", "ctrl++"} {
		k, _ := keyid.Parse(s)
		fmt.Println(k)
	}
	_, err := keyid.Parse("alt+banana")
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
		k, err := keyid.CheckToggle(s)
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
