package tui

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/prefs"
)

// pipeRenderer returns a Renderer reading keys from a pipe, and the pipe's
// write end.
func pipeRenderer(t *testing.T) (*Renderer, *os.File) {
	t.Helper()
	in, keys, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); keys.Close() })
	plain := PlainTheme()
	r := New(in, &testkit.Buffer{}, &Options{Theme: &plain, Width: 80, Height: 24, Environ: []string{"TERM=xterm-256color"}})
	return r, keys
}

func askWith(t *testing.T, r *Renderer, req string, timeoutMs int64) contract.Result {
	t.Helper()
	h := ask.NewHost(ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, r), &ask.HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: &timeoutMs}})
	return ask.AskJSON(t.Context(), ask.NewAsker(h, nil), ask.AskUser, []byte(req), nil)
}

// closeWithin fails the test when Close does not return soon: a program
// that outlives its call would keep the terminal.
func closeWithin(t *testing.T, r *Renderer) {
	t.Helper()
	done := make(chan struct{})
	go func() { r.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the program did not end after its call")
	}
}

func TestRenderAnswers(t *testing.T) {
	r, keys := pipeRenderer(t)
	// Down, then Enter, as a terminal sends them.
	if _, err := keys.WriteString("\x1b[B\r"); err != nil {
		t.Fatal(err)
	}
	res := askWith(t, r, reqSingle, 0)
	closeWithin(t, r)
	want := contract.Result{Status: contract.StatusAnswered, Route: contract.RouteCustom,
		Answers: []contract.Answer{{ID: "q1", Title: "Where to?", Kind: contract.KindSingle, Selections: []string{"prod"}}}}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("result mismatch (-want +got):\n%s", diff)
	}
}

func TestRenderTimeout(t *testing.T) {
	r, _ := pipeRenderer(t)
	res := askWith(t, r, reqSingle, 50)
	closeWithin(t, r)
	if res.Status != contract.StatusTimeout {
		t.Errorf("status = %s, want timeout", res.Status)
	}
}

func TestRenderDoneContext(t *testing.T) {
	r, _ := pipeRenderer(t)
	ctx, cancel := context.WithCancelCause(t.Context())
	cause := errors.New("gone")
	cancel(cause)
	_, err := r.Render(ctx, session(t, reqSingle, contract.DisplayInline))
	if !errors.Is(err, cause) {
		t.Errorf("Render with a done context = %v, want %v", err, cause)
	}
}

func TestRenderAfterClose(t *testing.T) {
	r, _ := pipeRenderer(t)
	r.Close()
	if _, err := r.Render(t.Context(), session(t, reqSingle, contract.DisplayInline)); !errors.Is(err, ErrClosed) {
		t.Errorf("Render after Close = %v, want ErrClosed", err)
	}
}

// TestRenderApprovalNotifies asks an approval of each hostile command on
// the terminal: the notification and the title say an approval waits
// and what the agent wants to do, and nothing of the command reaches the
// terminal but as text.
func TestRenderApprovalNotifies(t *testing.T) {
	for _, hc := range testkit.HostileCommands {
		if len(hc.Command) > approval.MaxCommandLen {
			continue // an approval refuses it before any dialog
		}
		t.Run(hc.Name, func(t *testing.T) {
			in, keys, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { in.Close(); keys.Close() })
			plain := PlainTheme()
			out := &testkit.Buffer{}
			r := New(in, out, &Options{Theme: &plain, Width: 100, Height: 30, Environ: []string{"TERM=xterm-256color"}})
			timeoutMs, yes := int64(300), true
			h := ask.NewHost(ask.BindApproval(ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUserQuestion, ask.RendererFunc[*auq.Request, auq.Result](r.RenderQuestions))),
				&ask.HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: &timeoutMs, Notify: prefs.Notify{Bell: &yes, Title: &yes, Desktop: prefs.DesktopOSC9}}})
			got := ask.Ask(t.Context(), ask.NewAsker(h, nil), ask.Approval, &approval.Request{Agent: "claude-code", Tool: "Bash", Action: approval.ActionRun, Command: hc.Command}, nil)
			closeWithin(t, r)
			if got.Allowed() || got.Status != approval.StatusTimeout {
				t.Fatalf("the approval left to its deadline = %+v, want a timeout", got)
			}
			screen := out.String()
			for _, want := range []string{
				"\x1b]9;askuser: approval waiting: claude-code wants to run a command · 1s left\x1b\\",
				"\x1b]2;askuser: approval waiting · claude-code wants to run a command\x1b\\",
			} {
				if !strings.Contains(screen, want) {
					t.Errorf("the terminal did not get %q", want)
				}
			}
			if strings.Contains(screen, "\x1b]52") || strings.Contains(screen, "\x1b[2J\x1b[1;1H\x1b[31mall") || strings.ContainsAny(screen, "\u202e\u202c") {
				t.Errorf("the command's controls reached the terminal: %q", screen)
			}
		})
	}
}
