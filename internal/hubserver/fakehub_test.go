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
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
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
			fake := fakeServer(t, info, tc.tls)
			forgeDismissal(t, fake, q.ID)
			// Two attempts after the forgery: the asker saw it and refused.
			conns := func() uint64 {
				v, err := fake.Varz(nil)
				if err != nil {
					t.Fatal(err)
				}
				return uint64(v.TotalConnections)
			}
			seen := conns()
			for deadline := time.Now().Add(20 * time.Second); conns() < seen+2; {
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
			fake.Shutdown()
			fake.WaitForShutdown()

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

// fakeServer starts a real NATS server with JetStream on the port of the
// hub of info, which is gone, with neither its token nor its key; with
// withTLS, it presents a certificate of its own.
func fakeServer(t *testing.T, info hub.Info, withTLS bool) *server.Server {
	t.Helper()
	u, err := url.Parse(info.URL)
	if err != nil {
		t.Fatal(err)
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatal(err)
	}
	opts := &server.Options{Host: "127.0.0.1", Port: port, JetStream: true, StoreDir: t.TempDir(), NoSigs: true, NoLog: true}
	if withTLS {
		cert, err := hubserver.ServerCert()
		if err != nil {
			t.Fatal(err)
		}
		opts.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
		opts.AllowNonTLS = true
	}
	s, err := server.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatalf("the fake server on port %d was not ready", port)
	}
	return s
}

// forgeDismissal stores, on the fake server s, the note that question
// id was dismissed on the person's phone, and tells of it as the hub
// tells of an answer.
func forgeDismissal(t *testing.T, s *server.Server, id string) {
	t.Helper()
	nc, err := nats.Connect("", nats.InProcessServer(s))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, answers, err := hub.Buckets(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	forged, err := json.Marshal(hub.Answer{ID: id, Status: hub.StatusDismissed, By: "alice on her phone", At: time.Now().UTC()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := answers.Create(ctx, id, forged); err != nil {
		t.Fatal(err)
	}
	if err := nc.Publish("askuser.answered."+id, nil); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
}
