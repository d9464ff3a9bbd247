// Package kvtest edits a hub's key-value entries behind the hub's back,
// for tests that play what a relay or another machine stores: it reads an
// entry as JSON, lets the test change it, and writes it back only if the
// entry has not changed meanwhile. An Impostor plays another user's
// server on the port a stopped hub left.
package kvtest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Update reads the entry key of bucket on the server nc reaches into a
// map, has change edit it, and stores the result over the entry, checked
// against the revision read. Any failure ends the test.
func Update(t testing.TB, nc *nats.Conn, bucket, key string, change func(map[string]any)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := js.KeyValue(ctx, bucket)
	if err != nil {
		t.Fatal(err)
	}
	e, err := kv.Get(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(e.Value(), &v); err != nil {
		t.Fatalf("the entry %s of %s is not a JSON object: %v", key, bucket, err)
	}
	change(v)
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Update(ctx, key, data, e.Revision()); err != nil {
		t.Fatal(err)
	}
}
