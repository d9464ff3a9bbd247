package dialog

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/askuser/askuser/internal/safetext"
)

// layoutCache holds everything View needs that depends only on the width:
// wrapped titles, prompts and descriptions, truncated labels, and rendered
// previews. A frame then only composes rows.
type layoutCache struct {
	width       int
	rule        line
	previewRule line
	tabs        []*tabLayout
	previews    map[previewKey][]line
}

type previewKey struct {
	tab, opt, width int
}

// tabLayout is the width-dependent text of one tab.
type tabLayout struct {
	heading    []line
	prompt     []line
	labels     [][]line   // per field, per option
	descs      [][][]line // per field, per option, wrapped
	fieldLabel []line     // per field (forms)
	items      []line     // review tab: one per question
}

// maxPreviewWidths bounds the preview cache: previews are kept for this
// many widths before the cache starts over.
const maxPreviewWidths = 4

func (c *layoutCache) forWidth(w int) *layoutCache {
	if c.width == w && c.tabs != nil {
		return c
	}
	c.width = w
	c.tabs = nil
	c.rule = line{}
	c.previewRule = line{}
	if c.previews == nil || len(c.previews) > maxPreviewWidths*5*5 {
		c.previews = map[previewKey][]line{}
	}
	return c
}

// cacheAt returns a layout cache for width: the model's own when it is
// for that width, else a new one, which only its caller uses.
func (m *Model) cacheAt(width int) *layoutCache {
	if m.cache.width == width && m.cache.tabs != nil {
		return &m.cache
	}
	return new(layoutCache).forWidth(width)
}

// tab returns the layout of tab i, building it on first use, and keeping
// it when store is set: View draws with the model's cache but never
// writes to it.
func (c *layoutCache) tab(m *Model, i int, store bool) *tabLayout {
	if c.tabs == nil {
		c.tabs = make([]*tabLayout, len(m.tabs))
		c.rule = line{s: m.th.Border.Render(strings.Repeat("─", c.width)), w: c.width}
		c.previewRule = previewRule(c.width, m.th)
	}
	if tl := c.tabs[i]; tl != nil {
		return tl
	}
	tl := newTabLayout(m, m.tabs[i], c.width)
	if store {
		c.tabs[i] = tl
	}
	return tl
}

func newTabLayout(m *Model, t *tab, width int) *tabLayout {
	tl := &tabLayout{}
	bw, _, _ := splitWidth(width, t.preview, 1)
	th := m.th
	heading := t.title
	if t.index < 0 {
		heading = "Review your answers"
	}
	tl.heading = indented(heading, 1, width-1, th.Accent.Render)
	prompt := t.prompt
	if t.index < 0 {
		prompt = "Enter on a question opens it; Submit sends every answer."
	}
	for _, p := range strings.Split(prompt, "\n") {
		if p == "" && prompt == "" {
			continue
		}
		ls := indented(p, 1, width-1, th.Muted.Render)
		if len(ls) == 0 {
			ls = []line{{}}
		}
		tl.prompt = append(tl.prompt, ls...)
	}
	for _, f := range t.fields {
		var labels []line
		var descs [][]line
		for oi := range f.options {
			labels = append(labels, truncLine(f.labels[oi], bw-6))
			descs = append(descs, indented(f.descs[oi], 7, bw+1, th.Muted.Render))
		}
		tl.labels = append(tl.labels, labels)
		tl.descs = append(tl.descs, descs)
		var b builder
		b.pad(3)
		req := ""
		if f.required {
			req = " *"
		}
		l := truncLine(f.label, bw-2-len(req))
		b.add(l.s, l.w)
		b.styled(th.Muted, req, len(req))
		tl.fieldLabel = append(tl.fieldLabel, b.line())
	}
	if t.index < 0 {
		for i := range m.req.Questions {
			tl.items = append(tl.items, truncLine(m.tabs[i].title, bw-2))
		}
	}
	return tl
}

// previewLines returns the rendered preview of the option whose preview
// tab t shows, at w cells, rendering it once per option and width and
// keeping it in c when store is set.
func (m *Model) previewLines(c *layoutCache, t *tab, w int, store bool) []line {
	opt := t.lastOpt
	f := t.fields[0]
	if opt < 0 || opt >= len(f.options) || f.options[opt].Preview == "" {
		return []line{{s: m.th.Muted.Render(ansi.Truncate(previewNone, w, "")), w: min(len(previewNone), w)}}
	}
	key := previewKey{tab: m.cur, opt: opt, width: w}
	if ls, ok := c.previews[key]; ok {
		return ls
	}
	src := safetext.Text(f.options[opt].Preview)
	var ls []line
	for _, s := range renderMarkdown(src, w, m.th) {
		lw := ansi.StringWidth(s)
		if lw > w {
			s = ansi.Truncate(s, w, "")
			lw = ansi.StringWidth(s)
		}
		ls = append(ls, line{s: s, w: lw})
	}
	if store {
		c.previews[key] = ls
	}
	return ls
}

func ansiWidth(s string) int { return ansi.StringWidth(s) }
