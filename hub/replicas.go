package hub

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// autoReplicas is the most replicas a hub makes its buckets with by
// itself: three let a cluster lose a node without losing a question, and
// more copy every write to more nodes for little.
const autoReplicas = 3

// MaxReplicas is the most replicas Remote.Replicas may ask for, as
// JetStream allows.
const MaxReplicas = 5

// replicaPlan is how many replicas the buckets a client does not find
// are made with, and why, in words.
type replicaPlan struct {
	n     int
	why   string
	fixed bool // asked for by the person: not lowered when refused
}

// planReplicas plans the buckets of a remote hub that nc is connected
// to: want replicas when it is not 0 (Remote.Replicas), else as many as
// the servers of nc's cluster that nc knows of, the one it is connected
// to and those the cluster told of, up to autoReplicas. A server in no
// cluster may be a leaf node whose JetStream is a cluster's: there the
// plan is autoReplicas, lowered while JetStream cannot place them, down
// to one on a server that is alone.
func planReplicas(nc *nats.Conn, want int) *replicaPlan {
	if want > 0 {
		return &replicaPlan{n: want, why: "as configured", fixed: true}
	}
	name := nc.ConnectedClusterName()
	if name == "" {
		return &replicaPlan{n: autoReplicas, why: fmt.Sprintf("as many as JetStream placed, up to %d", autoReplicas)}
	}
	servers := len(nc.Servers())
	return &replicaPlan{n: min(servers, autoReplicas), why: fmt.Sprintf("the cluster %s has %d servers", name, servers)}
}

// openRemote returns how DialRemote opens a remote hub's buckets for a
// client: made, when they are missing, with replicas replicas (0 for
// planReplicas's choice), and read through their stream's leader
// (leaderKV). It says in words what it made, "" for nothing.
func openRemote(replicas int) func(ctx context.Context, c *Client) (string, error) {
	return func(ctx context.Context, c *Client) (string, error) {
		plan := planReplicas(c.nc, replicas)
		create := func(ctx context.Context, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
			return plan.create(ctx, c.js, cfg)
		}
		q, a, made, err := buckets(ctx, c.js, create)
		if err != nil {
			return "", err
		}
		c.questions = newLeaderKV(q, c.nc, c.apiPrefix())
		c.answers = newLeaderKV(a, c.nc, c.apiPrefix())
		if made == nil {
			return "", nil
		}
		return plan.told(made), nil
	}
}

// create creates the bucket of cfg with p's replicas. A cluster that
// cannot place that many, as when a server's address was counted twice,
// is asked again with one fewer, unless the person asked for them.
func (p *replicaPlan) create(ctx context.Context, js jetstream.JetStream, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
	for {
		cfg.Replicas = p.n
		kv, err := js.CreateKeyValue(ctx, cfg)
		if err == nil || p.fixed || p.n <= 1 || !tooManyReplicas(err) {
			return kv, err
		}
		p.why += fmt.Sprintf("; it could not place %d (%v)", p.n, err)
		p.n--
	}
}

// tooManyReplicas reports whether err is JetStream's refusal to place a
// stream's replicas: no suitable peers, insufficient resources, or a
// server in no cluster.
func tooManyReplicas(err error) bool {
	var apiErr *jetstream.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	switch apiErr.ErrorCode {
	case 10005, 10023, 10074: // JSClusterNoPeersErrF, JSInsufficientResourcesErr, JSStreamReplicasNotSupportedErr
		return true
	}
	return false
}

// told says in words that the buckets names were made, and how.
func (p *replicaPlan) told(names []string) string {
	unit := "replicas"
	if p.n == 1 {
		unit = "replica"
	}
	return fmt.Sprintf("made the buckets %s with %d %s: %s", strings.Join(names, " and "), p.n, unit, p.why)
}
