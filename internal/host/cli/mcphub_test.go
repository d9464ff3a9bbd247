package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/prefs"
)

// askuser mcp with a config naming a remote hub: every session counts a
// hub as there, since one is started when none runs; a hub that runs
// without that remote is dialed, and said once per server; with no hub
// and no askuser-hub, the dial fails saying how to get it.
func TestMCPHubRemote(t *testing.T) {
	remote := &prefs.Remote{URL: "nats://127.0.0.1:9", Credentials: "/c",
		Recipients: []string{"askuser-pub-PwAxMkIhRrYfpdxky-KNzmaHmdSh_1NOEgqW7iO2WJx9_KcMfvVsQ7ytnYjPgKEXdAXPIesKYqt2eFVSrZSr1kCgZcjCvcEnp5o_PRWl0RYJLVUF3oJ16go1wyBoLTHOvHGLpVI3b0RTnrOUoMtIsONJuvW8f-HKR5eWnUVB-Pi-YIgRUsVY0gKw8-uEbFmiVfufBtdcN0HIDTp80ozL_xRxw8x2oGsVlYBGBMFjBtI3utQwOzAPnjqd3QnPNIaPI1s02xSA42ipYUaEy3ad7eFV3oiS8kkVztYkxJxH3kZxMwkfORhEp5OCzWOFI9wSOkRuoZiE0WpH1We51XeSFgXEemGmUwyqqLbG08o2rKOmGatCG-w0hZuE5gq4BcDOSCUamXMwdhAaumBaGBCc7fs3h4ga_glbRAGx4ndK1Nc4l8x_q9ltoerEw4dZnaW8sFFe3qhfKZU4wTRoezt_cEZ8NAe0KyVW3FWU15JkSemsPctVmTCrJLQn6Eu-NCNHK3w6tlRV_ChHZmhM1VFu-SumwzFZwPmofQCiKIdxB9GyOXy1ClQA3hUnI3NzM8e25uCEzLA00IWWRiQ6rLA9RJWu_jETTXiip-c-jKiIpYY8odQF52obNlAGIIWs7ZZCkjlAkCc6fzOAZrOYCJOsnJBZxjh345dpDkqgSTAcimKhYot0XuKNx5ml4oYruSMeWHNL4jdo0SxzotSXa7ZGFRB-yktkWpORS5MKefK3DRNCsCycoMO5ZLtWVktNqCoohXCiSsshd0B9veBzxhJZIfnOl0pzuni2JdSIYbaS3vrMaUtG1-W1U0GGnoQPN4wQMdjCPXZ9nNc7fHwV8AA_lrVyd8vJmBt6jkm6gMmrTqEgAQCFVMx27fc2wzdgxGhvMKMe4pZJPBqykgKK94YfB7tDWJyqAcm0SbyXfXdnJPQ2V8hjInGTU2qtguUQBKmQGJKmCEZKLeNUcpMeGcIPVVuAkfQnWUJZzxBYpIUnmaCJ3gBtU9a5XTODYvOeGHBSzoZqcZpsuNsW5QQCmviBZNJoEZpClmEcn_lkd6lPQbkBoPNfuqJKTZKNEFBHSkKAACbKN-Ma85ZJzAmFH5vJu1m3W0SWAbWLIZQJdgHF2hQ3sGt3tHME6bBeb-HHFDcwoceW1YCAUoqfpfZhdylVHiQrxorMPXoX_nu7oqxX68gf-EMs4NIdLfFmsPWcpiYQT6Fm3qwMdoNITBCRLLe7MCQocgpAe-ZRwmmVJZXG2kdUkVkaLsUDGLhDXWIsE3CcD7MrCbp2IGCRl0y55uFhH6VebOkpHPGCk3jJEJC1aNRyGSVK7uu7RPJsf3WYASVSpHdMGUEc2Qus0lghGFQrACR7t5Gf4qTExbUWF-CBzxaDQ2ACcwY2l4euaYhuLJCM_CgKjTm45_UdylkEtDtIdHnKowfFwFKnmHtIgZYVUJyR6YXEK7Ut1woHa7y_gYOHufiUhooHOhZTItin_JOsBegFncrKKwQ3qTEbZDkARmRsSus2pdM87ElR8TdfweOOI3sZQB93YKNZveBhfJw4ck2ccrhsDvDSKpzxQn2xoQe0Dgo7sZEcLGA7K9VMTh9TtIz7RdKkEdvOmDON8pXDcEVIUBmYc4Zvuar4r1aw0GH-TdQ-b5dKL-W87GBpv50M"}}
	state := t.TempDir()
	t.Setenv("PATH", t.TempDir())
	var stderr bytes.Buffer
	env := &Env{Stderr: &stderr, Getenv: func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}}
	o := mcpHub(env, hubPref{mode: prefs.HubAuto, remote: remote})
	if !o.Running() {
		t.Error("Running = false with a remote hub in the config")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := o.Dial(ctx); err == nil || errors.Is(err, hub.ErrNoHub) || !strings.Contains(err.Error(), "npm i -g @askuser/askuser-hub") {
		t.Errorf("Dial with no hub and no askuser-hub: %v; want how to get askuser-hub", err)
	}

	_, stop, err := hubserver.Start(ctx, &hubserver.Options{Getenv: env.Getenv})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for range 2 {
		c, err := o.Dial(ctx)
		if err != nil {
			t.Fatal(err)
		}
		c.Close()
	}
	if got := stderr.String(); strings.Count(got, "askuser mcp: the config names the remote hub at nats://127.0.0.1:9, but the hub that runs here") != 1 {
		t.Errorf("stderr %q; want the warning once", got)
	}
}
