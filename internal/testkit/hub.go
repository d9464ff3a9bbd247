package testkit

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Hub is a hub running as a process of its own, as the person runs it.
type Hub struct {
	cmd    *exec.Cmd
	done   chan struct{}
	stderr Buffer
}

// StartHub runs the hub program bin with args (askuser-hub, or askuser
// with "hub") for the state directory state, until the test ends, and
// returns once it has written its info file.
func StartHub(t testing.TB, state, bin string, args ...string) *Hub {
	t.Helper()
	h := &Hub{cmd: exec.Command(bin, args...), done: make(chan struct{})}
	h.cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state)
	h.cmd.Stderr = &h.stderr
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { h.cmd.Wait(); close(h.done) }()
	t.Cleanup(func() { h.Signal(t, syscall.SIGKILL) })
	info := filepath.Join(state, "askuser", "hub", "hub.json")
	wait := Patience(t)
	for deadline := time.Now().Add(wait); ; {
		var i struct{ PID int }
		if b, err := os.ReadFile(info); err == nil && json.Unmarshal(b, &i) == nil && i.PID == h.cmd.Process.Pid {
			return h
		}
		select {
		case <-h.done:
			t.Fatalf("the hub ended before it was ready:\n%s", h.stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hub was not ready within %v:\n%s", wait, h.stderr.String())
		}
	}
}

// Signal sends the hub sig and waits until its process is gone.
func (h *Hub) Signal(t testing.TB, sig syscall.Signal) {
	t.Helper()
	_ = h.cmd.Process.Signal(sig)
	select {
	case <-h.done:
	case <-time.After(Patience(t)):
		_ = h.cmd.Process.Kill()
		<-h.done
		t.Errorf("the hub did not stop on %v:\n%s", sig, h.stderr.String())
	}
}
