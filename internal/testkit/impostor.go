package testkit

import (
	"context"
	"crypto/tls"
	"fmt"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Impostor is a real NATS server with JetStream that a test starts where
// a hub listened, as another user could once the hub stopped, without
// the hub's token or key.
type Impostor struct {
	s *server.Server
}

// NewImpostor starts an impostor on 127.0.0.1:port with its store in
// dir; with tlsConfig (nil for none) it offers TLS with a certificate of
// its own. Close it when done.
func NewImpostor(port int, dir string, tlsConfig *tls.Config) (*Impostor, error) {
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: port, JetStream: true, StoreDir: dir,
		NoSigs: true, NoLog: true, TLSConfig: tlsConfig, AllowNonTLS: tlsConfig != nil})
	if err != nil {
		return nil, err
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("the impostor on port %d was not ready", port)
	}
	return &Impostor{s: s}, nil
}

// Forge stores value under key in bucket, made if missing, and publishes
// an empty message on notice, as a hub tells of an answer.
func (i *Impostor) Forge(bucket, key string, value []byte, notice string) error {
	nc, err := nats.Connect("", nats.InProcessServer(i.s))
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: bucket})
	if err != nil {
		return err
	}
	if _, err := kv.Create(ctx, key, value); err != nil {
		return err
	}
	if err := nc.Publish(notice, nil); err != nil {
		return err
	}
	return nc.Flush()
}

// Connections is how many connections the impostor has accepted so far.
func (i *Impostor) Connections() uint64 {
	v, err := i.s.Varz(nil)
	if err != nil {
		return 0
	}
	return uint64(v.TotalConnections)
}

// Close stops the impostor.
func (i *Impostor) Close() {
	i.s.Shutdown()
	i.s.WaitForShutdown()
}
