//go:build unix

package program

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// ProcessGone tells a running process from one that ended, reaped or left a
// zombie, and never takes an id of 0 or less for an ended process.
func TestProcessGone(t *testing.T) {
	if ProcessGone(os.Getpid()) || ProcessGone(0) || ProcessGone(-1) {
		t.Fatal("this process, or no process, is gone")
	}
	reaped := exec.Command(os.Args[0], "-test.run=^$")
	if err := reaped.Run(); err != nil {
		t.Fatal(err)
	}
	if !ProcessGone(reaped.Process.Pid) {
		t.Errorf("a reaped process %d is not gone", reaped.Process.Pid)
	}
	if runtime.GOOS != "linux" {
		return
	}
	// A child not waited for stays a zombie until this process reaps it.
	zombie := exec.Command(os.Args[0], "-test.run=^$")
	if err := zombie.Start(); err != nil {
		t.Fatal(err)
	}
	defer zombie.Wait()
	for deadline := patienceDeadline(t); !ProcessGone(zombie.Process.Pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the ended child %d, a zombie, is not gone", zombie.Process.Pid)
		}
	}
	if err := syscall.Kill(zombie.Process.Pid, 0); err != nil {
		t.Errorf("the zombie %d cannot be signalled (%v): the /proc check was not what found it gone", zombie.Process.Pid, err)
	}
}

// patienceDeadline is when a wait for a state that starts now gives up:
// as testkit.PatienceDeadline, which this package's tests cannot import
// (the test kit imports it), 10 s before the test binary's own deadline,
// at most three minutes from now.
func patienceDeadline(t *testing.T) time.Time {
	end := time.Now().Add(3 * time.Minute)
	if d, ok := t.Deadline(); ok && d.Add(-10*time.Second).Before(end) {
		end = d.Add(-10 * time.Second)
	}
	return end
}
