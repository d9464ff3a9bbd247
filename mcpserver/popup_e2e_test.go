package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tests in this file run askuser mcp as if inside tmux, against a real
// tmux server with a client attached on a pty. tmux 3.3a cannot send keys
// into a popup, so the test types on the attached client's pty, as a user
// would, and reads that client's screen through a terminal emulator.

type tmuxClient struct {
	t      *testing.T
	tmux   string
	sock   string
	pane   string
	server string // the tmux server's pid
	pty    *os.File
	emu    *screen
	tmp    string // the server's TMPDIR
}

// screen is a terminal emulator whose screen can be read while the
// client's output is written to it.
type screen struct {
	mu  sync.Mutex
	emu *vt.Emulator
	raw bytes.Buffer // every byte the client wrote
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.raw.Write(p)
	return s.emu.Write(p)
}

// Read returns the emulator's answers to the client's queries.
func (s *screen) Read(p []byte) (int, error) { return s.emu.Read(p) }

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.emu.String()
}

func startTmux(t *testing.T) *tmuxClient {
	t.Helper()
	c := startTmuxServer(t)
	c.attach()
	return c
}

// startTmuxServer starts a tmux server with one session and no client.
func startTmuxServer(t *testing.T) *tmuxClient {
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skipf("tmux is not installed (%v): the popup test needs it", err)
	}
	// Not t.TempDir: under a long TMPDIR its name would put the socket's
	// path past the limit of a Unix socket address.
	dir, err := os.MkdirTemp("/tmp", "au")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	c := &tmuxClient{t: t, tmux: tmux, sock: filepath.Join(dir, "tmux.sock")}
	c.run("-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", "sh")
	t.Cleanup(func() { exec.Command(tmux, "-S", c.sock, "kill-server").Run() })
	c.pane = strings.TrimSpace(c.run("display", "-p", "-t", "0", "#{pane_id}"))
	c.server = strings.TrimSpace(c.run("display", "-p", "#{pid}"))
	return c
}

// attach attaches a client on a pty, as a user's terminal.
func (c *tmuxClient) attach() {
	t := c.t
	t.Helper()
	attach := exec.Command(c.tmux, "-S", c.sock, "attach", "-t", "0")
	attach.Env = append(withoutTmux(os.Environ()), "TERM=xterm-256color")
	f, err := pty.StartWithSize(attach, &pty.Winsize{Rows: 30, Cols: 100})
	if err != nil {
		t.Fatalf("attaching a tmux client on a pty: %v", err)
	}
	c.pty = f
	c.emu = &screen{emu: vt.NewEmulator(100, 30)}
	go io.Copy(c.emu, f)
	go io.Copy(f, c.emu) // the emulator's answers to the client's queries
	t.Cleanup(func() {
		f.Close()
		attach.Process.Kill()
		attach.Wait()
	})
	c.waitFor("an attached client", func() bool { return strings.TrimSpace(c.run("list-clients")) != "" })
}

func withoutTmux(env []string) []string {
	var out []string
	for _, e := range env {
		if !strings.HasPrefix(e, "TMUX=") && !strings.HasPrefix(e, "TMUX_PANE=") {
			out = append(out, e)
		}
	}
	return out
}

func (c *tmuxClient) run(args ...string) string {
	c.t.Helper()
	out, err := exec.Command(c.tmux, append([]string{"-S", c.sock}, args...)...).CombinedOutput()
	if err != nil {
		c.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (c *tmuxClient) waitFor(what string, ok func() bool) {
	c.t.Helper()
	deadline := testkit.PatienceDeadline(c.t)
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for !ok() {
		if time.Now().After(deadline) {
			c.t.Fatalf("waiting for %s; the client's screen is:\n%s", what, c.emu.String())
		}
		<-tick.C
	}
}

func (c *tmuxClient) waitText(texts ...string) {
	c.t.Helper()
	c.waitFor(strings.Join(texts, " and "), func() bool {
		s := c.emu.String()
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	})
}

func (c *tmuxClient) waitGone(text string) {
	c.t.Helper()
	c.waitFor(text+" gone from the screen", func() bool { return !strings.Contains(c.emu.String(), text) })
}

// typeKeys writes raw bytes to the attached client, as typing would.
func (c *tmuxClient) typeKeys(s string) {
	c.t.Helper()
	if _, err := io.WriteString(c.pty, s); err != nil {
		c.t.Fatal(err)
	}
}

// serverInTmux starts askuser mcp as if in the tmux pane, and connects a
// client that declares no elicitation, so the popup is the only route.
func (c *tmuxClient) serverInTmux() *mcp.ClientSession {
	c.t.Helper()
	return c.serverInTmuxCmd(nil, nil)
}

// serverInTmuxCmd is serverInTmux, also returning the server's command
// in *cmdp when cmdp is not nil.
func (c *tmuxClient) serverInTmuxCmd(cmdp **exec.Cmd, copts *mcp.ClientOptions) *mcp.ClientSession {
	c.t.Helper()
	cmd := c.serverCmd()
	if cmdp != nil {
		*cmdp = cmd
	}
	cl := mcp.NewClient(&mcp.Implementation{Name: "popup-test", Version: "1"}, copts)
	cs, err := cl.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { cs.Close() })
	return cs
}

// serverCmd is askuser mcp as if in the tmux pane, with a TMPDIR of its
// own, c.tmp, where it makes its popup's socket directory.
func (c *tmuxClient) serverCmd() *exec.Cmd {
	if c.tmp == "" {
		// Not t.TempDir: its long name would put the socket's path past
		// the limit of a Unix socket address.
		dir, err := os.MkdirTemp("/tmp", "mcp")
		if err != nil {
			c.t.Fatal(err)
		}
		c.t.Cleanup(func() { os.RemoveAll(dir) })
		c.tmp = dir
	}
	cmd := exec.Command(askuserBinary(c.t), "mcp", "--no-config")
	cmd.Env = append(withoutTmux(os.Environ()), "TMUX="+c.sock+","+c.server+",0", "TMUX_PANE="+c.pane, "TMPDIR="+c.tmp)
	return cmd
}

// noSocketDir fails the test if a popup's socket directory is left in
// the server's TMPDIR.
func (c *tmuxClient) noSocketDir() {
	c.t.Helper()
	if left, _ := filepath.Glob(filepath.Join(c.tmp, "askuser-popup-*")); len(left) > 0 {
		c.t.Errorf("socket directories left behind: %v", left)
	}
}

// popupProcesses lists the askuser popup helpers still running.
func popupProcesses(t *testing.T) []string {
	bin := askuserBinary(t)
	entries, _ := os.ReadDir("/proc")
	var found []string
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		args := strings.Split(string(cmdline), "\x00")
		if len(args) > 1 && args[0] == bin && args[1] == "popup" {
			found = append(found, e.Name()+": "+strings.Join(args, " "))
		}
	}
	return found
}

func noStrayPopup(c *tmuxClient) {
	c.t.Helper()
	c.waitFor("no askuser popup process left", func() bool { return len(popupProcesses(c.t)) == 0 })
}

const popupQuestion = `{"questions":[{"title":"Pick a colour","options":[{"label":"red"},{"label":"green"}]}]}`

type callResult struct {
	res *mcp.CallToolResult
	err error
}

func callAsync(ctx context.Context, cs *mcp.ClientSession, args string) <-chan callResult {
	ch := make(chan callResult, 1)
	go func() {
		r, err := call(ctx, cs, args)
		ch <- callResult{r, err}
	}()
	return ch
}

// waitCall waits for a call to return, failing the test if it does not.
func waitCall(t *testing.T, done <-chan callResult) callResult {
	t.Helper()
	select {
	case got := <-done:
		return got
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the call did not return")
	}
	return callResult{}
}

// waitResult is the result of a call that must return without error.
func waitResult(t *testing.T, done <-chan callResult) contract.Result {
	t.Helper()
	got := waitCall(t, done)
	if got.err != nil {
		t.Fatal(got.err)
	}
	return result(t, got.res)
}

func TestPopup(t *testing.T) {
	if testing.Short() {
		t.Skip("the popup test runs a real tmux; skipped in -short mode")
	}
	var mu sync.Mutex // one tmux popup test at a time keeps the machine calm
	t.Run("answered by keys", func(t *testing.T) {
		mu.Lock()
		defer mu.Unlock()
		c := startTmux(t)
		cs := c.serverInTmux()
		done := callAsync(context.Background(), cs, popupQuestion)
		c.waitText("Pick a colour", "red", "green")
		c.typeKeys("\x1b[B") // Down
		c.typeKeys("\r")     // one question: Enter submits, no review page
		res := waitResult(t, done)
		want := contract.Result{Status: contract.StatusAnswered, Route: contract.RouteCustom, Answers: []contract.Answer{
			{Index: 0, ID: "q1", Title: "Pick a colour", Kind: contract.KindSingle, Selections: []string{"green"}},
		}}
		if diff := cmp.Diff(want, res); diff != "" {
			t.Errorf("result (-want +got):\n%s", diff)
		}
		c.waitGone("Pick a colour")
		noStrayPopup(c)
	})
	t.Run("escape dismisses", func(t *testing.T) {
		mu.Lock()
		defer mu.Unlock()
		c := startTmux(t)
		cs := c.serverInTmux()
		done := callAsync(context.Background(), cs, popupQuestion)
		c.waitText("Pick a colour")
		c.typeKeys("\x1b")
		res := waitResult(t, done)
		if res.Status != contract.StatusAborted || res.CancelledReason != contract.CancelUser {
			t.Errorf("got %+v; want aborted by the user", res)
		}
		c.waitGone("Pick a colour")
		noStrayPopup(c)
	})
	t.Run("timeout closes the popup", func(t *testing.T) {
		mu.Lock()
		defer mu.Unlock()
		c := startTmux(t)
		cs := c.serverInTmux()
		done := callAsync(context.Background(), cs, `{"timeoutPerQuestionMs":2000,"questions":[{"title":"Pick a colour","options":[{"label":"red"}]}]}`)
		c.waitText("Pick a colour")
		res := waitResult(t, done)
		if res.Status != contract.StatusTimeout {
			t.Errorf("got %+v; want timeout", res)
		}
		c.waitGone("Pick a colour")
		noStrayPopup(c)
	})
	t.Run("cancel closes the popup", func(t *testing.T) {
		mu.Lock()
		defer mu.Unlock()
		c := startTmux(t)
		cs := c.serverInTmux()
		ctx, cancel := context.WithCancel(context.Background())
		done := callAsync(ctx, cs, popupQuestion)
		c.waitText("Pick a colour")
		cancel()
		if got := <-done; !errors.Is(got.err, context.Canceled) {
			t.Errorf("cancelled call returned %v", got.err)
		}
		c.waitGone("Pick a colour")
		noStrayPopup(c)
		// The server serves the next call.
		next := callAsync(context.Background(), cs, popupQuestion)
		c.waitText("Pick a colour")
		c.typeKeys("\x1b")
		if got := <-next; got.err != nil || result(t, got.res).Status != contract.StatusAborted {
			t.Errorf("next call: %+v %v", got.res, got.err)
		}
	})
	// The core settles a timeout or a cancel without waiting for the
	// popup to close; a call that follows at once must still get its own
	// popup, not fail on the one that is closing.
	for _, tc := range []struct {
		name  string
		first func(t *testing.T, c *tmuxClient, cs *mcp.ClientSession)
	}{
		{"after a timeout", func(t *testing.T, c *tmuxClient, cs *mcp.ClientSession) {
			done := callAsync(context.Background(), cs, `{"timeoutPerQuestionMs":2000,"questions":[{"title":"Pick a colour","options":[{"label":"red"}]}]}`)
			c.waitText("Pick a colour")
			res := waitResult(t, done)
			if res.Status != contract.StatusTimeout {
				t.Fatalf("first call: got %+v; want timeout", res)
			}
		}},
		{"after a cancel", func(t *testing.T, c *tmuxClient, cs *mcp.ClientSession) {
			ctx, cancel := context.WithCancel(context.Background())
			done := callAsync(ctx, cs, popupQuestion)
			c.waitText("Pick a colour")
			cancel()
			if got := waitCall(t, done); !errors.Is(got.err, context.Canceled) {
				t.Fatalf("cancelled call returned %v", got.err)
			}
		}},
	} {
		t.Run("next call at once "+tc.name, func(t *testing.T) {
			mu.Lock()
			defer mu.Unlock()
			c := startTmux(t)
			cs := c.serverInTmux()
			tc.first(t, c, cs)
			next := callAsync(context.Background(), cs, `{"questions":[{"title":"Pick a shape","options":[{"label":"square"}]}]}`)
			c.waitText("Pick a shape")
			c.typeKeys("\r")
			res := waitResult(t, next)
			want := contract.Result{Status: contract.StatusAnswered, Route: contract.RouteCustom, Answers: []contract.Answer{
				{Index: 0, ID: "q1", Title: "Pick a shape", Kind: contract.KindSingle, Selections: []string{"square"}},
			}}
			if diff := cmp.Diff(want, res); diff != "" {
				t.Errorf("next call's result (-want +got):\n%s", diff)
			}
			c.waitGone("Pick a shape")
			noStrayPopup(c)
		})
	}
	t.Run("stopping the countdown in the popup stops the server's", func(t *testing.T) {
		mu.Lock()
		defer mu.Unlock()
		c := startTmux(t)
		msgs := make(chan string, 10)
		cs := c.serverInTmuxCmd(nil, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			msgs <- r.Params.Message
		}})
		p := &mcp.CallToolParams{Name: "ask_user", Arguments: json.RawMessage(`{"timeoutPerQuestionMs":4000,"questions":[{"title":"Pick a colour","options":[{"label":"red"},{"label":"green"}]}]}`)}
		p.SetProgressToken("t")
		done := make(chan callResult, 1)
		go func() {
			r, err := cs.CallTool(context.Background(), p)
			done <- callResult{r, err}
		}()
		c.waitText("Pick a colour", "no timeout")
		if m := <-msgs; !strings.HasSuffix(m, "s left") {
			t.Fatalf("first progress %q; want the time left", m)
		}
		c.typeKeys("\x1bq") // alt+q
		c.waitGone("no timeout")
		// The next report, 5 s on, is past the old deadline and has none.
		if m := <-msgs; m != "waiting for the user" {
			t.Fatalf("progress after alt+q: %q", m)
		}
		c.typeKeys("\r")
		res := waitResult(t, done)
		if res.Status != contract.StatusAnswered || res.Answers[0].Selections[0] != "red" {
			t.Errorf("got %+v; want red, answered after the old deadline", res)
		}
		noStrayPopup(c)
	})
	t.Run("no client to show it on", func(t *testing.T) {
		mu.Lock()
		defer mu.Unlock()
		c := startTmuxServer(t)
		cs := c.serverInTmux()
		got := <-callAsync(context.Background(), cs, popupQuestion)
		if got.err != nil {
			t.Fatal(got.err)
		}
		// The route probe sees that no client shows the session: the
		// popup is not the route, and with no form in this client the
		// call is refused before anything opens, saying why.
		r := result(t, got.res)
		if r.Status != contract.StatusError || r.Error.Code != contract.ErrUnsupportedMode || !strings.Contains(r.Error.Message, "no tmux client is attached") {
			t.Errorf("got %+v (%v); want unsupported_mode saying no client is attached", r, r.Error)
		}
		if !strings.Contains(text(got.res), "in ordinary text") {
			t.Errorf("the text does not tell the model to ask in ordinary text:\n%s", text(got.res))
		}
		noStrayPopup(c)
	})
	t.Run("another popup is open", func(t *testing.T) {
		mu.Lock()
		defer mu.Unlock()
		c := startTmux(t)
		other := exec.Command(c.tmux, "-S", c.sock, "display-popup", "-E", "-t", c.pane, "echo another popup; sleep 60")
		if err := other.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			other.Process.Kill()
			other.Wait()
		})
		c.waitText("another popup")
		cs := c.serverInTmux()
		got := waitCall(t, callAsync(context.Background(), cs, popupQuestion))
		if got.err != nil {
			t.Fatal(got.err)
		}
		r := result(t, got.res)
		if r.Status != contract.StatusError || r.Error.Code != contract.ErrCustomUIFailed || !strings.Contains(r.Error.Message, "another popup is probably open") {
			t.Errorf("got %+v; want custom_ui_failed saying another popup is open", r)
		}
		noStrayPopup(c)
	})
	// However the session ends, the server closes the popup and removes
	// its socket directory before it exits, with status 0.
	for _, tc := range []struct {
		name string
		end  func(s *rawServer)
	}{
		{"end of input", func(s *rawServer) { s.in.Close() }},
		{"client killed", func(s *rawServer) {
			// As the kernel does for a killed client: both pipes close.
			s.out.Close()
			s.in.Close()
		}},
		{"client stops reading", (*rawServer).stopReading},
		{"SIGTERM", func(s *rawServer) {
			if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				s.t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name+" closes the popup and removes its socket", func(t *testing.T) {
			mu.Lock()
			defer mu.Unlock()
			c := startTmux(t)
			s := startRawCmd(t, c.serverCmd())
			s.initialize(`{}`)
			s.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_user","arguments":` + popupQuestion + `}}`)
			c.waitText("Pick a colour")
			if left, _ := filepath.Glob(filepath.Join(c.tmp, "askuser-popup-*")); len(left) != 1 {
				t.Fatalf("socket directories while the popup is open: %v; want one", left)
			}
			tc.end(s)
			for range s.lines {
			}
			if err := s.wait(); err != nil {
				t.Errorf("exit: %v", err)
			}
			// The server waited for the popup to tear down before exiting.
			c.noSocketDir()
			c.waitGone("Pick a colour")
			noStrayPopup(c)
		})
	}
	for _, sig := range []os.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		t.Run("server "+sig.String()+" closes the popup", func(t *testing.T) {
			mu.Lock()
			defer mu.Unlock()
			c := startTmux(t)
			var server *exec.Cmd
			cs := c.serverInTmuxCmd(&server, nil)
			callAsync(context.Background(), cs, popupQuestion)
			c.waitText("Pick a colour")
			if err := server.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			c.waitGone("Pick a colour")
			noStrayPopup(c)
		})
	}
}
