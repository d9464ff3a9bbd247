package hub_test

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/askuser/askuser/hub"
)

// TestDialWithoutInfoFile checks that a client whose hub stopped and
// removed its info file does not dial the port the hub listened on,
// which anybody may listen on now.
func TestDialWithoutInfoFile(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	path := filepath.Join(t.TempDir(), "hub.json")
	if err := hub.WriteInfo(path, hub.Info{URL: "nats://" + ln.Addr().String(), Token: "t", Started: time.Now()}); err != nil {
		t.Fatal(err)
	}
	conn, err := hub.DialInfoFileForTest(path, ln.Addr().String())
	if err != nil {
		t.Fatalf("with the info file: %v", err)
	}
	conn.Close()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	conn, err = hub.DialInfoFileForTest(path, ln.Addr().String())
	if err == nil {
		conn.Close()
	}
	if !errors.Is(err, hub.ErrNoHub) {
		t.Fatalf("without the info file: dial = %v; want ErrNoHub, and no dial", err)
	}
}
