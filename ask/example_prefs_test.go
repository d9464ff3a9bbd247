package ask_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/prefs"
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
		Options: prefs.Prefs{
			Mode:      contract.RouteCustom,
			ToggleKey: &toggle,
			Notify:    prefs.Notify{Desktop: prefs.DesktopOff},
		},
		ConfigFile: file,
	})
	eff := host.Preferences()
	fmt.Printf("mode=%s toggle=%s desktop=%s\n", eff.Mode, eff.ToggleKey, eff.Notify.Desktop)

	// The file's display mode applies, and beats any request's; no
	// source set a timeout, so each request's own applies.
	fmt.Println(eff.DisplayMode, eff.TimeoutSet)
	// Output:
	// mode=custom toggle=ctrl+o desktop=off
	// inline false
}
