package hub_test

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
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
	if err := hubserver.WriteInfo(path, hub.Info{URL: "nats://" + ln.Addr().String(), Token: "t", Started: time.Now()}); err != nil {
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

// TestDialPinAdded checks that a client set up without TLS, its hub's
// info file naming no certificate, does not follow a hub restarted with
// one: it could not check that the server is the hub, so it does not
// dial, but the client set up to check the certificate does.
func TestDialPinAdded(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	path := filepath.Join(t.TempDir(), "hub.json")
	info := hub.Info{URL: "nats://" + ln.Addr().String(), Token: "t", Started: time.Now()}
	if err := hubserver.WriteInfo(path, info); err != nil {
		t.Fatal(err)
	}
	conn, err := hub.DialInfoFilePinnedForTest(path, ln.Addr().String(), false)
	if err != nil {
		t.Fatalf("without a certificate in the info file: %v", err)
	}
	conn.Close()
	info.Fingerprint = strings.Repeat("ab", 32)
	if err := hubserver.WriteInfo(path, info); err != nil {
		t.Fatal(err)
	}
	conn, err = hub.DialInfoFilePinnedForTest(path, ln.Addr().String(), false)
	if err == nil {
		conn.Close()
		t.Fatal("a client set up without TLS dialed the hub whose info file names a certificate now")
	}
	if !strings.Contains(err.Error(), "names a certificate now") {
		t.Errorf("dial = %v; want it to say the info file names a certificate now", err)
	}
	conn, err = hub.DialInfoFilePinnedForTest(path, ln.Addr().String(), true)
	if err != nil {
		t.Fatalf("a client set up to check the certificate: %v", err)
	}
	conn.Close()
}
