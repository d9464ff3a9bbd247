package popup

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/tui"
)

// The bindings of hidden dialogs' key stack up: one given up under a
// newer one stays until the newer one goes, and then both are undone,
// newest first, so that the key ends up as the user had it.
func TestRendererKeyBindings(t *testing.T) {
	tests := []struct {
		name  string
		order []int    // the bindings given up, by index
		want  []string // the undos run after each
	}{
		{"newest first", []int{1, 0}, []string{"b", "b a"}},
		{"oldest first", []int{0, 1}, []string{"", "b a"}},
		{"middle first", []int{1, 2, 0}, []string{"", "c b", "c b a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRenderer(&fakeLauncher{}, nil, nil)
			var undone []string
			var bs []*binding
			for _, name := range []string{"a", "b", "c"}[:len(tt.order)] {
				bs = append(bs, r.bound(func() error { undone = append(undone, name); return nil }))
			}
			var got []string
			for _, i := range tt.order {
				r.unbind(bs[i])
				got = append(got, strings.Join(undone, " "))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("undone after each (-want +got):\n%s", diff)
			}
		})
	}
}

// A hidden dialog leaves the screen to a newer call, whose popup opens at
// once; brought back after it, the old dialog first says that a newer
// question came, and shows its questions only after Enter.
func TestRendererOvertaken(t *testing.T) {
	hidden := make(chan string, 1) // the socket of the hidden dialog
	var mu sync.Mutex
	launches := 0
	l := launcherFunc(func(ctx context.Context, sock string, w *fakeWindow) {
		mu.Lock()
		launches++
		mu.Unlock()
		if conn := helperConn(t, ctx, sock, nil); conn != nil {
			defer conn.Close()
			<-conn.Gone()
		}
	})
	l.hide = func(sock, key string) { hidden <- sock }
	var shownAgain bool
	older := &fakeDialog{shows: []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){
		hideShow,
		func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error) {
			shownAgain = true
			return ask.Outcome[[]contract.Answer]{Dismissed: true}, nil
		},
	}}
	newer := &fakeDialog{shows: []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){answerShow(ask.Outcome[[]contract.Answer]{Dismissed: true})}}
	dialogs := []*fakeDialog{older, newer}
	r := NewRenderer(l, nil, &Options{Dialog: func(*ask.Session[*contract.Request]) (Dialog, error) {
		d := dialogs[0]
		dialogs = dialogs[1:]
		return d, nil
	}})
	first := make(chan error, 1)
	go func() {
		_, err := r.Render(context.Background(), session(t))
		first <- err
	}()
	var sock string
	select {
	case sock = <-hidden:
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the first dialog was never hidden")
	}
	// The newer call opens at once, while the first dialog is hidden.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if out, err := r.Render(ctx, session(t)); err != nil || !out.Dismissed {
		t.Fatalf("the newer render = %+v, %v; want it shown and dismissed", out, err)
	}
	// The user brings the first dialog back.
	ptm, pts, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptm.Close()
	defer pts.Close()
	if err := pty.Setsize(ptm, &pty.Winsize{Cols: 70, Rows: 12}); err != nil {
		t.Fatal(err)
	}
	conn, err := Dial(context.Background(), sock, pts, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	go func() {
		// The helper exits once the renderer is done with it.
		<-conn.Gone()
		conn.Close()
	}()
	var drawn bytes.Buffer
	buf := make([]byte, 4096)
	for !strings.Contains(drawn.String(), "Enter  answer it anyway") {
		n, err := ptm.Read(buf)
		if err != nil {
			t.Fatalf("reading the popup: %v; drawn so far %q", err, drawn.String())
		}
		drawn.Write(buf[:n])
	}
	if !strings.Contains(drawn.String(), "The agent asked a newer question after this one.") {
		t.Errorf("the notice is not drawn: %q", drawn.String())
	}
	if shownAgain {
		t.Fatal("the questions showed before the user answered the notice")
	}
	ptm.WriteString("\r")
	select {
	case err := <-first:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the first render did not end")
	}
	if !shownAgain {
		t.Error("Enter at the notice did not show the questions")
	}
	if launches != 2 {
		t.Errorf("%d launches, want 2", launches)
	}
	if l.undos != 1 {
		t.Errorf("%d undos of the key binding, want 1", l.undos)
	}
}

// The notice takes Enter as yes, and Esc alone or Ctrl+C as no, however
// the keys come in a read; other keys and escape sequences change
// nothing.
func TestDecide(t *testing.T) {
	tests := []struct {
		in          string
		ok, decided bool
	}{
		{"\r", true, true},
		{"\n", true, true},
		{"\x1b", false, true},
		{"\x03", false, true},
		{"x", false, false},
		{"\x1b[A", false, false},
		{"\x1bOB", false, false},
		{"\x1bo", false, false},
		{"\x1b[1;3A", false, false},
		{"x\x1b[A\r", true, true},
		{"\x1b[A\x1b", false, true},
		{"\x1bo\x03", false, true},
		{"", false, false},
	}
	for _, tt := range tests {
		ok, decided := decide([]byte(tt.in))
		if ok != tt.ok || decided != tt.decided {
			t.Errorf("decide(%q) = %v, %v; want %v, %v", tt.in, ok, decided, tt.ok, tt.decided)
		}
	}
}

// confirm draws its lines and returns what the keys typed on the
// terminal decide.
func TestConfirm(t *testing.T) {
	tests := []struct {
		keys string
		want bool
	}{
		{"x\x1b[A\r", true},
		{"\x1b", false},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.keys, "\x1b", "ESC"), func(t *testing.T) {
			ptm, pts, err := pty.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer ptm.Close()
			defer pts.Close()
			if err := pty.Setsize(ptm, &pty.Winsize{Cols: 70, Rows: 12}); err != nil {
				t.Fatal(err)
			}
			drawn := make(chan string, 1)
			go func() {
				var b bytes.Buffer
				buf := make([]byte, 4096)
				for !strings.Contains(b.String(), "Esc    dismiss it") {
					n, err := ptm.Read(buf)
					if err != nil {
						break
					}
					b.Write(buf[:n])
				}
				drawn <- b.String()
				ptm.WriteString(tt.keys)
			}()
			got, err := confirm(context.Background(), tui.Terminal{File: pts}, overtakenNotice)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("confirm = %v, want %v", got, tt.want)
			}
			if s := <-drawn; !strings.Contains(s, "╭") || !strings.Contains(s, overtakenNotice[0]) {
				t.Errorf("the notice drawn is %q", s)
			}
		})
	}
}

// A dialog brought back by its key has a popup the renderer did not
// launch; once it is answered, the next call's popup opens only after
// that popup's helper has gone, as it does after a launched popup.
func TestRendererWaitsForKeyPopup(t *testing.T) {
	var keyHelperGone atomic.Bool
	var mu sync.Mutex
	var goneAtLaunch []bool
	launched := make(chan struct{}, 2)
	fl := launcherFunc(func(ctx context.Context, sock string, w *fakeWindow) {
		mu.Lock()
		goneAtLaunch = append(goneAtLaunch, keyHelperGone.Load())
		mu.Unlock()
		launched <- struct{}{}
		if conn := helperConn(t, ctx, sock, nil); conn != nil {
			defer conn.Close()
			<-conn.Gone()
		}
	})
	l := telling(fl)
	fl.hide = func(sock, key string) {
		// The key's popup: its helper exits when the renderer is done.
		if conn := helperConn(t, context.Background(), sock, nil); conn != nil {
			<-conn.Gone()
			// The popup closes only once the next call's render waits
			// for it, or opened its own too early.
			select {
			case <-launched:
			case <-l.told:
			case <-time.After(testkit.Patience(t)):
				t.Error("the next call's render neither waited nor launched")
			}
			keyHelperGone.Store(true)
			conn.Close()
		}
	}
	showing, answer := make(chan struct{}), make(chan struct{})
	older := &fakeDialog{shows: []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){
		hideShow,
		func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error) {
			close(showing)
			<-answer
			return ask.Outcome[[]contract.Answer]{Dismissed: true}, nil
		},
	}}
	newer := &fakeDialog{shows: []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){answerShow(ask.Outcome[[]contract.Answer]{Dismissed: true})}}
	var dmu sync.Mutex
	dialogs := []*fakeDialog{older, newer}
	r := NewRenderer(l, nil, &Options{Dialog: func(*ask.Session[*contract.Request]) (Dialog, error) {
		dmu.Lock()
		defer dmu.Unlock()
		d := dialogs[0]
		dialogs = dialogs[1:]
		return d, nil
	}})
	first := make(chan error, 1)
	go func() {
		_, err := r.Render(context.Background(), session(t))
		first <- err
	}()
	select {
	case <-showing:
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the hidden dialog never came back")
	}
	<-launched // the first popup's
	second := make(chan error, 1)
	go func() {
		_, err := r.Render(context.Background(), session(t))
		second <- err
	}()
	close(answer)
	for _, ch := range []chan error{first, second} {
		if err := <-ch; err != nil {
			t.Fatal(err)
		}
	}
	l.wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]bool{false, true}, goneAtLaunch); diff != "" {
		t.Errorf("the key's popup gone at each launch (-want +got):\n%s", diff)
	}
}
