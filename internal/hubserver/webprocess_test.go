//go:build unix

package hubserver_test

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/creack/pty"
)

// hubStatusPage returns the page's address with its token, as askuser
// hub status prints it.
func hubStatusPage(t *testing.T, askuser string, env []string) string {
	t.Helper()
	cmd := exec.Command(askuser, "hub", "status")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("askuser hub status: %v\n%s", err, out)
	}
	for l := range strings.Lines(string(out)) {
		if u, ok := strings.CutPrefix(strings.TrimSpace(l), "web page: "); ok {
			return u
		}
	}
	t.Fatalf("askuser hub status names no web page:\n%s", out)
	return ""
}

// hubWeb runs askuser hub --web as a process, with askuser built beside
// it, until the test ends. It returns askuser, the environment that
// reaches that hub, and the page's address and token.
func hubWeb(t *testing.T) (askuser string, env []string, f *fixture) {
	t.Helper()
	chromium(t)
	askuser, env, f, _ = webHubProcess(t, nil, "--web", "127.0.0.1:0")
	return askuser, env, f
}

// webHubProcess runs askuser hub with args as a process, started through
// the command wrap when it is not nil (with askuser and the arguments
// after it), until the test ends. It returns askuser, the environment
// that reaches that hub, the page's address and token, and what the hub
// logs.
func webHubProcess(t *testing.T, wrap []string, args ...string) (askuser string, env []string, f *fixture, logs *testkit.Buffer) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: this test builds askuser and askuser-hub")
	}
	for _, pkg := range []string{"github.com/askuser/askuser/cmd/askuser-hub", "github.com/askuser/askuser/cmd/askuser"} {
		bin, err := testkit.Build(pkg)
		if err != nil {
			t.Fatal(err)
		}
		askuser = bin
	}
	state, tmp := t.TempDir(), t.TempDir()
	env = append(os.Environ(), "XDG_STATE_HOME="+state, "XDG_CONFIG_HOME="+state, "TMPDIR="+tmp, "TMUX=", "TERM=xterm-256color")

	argv := slices.Concat(wrap, []string{askuser, "hub"}, args)
	h := exec.Command(argv[0], argv[1:]...)
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
	logs = &testkit.Buffer{}
	var page, logged string
	for page == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("askuser hub ended before it printed its page's address:\n%s", logs)
			}
			fmt.Fprintln(logs, l)
			if strings.Contains(l, "askuser hub: web page at ") {
				page = hubStatusPage(t, askuser, env)
				logged = l
			}
		case <-time.After(testkit.Patience(t)):
			t.Fatal("askuser hub printed no page address")
		}
	}
	go func() {
		for l := range lines {
			fmt.Fprintln(logs, l)
		}
	}()
	u, err := url.Parse(page)
	if err != nil {
		t.Fatal(err)
	}
	tok, ok := strings.CutPrefix(u.Fragment, "token=")
	if !ok || len(tok) != 64 || u.RawQuery != "" || strings.Contains(logged, tok) {
		t.Errorf("the hub logged %q; askuser hub status printed %q", logged, page)
	}
	f = &fixture{base: u.Scheme + "://" + u.Host, token: tok, http: &http.Client{Timeout: 10 * time.Second}}
	if u.Scheme == "https" {
		// The hub's own certificate, trusted as a paired device's browser
		// does once its fingerprint is checked.
		paths, err := hub.Locate(func(k string) string { return map[string]string{"XDG_STATE_HOME": state}[k] })
		if err != nil {
			t.Fatal(err)
		}
		pem, err := os.ReadFile(filepath.Join(paths.Dir, hubserver.CertFile))
		if err != nil {
			t.Fatal(err)
		}
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(pem)
		f.http.Transport = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}
	}
	return askuser, env, f, logs
}

// questionFile writes the questionnaire req to a file of the test's.
func questionFile(t *testing.T, req string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "q.json")
	if err := os.WriteFile(file, []byte(req), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestProcesses answers, at phone size in a real Chromium, the questions
// of two askuser ask processes of both contracts, through the page of a
// hub that askuser hub --web runs as a process, and reads the answers
// where the agents get them: on the processes' standard output.
func TestProcesses(t *testing.T) {
	askuser, env, f := hubWeb(t)
	ask := func(req string, args ...string) (*exec.Cmd, *bytes.Buffer) {
		file := questionFile(t, req)
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

	b.openRow(1)
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
	b.openRow(0)
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

// TestTerminalAnswer opens on the page the question of askuser ask run on
// a terminal, and answers it in that terminal's own dialog: the form
// leaves the page, saying where it was answered, and the process prints
// the terminal's answer.
func TestTerminalAnswer(t *testing.T) {
	askuser, env, f := hubWeb(t)
	cmd := exec.Command(askuser, "ask", "--no-config", "--timeout-per-question", "120000", questionFile(t, deployReq))
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout = &out
	tty, err := pty.StartWithAttrs(cmd, &pty.Winsize{Rows: 30, Cols: 100}, &syscall.SysProcAttr{Setsid: true, Setctty: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	// The terminal is read to its end; shown is closed once the dialog
	// shows its options.
	shown := make(chan struct{})
	go func() {
		var seen []byte
		found := false
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			if !found {
				if seen = append(seen, buf[:n]...); bytes.Contains(seen, []byte("staging")) {
					close(shown)
					found = true
				}
			}
			if err != nil {
				return
			}
		}
	}()

	b := newBrowser(t, false)
	b.open(f, "")
	b.wait(`document.querySelectorAll('#list li').length === 1`)
	b.openRow(0)
	b.wait(`document.querySelector('#form-host h2')`)
	select {
	case <-shown:
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the terminal never showed the dialog's options")
	}
	if _, err := tty.Write([]byte("\r")); err != nil { // the first option, staging
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("askuser ask: %v", err)
	}
	var res contract.Result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.Status != contract.StatusAnswered ||
		len(res.Answers) != 1 || strings.Join(res.Answers[0].Selections, ",") != "staging" {
		t.Fatalf("askuser ask printed %s (%v); want staging answered in the terminal", out.String(), err)
	}
	b.wait(`document.querySelector('#form-host .closed')`)
	if got := b.text("#form-host .closed"); len(got) != 1 || !strings.HasPrefix(got[0], "This question was answered in the terminal of askuser ask") {
		t.Errorf("the form after the terminal's answer: %q", got)
	}
	b.clean()
}
