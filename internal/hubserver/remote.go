package hubserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/internal/strictjson"
	"github.com/askuser/askuser/prefs"
)

// remoteKeys are the members of the config's remote.
var remoteKeys = []string{"url", "credentials", "recipients", "leaf", "replicas"}

// parseRemote reads the config's remote: the NATS server or cluster of
// the person's other machines (see hubstore.Relay), and its leaf member, nil
// when the hub dials the remote as a client.
func parseRemote(raw []byte) (*prefs.Remote, *Leaf, error) {
	m, err := strictjson.Members(raw, remoteKeys...)
	if err != nil {
		return nil, nil, fmt.Errorf("remote: %w", err)
	}
	var problems []string
	add := func(key, format string, args ...any) {
		problems = append(problems, "remote."+key+": "+fmt.Sprintf(format, args...))
	}
	var r prefs.Remote
	for key, dst := range map[string]*string{"url": &r.URL, "credentials": &r.Credentials} {
		if v, ok := m[key]; ok && json.Unmarshal(v, dst) != nil {
			add(key, "must be a string")
		}
	}
	if v, ok := m["recipients"]; ok && json.Unmarshal(v, &r.Recipients) != nil {
		add("recipients", `must be an array of public keys such as ["askuser-pub-…"]`)
	}
	if v, ok := m["replicas"]; ok && (json.Unmarshal(v, &r.Replicas) != nil || r.Replicas < 1 || r.Replicas > config.MaxReplicas) {
		add("replicas", "must be a whole number from 1 to %d: how many replicas the hub's buckets are made with on a cluster that has none, got %s", config.MaxReplicas, v)
	}
	var leaf *Leaf
	if v, ok := m["leaf"]; ok {
		var lp []string
		leaf, lp = parseLeaf(v)
		problems = append(problems, lp...)
	}
	if problems == nil {
		problems = remoteProblems(&r)
	}
	if problems != nil {
		return nil, nil, errors.New(strings.Join(problems, "; "))
	}
	return &r, leaf, nil
}

// remoteProblems checks a remote, each problem naming its member.
func remoteProblems(r *prefs.Remote) []string {
	var out []string
	for _, p := range config.RemoteProblems(r) {
		out = append(out, "remote."+p.Member+": "+p.Message)
	}
	return out
}

// remoteRetry is how long the relay waits before it dials the remote
// hub again.
const remoteRetry = 2 * time.Second

// startRelay relays questions between the hub, at info, and the remote
// hub that dial connects to, named where, on wg until ctx is done (see
// hubstore.Relay), dialing again while it cannot be reached.
func startRelay(ctx context.Context, wg *sync.WaitGroup, info hub.Info, dial func(context.Context) (hubstore.Conn, error), where string, log io.Writer) error {
	local, err := hub.Dial(ctx, &hub.DialOptions{Info: &info, Name: "askuser hub relay"})
	if err != nil {
		return fmt.Errorf("remote: connect to the hub: %w", err)
	}
	wg.Go(func() {
		defer local.Close()
		said := ""
		for ctx.Err() == nil {
			remote, err := dial(ctx)
			if err == nil {
				fmt.Fprintf(log, "askuser hub: relays questions with %s\n", where)
				err = hubstore.Relay(ctx, local, remote, func(s string) { fmt.Fprintf(log, "askuser hub: %s\n", s) })
				remote.Close()
			}
			if ctx.Err() != nil {
				return
			}
			if msg := err.Error(); msg != said {
				fmt.Fprintf(log, "askuser hub: %s: %v; trying again\n", where, err)
				said = msg
			}
			select {
			case <-ctx.Done():
			case <-time.After(remoteRetry):
			}
		}
	})
	return nil
}

// remoteDial connects the relay to the remote r, as a client of its
// server, with key, the path of this machine's key, which signs what the
// relay stores there and opens the remote questions sealed to it. The
// buckets it makes there, the machines new to this hub and the questions
// it does not show, with why, are told to log.
func remoteDial(r prefs.Remote, key string, log io.Writer) func(context.Context) (hubstore.Conn, error) {
	return func(ctx context.Context) (hubstore.Conn, error) {
		return hubstore.DialRemote(ctx, r, key, &hubstore.DialOptions{Name: "askuser hub relay", Log: func(s string) {
			fmt.Fprintf(log, "askuser hub: the remote hub: %s\n", s)
		}})
	}
}
