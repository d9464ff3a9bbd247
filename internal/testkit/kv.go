package testkit

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// UpdateEntry reads the entry key of bucket on the server nc reaches into a
// map, has change edit it, and stores the result over the entry, checked
// against the revision read. Any failure ends the test.
func UpdateEntry(t testing.TB, nc *nats.Conn, bucket, key string, change func(map[string]any)) {
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
