package dialog

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/auq"
)

// cjk is a request in wide scripts and emoji. It keeps to characters
// whose width terminals agree on: tmux 3.3, for one, counts an emoji with
// a skin tone modifier (👍🏽) as two emoji, four cells, where x/ansi and
// terminals that join grapheme clusters count two.
func cjk() *auq.Request {
	return &auq.Request{Questions: []auq.Question{
		{ID: "db", Question: "使用哪个数据库？絵文字も👍大丈夫?", Header: "配置", Options: []auq.Option{
			{ID: "a", Label: "日本語のラベル", Description: "説明文はここにあります", Preview: "한국어 미리보기 👍 family\n\n長い説明文が折り返されます。長い説明文が折り返されます。"},
			{ID: "b", Label: "한국어 옵션", Description: "e\u0301 combining", Recommended: true},
		}},
		framework(),
	}}
}

// TestRealTerminal draws frames on a real terminal, a tmux pane, and
// reads the screen back. Every row ends in a marker at one column past
// the frame's width, so a character the terminal counts wider than the
// dialog did pushes the marker to the next row and fails the test.
func TestRealTerminal(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skipf("tmux is not installed (%v): this test needs a real terminal", err)
	}
	cases := []struct {
		name string
		req  func() *auq.Request
		keys string
		w, h int
	}{
		{"one beside its preview", one, "", 120, 30},
		{"one with the preview below", one, "n 'nice' enter", 80, 24},
		{"review with notes", many, "n 'nice_docs' enter N 'why' enter enter space enter", 80, 24},
		{"wide scripts", cjk, "", 100, 20},
		{"wide scripts below", cjk, "o '日本語👍'", 50, 20},
		{"hostile text", func() *auq.Request { return qevilRequest(qevil[0] + qevil[3] + qevil[7] + qevil[8]) }, "j", 80, 24},
		{"eight questions", eight, "enter enter", 80, 24},
		{"help", one, "?", 60, 20},
		{"tiny", many, "", 20, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := NewQuestions(c.req(), &Options{Theme: DefaultTheme(), Countdown: fixedClock{left: 102e9, ok: true}})
			m.SetSize(c.w, c.h)
			qrun(m, qkeys(c.keys))
			f := m.View(c.w, c.h)
			var frame, want []string
			for _, l := range f.Lines {
				pad := strings.Repeat(" ", c.w-ansi.StringWidth(l))
				frame = append(frame, l+pad+"|")
				want = append(want, ansi.Strip(l)+pad+"|")
			}
			got := onTmux(t, tmux, strings.Join(frame, "\r\n"), c.w+1, c.h)
			if diff := cmp.Diff(want, got[:min(len(got), len(want))]); diff != "" {
				t.Errorf("the terminal shows (-want +got):\n%s", diff)
			}
		})
	}
}

// onTmux shows text in a new w×h tmux pane and returns the pane's rows,
// without trailing blank ones.
func onTmux(t *testing.T, tmux, text string, w, h int) []string {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "frame")
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s")
	cmd := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(tmux, append([]string{"-u", "-S", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	// The pane prints the frame, then tells the test it is done and
	// waits, so that the screen stays as the frame left it.
	script := "cat " + file + "; " + tmux + " -S " + sock + " wait-for -S shown; exec cat"
	cmd("new-session", "-d", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), "sh", "-c", script)
	t.Cleanup(func() { exec.Command(tmux, "-S", sock, "kill-server").Run() })
	cmd("wait-for", "shown")
	rows := strings.Split(strings.TrimRight(cmd("capture-pane", "-p"), "\n"), "\n")
	return rows
}
