package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/internal/hubremote"
	"github.com/askuser/askuser/internal/hubserver"
)

// askuser mcp with a config naming a remote hub: every session counts a
// hub as there, since one is started when none runs; a hub that runs
// without that remote is dialed, and said once per server; with no hub
// and no askuser-hub, the dial fails saying how to get it.
func TestMCPHubRemote(t *testing.T) {
	remote := &config.Remote{Remote: hubremote.Remote{URL: "nats://127.0.0.1:9", Credentials: "/c",
		Recipients: []string{"askuser-pub-hR7gzBekqP73t3cHmlaEGxWokKTM2DRFRX4zUc9ZEOM"}}}
	state := t.TempDir()
	t.Setenv("PATH", t.TempDir())
	var stderr bytes.Buffer
	env := &Env{Stderr: &stderr, Getenv: func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}}
	o := mcpHub(env, hubPref{mode: config.HubAuto, remote: remote})
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
