package mcpserver_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/prefs"
	"github.com/askuser/askuser/tui"
)

// The tests in this file look at the popup as the user's terminal shows
// it: the tmux client is attached inside a pane of a second, outer tmux
// server, whose capture-pane returns the client's whole screen, popups
// included, and whose send-keys types on the client as a user would.

// outerTmux is a tmux server whose one pane runs a client of another.
type outerTmux struct {
	t    *testing.T
	tmux string
	sock string
	pane string
}

// attachOuter attaches a 100×30 client of c's server inside an outer
// tmux server.
func attachOuter(c *tmuxClient) *outerTmux {
	t := c.t
	t.Helper()
	o := &outerTmux{t: t, tmux: c.tmux, sock: filepath.Join(filepath.Dir(c.sock), "outer.sock")}
	o.run("-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", "env -u TMUX -u TMUX_PANE TERM=xterm-256color "+c.tmux+" -S "+c.sock+" attach -t 0")
	t.Cleanup(func() { exec.Command(o.tmux, "-S", o.sock, "kill-server").Run() })
	o.run("set-option", "-g", "status", "off")
	o.pane = strings.TrimSpace(o.run("display-message", "-p", "#{pane_id}"))
	o.until("a client attached in the outer tmux", func() bool {
		return strings.Contains(c.run("list-clients", "-F", "#{client_width}x#{client_height}"), "100x30")
	})
	return o
}

func (o *outerTmux) run(args ...string) string {
	o.t.Helper()
	out, err := exec.Command(o.tmux, append([]string{"-S", o.sock}, args...)...).CombinedOutput()
	if err != nil {
		o.t.Fatalf("outer tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// screen is what the client's terminal shows.
func (o *outerTmux) screen() string { return o.run("capture-pane", "-p", "-t", o.pane) }

func (o *outerTmux) keys(keys ...string) {
	o.t.Helper()
	o.run(append([]string{"send-keys", "-t", o.pane}, keys...)...)
}

// waitFor waits until ok accepts the client's screen, and returns it.
func (o *outerTmux) waitFor(what string, ok func(screen string) bool) string {
	o.t.Helper()
	deadline := testkit.PatienceDeadline(o.t)
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		s := o.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			o.t.Fatalf("waiting for %s; the client's screen is:\n%s", what, s)
		}
		<-tick.C
	}
}

// until waits until ok, showing the client's screen if it never is.
func (o *outerTmux) until(what string, ok func() bool) {
	o.t.Helper()
	o.waitFor(what, func(string) bool { return ok() })
}

func (o *outerTmux) waitText(texts ...string) string {
	o.t.Helper()
	return o.waitFor(strings.Join(texts, " and "), func(s string) bool {
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	})
}

// binding is what tmux lists for key in the root table, or its error.
func binding(c *tmuxClient, key string) string {
	out, _ := exec.Command(c.tmux, "-S", c.sock, "list-keys", "-T", "root", key).CombinedOutput()
	return string(out)
}

// box finds the one rounded box on screen: its size, and how many boxes
// and tmux borders there are.
type box struct {
	W, H, Corners, TmuxCorners int
}

func findBox(screen string) box {
	var b box
	top := -1
	for i, l := range strings.Split(screen, "\n") {
		b.Corners += strings.Count(l, "╭")
		b.TmuxCorners += strings.Count(l, "┌") + strings.Count(l, "└")
		if at := strings.Index(l, "╭"); at >= 0 && top < 0 {
			top = i
			b.W = utf8.RuneCountInString(l[at:strings.LastIndex(l, "╮")]) + 1
		}
		if strings.Contains(l, "╰") && top >= 0 && b.H == 0 {
			b.H = i - top + 1
		}
	}
	return b
}

// fitFor is the popup size askuser mcp gives args on a w×h client: what
// tui.Popup.Fit says for the session the core makes of them.
func fitFor(t *testing.T, args string, w, h int) (int, int) {
	t.Helper()
	var fw, fh int
	r := ask.RendererFunc[*contract.Request, []contract.Answer](func(_ context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
		p, err := tui.NewPopup(ask.AskUser, s, nil)
		if err != nil {
			return ask.Outcome[[]contract.Answer]{}, err
		}
		fw, fh = p.Fit(w, h)
		return ask.Outcome[[]contract.Answer]{Dismissed: true}, nil
	})
	toggle := "alt+o"
	host := ask.NewHost(ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, r), &ask.HostOptions{Options: prefs.Prefs{Mode: contract.RouteCustom, ToggleKey: &toggle}})
	if res := ask.AskJSON(context.Background(), ask.NewAsker(host, nil), ask.AskUser, []byte(args), nil); res.Status != contract.StatusAborted {
		t.Fatalf("sizing the popup: %+v", res)
	}
	return fw, fh
}

const shapeQuestion = `{"timeoutPerQuestionMs":120000,"questions":[{"title":"Pick a colour","options":[{"label":"red"},{"label":"green"}]}]}`

// The popup is the dialog's own size, with one border; the toggle key
// closes it and uncovers the agent's pane, the same key brings it back
// with the answer in progress, and the key's own binding is back after.
func TestPopupShapeAndHide(t *testing.T) {
	if testing.Short() {
		t.Skip("the popup test runs a real tmux; skipped in -short mode")
	}
	c := startTmuxServer(t)
	// The user's own binding of the toggle key, and the agent's screen.
	c.run("bind-key", "-T", "root", "M-o", "display-message", "the user's own M-o")
	before := c.run("list-keys", "-T", "root", "M-o")
	c.run("send-keys", "-t", c.pane, "echo AGENT-SCREEN-MARK", "Enter")
	o := attachOuter(c)
	o.waitText("AGENT-SCREEN-MARK\n")

	cs := c.serverInTmux()
	done := callAsync(context.Background(), cs, shapeQuestion)
	s := o.waitText("Pick a colour", "green", "esc dismiss")
	wantW, wantH := fitFor(t, shapeQuestion, 100, 30)
	got := findBox(s)
	if diff := cmp.Diff(box{W: wantW, H: wantH, Corners: 1}, got); diff != "" {
		t.Errorf("the popup on screen (-want +got):\n%s\n%s", diff, s)
	}
	if wantW >= 100 || wantH >= 30 {
		t.Errorf("the popup is %d×%d, as large as the 100×30 client", wantW, wantH)
	}

	// Choose green and write a note, then hide.
	o.keys("Down")
	o.keys("Space")
	o.keys("-l", "keep me")
	o.waitText("keep me")
	o.keys("M-o")
	// tmux shows how to bring the dialog back over the uncovered pane.
	o.waitFor("the pane uncovered, with tmux's message", func(s string) bool {
		return !strings.Contains(s, "Pick a colour") && strings.Contains(s, "AGENT-SCREEN-MARK\n") && strings.Contains(s, "askuser: the questions are hidden; alt+o shows them again")
	})
	o.until("M-o bound to the popup", func() bool { return strings.Contains(binding(c, "M-o"), "--socket") })

	// The same key brings the dialog back as it was.
	o.keys("M-o")
	o.waitText("Pick a colour", "keep me")
	if b := c.run("list-keys", "-T", "root", "M-o"); b != before {
		t.Errorf("with the dialog back, M-o is bound to %q; want the user's %q", b, before)
	}
	o.keys("Enter")
	res := waitResult(t, done)
	want := contract.Result{Status: contract.StatusAnswered, Route: contract.RouteCustom, Answers: []contract.Answer{
		{Index: 0, ID: "q1", Title: "Pick a colour", Kind: contract.KindSingle, Selections: []string{"green"}, FreeText: "keep me"},
	}}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	o.waitFor("the popup gone", func(s string) bool { return !strings.Contains(s, "Pick a colour") })
	if b := c.run("list-keys", "-T", "root", "M-o"); b != before {
		t.Errorf("after the call, M-o is bound to %q; want the user's %q", b, before)
	}
	c.noSocketDir()
	o.until("no askuser popup process left", func() bool { return len(popupProcesses(t)) == 0 })
}

// A call that ends while its dialog is hidden removes the binding: a key
// that had none has none again, and one that the user bound anew while
// it was hidden keeps the user's binding.
func TestPopupEndsWhileHidden(t *testing.T) {
	if testing.Short() {
		t.Skip("the popup test runs a real tmux; skipped in -short mode")
	}
	for _, tc := range []struct {
		name                   string
		rebind, again, sigterm bool
	}{
		{name: "no binding before"},
		{name: "bound anew while hidden", rebind: true},
		{name: "shown again", again: true},
		{name: "the server stopped by SIGTERM", sigterm: true},
	} {
		rebind := tc.rebind
		t.Run(tc.name, func(t *testing.T) {
			c := startTmuxServer(t)
			o := attachOuter(c)
			var server *exec.Cmd
			cs := c.serverInTmuxCmd(&server, nil)
			done := callAsync(context.Background(), cs, `{"timeoutPerQuestionMs":5000,"questions":[{"title":"Pick a colour","options":[{"label":"red"}]}]}`)
			o.waitText("Pick a colour")
			o.keys("M-o")
			o.waitFor("the dialog hidden", func(s string) bool { return !strings.Contains(s, "Pick a colour") })
			o.until("M-o bound to the popup", func() bool { return strings.Contains(binding(c, "M-o"), "--socket") })
			want := "unknown key"
			if rebind {
				c.run("bind-key", "-T", "root", "M-o", "display-message", "mine now")
				want = binding(c, "M-o")
			}
			if tc.again {
				// The popup the binding opened closes when the call ends.
				o.keys("M-o")
				o.waitText("Pick a colour")
			}
			if tc.sigterm {
				if err := server.Process.Signal(syscall.SIGTERM); err != nil {
					t.Fatal(err)
				}
				waitCall(t, done)
			} else if res := waitResult(t, done); res.Status != contract.StatusTimeout {
				t.Errorf("got %+v; want a timeout, the deadline running while hidden", res)
			}
			// The core settles the call at once; the popup's cleanup follows.
			o.until("the socket directory removed", func() bool {
				left, _ := filepath.Glob(filepath.Join(c.tmp, "askuser-popup-*"))
				return len(left) == 0
			})
			if got := binding(c, "M-o"); !strings.Contains(got, want) {
				t.Errorf("after the call, M-o is %q; want %q", got, want)
			}
			o.waitFor("the popup gone", func(s string) bool { return !strings.Contains(s, "Pick a colour") })
			o.until("no askuser popup process left", func() bool { return len(popupProcesses(t)) == 0 })
		})
	}
}

// A server whose pane has gone says so when a call comes, rather than
// showing its popup on whatever tmux picks.
func TestPopupPaneGone(t *testing.T) {
	if testing.Short() {
		t.Skip("the popup test runs a real tmux; skipped in -short mode")
	}
	c := startTmux(t)
	cs := c.serverInTmux()
	// Another window keeps the session, and its client, alive.
	c.run("new-window", "-d", "sh")
	c.run("kill-pane", "-t", c.pane)
	got := waitCall(t, callAsync(context.Background(), cs, popupQuestion))
	if got.err != nil {
		t.Fatal(got.err)
	}
	r := result(t, got.res)
	if r.Status != contract.StatusError || r.Error.Code != contract.ErrCustomUIFailed || !strings.Contains(r.Error.Message, "tmux pane "+c.pane+", where askuser was started, no longer exists") {
		t.Errorf("got %+v (%v); want custom_ui_failed saying the pane is gone", r, r.Error)
	}
	noStrayPopup(c)
}
