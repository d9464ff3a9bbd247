package ask_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
)

// A host combines its programmatic options with the user's config file
// once, when it is created: an option that is set wins over the file,
// which wins over the built-in default.
func ExampleHost_Preferences() {
	dir, err := os.MkdirTemp("", "askuser-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "config.json")
	if err := os.WriteFile(file, []byte(`{"displayMode": "inline", "notify": {"desktop": "osc9"}}`), 0o600); err != nil {
		fmt.Println(err)
		return
	}

	toggle := "ctrl+o"
	host := ask.NewHost(ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, firstOption), &ask.HostOptions{
		Options: ask.Prefs{
			Mode:      contract.RouteCustom,
			ToggleKey: &toggle,
			Notify:    ask.Notify{Desktop: ask.DesktopOff},
		},
		ConfigFile: file,
	})
	prefs := host.Preferences()
	fmt.Printf("mode=%s toggle=%s desktop=%s\n", prefs.Mode, prefs.ToggleKey, prefs.Notify.Desktop)

	// The user's display mode beats the request's; the request's timeout
	// applies because the user set none.
	timeout := int64(5000)
	display, ms := prefs.ForRequest(&contract.Request{DisplayMode: contract.DisplayOverlay, TimeoutPerQuestionMs: &timeout})
	fmt.Println(display, ms)
	// Output:
	// mode=custom toggle=ctrl+o desktop=off
	// inline 5000
}
