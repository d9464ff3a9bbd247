package pibridge

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/program"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain points the bridge at a state directory of its own, with no
// hub in it, so that a hub the person runs is never joined by the tests.
// It makes the test binary serve as askuser-hub, run as cmd/askuser-hub
// runs it, so that the tests that run the hub as a process find it on
// PATH and nothing is built.
func TestMain(m *testing.M) {
	testscript.Main(stateDir{m}, map[string]func(){
		"askuser-hub": func() {
			program.Main("askuser hub", "the store", 5*time.Second, func(ctx context.Context) int {
				return hubserver.Main(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
			})
		},
	})
}

// stateDir runs the tests with a state directory of their own.
type stateDir struct{ m *testing.M }

func (s stateDir) Run() int {
	dir, err := os.MkdirTemp("", "pibridge-state")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	os.Setenv("XDG_STATE_HOME", dir)
	return s.m.Run()
}

// runHub runs a real hub, the embedded NATS server, in a state directory
// of the test's that the bridge finds through XDG_STATE_HOME, and returns
// a client of it.
func runHub(t *testing.T) *hub.Client {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, stop, err := hubserver.Start(ctx, &hubserver.Options{Getenv: os.Getenv})
	if err != nil {
		t.Fatalf("the hub did not start: %v", err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("hub: %v", err)
		}
	})
	c, err := hub.Dial(context.Background(), &hub.DialOptions{Getenv: os.Getenv})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// waiting returns the one question waiting on the hub, once it is there.
func waiting(t *testing.T, c *hub.Client) hub.Question {
	t.Helper()
	deadline := testkit.PatienceDeadline(t)
	for time.Now().Before(deadline) {
		qs, err := c.Pending(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(qs) == 1 {
			return qs[0]
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no question reached the hub")
	return hub.Question{}
}

// answerDeploy answers the deploy questionnaire on the hub with prod.
func answerDeploy(t *testing.T, c *hub.Client, id string) {
	t.Helper()
	req, _, err := contract.Parse([]byte(deploy))
	if err != nil {
		t.Fatal(err)
	}
	a := contract.NewAnswer(req, 0)
	a.Selections = []string{"prod"}
	b, err := json.Marshal(contract.Result{Status: contract.StatusAnswered, Answers: []contract.Answer{a}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Answer(context.Background(), id, b, "ci-policy"); err != nil {
		t.Fatal(err)
	}
}

// TestHubJoin checks that a Pi session joins the user's hub: its
// questions are published there, tagged as Pi's, an answer given there
// wins over Pi's own dialog, and the model is told where it came from.
// A Pi with no dialog of its own waits for the hub instead of refusing
// the call, and "hub": "off" keeps the session off the hub.
func TestHubJoin(t *testing.T) {
	tests := []struct {
		name      string
		hello     map[string]any
		dialog    bool     // Pi's own dialog opens, and is cancelled
		want      string   // the result's status
		wantText  []string // in the model's text
		wantError string   // with want "error", the code
	}{
		{
			name:     "print mode waits for the hub",
			hello:    hello("print", false, map[string]bool{}, nil),
			want:     "answered",
			wantText: []string{"askuser hub", "answered by ci-policy"},
		},
		{
			name:     "the hub wins over Pi's dialog",
			hello:    hello("rpc", true, rpcUI, nil),
			dialog:   true,
			want:     "answered",
			wantText: []string{"came through the askuser hub, not from Pi's terminal", "answered by ci-policy"},
		},
		{
			name:      "hub off",
			hello:     hello("print", false, map[string]bool{}, map[string]any{"options": map[string]any{"hub": "off"}}),
			want:      "error",
			wantError: "unsupported_mode",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := runHub(t)
			c := ready(t, tt.hello)
			sendAsk(c, "c1", deploy, "")
			var msgs []map[string]any
			if tt.want != "error" {
				q := waiting(t, h)
				if q.Tag.Agent != "Pi" || q.Tag.Contract != hub.ContractAskUser || q.Tag.Questions != 1 {
					t.Errorf("the question's tag is %+v, want Pi's, ask_user, 1 question", q.Tag)
				}
				if tt.dialog {
					msgs = c.until("dialog")
				}
				answerDeploy(t, h, q.ID)
			}
			msgs = append(msgs, c.until("result")...)
			res := result(t, msgs)
			if res["status"] != tt.want {
				t.Fatalf("result = %v, want status %s", res, tt.want)
			}
			if tt.wantError != "" {
				if code := res["error"].(map[string]any)["code"]; code != tt.wantError {
					t.Errorf("error code %v, want %s", code, tt.wantError)
				}
				if qs, err := h.Pending(context.Background()); err != nil || len(qs) != 0 {
					t.Errorf("the hub holds %d questions (%v), want none", len(qs), err)
				}
				return
			}
			answers := res["answers"].([]any)
			if sel := answers[0].(map[string]any)["selections"].([]any); len(sel) != 1 || sel[0] != "prod" {
				t.Errorf("answers = %v, want prod", answers)
			}
			text := msgs[len(msgs)-1]["text"].(string)
			for _, w := range tt.wantText {
				if !strings.Contains(text, w) {
					t.Errorf("the model's text does not say %q:\n%s", w, text)
				}
			}
			if tt.dialog {
				if !slices.Contains(types(msgs), "dialog_cancel") {
					c.until("dialog_cancel") // fails the test unless it comes
				}
			}
		})
	}
}

// TestHubUnreachable checks that a hub whose info file names an address
// nobody listens on neither blocks nor breaks Pi's own route, and that
// the person is told so once in the session, not at every call.
func TestHubUnreachable(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	paths, err := hub.Locate(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	if err := os.MkdirAll(filepath.Dir(paths.Info), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := hubserver.WriteInfo(paths.Info, hub.Info{URL: "nats://" + addr, Token: "t", PID: os.Getpid(), Started: time.Now()}); err != nil {
		t.Fatal(err)
	}
	c := ready(t, hello("rpc", true, rpcUI, nil))
	var all []map[string]any
	for _, call := range []string{"c1", "c2"} {
		sendAsk(c, call, deploy, "")
		msgs := c.until("dialog")
		d := msgs[len(msgs)-1]
		c.sendMsg(map[string]any{"type": "reply", "call": call, "req": d["req"], "value": "prod"})
		msgs = append(msgs, c.until("result")...)
		if res := result(t, msgs); res["status"] != "answered" {
			t.Fatalf("call %s: result %v, want answered in Pi's dialog", call, res)
		}
		all = append(all, msgs...)
	}
	var notices []string
	for _, m := range all {
		if m["type"] == "notice" {
			notices = append(notices, m["message"].(string))
		}
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "the hub cannot be reached, so questions are asked in Pi only") {
		t.Errorf("notices %q, want one saying that the hub cannot be reached", notices)
	}
}

// TestHubStopsPiCountdown stops, on the hub, the countdown of a question
// that Pi shows in askuser's dialog: without a key pressed, Pi's next
// frame says there is no timeout instead of the last time left.
func TestHubStopsPiCountdown(t *testing.T) {
	h := runHub(t)
	c := ready(t, hello("tui", true, tuiUI, map[string]any{"options": map[string]any{"notify": quiet, "timeoutPerQuestionMs": 30000}}))
	sendAsk(c, "c1", deploy, "")
	c.until("open")
	c.sendMsg(map[string]any{"type": "resize", "call": "c1", "width": 60, "rows": 20})
	msgs := c.until("frame")
	screen := applyFrame(t, nil, msgs[len(msgs)-1])
	if !strings.Contains(strings.Join(screen, "\n"), "⏱") {
		t.Fatalf("the dialog shows no countdown:\n%s", strings.Join(screen, "\n"))
	}
	q := waiting(t, h)
	if err := h.StopCountdown(context.Background(), q.ID, "alice"); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		msgs := c.until("frame")
		screen = applyFrame(t, screen, msgs[len(msgs)-1])
		if strings.Contains(strings.Join(screen, "\n"), "No timeout") {
			c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": "escape"})
			c.until("result")
			return
		}
	}
	t.Fatalf("Pi's frames never said there is no timeout:\n%s", strings.Join(screen, "\n"))
}

// TestHubRemoteConfig checks a Pi whose options name a remote hub: a hub
// that runs here without that remote is joined, and the person is told
// once in the session where the questions go; with no hub and no
// askuser-hub to start one, Pi's own dialog answers, and the person is
// told once how to get askuser-hub.
func TestHubRemoteConfig(t *testing.T) {
	options := map[string]any{"options": map[string]any{"hub": map[string]any{"url": "nats://127.0.0.1:9", "credentials": "/nonexistent/agent.creds",
		"recipients": []string{"askuser-pub-PwAxMkIhRrYfpdxky-KNzmaHmdSh_1NOEgqW7iO2WJx9_KcMfvVsQ7ytnYjPgKEXdAXPIesKYqt2eFVSrZSr1kCgZcjCvcEnp5o_PRWl0RYJLVUF3oJ16go1wyBoLTHOvHGLpVI3b0RTnrOUoMtIsONJuvW8f-HKR5eWnUVB-Pi-YIgRUsVY0gKw8-uEbFmiVfufBtdcN0HIDTp80ozL_xRxw8x2oGsVlYBGBMFjBtI3utQwOzAPnjqd3QnPNIaPI1s02xSA42ipYUaEy3ad7eFV3oiS8kkVztYkxJxH3kZxMwkfORhEp5OCzWOFI9wSOkRuoZiE0WpH1We51XeSFgXEemGmUwyqqLbG08o2rKOmGatCG-w0hZuE5gq4BcDOSCUamXMwdhAaumBaGBCc7fs3h4ga_glbRAGx4ndK1Nc4l8x_q9ltoerEw4dZnaW8sFFe3qhfKZU4wTRoezt_cEZ8NAe0KyVW3FWU15JkSemsPctVmTCrJLQn6Eu-NCNHK3w6tlRV_ChHZmhM1VFu-SumwzFZwPmofQCiKIdxB9GyOXy1ClQA3hUnI3NzM8e25uCEzLA00IWWRiQ6rLA9RJWu_jETTXiip-c-jKiIpYY8odQF52obNlAGIIWs7ZZCkjlAkCc6fzOAZrOYCJOsnJBZxjh345dpDkqgSTAcimKhYot0XuKNx5ml4oYruSMeWHNL4jdo0SxzotSXa7ZGFRB-yktkWpORS5MKefK3DRNCsCycoMO5ZLtWVktNqCoohXCiSsshd0B9veBzxhJZIfnOl0pzuni2JdSIYbaS3vrMaUtG1-W1U0GGnoQPN4wQMdjCPXZ9nNc7fHwV8AA_lrVyd8vJmBt6jkm6gMmrTqEgAQCFVMx27fc2wzdgxGhvMKMe4pZJPBqykgKK94YfB7tDWJyqAcm0SbyXfXdnJPQ2V8hjInGTU2qtguUQBKmQGJKmCEZKLeNUcpMeGcIPVVuAkfQnWUJZzxBYpIUnmaCJ3gBtU9a5XTODYvOeGHBSzoZqcZpsuNsW5QQCmviBZNJoEZpClmEcn_lkd6lPQbkBoPNfuqJKTZKNEFBHSkKAACbKN-Ma85ZJzAmFH5vJu1m3W0SWAbWLIZQJdgHF2hQ3sGt3tHME6bBeb-HHFDcwoceW1YCAUoqfpfZhdylVHiQrxorMPXoX_nu7oqxX68gf-EMs4NIdLfFmsPWcpiYQT6Fm3qwMdoNITBCRLLe7MCQocgpAe-ZRwmmVJZXG2kdUkVkaLsUDGLhDXWIsE3CcD7MrCbp2IGCRl0y55uFhH6VebOkpHPGCk3jJEJC1aNRyGSVK7uu7RPJsf3WYASVSpHdMGUEc2Qus0lghGFQrACR7t5Gf4qTExbUWF-CBzxaDQ2ACcwY2l4euaYhuLJCM_CgKjTm45_UdylkEtDtIdHnKowfFwFKnmHtIgZYVUJyR6YXEK7Ut1woHa7y_gYOHufiUhooHOhZTItin_JOsBegFncrKKwQ3qTEbZDkARmRsSus2pdM87ElR8TdfweOOI3sZQB93YKNZveBhfJw4ck2ccrhsDvDSKpzxQn2xoQe0Dgo7sZEcLGA7K9VMTh9TtIz7RdKkEdvOmDON8pXDcEVIUBmYc4Zvuar4r1aw0GH-TdQ-b5dKL-W87GBpv50M"}, "idleMs": 1000}}}
	for _, tt := range []struct {
		name   string
		hub    bool   // a hub runs, without a remote
		notice string // the one notice of the session
	}{
		{"a hub relaying with no remote", true, "askuser: the config names the remote hub at nats://127.0.0.1:9, but the hub that runs here (process "},
		{"no hub and no askuser-hub", false, "askuser: the hub cannot be reached, so questions are asked in Pi only: no hub runs, and none can be started to relay with the remote hub at nats://127.0.0.1:9: the askuser-hub program, which runs the hub, is neither beside askuser nor on PATH"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var h *hub.Client
			if tt.hub {
				h = runHub(t)
			} else {
				t.Setenv("XDG_STATE_HOME", t.TempDir())
				t.Setenv("PATH", t.TempDir())
			}
			c := ready(t, hello("rpc", true, rpcUI, options))
			var all []map[string]any
			for _, call := range []string{"c1", "c2"} {
				sendAsk(c, call, deploy, "")
				msgs := c.until("dialog")
				if tt.hub {
					answerDeploy(t, h, waiting(t, h).ID)
					msgs = append(msgs, c.until("result")...)
				} else {
					d := msgs[len(msgs)-1]
					c.sendMsg(map[string]any{"type": "reply", "call": call, "req": d["req"], "value": "prod"})
					msgs = append(msgs, c.until("result")...)
				}
				if res := result(t, msgs); res["status"] != "answered" {
					t.Fatalf("call %s: result %v, want answered", call, res)
				}
				if tt.hub && !slices.Contains(types(msgs), "dialog_cancel") {
					c.until("dialog_cancel")
				}
				all = append(all, msgs...)
			}
			var notices []string
			for _, m := range all {
				if m["type"] == "notice" {
					notices = append(notices, m["message"].(string))
				}
			}
			if len(notices) != 1 || !strings.HasPrefix(notices[0], tt.notice) {
				t.Errorf("notices %q, want one starting %q", notices, tt.notice)
			}
		})
	}
}

// TestHubRestart checks that a Pi with no dialog of its own follows its
// hub, a process of its own, killed or stopped and started again on
// another port: the answer given on the next hub is the call's.
func TestHubRestart(t *testing.T) {
	bin, err := exec.LookPath("askuser-hub")
	if err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			state := t.TempDir()
			t.Setenv("XDG_STATE_HOME", state)
			first := testkit.StartHub(t, state, bin)
			c := ready(t, hello("print", false, map[string]bool{}, nil))
			sendAsk(c, "c1", deploy, "")
			h, err := hub.Dial(context.Background(), &hub.DialOptions{Getenv: os.Getenv})
			if err != nil {
				t.Fatal(err)
			}
			q := waiting(t, h)
			h.Close()
			first.Signal(t, sig)
			testkit.StartHub(t, state, bin)
			h, err = hub.Dial(context.Background(), &hub.DialOptions{Getenv: os.Getenv})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if got := waiting(t, h); got.ID != q.ID {
				t.Fatalf("the next hub holds question %s, want %s", got.ID, q.ID)
			}
			answerDeploy(t, h, q.ID)
			res := result(t, c.until("result"))
			if res["status"] != "answered" {
				t.Fatalf("result = %v, want answered", res)
			}
		})
	}
}
