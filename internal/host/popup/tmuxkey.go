package popup

import (
	"fmt"
	"strings"
)

// tmuxNames are tmux's names for the named keys of config.ParseKey.
var tmuxNames = map[string]string{
	"esc": "Escape", "enter": "Enter", "tab": "Tab", "space": "Space",
	"backspace": "BSpace", "delete": "DC", "insert": "IC", "home": "Home",
	"end": "End", "pgup": "PPage", "pgdown": "NPage", "up": "Up",
	"down": "Down", "left": "Left", "right": "Right",
}

// TmuxKey writes a chord in the canonical form of config.ParseKey ("alt+o") as tmux
// names the key in bind-key ("M-o"), or says why tmux has no name for it:
// tmux knows ctrl, alt (meta) and shift, and not the meta, hyper or
// super, nor clear.
func TmuxKey(key string) (string, error) {
	parts := strings.Split(key, "+")
	base := parts[len(parts)-1]
	mods := parts[:len(parts)-1]
	if base == "" && len(parts) >= 2 {
		// "ctrl++": the plus key.
		base, mods = "+", parts[:len(parts)-2]
	}
	if base == "" {
		return "", fmt.Errorf("the key %q has no base key", key)
	}
	var prefix string
	shift := false
	for _, m := range mods {
		switch m {
		case "ctrl":
			prefix += "C-"
		case "alt":
			prefix += "M-"
		case "shift":
			shift = true
		default:
			return "", fmt.Errorf("tmux cannot bind %s: it has no %s modifier", key, m)
		}
	}
	name, named := tmuxNames[base]
	switch {
	case named:
	case len(base) == 2 && base[0] == 'f' && base[1] >= '1' && base[1] <= '9',
		len(base) == 3 && base[0] == 'f' && base[1] == '1' && base[2] >= '0' && base[2] <= '2':
		name = "F" + base[1:]
	case len(base) == 1 && base[0] > ' ' && base[0] < 0x7f:
		name = base
		if shift && base[0] >= 'a' && base[0] <= 'z' && !strings.HasPrefix(prefix, "C-") {
			// tmux writes a shifted letter as the capital; with ctrl it
			// keeps the shift, as tmux 3.3 reads the kitty protocol's and
			// modifyOtherKeys' ctrl+shift+q: C-S-q.
			name, shift = strings.ToUpper(base), false
		}
	default:
		return "", fmt.Errorf("tmux has no name for the key %s", key)
	}
	if shift {
		prefix += "S-"
	}
	name = prefix + name
	if strings.HasSuffix(name, ";") {
		// A ";" ending an argument separates tmux commands.
		name = name[:len(name)-1] + `\;`
	}
	return name, nil
}
