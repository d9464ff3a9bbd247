package hubstart

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/internal/hubremote"
)

const pub = "askuser-pub-hR7gzBekqP73t3cHmlaEGxWokKTM2DRFRX4zUc9ZEOM"

// Ensure uses the hub that runs, saying once when it relays with another
// remote than the config's, or with none; with no hub it starts one only
// for a remote, and says how to get askuser-hub when it is nowhere.
func TestEnsure(t *testing.T) {
	remote := &config.Remote{Remote: hubremote.Remote{URL: "tls://nats.example.net:4222", Credentials: "/c", Recipients: []string{pub}}}
	tests := []struct {
		name    string
		running *hub.Info // the info file; nil for no hub
		remote  *config.Remote
		warn    string // what warn is told; "" nothing
		err     string // the error says; "" none
		noHub   bool   // the error wraps hub.ErrNoHub
	}{
		{"no hub, no remote", nil, nil, "", "", true},
		{"no hub, no askuser-hub", nil, remote, "", "no hub runs, and none can be started to relay with the remote hub at tls://nats.example.net:4222: the askuser-hub program, which runs the hub, is neither beside askuser nor on PATH; get it with npm i -g @askuser/askuser-hub", false},
		{"a hub without a remote", &hub.Info{PID: 42}, nil, "", "", false},
		{"the info file of a hub that is gone", &hub.Info{PID: deadPID(t)}, remote, "", "no hub runs, and none can be started to relay with the remote hub at tls://nats.example.net:4222: the askuser-hub program", false},
		{"a hub relaying with the same remote", &hub.Info{PID: os.Getpid(), Remote: remote.URL}, remote, "", "", false},
		{"a hub relaying with another remote", &hub.Info{PID: os.Getpid(), Remote: "nats://other:4222"}, remote,
			"the config names the remote hub at tls://nats.example.net:4222, but the hub that runs here (process " + strconv.Itoa(os.Getpid()) + ") relays with the remote hub at nats://other:4222: the questions go there through it", "", false},
		{"a hub relaying with none", &hub.Info{PID: os.Getpid()}, remote,
			"the config names the remote hub at tls://nats.example.net:4222, but the hub that runs here (process " + strconv.Itoa(os.Getpid()) + ") relays with no remote hub: the questions go to it alone, on this machine", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state := t.TempDir()
			// Neither beside the test binary nor on PATH.
			t.Setenv("PATH", t.TempDir())
			getenv := func(k string) string {
				if k == "XDG_STATE_HOME" {
					return state
				}
				return ""
			}
			paths, _ := hub.Locate(getenv)
			if tt.running != nil {
				in := *tt.running
				in.URL, in.Token, in.Started = "nats://127.0.0.1:1", "t", time.Now().UTC().Truncate(time.Millisecond)
				if err := mkdirWrite(paths, in); err != nil {
					t.Fatal(err)
				}
			}
			var warned []string
			info, err := Ensure(context.Background(), getenv, tt.remote, func(s string) { warned = append(warned, s) })
			if got := errors.Is(err, hub.ErrNoHub); got != tt.noHub {
				t.Errorf("Ensure: %v; wraps ErrNoHub %v, want %v", err, got, tt.noHub)
			}
			switch {
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("Ensure: %v; want an error saying %q", err, tt.err)
			case tt.err == "" && !tt.noHub && err != nil:
				t.Errorf("Ensure: %v", err)
			case tt.running != nil && tt.err == "" && info.PID != tt.running.PID:
				t.Errorf("Ensure = %+v, want the running hub's info", info)
			}
			var want []string
			if tt.warn != "" {
				want = []string{tt.warn}
			}
			if !slices.Equal(warned, want) {
				t.Errorf("warned %q, want %q", warned, want)
			}
		})
	}
}

func mkdirWrite(p hub.Paths, info hub.Info) error {
	if err := os.MkdirAll(p.Dir, 0o700); err != nil {
		return err
	}
	return hub.WriteInfo(p.Info, info)
}

// deadPID is the id of a process that has ended.
func deadPID(t *testing.T) int {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Skipf("no process to end: %v", err)
	}
	return cmd.Process.Pid
}
