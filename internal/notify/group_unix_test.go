//go:build unix

package notify

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/google/go-cmp/cmp"
)

// waitFor polls cond until it holds or d has passed, and reports whether
// it held: the processes it watches are real, outside any fake clock.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// readPid waits for the process id a command wrote to path.
func readPid(t *testing.T, path string) int {
	t.Helper()
	var pid int
	if !waitFor(testkit.Patience(t), func() bool {
		data, err := os.ReadFile(path)
		if err != nil || !bytes.HasSuffix(data, []byte("\n")) {
			return false
		}
		_, err = fmt.Sscan(string(data), &pid)
		return err == nil
	}) {
		t.Fatalf("the command never wrote %s", path)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	return pid
}

func needSh(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skipf("no /bin/sh to run commands with: %v", err)
	}
}

// A command stopped at its limit goes with everything it started, even
// what ignores SIGTERM or was left running when the command itself
// ended; the limit is reported only when the command itself ran into it.
func TestCommandLimitStopsGroup(t *testing.T) {
	needSh(t)
	const limit = 300 * time.Millisecond
	tests := []struct {
		name, script string
		report       string
	}{
		{"waits for its child", `sleep 300 & echo $! > "$0"; wait`,
			`the notify command "/bin/sh" ran for 300ms and was stopped`},
		{"ignores SIGTERM", `trap "" TERM; sleep 300 & echo $! > "$0"; wait`,
			`the notify command "/bin/sh" ran for 300ms and was stopped`},
		// The child holds the command's standard error, so the command
		// is seen to end only once its pipe is closed at the limit.
		{"leaves its child", `sleep 300 & echo $! > "$0"`,
			`the notify command "/bin/sh" ran for 300ms and was stopped`},
		{"leaves its child without its stderr", `sleep 300 2>/dev/null & echo $! > "$0"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			reports := make(chan error, 2)
			run := start([]string{"/bin/sh", "-c", tt.script, pidFile}, os.Environ(), Event{Questions: 1}, func(err error) { reports <- err }, limit)
			pid := readPid(t, pidFile)
			began := time.Now()
			// The child sleeps for longer than the test's patience.
			if !waitFor(testkit.Patience(t), func() bool { return !testkit.Running(pid) }) {
				t.Fatalf("the child %d still runs %s after the limit", pid, time.Since(began))
			}
			if took := time.Since(began); took < limit/2 {
				t.Errorf("the child ended %s after it started, before the limit of %s", took, limit)
			}
			select {
			case <-run.Done():
			case <-time.After(testkit.Patience(t)):
				t.Fatal("Done was not closed after the limit")
			}
			got := ""
			select {
			case err := <-reports:
				got = err.Error()
			default:
			}
			if got != tt.report {
				t.Errorf("report %q, want %q", got, tt.report)
			}
		})
	}
}

// Commands.Stop ends every command and what it started, promptly and
// without a report, and no command starts after it.
func TestCommandsStop(t *testing.T) {
	needSh(t)
	dir := t.TempDir()
	var mu sync.Mutex
	var reports []string
	c := NewCommands(HostMCP, func(err error) {
		mu.Lock()
		defer mu.Unlock()
		reports = append(reports, err.Error())
	})
	var pids []int
	for i, script := range []string{
		`sleep 300 & echo $! > "$0"; wait`,
		`trap "" TERM; sleep 300 & echo $! > "$0"; wait`,
		`sleep 300 & echo $! > "$0"`,
	} {
		pidFile := filepath.Join(dir, fmt.Sprint(i))
		c.OnOpen([]string{"/bin/sh", "-c", script, pidFile})(ask.Opening{Questions: 1})
		pids = append(pids, readPid(t, pidFile))
	}
	began := time.Now()
	c.Stop()
	if took := time.Since(began); took > 2*StopGrace+time.Second {
		t.Errorf("Stop took %s, want at most 2×%s", took, StopGrace)
	}
	for _, pid := range pids {
		if !waitFor(testkit.Patience(t), func() bool { return !testkit.Running(pid) }) {
			t.Errorf("process %d runs on after Stop", pid)
		}
	}
	late := filepath.Join(dir, "late")
	c.OnOpen([]string{"/bin/sh", "-c", `echo $$ > "$0"`, late})(ask.Opening{Questions: 1})
	if !c.Wait(t.Context(), 10*time.Second) {
		t.Error("Wait after Stop did not return at once")
	}
	if _, err := os.Stat(late); !os.IsNotExist(err) {
		t.Errorf("a command started after Stop: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string(nil), reports); diff != "" {
		t.Errorf("reports (-want +got):\n%s", diff)
	}
}

// A process that leaves the command's group with its standard error
// holds the command's end only for pipeWait.
func TestCommandPipeWait(t *testing.T) {
	needSh(t)
	setsid, err := exec.LookPath("setsid")
	if err != nil {
		t.Skipf("no setsid to leave the process group with: %v", err)
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	reports := make(chan error, 2)
	// The command's limit, far beyond pipeWait: the end that waited for
	// the process outside its group would come at it, and be reported.
	const limit = time.Minute
	run := start([]string{"/bin/sh", "-c", `"$1" sleep 300 & echo $! > "$0"`, pidFile, setsid}, os.Environ(), Event{Questions: 1}, func(err error) { reports <- err }, limit)
	pid := readPid(t, pidFile)
	defer run.Stop()
	began := time.Now()
	select {
	case <-run.Done():
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the command's end waited for a process outside its group")
	}
	took := time.Since(began)
	t.Logf("the command ended %s after it started; pipeWait is %s", took, pipeWait)
	if took < pipeWait/2 || took >= limit {
		t.Errorf("the command ended %s after it started, want about %s and before its limit of %s", took, pipeWait, limit)
	}
	if !testkit.Running(pid) {
		t.Fatalf("the process that left the group, %d, ended: the test shows nothing", pid)
	}
	select {
	case err := <-reports:
		t.Errorf("a command that exited 0 was reported: %v", err)
	default:
	}
}
