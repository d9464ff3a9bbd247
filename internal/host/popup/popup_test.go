package popup

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/testkit"
	"github.com/charmbracelet/x/term"
	"github.com/creack/pty"
	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/strictjson"
	"github.com/askuser/askuser/tui"
)

// fakeWindow is a popup whose "command" runs in a goroutine.
type fakeWindow struct {
	done   chan struct{}
	closed chan struct{}
}

func (w *fakeWindow) Done() <-chan struct{} { return w.done }
func (w *fakeWindow) Err() error            { return nil }
func (w *fakeWindow) Close() error {
	select {
	case <-w.closed:
	default:
		close(w.closed)
	}
	<-w.done
	return nil
}

// fakeLauncher runs launch(ctx, sock) as the popup's command, and records
// what Hide is asked.
type fakeLauncher struct {
	launch  func(ctx context.Context, sock string, w *fakeWindow)
	noHide  bool                   // Hideable refuses every key
	hide    func(sock, key string) // called by Hide, in a goroutine
	mu      sync.Mutex
	sizes   [][2]int // what fit gave each launch and hide
	hides   []string // the keys Hide bound
	undos   int
	hideErr error
	wg      sync.WaitGroup // the hide goroutines
}

func (l *fakeLauncher) Launch(ctx context.Context, argv []string, fit func(int, int) (int, int)) (Window, error) {
	w, h := fit(100, 30)
	l.mu.Lock()
	l.sizes = append(l.sizes, [2]int{w, h})
	l.mu.Unlock()
	win := &fakeWindow{done: make(chan struct{}), closed: make(chan struct{})}
	sock := argv[len(argv)-1]
	go func() {
		defer close(win.done)
		l.launch(ctx, sock, win)
	}()
	return win, nil
}

func (l *fakeLauncher) Hideable(key string) error {
	if l.noHide {
		return errors.New("no such key here")
	}
	return nil
}

func (l *fakeLauncher) Hide(argv []string, fit func(int, int) (int, int), key string) (func() error, error) {
	if l.hideErr != nil {
		return nil, l.hideErr
	}
	w, h := fit(100, 30)
	l.mu.Lock()
	l.sizes = append(l.sizes, [2]int{w, h})
	l.hides = append(l.hides, key)
	l.mu.Unlock()
	if l.hide != nil {
		l.wg.Go(func() { l.hide(argv[len(argv)-1], key) })
	}
	return func() error {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.undos++
		return nil
	}, nil
}

func launcherFunc(f func(ctx context.Context, sock string, w *fakeWindow)) *fakeLauncher {
	return &fakeLauncher{launch: f}
}

// tellingLauncher is a fakeLauncher that is a Teller: told gets each
// message, which a render tells once it finds another popup shown and
// waits for the screen.
type tellingLauncher struct {
	*fakeLauncher
	told chan string
}

func telling(l *fakeLauncher) tellingLauncher { return tellingLauncher{l, make(chan string, 4)} }

func (l tellingLauncher) Tell(msg string) error {
	l.told <- msg
	return nil
}

// fakeDialog answers each Show with the next of its shows.
type fakeDialog struct {
	s     *ask.Session[*contract.Request]
	mu    sync.Mutex
	shows []func(ctx context.Context, t tui.Terminal) (ask.Outcome[[]contract.Answer], error)
	n     int
}

func (d *fakeDialog) Fit(maxW, maxH int) (int, int) { return min(maxW, 50), min(maxH, 12) }

func (d *fakeDialog) Show(ctx context.Context, t tui.Terminal) (ask.Outcome[[]contract.Answer], error) {
	d.mu.Lock()
	i := d.n
	d.n++
	d.mu.Unlock()
	if i < len(d.shows) {
		return d.shows[i](ctx, t)
	}
	<-ctx.Done()
	return ask.Outcome[[]contract.Answer]{}, context.Cause(ctx)
}

// waitShow is a Show that lasts until ctx is done.
func waitShow(ctx context.Context, _ tui.Terminal) (ask.Outcome[[]contract.Answer], error) {
	<-ctx.Done()
	return ask.Outcome[[]contract.Answer]{}, context.Cause(ctx)
}

func answerShow(out ask.Outcome[[]contract.Answer]) func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error) {
	return func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error) { return out, nil }
}

func hideShow(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error) {
	return ask.Outcome[[]contract.Answer]{}, tui.ErrHidden
}

// withDialog returns options whose Dialog is d, recording the session.
func withDialog(d *fakeDialog) *Options {
	return &Options{Dialog: func(s *ask.Session[*contract.Request]) (Dialog, error) { d.s = s; return d, nil }}
}

func session(t *testing.T) *ask.Session[*contract.Request] {
	req, _, err := contract.Parse([]byte(`{"questions":[{"title":"Pick","options":[{"label":"A"},{"label":"B"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return &ask.Session[*contract.Request]{Request: req, Display: contract.DisplayOverlay, ToggleKey: "alt+o"}
}

// openPTY returns a terminal for a fake helper to hand over.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	ptm, pts, err := pty.Open()
	if err != nil {
		t.Fatalf("opening a pty: %v", err)
	}
	t.Cleanup(func() { ptm.Close(); pts.Close() })
	return pts
}

// helperConn dials sock as the helper does, reporting a failure to t.
func helperConn(t *testing.T, ctx context.Context, sock string, env []string) *Conn {
	conn, err := Dial(ctx, sock, openPTY(t), env)
	if err != nil {
		t.Error(err)
		return nil
	}
	return conn
}

func TestRendererAnswer(t *testing.T) {
	s := session(t)
	want := contract.NewAnswer(s.Request, 0)
	want.Selections = []string{"B"}
	var perms [2]os.FileMode
	l := launcherFunc(func(ctx context.Context, sock string, w *fakeWindow) {
		if st, err := os.Stat(filepath.Dir(sock)); err == nil {
			perms[0] = st.Mode().Perm()
		}
		if st, err := os.Stat(sock); err == nil {
			perms[1] = st.Mode().Perm()
		}
		// A stranger without the token is turned away.
		if c, err := net.Dial("unix", sock); err == nil {
			strictjson.WriteLine(c, Hello{Token: "guess"})
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			if n, _ := c.Read(make([]byte, 1)); n != 0 {
				t.Error("the renderer answered a wrong token")
			}
			c.Close()
		}
		if conn := helperConn(t, ctx, sock, []string{"TERM=xterm-256color"}); conn != nil {
			defer conn.Close()
			<-conn.Gone()
		}
	})
	var got tui.Terminal
	d := &fakeDialog{shows: []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){
		func(_ context.Context, tt tui.Terminal) (ask.Outcome[[]contract.Answer], error) {
			got = tt
			if !term.IsTerminal(tt.File.Fd()) {
				t.Error("the dialog's file is not a terminal")
			}
			return ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{want}}, nil
		},
	}}
	out, err := NewRenderer(l, []string{"helper"}, withDialog(d)).Render(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{want}}, out); diff != "" {
		t.Errorf("outcome (-want +got):\n%s", diff)
	}
	if perms != [2]os.FileMode{0o700, 0o600} {
		t.Errorf("directory and socket modes %v; want 0700 and 0600", perms)
	}
	if diff := cmp.Diff([]string{"TERM=xterm-256color"}, got.Environ); diff != "" {
		t.Errorf("the terminal's environment (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([][2]int{{50, 12}}, l.sizes); diff != "" {
		t.Errorf("popup sizes (-want +got):\n%s", diff)
	}
}

// Hiding closes the popup and asks the launcher to bind the key; the
// next popup shows the same dialog, and the binding is undone as soon as
// it connects.
func TestRendererHide(t *testing.T) {
	s := session(t)
	l := launcherFunc(func(ctx context.Context, sock string, w *fakeWindow) {
		if conn := helperConn(t, ctx, sock, nil); conn != nil {
			defer conn.Close()
			<-conn.Gone() // closed on hide: the popup closes
		}
	})
	var undosAtSecond int
	l.hide = func(sock, key string) {
		// The user presses the key: the binding starts a helper.
		if conn := helperConn(t, context.Background(), sock, nil); conn != nil {
			defer conn.Close()
			<-conn.Gone()
		}
	}
	d := &fakeDialog{}
	d.shows = append(d.shows, hideShow, func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error) {
		l.mu.Lock()
		undosAtSecond = l.undos
		l.mu.Unlock()
		return ask.Outcome[[]contract.Answer]{Dismissed: true}, nil
	})
	out, err := NewRenderer(l, []string{"helper"}, withDialog(d)).Render(context.Background(), s)
	l.wg.Wait()
	if err != nil || !out.Dismissed {
		t.Fatalf("Render = %+v, %v; want dismissed", out, err)
	}
	if diff := cmp.Diff([]string{"alt+o"}, l.hides); diff != "" {
		t.Errorf("keys bound (-want +got):\n%s", diff)
	}
	if undosAtSecond != 1 || l.undos != 1 {
		t.Errorf("undone %d times when shown again, %d in all; want 1 and 1", undosAtSecond, l.undos)
	}
	if d.n != 2 {
		t.Errorf("the dialog was shown %d times; want 2, the same dialog both times", d.n)
	}
}

// A call that ends while the dialog is hidden undoes the binding.
func TestRendererEndsHidden(t *testing.T) {
	l := launcherFunc(func(ctx context.Context, sock string, w *fakeWindow) {
		if conn := helperConn(t, ctx, sock, nil); conn != nil {
			defer conn.Close()
			<-conn.Gone()
		}
	})
	ctx, cancel := context.WithCancelCause(context.Background())
	why := errors.New("the call timed out")
	l.hide = func(string, string) { cancel(why) }
	d := &fakeDialog{shows: []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){hideShow}}
	_, err := NewRenderer(l, nil, withDialog(d)).Render(ctx, session(t))
	l.wg.Wait()
	if !errors.Is(err, why) {
		t.Errorf("Render = %v; want %v", err, why)
	}
	if l.undos != 1 {
		t.Errorf("undone %d times; want once", l.undos)
	}
}

// A dialog that cannot be brought back fails the call, saying why.
func TestRendererHideFails(t *testing.T) {
	l := launcherFunc(func(ctx context.Context, sock string, w *fakeWindow) {
		if conn := helperConn(t, ctx, sock, nil); conn != nil {
			defer conn.Close()
			<-conn.Gone()
		}
	})
	l.hideErr = errors.New("tmux bind-key: no server")
	d := &fakeDialog{shows: []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){hideShow}}
	_, err := NewRenderer(l, nil, withDialog(d)).Render(context.Background(), session(t))
	if err == nil || err.Error() != "the user hid the dialog, and it cannot be brought back: tmux bind-key: no server" {
		t.Errorf("Render = %v", err)
	}
}

// A toggle key the launcher cannot bind is not offered.
func TestRendererKeyNotHideable(t *testing.T) {
	l := launcherFunc(func(ctx context.Context, sock string, w *fakeWindow) {
		if conn := helperConn(t, ctx, sock, nil); conn != nil {
			defer conn.Close()
			<-conn.Gone()
		}
	})
	l.noHide = true
	d := &fakeDialog{shows: []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){answerShow(ask.Outcome[[]contract.Answer]{Dismissed: true})}}
	s := session(t)
	if _, err := NewRenderer(l, nil, withDialog(d)).Render(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if d.s.ToggleKey != "" || s.ToggleKey != "alt+o" {
		t.Errorf("the dialog's toggle %q, the caller's %q; want none, and the caller's unchanged", d.s.ToggleKey, s.ToggleKey)
	}
}

func TestRendererPopupClosed(t *testing.T) {
	tests := []struct {
		name   string
		helper func(t *testing.T, sock string)
		want   string
	}{
		// tmux display-popup exits at once, and succeeds, when the
		// terminal already shows a popup.
		{"before the helper connected", func(*testing.T, string) {}, ErrPopupBusy.Error()},
		{"after the helper connected", func(t *testing.T, sock string) {
			if conn := helperConn(t, context.Background(), sock, nil); conn != nil {
				conn.Close()
			}
		}, "the popup closed without an answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := launcherFunc(func(_ context.Context, sock string, _ *fakeWindow) { tt.helper(t, sock) })
			d := &fakeDialog{shows: []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){waitShow}}
			_, err := NewRenderer(l, nil, withDialog(d)).Render(context.Background(), session(t))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("error %q; want %q", got, tt.want)
			}
		})
	}
}

// TestRendererOnePopupAtATime checks that a render does not launch its
// popup while the popup of the one before it, which the core abandons on
// a timeout or an abort, is still closing.
func TestRendererOnePopupAtATime(t *testing.T) {
	var mu sync.Mutex
	open, launches := 0, 0
	connected, release := make(chan struct{}), make(chan struct{})
	launched := make(chan struct{}, 2)
	l := launcherFunc(func(_ context.Context, sock string, w *fakeWindow) {
		mu.Lock()
		if open > 0 {
			t.Error("a popup was launched while another was still open")
		}
		open++
		launches++
		n := launches
		mu.Unlock()
		defer func() {
			mu.Lock()
			open--
			mu.Unlock()
		}()
		launched <- struct{}{}
		conn := helperConn(t, context.Background(), sock, nil)
		if conn == nil {
			return
		}
		defer conn.Close()
		if n == 1 {
			close(connected)
			<-release // the first popup is slow to close
			return
		}
		<-conn.Gone()
	})
	tl := telling(l)
	dialogs := 0 // the first render's dialog waits, the second's answers
	r := NewRenderer(tl, nil, &Options{Dialog: func(*ask.Session[*contract.Request]) (Dialog, error) {
		dialogs++
		if dialogs == 1 {
			return &fakeDialog{shows: []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){waitShow}}, nil
		}
		return &fakeDialog{shows: []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){answerShow(ask.Outcome[[]contract.Answer]{Dismissed: true})}}, nil
	}})
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, err := r.Render(ctx, session(t))
		first <- err
	}()
	<-launched
	<-connected
	cancel() // the core gives up on the first call and starts the next
	second := make(chan error, 1)
	go func() {
		_, err := r.Render(context.Background(), session(t))
		second <- err
	}()
	// The second popup must not appear while the first is open: the
	// second render tells the user that it waits, and only then may the
	// first popup close.
	select {
	case <-tl.told:
	case <-launched:
		t.Error("the second render launched its popup instead of waiting")
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the second render neither waited nor launched")
	}
	close(release)
	<-first
	if err := <-second; err != nil {
		t.Errorf("second render: %v", err)
	}
}

// TestRendererDoneContext checks that a render whose context is done
// launches nothing, whether the popup is free or another one is open.
func TestRendererDoneContext(t *testing.T) {
	why := errors.New("the call timed out")
	for _, busy := range []bool{false, true} {
		launches := 0
		l := launcherFunc(func(context.Context, string, *fakeWindow) { launches++ })
		r := NewRenderer(l, nil, nil)
		if busy {
			r.screen <- struct{}{}
		}
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(why)
		_, err := r.Render(ctx, session(t))
		if !errors.Is(err, why) || launches != 0 {
			t.Errorf("busy %v: error %v after %d launches; want %v and none", busy, err, launches, why)
		}
	}
}

func TestRendererCancelClosesHelper(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	gone := make(chan bool, 1)
	l := launcherFunc(func(_ context.Context, sock string, w *fakeWindow) {
		conn := helperConn(t, context.Background(), sock, nil)
		if conn == nil {
			gone <- false
			return
		}
		cancel()
		select {
		case <-conn.Gone():
			gone <- true
		case <-time.After(testkit.Patience(t)):
			gone <- false
		}
	})
	d := &fakeDialog{shows: []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){waitShow}}
	_, err := NewRenderer(l, nil, withDialog(d)).Render(ctx, session(t))
	if err == nil {
		t.Error("a cancelled render returned no error")
	}
	if !<-gone {
		t.Error("the helper was not told to stop")
	}
}

// A resize report reaches the dialog.
func TestRendererResize(t *testing.T) {
	l := launcherFunc(func(ctx context.Context, sock string, w *fakeWindow) {
		if conn := helperConn(t, ctx, sock, nil); conn != nil {
			defer conn.Close()
			if err := conn.Resized(); err != nil {
				t.Error(err)
			}
			<-conn.Gone()
		}
	})
	d := &fakeDialog{shows: []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){
		func(_ context.Context, tt tui.Terminal) (ask.Outcome[[]contract.Answer], error) {
			<-tt.Resize
			return ask.Outcome[[]contract.Answer]{Dismissed: true}, nil
		},
	}}
	if _, err := NewRenderer(l, nil, withDialog(d)).Render(context.Background(), session(t)); err != nil {
		t.Fatal(err)
	}
}

func TestDecodeReport(t *testing.T) {
	tests := []struct {
		line, err string
	}{
		{`{"type":"resize"}`, ""},
		{`{"type":"outcome","dismissed":true}`, `unknown field "dismissed"`},
		{`{"type":"what"}`, `unknown report type "what"`},
		{`{}`, `unknown report type ""`},
		{`{"type":"resize","extra":1}`, "unknown field"},
		{`{"type":"resize"} {}`, "data after"},
	}
	for _, tt := range tests {
		_, err := DecodeReport([]byte(tt.line))
		if got := ""; err != nil {
			got = err.Error()
			if tt.err == "" || !strings.Contains(got, tt.err) {
				t.Errorf("%s: error %q; want %q", tt.line, got, tt.err)
			}
		} else if tt.err != "" {
			t.Errorf("%s: no error; want %q", tt.line, tt.err)
		}
	}
}

func TestCheckEnv(t *testing.T) {
	tests := []struct {
		env  []string
		want string
	}{
		{nil, ""},
		{[]string{"TERM=xterm-256color", "COLORTERM=truecolor", "NO_COLOR="}, ""},
		{[]string{"TERM"}, `popup: env[0] has no "="`},
		{[]string{"TERM=x", "PATH=/bin"}, `popup: env[1] names "PATH", which is not one of TERM, COLORTERM, NO_COLOR, CLICOLOR, CLICOLOR_FORCE, TERM_PROGRAM`},
		{[]string{"TERM=x", "TERM=y"}, "popup: env[1] names TERM a second time"},
		{[]string{"\x1b]0;x\a=1"}, `popup: env[0] names "␛]0;x␇", which is not one of TERM, COLORTERM, NO_COLOR, CLICOLOR, CLICOLOR_FORCE, TERM_PROGRAM`},
	}
	for _, tt := range tests {
		got := ""
		if err := checkEnv(tt.env); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("checkEnv(%q) = %q; want %q", tt.env, got, tt.want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"type":"resize"}`, `{"type":"outcome","dismissed":true}`, `{}`, `[`} {
		f.Add(s)
	}
	for _, n := range testkit.FuzzNumbers() {
		f.Add(`{"type":` + n + `}`)
	}
	f.Fuzz(func(t *testing.T, line string) {
		testkit.FuzzBound(t, line, func() {
			if r, err := DecodeReport([]byte(line)); err == nil && r.Type != ReportResize {
				t.Errorf("accepted %q as a %q report", line, r.Type)
			}
		})
	})
}

// FuzzHello reads a connection's first bytes as a hello. It must never
// panic or hang, and must let in only a hello line carrying the token and
// a good environment.
func FuzzHello(f *testing.F) {
	f.Add(`{"token":"` + goodToken + `"}` + "\n")
	f.Add(`{"token":"` + goodToken + `","env":["TERM=xterm"]}` + "\n")
	for _, h := range hostileHellos {
		if len(h.in) <= 64<<10 {
			f.Add(h.in)
		}
	}
	for _, n := range testkit.FuzzNumbers() {
		f.Add(`{"token":` + n + `}` + "\n")
	}
	f.Fuzz(func(t *testing.T, in string) {
		testkit.FuzzBound(t, in, func() {
			if _, err := readHello(strings.NewReader(in), goodToken); err == nil {
				line, _, ok := strings.Cut(in, "\n")
				var h Hello
				if !ok || json.Unmarshal([]byte(line), &h) != nil || h.Token != goodToken || checkEnv(h.Env) != nil {
					t.Errorf("let in %q", in)
				}
			}
		})
	})
}
