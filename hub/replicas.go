package hub

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/askuser/askuser/internal/hubstore"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// autoReplicas is the most replicas a hub makes its buckets with by
// itself: three let a cluster lose a node without losing a question, and
// more copy every write to more nodes for little.
const autoReplicas = 3

// replicaPlan is how many replicas the buckets a client does not find
// are made with, and why, in words.
type replicaPlan struct {
	n     int
	why   string
	fixed bool // asked for by the person: not lowered when refused

	refused []int  // the counts JetStream could not place, in the order asked
	reason  string // JetStream's reason for the last refusal
}

// planReplicas plans the buckets of a remote hub that nc is connected
// to: want replicas when it is not 0 (prefs.Remote.Replicas), else as many as
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

// openRemote returns how dialRemote opens a remote hub's buckets for a
// client: made, when they are missing, with replicas replicas (0 for
// planReplicas's choice), and read through their stream's leader
// (leaderKV). It says in words what it made, "" for nothing.
func openRemote(replicas int) func(ctx context.Context, c *Client) (string, error) {
	return func(ctx context.Context, c *Client) (string, error) {
		plan := planReplicas(c.nc, replicas)
		create := func(ctx context.Context, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
			return plan.create(ctx, c.js, cfg)
		}
		q, a, made, err := hubstore.OpenBuckets(ctx, c.js, create)
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
// is asked again with one fewer, and a server in no cluster with one,
// unless the person asked for them.
func (p *replicaPlan) create(ctx context.Context, js jetstream.JetStream, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
	for {
		cfg.Replicas = p.n
		kv, err := js.CreateKeyValue(ctx, cfg)
		var apiErr *jetstream.APIError
		if err == nil || p.fixed || p.n <= 1 || !errors.As(err, &apiErr) || !tooManyReplicas(apiErr) {
			return kv, err
		}
		p.refused = append(p.refused, p.n)
		p.reason = apiErr.Description
		if apiErr.ErrorCode == errCodeNotClustered {
			p.n = 1
		} else {
			p.n--
		}
	}
}

// JetStream's error codes for a stream whose replicas it cannot place.
const (
	errCodeNoPeers      = 10005 // JSClusterNoPeersErrF
	errCodeResources    = 10023 // JSInsufficientResourcesErr
	errCodeNotClustered = 10074 // JSStreamReplicasNotSupportedErr
)

// tooManyReplicas reports whether apiErr is JetStream's refusal to place
// a stream's replicas: no suitable peers, insufficient resources, or a
// server in no cluster.
func tooManyReplicas(apiErr *jetstream.APIError) bool {
	switch apiErr.ErrorCode {
	case errCodeNoPeers, errCodeResources, errCodeNotClustered:
		return true
	}
	return false
}

// told says in words, on one line, that the buckets names were made, and
// how: the counts JetStream refused are named once, with its last reason.
func (p *replicaPlan) told(names []string) string {
	unit := "replicas"
	if p.n == 1 {
		unit = "replica"
	}
	why := p.why
	if len(p.refused) > 0 {
		counts := make([]string, len(p.refused))
		for i, n := range p.refused {
			counts[i] = strconv.Itoa(n)
		}
		why += fmt.Sprintf("; JetStream could not place %s: %s", strings.Join(counts, " or "), p.reason)
	}
	return fmt.Sprintf("made the buckets %s with %d %s: %s", strings.Join(names, " and "), p.n, unit, why)
}
