package dialog

// renderMarkdown renders safe Markdown source to lines of at most w cells.
// It is the one place the dialog calls the preview renderer; previewLines
// caches its result per option and width, so a frame never parses.
func renderMarkdown(src string, w int, th Theme) []string {
	return markdownLines(src, w, th.previewStyles())
}
