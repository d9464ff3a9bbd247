package native

import (
	"fmt"
	"strings"

	"github.com/askuser/askuser/contract"
)

// title is the text of one dialog's title, built in parts: what is being
// asked, the numbered options, the default and a short hint. A rejected
// reply adds the reason as its first line.
type title struct {
	head []string
	opts []string
	def  string
	tip  string
}

func (f *flow) questionTitle(i int) *title {
	q := &f.req.Questions[i]
	t := &title{}
	if f.req.Header != "" {
		t.head = append(t.head, f.req.Header)
	}
	if n := len(f.req.Questions); n > 1 {
		t.head = append(t.head, fmt.Sprintf("Question %d of %d: %s", i+1, n, q.Title))
	} else {
		t.head = append(t.head, q.Title)
	}
	if q.Prompt != "" {
		t.head = append(t.head, q.Prompt)
	}
	return t
}

// field returns the title of field j of n of the form t asks.
func (t *title) field(j, n int, fld *contract.Field) *title {
	need := "optional"
	if fld.Required {
		need = "required"
	}
	head := append(t.head[:len(t.head):len(t.head)], fmt.Sprintf("Field %d of %d: %s (%s)", j+1, n, fld.Label, need))
	return &title{head: head}
}

func (t *title) options(opts []contract.Option) {
	t.opts = t.opts[:0]
	for i, o := range opts {
		line := fmt.Sprintf("  %d. %s", i+1, o.Label)
		if o.Description != "" {
			line += " — " + o.Description
		}
		t.opts = append(t.opts, line)
	}
}

func (t *title) defaultLine(s string) { t.def = s }

func (t *title) hint(s string) { t.tip = s }

// render joins the title's lines, with why, when set, first.
func (t *title) render(why string) string {
	var b strings.Builder
	if why != "" {
		b.WriteString("Not accepted: ")
		b.WriteString(why)
		b.WriteString(".\n")
	}
	for _, part := range [][]string{t.head, t.opts, {t.def, t.tip}} {
		for _, l := range part {
			if l == "" {
				continue
			}
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
