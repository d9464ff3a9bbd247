package hubserver_test

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/testkit"
)

// TestStopWhileRemoteSilent checks that a hub whose relay is connecting
// to a remote hub that takes the connection and never speaks, as a
// server behind a dead link does, stops at once, without waiting out
// the relay's 5 s timeout to connect.
func TestStopWhileRemoteSilent(t *testing.T) {
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	accepted := make(chan net.Conn, 4)
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	defer func() {
		for len(accepted) > 0 {
			(<-accepted).Close()
		}
	}()
	dir := t.TempDir()
	creds := filepath.Join(dir, "hub.creds")
	if err := os.WriteFile(creds, []byte("a-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "hub.json")
	data, _ := json.Marshal(map[string]any{"remote": map[string]any{"url": "nats://" + silent.Addr().String(), "credentials": creds, "recipients": []string{pub}}})
	if err := os.WriteFile(cfg, data, 0o600); err != nil {
		t.Fatal(err)
	}
	paths, err := hub.Locate(getenv(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	var log testkit.Buffer
	_, stop, err := hubserver.Start(context.Background(), &hubserver.Options{Paths: paths, ConfigFile: cfg, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-accepted:
		accepted <- c // closed at the end
	case <-time.After(testkit.Patience(t)):
		_ = stop()
		t.Fatalf("the relay never connected to the remote hub; the hub said:\n%s", log.String())
	}
	start := time.Now()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	// The relay's connect would give up after 5 s by itself.
	if took := time.Since(start); took >= 4*time.Second {
		t.Errorf("the hub took %v to stop while its relay connected to a silent remote hub; the hub said:\n%s", took.Round(time.Millisecond), log.String())
	}
}
