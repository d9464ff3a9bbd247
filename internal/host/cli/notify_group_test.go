//go:build unix

package cli_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/program"
	"github.com/askuser/askuser/internal/testkit"
)

// leaveChild is a notify command's script that starts a child which
// outlives the shell unless its whole process group is stopped, writes
// the child's id to the file named by $0, and waits.
const leaveChild = `sleep 300 & echo $! > "$0"; wait`

// childPid waits for the id of the notify command's child in path, and
// makes sure the test leaves it behind in no case.
func childPid(t *testing.T, path string) int {
	t.Helper()
	pid := waitPid(t, path)
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	return pid
}

// stopsWithin checks that process pid has ended within d; it waits up
// to the test's patience (testkit.Patience) for it, and only logs a
// later end, as a loaded machine can delay one.
func stopsWithin(t *testing.T, pid int, d time.Duration, after string) {
	t.Helper()
	start := time.Now()
	deadline := testkit.PatienceDeadline(t)
	defer func() {
		if took := time.Since(start); took > d {
			t.Logf("the notify command's child %d ended %v %s, later than %v", pid, took.Round(time.Millisecond), after, d)
		}
	}()
	for testkit.Running(pid) {
		if time.Now().After(deadline) {
			t.Errorf("the notify command's child %d still runs %v %s", pid, time.Since(start).Round(time.Millisecond), after)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// firstLine notes when the first line is written to it.
type firstLine struct {
	once sync.Once
	at   chan time.Time
}

func (f *firstLine) Write(p []byte) (int, error) {
	if bytes.IndexByte(p, '\n') >= 0 {
		f.once.Do(func() { f.at <- time.Now() })
	}
	return len(p), nil
}

// TestNotifyCommandEndsWithAsk stops askuser ask while its notify
// command, and a child of the command, still run: the result comes at
// once, SIGTERM gives status 1 and the aborted result within a second,
// and neither the command nor its child outlives askuser.
func TestNotifyCommandEndsWithAsk(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skipf("no /bin/sh to run the notify command with: %v", err)
	}
	aborted := func(reason contract.CancelReason) contract.Result {
		return contract.Result{Status: contract.StatusAborted, Route: contract.RouteCustom, CancelledReason: reason, Answers: []contract.Answer{}}
	}
	tests := []struct {
		name   string
		keys   string
		signal os.Signal
		// exitBy bounds the exit after the result; the terminal host
		// waits up to 2 s for a command that has not ended.
		exitBy time.Duration
		want   contract.Result
	}{
		{"esc", "\x1b", nil, 2*time.Second + time.Second, aborted(contract.CancelUser)},
		{"sigterm", "", syscall.SIGTERM, time.Second, aborted(contract.CancelAbort)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mark := filepath.Join(t.TempDir(), "child")
			q, cfg := notifySetup(t, fmt.Sprintf(`{"bell": false, "title": false, "command": ["/bin/sh", "-c", %q, %q]}`, leaveChild, mark))
			var stderr bytes.Buffer
			out := &firstLine{at: make(chan time.Time, 1)}
			s := startOnPtyTo(t, plainEnv("TERM=xterm-256color"), out, &stderr, "ask", "--config", cfg, q)
			s.expect("Deploy where?")
			child := childPid(t, mark)
			began := time.Now()
			if tt.keys != "" {
				s.send(tt.keys)
			}
			if tt.signal != nil {
				if err := s.cmd.Process.Signal(tt.signal); err != nil {
					t.Fatal(err)
				}
			}
			select {
			case at := <-out.at:
				took := at.Sub(began)
				if took > time.Second {
					t.Errorf("the result came %s after the %s, want within 1 s", took, tt.name)
				}
				t.Logf("the result came %s after the %s", took, tt.name)
			case <-time.After(testkit.Patience(t)):
				t.Fatalf("no result; standard error: %s", stderr.String())
			}
			code, res := s.wait()
			took := time.Since(began)
			if took > tt.exitBy {
				t.Errorf("askuser exited %s after the %s, want within %s", took, tt.name, tt.exitBy)
			}
			t.Logf("askuser exited %s after the %s", took, tt.name)
			if code != 1 {
				t.Errorf("exit status %d, want 1; standard error: %s", code, stderr.String())
			}
			if diff := cmp.Diff(tt.want, res); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			stopsWithin(t, child, 2*time.Second, "after askuser exited")
		})
	}
}

// TestNotifyCommandEndsWithMCP ends askuser mcp, by closing its input or
// by SIGTERM, while the notify command of a call waiting on the client's
// form, and a child of the command, still run: neither outlives it.
func TestNotifyCommandEndsWithMCP(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skipf("no /bin/sh to run the notify command with: %v", err)
	}
	bin := buildAskuser(t)
	for _, how := range []string{"input closed", "sigterm"} {
		t.Run(how, func(t *testing.T) {
			mark := filepath.Join(t.TempDir(), "child")
			_, cfg := notifySetup(t, fmt.Sprintf(`{"bell": false, "title": false, "command": ["/bin/sh", "-c", %q, %q]}`, leaveChild, mark))
			cmd := exec.Command(bin, "mcp", "--config", cfg)
			cmd.Env = plainEnv()
			asked := make(chan struct{})
			client := mcp.NewClient(&mcp.Implementation{Name: "notify-test", Version: "1"}, &mcp.ClientOptions{
				ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					close(asked)
					<-ctx.Done()
					return nil, ctx.Err()
				},
			})
			cs, err := client.Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			go cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "ask_user", Arguments: map[string]any{
				"questions": []any{map[string]any{"title": "Deploy where?", "options": []any{map[string]any{"label": "staging"}, map[string]any{"label": "production"}}}}}})
			select {
			case <-asked:
			case <-time.After(testkit.Patience(t)):
				t.Fatal("the server never sent its form")
			}
			child := childPid(t, mark)
			began := time.Now()
			if how == "sigterm" {
				if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
					t.Fatal(err)
				}
			}
			cs.Close()
			stopsWithin(t, child, 2*time.Second, "after askuser mcp was told to end")
			t.Logf("the child ended within %s", time.Since(began))
		})
	}
}

// TestNotifyCommandEndsWithBridge ends the Pi bridge, by closing its
// input or by SIGTERM, while the notify command of an open dialog, and a
// child of the command, still run: neither outlives it.
func TestNotifyCommandEndsWithBridge(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skipf("no /bin/sh to run the notify command with: %v", err)
	}
	bin := buildAskuser(t)
	for _, how := range []string{"input closed", "sigterm"} {
		t.Run(how, func(t *testing.T) {
			mark := filepath.Join(t.TempDir(), "child")
			cmd := exec.Command(bin, "bridge")
			cmd.Env = plainEnv()
			in, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stdout = io.Discard
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() {
				cmd.Wait()
				close(exited)
			}()
			t.Cleanup(func() {
				cmd.Process.Kill()
				<-exited
			})
			command := fmt.Sprintf(`["/bin/sh", "-c", %q, %q]`, leaveChild, mark)
			lines := `{"type":"hello","version":1,"release":"` + program.Release() + `","mode":"tui","hasUI":true,"ui":{"custom":true},"configFile":false,` +
				`"options":{"timeoutPerQuestionMs":600000,"notify":{"bell":false,"title":false,"command":` + command + `}}}` + "\n" +
				`{"type":"ask","call":"c1","params":{"questions":[{"title":"Deploy where?","options":[{"label":"staging"},{"label":"prod"}]}]}}` + "\n"
			if _, err := io.WriteString(in, lines); err != nil {
				t.Fatal(err)
			}
			child := childPid(t, mark)
			if how == "sigterm" {
				if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
					t.Fatal(err)
				}
			} else {
				in.Close()
			}
			select {
			case <-exited:
			case <-time.After(testkit.Patience(t)):
				t.Fatal("the bridge did not exit")
			}
			stopsWithin(t, child, 2*time.Second, "after the bridge exited")
		})
	}
}
