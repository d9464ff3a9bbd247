package dialog

import (
	"encoding/json"
	"strings"
	"testing"
)

// evil holds the sequences a hostile model might try to get onto the
// user's terminal.
var evil = []string{
	"\x1b[2J\x1b[H",                        // clear screen, cursor home
	"\x1b[10A\x1b[5C",                      // cursor movement
	"\x1b]52;c;cm0gLXJmIH4=\x07",           // OSC 52 clipboard write
	"\x1b]8;;https://evil.test\x1b\\click", // OSC 8 link
	"\x1b]0;title\x1b\\",                   // window title
	"\u009b31m\u009d0;x\u009c",             // C1 CSI, OSC, ST
	"\x00\x07\x08\x0b\x0c\x0e\x7f",         // C0 and DEL
	"\u202egnp.exe",                        // bidi override
	"日本\x1b[31m after wide",                // escape after non-ASCII text
}

func evilRequest(t *testing.T, e string) string {
	t.Helper()
	s := func(prefix string) string {
		b, err := json.Marshal(prefix + e)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	return `{"header":` + s("H") + `,"questions":[` +
		`{"title":` + s("T") + `,"prompt":` + s("P") + `,"options":[{"label":` + s("L") + `,"description":` + s("D") + `,"preview":` + s("# V") + `},{"label":"b"}],"default":` + s("F") + `},` +
		`{"title":"i","kind":"input","default":` + s("I") + `},` +
		`{"title":"f","kind":"simple-form","fields":[{"name":"a","label":` + s("FL") + `,"kind":"single","options":[{"label":` + s("FO") + `,"description":` + s("FD") + `}]}]}]}`
}

// TestUntrustedText shows that no control sequence in model text reaches
// the output: with the plain theme there is no escape byte at all, and
// with the default theme only the theme's own SGR sequences remain.
func TestUntrustedText(t *testing.T) {
	def := DefaultTheme()
	var sgr []string
	for _, st := range []Style{def.Accent, def.Muted, def.Selection, def.Warning, def.Error, def.Border, def.Bold, def.Code} {
		sgr = append(sgr, st.Prefix, st.Suffix)
	}
	sgr = append(sgr, "\x1b[0m", "\x1b[m")
	for _, e := range evil {
		for _, th := range []struct {
			name string
			th   Theme
		}{{"plain", PlainTheme()}, {"default", def}} {
			t.Run(th.name+"/"+strings.ToValidUTF8(e[:min(len(e), 8)], "?"), func(t *testing.T) {
				m := New(parse(t, evilRequest(t, e)), &Options{Theme: th.th, Countdown: fixedClock{ok: true, left: 30e9}})
				for _, step := range []string{"", "down", "tab", "tab", "tab"} {
					if step != "" {
						m.Update(Key{Name: step})
					}
					for _, sz := range [][2]int{{120, 40}, {80, 24}, {40, 12}} {
						f := m.View(sz[0], sz[1])
						for _, l := range f.Lines {
							rest := l
							if th.name == "default" {
								for _, s := range sgr {
									if s != "" {
										rest = strings.ReplaceAll(rest, s, "")
									}
								}
							}
							if i := strings.IndexAny(rest, "\x1b\x07\x00\x08\x7f\u009b\u009d\u009c\u202e"); i >= 0 {
								t.Fatalf("after %q at %dx%d a control character reached the output: %q", step, sz[0], sz[1], l)
							}
						}
					}
				}
			})
		}
	}
}

// TestUntrustedTextVisible checks the neutralized sequences stay visible
// as stand-ins, so the user can see the text held something odd.
func TestUntrustedTextVisible(t *testing.T) {
	m := New(parse(t, evilRequest(t, "\x1b]52;c;eA==\x07")), plain(nil))
	got := screen(m, 120, 40)
	for _, want := range []string{"H␛]52;c;eA==␇", "T␛]52;c;eA==␇", "L␛]52;c;eA==␇", "D␛]52;c;eA==␇"} {
		if !strings.Contains(got, want) {
			t.Errorf("screen lacks %q:\n%s", want, got)
		}
	}
}
