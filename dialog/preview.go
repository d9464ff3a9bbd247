package dialog

import (
	"strings"

	"github.com/askuser/askuser/theme"
)

// renderMarkdown renders safe Markdown source to lines of at most w cells.
// It is the one place the dialog calls the preview renderer.
func renderMarkdown(src string, w int, th theme.Theme) []string {
	var out []string
	for _, l := range wrap(strings.TrimRight(src, "\n"), w) {
		out = append(out, strings.TrimRight(l, " "))
	}
	return out
}
