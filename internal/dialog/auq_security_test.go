package dialog

import (
	"strings"
	"testing"

	"github.com/askuser/askuser/auq"
)

// evil holds the sequences a hostile model might try to get onto the
// user's terminal.
var qevil = []string{
	"\x1b[2J\x1b[H",                        // clear screen, cursor home
	"\x1b[10A\x1b[5C",                      // cursor movement
	"\x1b]52;c;cm0gLXJmIH4=\x07",           // OSC 52 clipboard write
	"\x1b]8;;https://evil.test\x1b\\click", // OSC 8 link
	"\x1b]0;title\x1b\\",                   // window title
	"\u009b31m\u009d0;x\u009c",             // C1 CSI, OSC, ST
	"\x00\x07\x08\x0b\x0c\x0e\x7f",         // C0 and DEL
	"\u202egnp.exe",                        // bidi override
	"日本\x1b[31m after wide",                // escape after non-ASCII text
	"# not markdown **bold** `code`",       // Markdown stays text
}

func qevilRequest(e string) *auq.Request {
	q := func(id string, multi bool) auq.Question {
		qq := auq.Question{ID: id, Question: "Q" + e + "?", Header: "H" + e, MultiSelect: multi,
			Options: []auq.Option{
				{ID: "a", Label: "L" + e, Description: "D" + e, Recommended: true},
				{ID: "b", Label: "M" + e, Description: "E" + e},
			}}
		if !multi {
			qq.Options[0].Preview = "P" + e + "\n" + e
		}
		return qq
	}
	return &auq.Request{Questions: []auq.Question{q("s", false), q("m", true)}}
}

// TestUntrustedText shows that no control sequence in model text, or in
// text the user pastes, reaches a frame: with the plain theme there is no
// escape byte at all, and with the default theme only the theme's own
// SGR sequences remain. Markdown in a preview is shown as it was written.
func TestQuestionsUntrustedText(t *testing.T) {
	def := DefaultTheme()
	var sgr []string
	for _, st := range []Style{def.Accent, def.Muted, def.Selection, def.Warning, def.Error, def.Border, def.Bold, def.Code} {
		sgr = append(sgr, st.Prefix, st.Suffix)
	}
	steps := []Key{{}, {Name: "down"}, {Name: "down"}, {Text: "n"}, {Text: "x" + evilPaste}, {Name: "enter"},
		{Text: "o"}, {Text: evilPaste}, {Name: "left"}, {Name: "esc"}, {Name: "up"}, {Name: "enter"}, {Text: "?"}, {Text: "q"},
		{Name: "tab"}, {Text: "N"}, {Text: evilPaste}}
	for _, e := range qevil {
		for _, th := range []struct {
			name string
			th   Theme
		}{{"plain", PlainTheme()}, {"default", def}} {
			t.Run(th.name+"/"+strings.ToValidUTF8(e[:min(len(e), 8)], "?"), func(t *testing.T) {
				m := NewQuestions(qevilRequest(e), &Options{Theme: th.th, Countdown: fixedClock{ok: true, left: 30e9}})
				m.SetSize(120, 40)
				for _, k := range steps {
					if k != (Key{}) {
						m.Update(k)
					}
					for _, sz := range [][2]int{{120, 40}, {80, 24}, {30, 10}} {
						for _, l := range m.View(sz[0], sz[1]).Lines {
							rest := l
							for _, s := range sgr {
								rest = strings.ReplaceAll(rest, s, "")
							}
							if strings.ContainsAny(rest, "\x1b\x07\x00\x08\x7f\u009b\u009d\u009c\u202e") {
								t.Fatalf("after %+v a raw control reached the frame: %q", k, l)
							}
						}
					}
				}
			})
		}
	}
}

// evilPaste is text a user might paste from a hostile page.
const evilPaste = "pasted\x1b[2J\x1b]52;c;eA==\x07\u202e\r\nline"

// TestPreviewIsPlain checks that a preview is shown as plain text:
// Markdown marks stay, and nothing is styled.
func TestPreviewIsPlain(t *testing.T) {
	req := one()
	req.Questions[0].Options[1].Preview = "# Title\n\n**bold** and `code`\n\n- item"
	for _, w := range []int{120, 80} {
		m := NewQuestions(req, plain(nil))
		s := qscreen(m.View(w, 30))
		for _, want := range []string{"# Title", "**bold** and `code`", "- item"} {
			if !strings.Contains(s, want) {
				t.Errorf("at width %d the preview lacks %q:\n%s", w, want, s)
			}
		}
	}
}

// TestPasteIsCleaned checks what a pasted text with controls becomes in
// the result: line breaks are spaces, and controls are gone.
func TestPasteIsCleaned(t *testing.T) {
	m := NewQuestions(one(), plain(nil))
	qrun(m, []Key{{Text: "o"}, {Text: evilPaste}})
	e := m.Update(Key{Name: "enter"})
	got := e.Answer.Answers["framework"].Choice.Text
	if want := "pasted[2J]52;c;eA== line"; got != want {
		t.Errorf("pasted Other text = %q, want %q", got, want)
	}
}
