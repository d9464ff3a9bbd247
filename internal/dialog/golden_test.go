package dialog

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"

	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite the golden screens")

const reqLongForm = `{"header":"Service setup","questions":[{"title":"Configure the new service","kind":"simple-form","fields":[` +
	`{"name":"name","label":"Service name","kind":"input","required":true},` +
	`{"name":"public","label":"Public endpoint","kind":"bool","default":false},` +
	`{"name":"region","label":"Region","kind":"single","required":true,"options":[{"label":"eu-west"},{"label":"us-east"},{"label":"ap-south"}]},` +
	`{"name":"features","label":"Features","kind":"multi","options":[{"label":"metrics"},{"label":"tracing"},{"label":"logs"}],"default":["logs"]},` +
	`{"name":"owner","label":"Owner team","kind":"input","default":"platform"},` +
	`{"name":"tier","label":"Tier","kind":"single","options":[{"label":"gold"},{"label":"silver"}]},` +
	`{"name":"backup","label":"Nightly backup","kind":"bool"},` +
	`{"name":"notes","label":"Notes","kind":"input"}]}]}`

// emulate draws a frame on a real terminal emulator and returns the
// screen text, with the cursor position.
func emulate(f Frame, w, h int) string {
	emu := vt.NewEmulator(max(w, 1), max(h, 1))
	for i, l := range f.Lines {
		if i > 0 {
			emu.WriteString("\r\n")
		}
		emu.WriteString(l)
	}
	s := emu.String()
	if f.Cursor != nil {
		s += fmt.Sprintf("\n-- cursor row %d col %d", f.Cursor.Row, f.Cursor.Col)
	}
	return s + "\n"
}

// goldenCases are the dialogs and keys of TestGolden, which
// TestModelClone walks too.
var goldenCases = []struct {
	name, req, keys string
}{
	{"single", reqSingle, "down space"},
	{"multi", reqMulti, "down space"},
	{"input", reqInput, "'Spring_release_日本'"},
	{"bool", reqBool, "space right"},
	{"booldown", reqBool, "down"},
	{"formbooldown", reqForm, "down"},
	{"form", reqForm, "enter"},
	{"review", reqRelease, "enter enter enter tab"},
	{"preview", reqPreview, ""},
	{"cjk", reqCJK, "down"},
	{"longform", reqLongForm, "'api' enter enter enter down down down down"},
	{"invalid", reqForm, "ctrl+enter"},
}

func TestGolden(t *testing.T) {
	cases := goldenCases
	for _, c := range cases {
		for _, sz := range [][2]int{{80, 24}, {40, 12}, {120, 40}, {20, 3}} {
			name := fmt.Sprintf("%s_%dx%d", c.name, sz[0], sz[1])
			t.Run(name, func(t *testing.T) {
				m := New(parse(t, c.req), plain(fixedClock{left: 102 * time.Second, ok: true}))
				run(m, keys(c.keys))
				got := emulate(m.View(sz[0], sz[1]), sz[0], sz[1])
				testkit.Golden(t, filepath.Join("testdata", "TestGolden", name+".golden"), got, *update)
			})
		}
	}
}

// TestThemed checks the default theme on an emulator: the focus triangle
// is in the accent colour, and no cell ever has a background colour.
func TestThemed(t *testing.T) {
	m := New(parse(t, reqForm), &Options{Theme: DefaultTheme(), Countdown: fixedClock{left: 5 * time.Second, ok: true}})
	run(m, keys("space"))
	f := m.View(80, 24)
	emu := vt.NewEmulator(80, 24)
	emu.WriteString(strings.Join(f.Lines, "\r\n"))
	sawMark := false
	for y := 0; y < 24; y++ {
		for x := 0; x < 80; x++ {
			c := emu.CellAt(x, y)
			if c == nil {
				continue
			}
			if c.Style.Bg != nil {
				t.Fatalf("cell %d,%d %q has a background", x, y, c.Content)
			}
			if c.Content == "▸" {
				sawMark = true
				if c.Style.Fg == nil {
					t.Errorf("focus marker at %d,%d has no accent colour", x, y)
				}
			}
		}
	}
	if !sawMark {
		t.Error("no focus marker on screen")
	}
}

// TestKeymapReserved checks that every chord the dialog binds is one config
// keeps away from the overlay toggle.
func TestKeymapReserved(t *testing.T) {
	for _, k := range Keys() {
		_, r := config.IsReserved(k)
		_, c := config.IsConflicting(k)
		if !r && !c {
			t.Errorf("%q is bound by the dialog but neither reserved nor conflicting in config", k)
		}
	}
}

// BenchmarkKeyFrame is one key plus one full frame of a five-question
// questionnaire with previews, 60 rows high, at the common widths, with
// the size set as a host sets it.
func BenchmarkKeyFrame(b *testing.B) {
	q := `{"title":"Which cache layout?","options":[{"label":"Write-through","description":"Simple","preview":"# A\n\nSome **text** here.\n\n- one\n- two"},{"label":"Write-back","preview":"# B\n\nMore text."},{"label":"None","preview":"# C"}]}`
	req := parse(b, `{"header":"Bench","questions":[`+q+`,`+q+`,`+q+`,`+q+`,`+q+`]}`)
	for _, width := range []int{40, 80, 100, 120, 200} {
		b.Run(fmt.Sprintf("%dx60", width), func(b *testing.B) {
			m := New(req, &Options{Theme: DefaultTheme(), Countdown: fixedClock{left: time.Minute, ok: true}})
			m.SetSize(width, 60)
			ks := []Key{{Name: "down"}, {Name: "down"}, {Name: "up"}, {Name: "up"}}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				m.Update(ks[i%len(ks)])
				m.View(width, 60)
			}
		})
	}
}
