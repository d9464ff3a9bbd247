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

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/fuzzbound"
	"github.com/askuser/askuser/internal/jsonline"
	"github.com/google/go-cmp/cmp"
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

// launcherFunc runs helper(socket) as the popup's command.
type launcherFunc func(ctx context.Context, sock string, w *fakeWindow)

func (f launcherFunc) Launch(ctx context.Context, argv []string) (Window, error) {
	w := &fakeWindow{done: make(chan struct{}), closed: make(chan struct{})}
	sock := argv[len(argv)-1]
	go func() {
		defer close(w.done)
		f(ctx, sock, w)
	}()
	return w, nil
}

func session(t *testing.T) *ask.Session {
	req, _, err := contract.Parse([]byte(`{"questions":[{"title":"Pick","options":[{"label":"A"},{"label":"B"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return &ask.Session{Request: req, Display: contract.DisplayOverlay, ToggleKey: "alt+o"}
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
			jsonline.Write(c, Hello{Token: "guess"})
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			if n, _ := c.Read(make([]byte, 1)); n != 0 {
				t.Error("the renderer answered a wrong token")
			}
			c.Close()
		}
		conn, job, err := Dial(ctx, sock)
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		if job.Display != contract.DisplayOverlay || job.ToggleKey != "alt+o" || len(job.Request.Questions) != 1 {
			t.Errorf("job %+v", job)
		}
		conn.Report(Report{Type: ReportOutcome, Answers: []contract.Answer{want}})
		<-conn.Gone()
	})
	out, err := NewRenderer(l, []string{"helper"}).Render(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ask.Outcome{Answers: []contract.Answer{want}}, out); diff != "" {
		t.Errorf("outcome (-want +got):\n%s", diff)
	}
	if perms != [2]os.FileMode{0o700, 0o600} {
		t.Errorf("directory and socket modes %v; want 0700 and 0600", perms)
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
			conn, _, err := Dial(context.Background(), sock)
			if err != nil {
				t.Error(err)
				return
			}
			conn.Close()
		}, "the popup closed without an answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := launcherFunc(func(_ context.Context, sock string, _ *fakeWindow) { tt.helper(t, sock) })
			_, err := NewRenderer(l, nil).Render(context.Background(), session(t))
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
		conn, _, err := Dial(context.Background(), sock)
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		if n == 1 {
			close(connected)
			<-release // the first popup is slow to close
			return
		}
		conn.Report(Report{Type: ReportOutcome, Dismissed: true})
		<-conn.Gone()
	})
	r := NewRenderer(l, nil)
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
	// The second popup must not appear while the first is open. Nothing
	// signals that the second render is waiting, so give it a moment to
	// launch wrongly before the first popup closes.
	select {
	case <-launched:
	case <-time.After(200 * time.Millisecond):
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
		r := NewRenderer(l, nil)
		if busy {
			r.busy <- struct{}{}
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
		conn, _, err := Dial(context.Background(), sock)
		if err != nil {
			t.Error(err)
			return
		}
		cancel()
		select {
		case <-conn.Gone():
			gone <- true
		case <-time.After(10 * time.Second):
			gone <- false
		}
	})
	_, err := NewRenderer(l, nil).Render(ctx, session(t))
	if err == nil {
		t.Error("a cancelled render returned no error")
	}
	if !<-gone {
		t.Error("the helper was not told to stop")
	}
}

func TestDecodeReport(t *testing.T) {
	tests := []struct {
		line, err string
	}{
		{`{"type":"countdownCancelled"}`, ""},
		{`{"type":"outcome","dismissed":true}`, ""},
		{`{"type":"outcome","answers":[]}`, ""},
		{`{"type":"outcome"}`, "needs answers or dismissed"},
		{`{"type":"outcome","dismissed":true,"answers":[{"index":0,"id":"q1","title":"t","kind":"input","selections":[],"usedDefault":false}]}`, "has no answers"},
		{`{"type":"error"}`, "needs a message"},
		{`{"type":"what"}`, "unknown report type"},
		{`{"type":"error","message":"x","extra":1}`, "unknown field"},
		{`{"type":"error","message":"x"} {}`, "data after"},
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

func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"type":"outcome","dismissed":true}`, `{"request":{"questions":[{"title":"x"}]},"display":"overlay","toggleKey":"","remainingMs":5}`, `{}`, `[`} {
		f.Add(s)
	}
	for _, n := range fuzzbound.Numbers() {
		for _, s := range []string{
			`{"request":{"questions":[{"title":"x"}],"timeoutPerQuestionMs":` + n + `},"display":"overlay","toggleKey":"","remainingMs":` + n + `}`,
			`{"type":"outcome","answers":[{"index":` + n + `,"id":"q1","title":"x","kind":"single","selections":["a"],"usedDefault":false}]}`,
		} {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, line string) {
		fuzzbound.Run(t, line, func() {
			if r, err := DecodeReport([]byte(line)); err == nil && r.Type == "" {
				t.Errorf("accepted %q without a type", line)
			}
			if j, err := DecodeJob([]byte(line)); err == nil {
				if err := contract.CheckAnswers(j.Request, nil); err == nil {
					t.Errorf("accepted %q with no questions", line)
				}
			}
		})
	})
}

// FuzzHello reads a connection's first bytes as a hello. It must never
// panic or hang, and must let in only a hello line carrying the token.
func FuzzHello(f *testing.F) {
	f.Add(`{"token":"` + goodToken + `"}` + "\n")
	for _, h := range hostileHellos {
		if len(h.in) <= 64<<10 {
			f.Add(h.in)
		}
	}
	for _, n := range fuzzbound.Numbers() {
		f.Add(`{"token":` + n + `}` + "\n")
	}
	f.Fuzz(func(t *testing.T, in string) {
		fuzzbound.Run(t, in, func() {
			if err := readHello(strings.NewReader(in), goodToken); err == nil {
				line, _, ok := strings.Cut(in, "\n")
				var h Hello
				if !ok || json.Unmarshal([]byte(line), &h) != nil || h.Token != goodToken {
					t.Errorf("let in %q", in)
				}
			}
		})
	})
}
