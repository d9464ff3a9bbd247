package program_test

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
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/program"
	"github.com/askuser/askuser/prefs"
)

const pub = "askuser-pub-PwAxMkIhRrYfpdxky-KNzmaHmdSh_1NOEgqW7iO2WJx9_KcMfvVsQ7ytnYjPgKEXdAXPIesKYqt2eFVSrZSr1kCgZcjCvcEnp5o_PRWl0RYJLVUF3oJ16go1wyBoLTHOvHGLpVI3b0RTnrOUoMtIsONJuvW8f-HKR5eWnUVB-Pi-YIgRUsVY0gKw8-uEbFmiVfufBtdcN0HIDTp80ozL_xRxw8x2oGsVlYBGBMFjBtI3utQwOzAPnjqd3QnPNIaPI1s02xSA42ipYUaEy3ad7eFV3oiS8kkVztYkxJxH3kZxMwkfORhEp5OCzWOFI9wSOkRuoZiE0WpH1We51XeSFgXEemGmUwyqqLbG08o2rKOmGatCG-w0hZuE5gq4BcDOSCUamXMwdhAaumBaGBCc7fs3h4ga_glbRAGx4ndK1Nc4l8x_q9ltoerEw4dZnaW8sFFe3qhfKZU4wTRoezt_cEZ8NAe0KyVW3FWU15JkSemsPctVmTCrJLQn6Eu-NCNHK3w6tlRV_ChHZmhM1VFu-SumwzFZwPmofQCiKIdxB9GyOXy1ClQA3hUnI3NzM8e25uCEzLA00IWWRiQ6rLA9RJWu_jETTXiip-c-jKiIpYY8odQF52obNlAGIIWs7ZZCkjlAkCc6fzOAZrOYCJOsnJBZxjh345dpDkqgSTAcimKhYot0XuKNx5ml4oYruSMeWHNL4jdo0SxzotSXa7ZGFRB-yktkWpORS5MKefK3DRNCsCycoMO5ZLtWVktNqCoohXCiSsshd0B9veBzxhJZIfnOl0pzuni2JdSIYbaS3vrMaUtG1-W1U0GGnoQPN4wQMdjCPXZ9nNc7fHwV8AA_lrVyd8vJmBt6jkm6gMmrTqEgAQCFVMx27fc2wzdgxGhvMKMe4pZJPBqykgKK94YfB7tDWJyqAcm0SbyXfXdnJPQ2V8hjInGTU2qtguUQBKmQGJKmCEZKLeNUcpMeGcIPVVuAkfQnWUJZzxBYpIUnmaCJ3gBtU9a5XTODYvOeGHBSzoZqcZpsuNsW5QQCmviBZNJoEZpClmEcn_lkd6lPQbkBoPNfuqJKTZKNEFBHSkKAACbKN-Ma85ZJzAmFH5vJu1m3W0SWAbWLIZQJdgHF2hQ3sGt3tHME6bBeb-HHFDcwoceW1YCAUoqfpfZhdylVHiQrxorMPXoX_nu7oqxX68gf-EMs4NIdLfFmsPWcpiYQT6Fm3qwMdoNITBCRLLe7MCQocgpAe-ZRwmmVJZXG2kdUkVkaLsUDGLhDXWIsE3CcD7MrCbp2IGCRl0y55uFhH6VebOkpHPGCk3jJEJC1aNRyGSVK7uu7RPJsf3WYASVSpHdMGUEc2Qus0lghGFQrACR7t5Gf4qTExbUWF-CBzxaDQ2ACcwY2l4euaYhuLJCM_CgKjTm45_UdylkEtDtIdHnKowfFwFKnmHtIgZYVUJyR6YXEK7Ut1woHa7y_gYOHufiUhooHOhZTItin_JOsBegFncrKKwQ3qTEbZDkARmRsSus2pdM87ElR8TdfweOOI3sZQB93YKNZveBhfJw4ck2ccrhsDvDSKpzxQn2xoQe0Dgo7sZEcLGA7K9VMTh9TtIz7RdKkEdvOmDON8pXDcEVIUBmYc4Zvuar4r1aw0GH-TdQ-b5dKL-W87GBpv50M"

// EnsureHub uses the hub that runs, saying once when it relays with another
// remote than the config's, or with none; with no hub it starts one only
// for a remote, and says how to get askuser-hub when it is nowhere.
func TestEnsure(t *testing.T) {
	remote := &prefs.Remote{URL: "tls://nats.example.net:4222", Credentials: "/c", Recipients: []string{pub}}
	tests := []struct {
		name    string
		running *hub.Info // the info file; nil for no hub
		remote  *prefs.Remote
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
			info, err := program.EnsureHub(context.Background(), getenv, tt.remote, func(s string) { warned = append(warned, s) })
			if got := errors.Is(err, hub.ErrNoHub); got != tt.noHub {
				t.Errorf("EnsureHub: %v; wraps ErrNoHub %v, want %v", err, got, tt.noHub)
			}
			switch {
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("EnsureHub: %v; want an error saying %q", err, tt.err)
			case tt.err == "" && !tt.noHub && err != nil:
				t.Errorf("EnsureHub: %v", err)
			case tt.running != nil && tt.err == "" && info.PID != tt.running.PID:
				t.Errorf("EnsureHub = %+v, want the running hub's info", info)
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
	return hubserver.WriteInfo(p.Info, info)
}

// deadPID is the id of a process that has ended.
func deadPID(t *testing.T) int {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Skipf("no process to end: %v", err)
	}
	return cmd.Process.Pid
}
