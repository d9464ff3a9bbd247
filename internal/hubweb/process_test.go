//go:build unix

package hubweb_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/testbin"
)

// TestMain removes the binaries the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	testbin.Remove()
	os.Exit(code)
}

// TestProcesses answers, at phone size in a real Chromium, the questions
// of two askuser ask processes of both contracts, through the page of a
// hub that askuser hub --web runs as a process, and reads the answers
// where the agents get them: on the processes' standard output.
func TestProcesses(t *testing.T) {
	chromium(t)
	if testing.Short() {
		t.Skip("-short: this test builds askuser and askuser-hub")
	}
	var askuser string
	for _, pkg := range []string{"github.com/askuser/askuser/cmd/askuser-hub", "github.com/askuser/askuser/cmd/askuser"} {
		bin, err := testbin.Build(pkg)
		if err != nil {
			t.Fatal(err)
		}
		askuser = bin
	}
	state, tmp := t.TempDir(), t.TempDir()
	env := append(os.Environ(), "XDG_STATE_HOME="+state, "XDG_CONFIG_HOME="+state, "TMPDIR="+tmp, "TMUX=")

	h := exec.Command(askuser, "hub", "--web", "127.0.0.1:0")
	h.Env = env
	stderr, err := h.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.Process.Signal(syscall.SIGTERM)
		h.Wait()
	})
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var page string
	for page == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("askuser hub ended before it printed its page's address")
			}
			if _, u, ok := strings.Cut(l, "askuser hub: web page at "); ok {
				page = u
			}
		case <-time.After(20 * time.Second):
			t.Fatal("askuser hub printed no page address within 20s")
		}
	}
	go func() {
		for range lines {
		}
	}()
	u, err := url.Parse(page)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{base: "http://" + u.Host, token: u.Query().Get("token")}

	ask := func(req string, args ...string) (*exec.Cmd, *bytes.Buffer) {
		file := filepath.Join(t.TempDir(), "q.json")
		if err := os.WriteFile(file, []byte(req), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(askuser, append(append([]string{"ask", "--no-config", "--timeout-per-question", "120000"}, args...), file)...)
		var out bytes.Buffer
		cmd.Env, cmd.Stdout = env, &out
		// No controlling terminal: the hub is the question's only route.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
		return cmd, &out
	}
	b := newBrowser(t, true)
	askCmd, askOut := ask(everyKind)
	b.open(f, "")
	b.wait(`document.querySelectorAll('#list li').length === 1`)
	auqCmd, auqOut := ask(threeQuestions, "--tool", "AskUserQuestion")
	b.wait(`document.querySelectorAll('#list li').length === 2`)

	b.press(b.text("#list li")[1])
	b.wait(`document.querySelector('#form-host h2')`)
	fillEveryKind(b)
	b.press("Send answer")
	if err := askCmd.Wait(); err != nil {
		t.Fatalf("askuser ask: %v", err)
	}
	var res contract.Result
	if err := json.Unmarshal(askOut.Bytes(), &res); err != nil || res.Status != contract.StatusAnswered {
		t.Fatalf("askuser ask printed %s (%v)", askOut, err)
	}
	sameJSON(t, "ask_user answers", everyKindAnswers, res.Answers)

	b.press("← All questions")
	b.wait(`document.querySelectorAll('#list li').length === 1`)
	b.press(b.text("#list li")[0])
	b.wait(`document.querySelector('#form-host .badge')`)
	fillThreeQuestions(b)
	b.press("Send answer")
	if err := auqCmd.Wait(); err != nil {
		t.Fatalf("askuser ask --tool AskUserQuestion: %v", err)
	}
	var out auq.Result
	if err := json.Unmarshal(auqOut.Bytes(), &out); err != nil {
		t.Fatalf("askuser ask --tool AskUserQuestion printed %s (%v)", auqOut, err)
	}
	sameJSON(t, "AskUserQuestion result", threeQuestionsResult, out)
	b.clean()
}
