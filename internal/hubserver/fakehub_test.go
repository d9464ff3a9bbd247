package hubserver_test

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/kvtest"
)

// TestFakeHub runs a real NATS server, without the hub's key, on the port
// a killed hub left, holding a forged dismissal of the waiting question:
// the asker refuses the server, says so, keeps its question (which a
// dismissal from the hub would end), and gets the answer given on the
// next hub.
func TestFakeHub(t *testing.T) {
	for _, tc := range []struct {
		name string
		tls  bool // the fake presents a certificate of its own
		want string
	}{
		{"plain", false, "it offers no TLS"},
		{"own certificate", true, "the server presented the certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := t.TempDir()
			env := getenv(state)
			first, info := startProcess(t, state)

			var mu sync.Mutex
			var said []string
			results := askLogged(t, env, func(s string) {
				mu.Lock()
				said = append(said, s)
				mu.Unlock()
			})
			q := killHolding(t, env, first)
			fake, err := kvtest.NewImpostor(port(t, info), t.TempDir(), impostorTLS(t, tc.tls))
			if err != nil {
				t.Fatal(err)
			}
			defer fake.Close()
			forged, err := json.Marshal(hub.Answer{ID: q.ID, Status: hub.StatusDismissed, By: "alice on her phone", At: time.Now().UTC()})
			if err != nil {
				t.Fatal(err)
			}
			if err := fake.Forge(hub.AnswersBucket, q.ID, forged, "askuser.answered."+q.ID); err != nil {
				t.Fatal(err)
			}
			// Two attempts after the forgery: the asker saw it and refused.
			seen := fake.Connections()
			for deadline := time.Now().Add(20 * time.Second); fake.Connections() < seen+2; {
				select {
				case res := <-results:
					t.Fatalf("the asker ended on the fake hub: %+v", res)
				case <-time.After(20 * time.Millisecond):
				}
				if time.Now().After(deadline) {
					t.Fatal("the asker did not try the server on the freed port again")
				}
			}
			select {
			case res := <-results:
				t.Fatalf("the asker ended on the fake hub: %+v", res)
			default:
			}
			mu.Lock()
			log := strings.Join(said, "\n")
			mu.Unlock()
			if !strings.Contains(log, "refused the server at "+info.URL+", which is not the hub") || !strings.Contains(log, tc.want) {
				t.Errorf("the asker said %q; want it to refuse the server at %s: %s", log, info.URL, tc.want)
			}
			fake.Close()

			startProcess(t, state)
			c, err := hub.Dial(context.Background(), &hub.DialOptions{Getenv: env})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			answerHeld(t, c, q.ID, "fake hub test", results, "on the next hub")
		})
	}
}

// port is the port the hub of info listened on.
func port(t *testing.T, info hub.Info) int {
	t.Helper()
	u, err := url.Parse(info.URL)
	if err != nil {
		t.Fatal(err)
	}
	p, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// impostorTLS is the TLS an impostor offers: with withTLS, a certificate
// made as the hub makes its own, but not the hub's; else none.
func impostorTLS(t *testing.T, withTLS bool) *tls.Config {
	t.Helper()
	if !withTLS {
		return nil
	}
	cert, err := hubserver.ServerCert()
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}}
}
