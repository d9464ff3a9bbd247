package cli_test

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// cldTrapped is si_code of a waitid for a traced child that stopped
// (<signal.h>); the other codes say that it ended.
const cldTrapped = 4

// runPeak runs cmd, which must not be started, and returns its own peak
// resident size in bytes: the VmHWM of /proc/PID/status, read as it
// exits. The rusage of a child cannot say it: Go starts children with
// vfork, and Linux counts the parent's resident size at the exec in the
// child's ru_maxrss, so that figure is the test binary's as much as the
// child's. A zombie no longer has its memory to read, so the child is
// traced (PTRACE_O_TRACEEXIT) and read in its exit stop, then let go to
// be reaped by cmd.Wait, whose error runPeak returns. peak is -1 when
// the child ended without that stop, as when it was killed.
func runPeak(cmd *exec.Cmd) (peak int64, err error) {
	peak = -1
	// Every ptrace request must come from the thread that started cmd.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Ptrace = true
	if err := cmd.Start(); err != nil {
		return peak, err
	}
	if err := tracePeak(cmd.Process.Pid, &peak); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return peak, err
	}
	return peak, cmd.Wait()
}

// tracePeak follows the traced child pid, stopped at its exec, until it
// exits, and sets *peak in its exit stop. It leaves the ended child to
// be reaped.
func tracePeak(pid int, peak *int64) error {
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
		return fmt.Errorf("wait for the exec of %d: %w", pid, err)
	}
	if err := syscall.PtraceSetOptions(pid, syscall.PTRACE_O_TRACEEXIT|unix.PTRACE_O_EXITKILL); err != nil {
		return fmt.Errorf("trace %d: %w", pid, err)
	}
	sig := 0
	for {
		if err := syscall.PtraceCont(pid, sig); err != nil {
			return fmt.Errorf("continue %d: %w", pid, err)
		}
		// Look without reaping: an end is cmd.Wait's to take.
		var info unix.Siginfo
		if err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WSTOPPED|unix.WNOWAIT, nil); err != nil {
			return fmt.Errorf("wait for %d: %w", pid, err)
		}
		if info.Code != cldTrapped {
			return nil
		}
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
			return fmt.Errorf("wait for %d: %w", pid, err)
		}
		if ws.TrapCause() == syscall.PTRACE_EVENT_EXIT {
			hwm, err := statusBytes(pid, "VmHWM")
			if err != nil {
				return err
			}
			*peak = hwm
			return syscall.PtraceDetach(pid)
		}
		// A signal for the child, passed on; the stop at the exec, and
		// any other trap, passes nothing.
		sig = 0
		if s := ws.StopSignal(); s != syscall.SIGTRAP {
			sig = int(s)
		}
	}
}

// statusBytes reads the field (VmHWM, VmRSS) of /proc/PID/status, in
// bytes.
func statusBytes(pid int, field string) (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	for l := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			kib, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("%s of %d: %w", field, pid, err)
			}
			return kib << 10, nil
		}
	}
	return 0, fmt.Errorf("/proc/%d/status has no %s", pid, field)
}

// The peak memory runDetached reports is askuser's own: it stays where
// it was when the test process itself holds 300 MiB more, which
// ru_maxrss, inherited through vfork, does not.
func TestPeakIsTheChilds(t *testing.T) {
	bin := buildAskuser(t)
	in := []byte(`{"questions":[{"title":"a"}]}`)
	before := runDetached(t, bin, in, "validate", "-")
	held := make([]byte, 300<<20)
	for i := range held {
		if i%4096 == 0 {
			held[i] = 1
		}
	}
	rss, err := statusBytes(os.Getpid(), "VmRSS")
	if err != nil {
		t.Fatal(err)
	}
	after := runDetached(t, bin, in, "validate", "-")
	runtime.KeepAlive(held)
	t.Logf("askuser's peak %.1f MiB, then %.1f MiB with the test process at %.1f MiB resident", float64(before.maxRSS)/(1<<20), float64(after.maxRSS)/(1<<20), float64(rss)/(1<<20))
	if before.maxRSS <= 0 || after.maxRSS <= 0 {
		t.Fatalf("peaks %d and %d bytes; want both read", before.maxRSS, after.maxRSS)
	}
	if rss < 300<<20 {
		t.Fatalf("the test process holds %d bytes; want 300 MiB or more", rss)
	}
	if d := after.maxRSS - before.maxRSS; d > 16<<20 || d < -16<<20 {
		t.Errorf("askuser's peak moved by %d bytes when the test process grew by 300 MiB", d)
	}
}
