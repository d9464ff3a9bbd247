package hubserver_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/internal/testkit"
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
			fake, err := testkit.NewImpostor(port(t, info), t.TempDir(), impostorTLS(t, tc.tls))
			if err != nil {
				t.Fatal(err)
			}
			defer fake.Close()
			forged, err := json.Marshal(hub.Answer{ID: q.ID, Status: hub.StatusDismissed, By: "alice on her phone", At: time.Now().UTC()})
			if err != nil {
				t.Fatal(err)
			}
			if err := fake.Forge(hubstore.AnswersBucket, q.ID, forged, "askuser.answered."+q.ID); err != nil {
				t.Fatal(err)
			}
			// Two attempts after the forgery: the asker saw it and refused.
			seen := fake.Connections()
			for deadline := testkit.PatienceDeadline(t); fake.Connections() < seen+2; {
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

// TestFakeHubControl runs a real NATS server, without the hub's
// certificate, on the port of a hub whose info file was left behind,
// answering askuser hub devices and revoke as the hub would: both refuse
// it, say so, and believe none of its replies.
func TestFakeHubControl(t *testing.T) {
	for _, tc := range []struct {
		name string
		tls  bool
	}{{"plain", false}, {"own certificate", true}} {
		t.Run(tc.name, func(t *testing.T) {
			state := t.TempDir()
			env := getenv(state)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			info, stop, err := hubserver.Start(ctx, &hubserver.Options{Getenv: env, Web: "127.0.0.1:0"})
			if err != nil {
				t.Fatal(err)
			}
			if info.Fingerprint == "" {
				t.Fatal("the hub's info file names no certificate")
			}
			if err := stop(); err != nil {
				t.Fatal(err)
			}
			// As a killed hub leaves it.
			paths, err := hub.Locate(env)
			if err != nil {
				t.Fatal(err)
			}
			if err := hubserver.WriteInfo(paths.Info, info); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(paths.Info)
			fake, err := testkit.NewImpostor(port(t, info), t.TempDir(), impostorTLS(t, tc.tls))
			if err != nil {
				t.Fatal(err)
			}
			defer fake.Close()
			nc, err := nats.Connect(info.URL)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			for subject, reply := range map[string]string{
				"askuser.hub.web.devices": `{"devices":[{"id":"phone","name":"a phone the fake made up"}]}`,
				"askuser.hub.web.revoke":  `{"device":{"id":"phone"}}`,
			} {
				if _, err := nc.Subscribe(subject, func(m *nats.Msg) { m.Respond([]byte(reply)) }); err != nil {
					t.Fatal(err)
				}
			}
			if err := nc.Flush(); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"devices"}, {"revoke", "phone"}} {
				var stdout, stderr bytes.Buffer
				code := hubserver.Main(ctx, args, &stdout, &stderr, env)
				if code != 1 || stdout.Len() != 0 || !strings.Contains(stderr.String(), "refused the server at "+info.URL+", which is not the hub") {
					t.Errorf("askuser hub %s on the fake = %d, stdout %q, stderr %q; want 1 and the server refused as not the hub", strings.Join(args, " "), code, stdout.String(), stderr.String())
				}
			}
		})
	}
}
