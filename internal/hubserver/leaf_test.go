package hubserver_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/testkit"
)

// TestLeafOffline starts a hub without a remote, leaves a question
// waiting on it, and starts it again as a leaf node of a cluster that
// cannot be reached: the question is still there, in the hub's own
// JetStream, shown by its web page, and answered there. The relay's
// token, kept in the hub's directory while it runs, lets a client in
// only to the account bound to the leaf node, which does not reach the
// hub's own questions; a wrong token lets none in. The relay's log says
// what to look at.
func TestLeafOffline(t *testing.T) {
	paths, err := hub.Locate(getenv(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	info, stop, err := hubserver.Start(context.Background(), &hubserver.Options{Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	results := askThrough(t, getenv(filepath.Dir(filepath.Dir(paths.Dir))))
	c, err := hub.Dial(context.Background(), &hub.DialOptions{Info: &info})
	if err != nil {
		t.Fatal(err)
	}
	q := pending(t, c, 1)[0]
	c.Close()
	if err := stop(); err != nil {
		t.Fatal(err)
	}

	// A cluster that cannot be reached: a port nobody listens on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	dir := t.TempDir()
	creds := filepath.Join(dir, "hub.creds")
	if err := os.WriteFile(creds, []byte("person:secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "hub.json")
	data, _ := json.Marshal(map[string]any{"remote": map[string]any{"url": "nats://" + ln.Addr().String(), "credentials": creds,
		"recipients": []string{pub}, "leaf": map[string]any{"domain": "askuser"}}})
	if err := os.WriteFile(cfg, data, 0o600); err != nil {
		t.Fatal(err)
	}
	var log testkit.Buffer
	page := make(chan string, 1)
	info, stop, err = hubserver.Start(context.Background(), &hubserver.Options{Paths: paths, ConfigFile: cfg, Log: &log,
		Web: "127.0.0.1:0", WebReady: func(u string) { page <- u }})
	if err != nil {
		t.Fatal(err)
	}
	// The web page reaches the hub's questions too.
	at, pageToken, _ := strings.Cut(<-page, "#token=")
	req, _ := http.NewRequest("GET", at+"api/question?id="+q.ID, nil)
	req.Header.Set("Authorization", "Bearer "+pageToken)
	res, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "Deploy where?") {
		t.Errorf("the web page of a hub joined as a leaf node: %s, without question %s:\n%.300s", res.Status, q.ID, body)
	}
	c, err = hub.Dial(context.Background(), &hub.DialOptions{Info: &info})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	answerHeld(t, c, q.ID, "leaf test", results, "as a leaf node")

	tokenFile := filepath.Join(paths.Dir, "leaf.token")
	st, err := os.Stat(tokenFile)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the relay's token file: %v, mode %v; want 0600", err, st.Mode().Perm())
	}
	token, _ := os.ReadFile(tokenFile)
	for _, tc := range []struct{ name, token, want string }{
		{"the relay's token", strings.TrimSpace(string(token)), "open the hub's buckets"},
		{"a wrong token", "wrong", "Authorization Violation"},
	} {
		i := info
		i.Token = tc.token
		rc, err := hub.Dial(context.Background(), &hub.DialOptions{Info: &i})
		if err == nil {
			rc.Close()
			t.Errorf("with %s, a client reached the hub's questions", tc.name)
		} else if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("with %s: %v; want it to say %q", tc.name, err, tc.want)
		}
	}
	// The relay says what to look at.
	hint := "this hub has not joined the cluster: is nats://" + ln.Addr().String() + " its leaf node port"
	for deadline := testkit.PatienceDeadline(t); !strings.Contains(log.String(), hint); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the hub's log does not say %q:\n%s", hint, log.String())
		}
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tokenFile); !os.IsNotExist(err) {
		t.Errorf("the relay's token file after the hub stopped: %v, want it removed", err)
	}
	if strings.Contains(log.String(), "askuser hub: joined the cluster") {
		t.Errorf("the hub says it joined a cluster nobody runs:\n%s", log.String())
	}
}
