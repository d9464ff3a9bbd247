package popup

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/prefs"
	"github.com/askuser/askuser/tui"
)

// paneLauncher is a fakeLauncher whose popups open over a pane with a
// terminal: a pipe, or an error.
type paneLauncher struct {
	*fakeLauncher
	open func() (*os.File, error)
}

func (l paneLauncher) PaneTerminal() (*os.File, error) { return l.open() }

// TestRendererNotifiesThePane checks that the notifications go to the
// pane's terminal, opening and closing once, and that a pane terminal
// that cannot be opened is reported without changing the outcome.
func TestRendererNotifiesThePane(t *testing.T) {
	answer := func(s *ask.Session[*contract.Request]) []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error) {
		a := contract.NewAnswer(s.Request, 0)
		a.Selections = []string{"A"}
		return []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){answerShow(ask.Outcome[[]contract.Answer]{Answer: []contract.Answer{a}})}
	}
	helper := func(ctx context.Context, sock string, w *fakeWindow) {
		if conn := helperConn(t, ctx, sock, nil); conn != nil {
			defer conn.Close()
			<-conn.Gone()
		}
	}
	prefs := prefs.NotifyPrefs{Bell: true, Title: true, Desktop: prefs.DesktopOSC9}

	t.Run("written to the pane", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		s := session(t)
		s.Notify = prefs
		d := &fakeDialog{shows: answer(s)}
		opts := withDialog(d)
		opts.Environ = []string{"TERM=xterm-256color"}
		l := paneLauncher{launcherFunc(helper), func() (*os.File, error) { return w, nil }}
		if _, err := NewRenderer(l, []string{"helper"}, opts).Render(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r) // the renderer closed the write end
		if err != nil {
			t.Fatal(err)
		}
		want := "\a\x1b]9;askuser: question waiting: answer in the terminal\x1b\\\x1b[22;0t\x1b]2;askuser: question waiting\x1b\\\x1b[23;0t"
		if string(got) != want {
			t.Errorf("the pane got %q\nwant %q", got, want)
		}
	})
	t.Run("pane terminal missing", func(t *testing.T) {
		s := session(t)
		s.Notify = prefs
		d := &fakeDialog{shows: answer(s)}
		var warned []error
		opts := withDialog(d)
		opts.Warn = func(err error) { warned = append(warned, err) }
		l := paneLauncher{launcherFunc(helper), func() (*os.File, error) { return nil, errors.New("no such pane") }}
		out, err := NewRenderer(l, []string{"helper"}, opts).Render(context.Background(), s)
		if err != nil || len(out.Answer) != 1 {
			t.Fatalf("Render = %+v, %v", out, err)
		}
		if len(warned) != 1 || !strings.Contains(warned[0].Error(), "no such pane") {
			t.Errorf("warnings %v", warned)
		}
	})
	t.Run("all off opens nothing", func(t *testing.T) {
		s := session(t)
		d := &fakeDialog{shows: answer(s)}
		l := paneLauncher{launcherFunc(helper), func() (*os.File, error) {
			t.Error("the pane terminal was opened with every notification off")
			return nil, errors.New("unused")
		}}
		if _, err := NewRenderer(l, []string{"helper"}, withDialog(d)).Render(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	})
}
