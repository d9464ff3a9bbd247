package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/testkit"
)

func TestEventEnvAndJSON(t *testing.T) {
	at := time.Date(2026, 12, 3, 18, 30, 0, 0, time.UTC)
	e := Event{Header: "Deploy\x1b[2J", Questions: 3, Deadline: at, Host: "terminal", Route: "custom", Tool: "ask_user"}
	wantEnv := []string{
		"ASKUSER_HEADER=Deploy␛[2J",
		"ASKUSER_QUESTIONS=3",
		"ASKUSER_DEADLINE=2026-12-03T18:30:00Z",
		"ASKUSER_DEADLINE_MS=1796322600000",
		"ASKUSER_HOST=terminal",
		"ASKUSER_ROUTE=custom",
		"ASKUSER_TOOL=ask_user",
	}
	if diff := cmp.Diff(wantEnv, e.Env()); diff != "" {
		t.Errorf("Env (-want +got):\n%s", diff)
	}
	var got map[string]any
	if err := json.Unmarshal(e.JSON(), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"header": "Deploy␛[2J", "questions": 3.0, "deadline": "2026-12-03T18:30:00Z", "deadlineMs": 1796322600000.0, "host": "terminal", "route": "custom", "tool": "ask_user"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JSON (-want +got):\n%s", diff)
	}
	none := Event{Questions: 1}
	if !strings.Contains(string(none.JSON()), `"deadline":null,"deadlineMs":null`) {
		t.Errorf("JSON without deadline = %s", none.JSON())
	}
}

// waitReport waits for one report, with the test kit's patience.
func waitReport(t *testing.T, reports <-chan error) error {
	t.Helper()
	select {
	case err := <-reports:
		return err
	case <-time.After(testkit.Patience(t)):
		t.Fatal("no report")
		return nil
	}
}

func TestCommand(t *testing.T) {
	sh := "/bin/sh"
	if _, err := os.Stat(sh); err != nil {
		t.Skipf("no %s to run commands with: %v", sh, err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	e := Event{Header: "H", Questions: 2, Host: "terminal", Route: "custom", Tool: "ask_user"}

	t.Run("gets the event", func(t *testing.T) {
		reports := make(chan error, 1)
		run := Command([]string{sh, "-c", `{ echo "$ASKUSER_HEADER $ASKUSER_QUESTIONS $ASKUSER_HOST"; cat; } > "$0.tmp" && mv "$0.tmp" "$0"`, out}, os.Environ(), e, func(err error) { reports <- err })
		deadline := testkit.PatienceDeadline(t)
		var data []byte
		for time.Now().Before(deadline) {
			if b, err := os.ReadFile(out); err == nil {
				data = b
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		want := "H 2 terminal\n" + string(e.JSON())
		if string(data) != want {
			t.Errorf("the command saw %q, want %q", data, want)
		}
		// Done is closed once a failure would have been reported.
		select {
		case <-run.Done():
		case <-time.After(testkit.Patience(t)):
			t.Fatal("the command did not end")
		}
		select {
		case err := <-reports:
			t.Errorf("report for a command that succeeded: %v", err)
		default:
		}
	})
	t.Run("exits 1", func(t *testing.T) {
		reports := make(chan error, 2)
		Command([]string{sh, "-c", "echo no network >&2; exit 1"}, nil, e, func(err error) { reports <- err })
		err := waitReport(t, reports)
		want := `the notify command "/bin/sh" failed: exit status 1: no network`
		if err == nil || err.Error() != want {
			t.Errorf("report = %v, want %s", err, want)
		}
	})
	t.Run("cannot start", func(t *testing.T) {
		reports := make(chan error, 2)
		Command([]string{filepath.Join(dir, "missing")}, nil, e, func(err error) { reports <- err })
		err := waitReport(t, reports)
		if err == nil || !strings.Contains(err.Error(), "could not start") {
			t.Errorf("report = %v", err)
		}
	})
	t.Run("returns at once", func(t *testing.T) {
		pidFile := filepath.Join(dir, "pid")
		done := make(chan *Run)
		go func() {
			done <- Command([]string{sh, "-c", `echo $$ > "$0"; exec sleep 300`, pidFile}, nil, e, nil)
		}()
		// The command sleeps for longer than the test's patience.
		var run *Run
		select {
		case run = <-done:
		case <-time.After(testkit.Patience(t)):
			t.Fatal("Command waited for a command that sleeps")
		}
		select {
		case <-run.Done():
			t.Error("the command that sleeps ended at once")
		default:
		}
		killPidFile(t, pidFile)
	})
}

// killPidFile ends the process whose id a command wrote to path.
func killPidFile(t *testing.T, path string) {
	t.Helper()
	deadline := testkit.PatienceDeadline(t)
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(path)
		if err == nil && strings.HasSuffix(string(data), "\n") {
			var pid int
			if _, err := fmt.Sscan(strings.TrimSpace(string(data)), &pid); err == nil {
				if p, err := os.FindProcess(pid); err == nil {
					_ = p.Kill()
				}
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Commands.Wait returns once the commands have ended and their failures
// were reported, and gives up on one still running at its limit or when
// its context is done.
func TestCommandsWait(t *testing.T) {
	var mu sync.Mutex
	var got []error
	report := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, err)
	}
	failing := NewCommands(HostTerminal, report)
	failing.OnOpen([]string{"/bin/sh", "-c", "exit 1"})(ask.Opening{Questions: 1})
	if !failing.Wait(context.Background(), time.Minute) {
		t.Fatal("a command that exits at once did not end within a minute")
	}
	mu.Lock()
	n := len(got)
	mu.Unlock()
	if n != 1 {
		t.Fatalf("%d reports once Wait returned, want 1", n)
	}
	slow := NewCommands(HostTerminal, nil)
	defer slow.Stop()
	slow.OnOpen([]string{"/bin/sh", "-c", "sleep 1"})(ask.Opening{Questions: 1})
	if slow.Wait(context.Background(), time.Millisecond) {
		t.Error("Wait reported that a command sleeping 1 s had ended within 1 ms")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if slow.Wait(ctx, time.Minute) {
		t.Error("Wait reported that a command sleeping 1 s had ended, with its context done")
	}
	if !slow.Wait(context.Background(), time.Minute) {
		t.Error("a command sleeping 1 s did not end within a minute")
	}
	if NewCommands(HostTerminal, nil).OnOpen(nil) != nil {
		t.Error("no command has an OnOpen")
	}
}
