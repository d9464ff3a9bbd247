package cli_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/host/cli"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/creack/pty"
	"github.com/nats-io/nats.go"
)

// TestAnswerApproval lists an approval waiting on a real hub with
// askuser pending and denies it with askuser answer: the asker gets the
// denial with its reason. A question whose kind is unknown is refused.
func TestAnswerApproval(t *testing.T) {
	getenv, c, a := approvalHub(t)
	run := func(args ...string) (int, string, string) {
		var stdout, stderr strings.Builder
		code := cli.Run(context.Background(), args, &cli.Env{Stdout: &stdout, Stderr: &stderr, Getenv: getenv})
		return code, stdout.String(), stderr.String()
	}
	ask1 := func(command string) (<-chan approval.Outcome, hub.Question) {
		out := make(chan approval.Outcome, 1)
		go func() {
			out <- ask.Ask(context.Background(), a, ask.Approval, &approval.Request{Agent: "claude-code", Tool: "Bash", Action: approval.ActionRun, Command: command}, nil)
		}()
		return out, onePending(t, c)
	}

	outcomes, q := ask1("rm -rf build \x1b]52;c;eA==\x07")
	code, list, errs := run("pending")
	if code != 0 || !strings.Contains(list, q.ID+"  claude-code  approval  /src/api") || !strings.Contains(list, "    claude-code in /src/api wants to run a command\n") ||
		!strings.Contains(list, "rm -rf build ␛]52;c;eA==␇\n") || strings.ContainsAny(list, "\x1b\a") {
		t.Errorf("askuser pending = %d %q %q", code, list, errs)
	}
	code, _, errs = run("answer", q.ID, "approval=deny", "approval.note=<b>not today</b>")
	if code != 0 || errs != "askuser answer: approval "+q.ID+" answered\n" {
		t.Errorf("askuser answer = %d %q", code, errs)
	}
	select {
	case got := <-outcomes:
		if got.Allowed() || got.Decision == nil || got.Decision.Reason != "<b>not today</b>" {
			t.Errorf("the asker got %+v, want a denial with its reason", got)
		}
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the asker got no outcome")
	}

	// A pipe is a program's: it may deny, never allow. A terminal may
	// be the person's.
	outcomes, q = ask1("make")
	code, _, errs = run("answer", q.ID, "approval=allow")
	if code != cli.ExitUsage || !strings.Contains(errs, "can be allowed only by a person") {
		t.Errorf("askuser answer allowing from a pipe = %d %q, want %d saying why", code, errs, cli.ExitUsage)
	}
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptm.Close()
	defer tty.Close()
	var stderr strings.Builder
	code = cli.Run(context.Background(), []string{"answer", q.ID, "approval=allow"}, &cli.Env{Stdin: tty, Stdout: io.Discard, Stderr: &stderr, Getenv: getenv})
	if code != 0 {
		t.Errorf("askuser answer allowing at a terminal = %d %q", code, stderr.String())
	}
	select {
	case got := <-outcomes:
		if !got.Allowed() || got.Decision.Always != 0 {
			t.Errorf("the asker got %+v, want an allow once", got)
		}
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the asker got no outcome")
	}

	outcomes, q = ask1("deploy")
	nc, err := nats.Connect(c.Info().URL, nats.Token(c.Info().Token))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	testkit.UpdateEntry(t, nc, hubstore.QuestionsBucket, q.ID, func(v map[string]any) { v["tag"].(map[string]any)["kind"] = "payment" })
	code, _, errs = run("answer", q.ID, "approval=allow")
	if code != cli.ExitUsage || !strings.Contains(errs, `its kind "payment" is not one askuser knows`) {
		t.Errorf("askuser answer to a question of an unknown kind = %d %q, want %d saying why", code, errs, cli.ExitUsage)
	}
	if _, err := c.Dismiss(context.Background(), q.ID, "test"); err != nil {
		t.Fatal(err)
	}
	if got := <-outcomes; got.Allowed() {
		t.Errorf("the dismissed approval = %+v", got)
	}
}

// TestEditedApprovalIsCheckedByItsAsker edits an approval stored on the
// hub after it was published, as anyone with the hub's token could, so
// that its Allow once reads "Deny": the hub takes the answer that fits
// the edited question, and the asker, which checks it against what it
// asked, drops it and waits on rather than allow.
func TestEditedApprovalIsCheckedByItsAsker(t *testing.T) {
	t.Parallel()
	_, c, a := approvalHub(t)
	out := make(chan approval.Outcome, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	go func() {
		out <- ask.Ask(ctx, a, ask.Approval, &approval.Request{Agent: "claude-code", Tool: "Bash", Action: approval.ActionRun, Command: "rm -rf ~"}, nil)
	}()
	q := onePending(t, c)
	nc, err := nats.Connect(c.Info().URL, nats.Token(c.Info().Token))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var preview string
	testkit.UpdateEntry(t, nc, hubstore.QuestionsBucket, q.ID, func(v map[string]any) {
		byID := map[string]map[string]any{}
		for _, o := range v["request"].(map[string]any)["questions"].([]any)[0].(map[string]any)["options"].([]any) {
			byID[o.(map[string]any)["id"].(string)] = o.(map[string]any)
		}
		preview = byID[approval.AllowID]["preview"].(string)
		byID[approval.AllowID]["label"], byID[approval.DenyID]["label"] = "Deny", "Allow once"
	})
	answer := `{"cancelled":false,"answers":{"approval":{"kind":"single","optionId":"allow","label":"Deny"}},` +
		`"annotations":{"approval":{"selectedPreview":` + strconvQuote(preview) + `}}}`
	if _, err := c.Answer(context.Background(), q.ID, []byte(answer), "the hub's page"); err != nil {
		t.Fatalf("the hub refused the answer that fits its edited question: %v", err)
	}
	select {
	case got := <-out:
		if got.Allowed() || got.Status == approval.StatusDecided {
			t.Errorf("the asker got %+v, want no decision, never an allow", got)
		}
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the asker got no outcome")
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// approvalHub starts a hub and returns its environment, a client of it,
// and an asker of approvals of claude-code in /src/api on it alone.
func approvalHub(t *testing.T) (func(string) string, *hub.Client, *ask.Asker) {
	state, c := startTestHub(t)
	getenv := stateEnv(state)
	l := hub.NewLink(&hub.LinkOptions{
		Dial:  func(ctx context.Context) (*hub.Client, error) { return hub.Dial(ctx, &hub.DialOptions{Getenv: getenv}) },
		Agent: "claude-code", Project: "/src/api",
	})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		l.Close(ctx)
	})
	return getenv, c, ask.NewAsker(ask.NewHost(ask.BindApproval(l.Join(ask.Capabilities{CustomReason: "none", NativeReason: "none"})), nil), nil)
}
