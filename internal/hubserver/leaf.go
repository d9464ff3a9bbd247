package hubserver

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/internal/strictjson"
	"github.com/askuser/askuser/prefs"
	"github.com/nats-io/nats-server/v2/server"
)

// Leaf is the remote's leaf member: the hub's own server joins the
// remote cluster as a leaf node, instead of the relay dialing it as a
// client. Only the relay's account, remoteAccount, is bound to the
// leaf: it has no JetStream here, so its requests and key-value writes
// reach the cluster's JetStream through the leaf, in Domain; the hub's
// own account, which holds this machine's questions in the clear, never
// crosses it. While the cluster is out of reach, the hub goes on asking
// and answering this machine's questions; the server joins again by
// itself, and the relay carries on.
type Leaf struct {
	// Domain is the JetStream domain of the cluster (its jetstream {
	// domain: … }): a leaf node reaches another server's JetStream only
	// in a domain of its own.
	Domain string
}

// remoteAccount is the account of the hub's server bound to the leaf
// node: the relay's, without JetStream.
const remoteAccount = "REMOTE"

// leafReconnect is how long the server waits before it joins the
// cluster again.
const leafReconnect = time.Second

// leafLook is how often the hub looks whether its leaf node is joined.
const leafLook = 250 * time.Millisecond

// parseLeaf reads the remote's leaf member, with the problems it finds.
func parseLeaf(raw []byte) (*Leaf, []string) {
	m, err := strictjson.Members(raw, "domain")
	if err != nil {
		return nil, []string{"remote.leaf: " + err.Error() + `; it is {"domain": "…"}, the cluster's JetStream domain`}
	}
	var l Leaf
	if v, ok := m["domain"]; ok && json.Unmarshal(v, &l.Domain) != nil {
		return nil, []string{"remote.leaf.domain: must be a string"}
	}
	if p := domainProblem(l.Domain); p != "" {
		return nil, []string{"remote.leaf.domain: " + p}
	}
	return &l, nil
}

// domainProblem says what is wrong with d as a JetStream domain, "" when
// nothing is.
func domainProblem(d string) string {
	if d == "" {
		return `is required: the JetStream domain of the cluster (its jetstream { domain: … }), such as "askuser"; a leaf node reaches the cluster's JetStream only in a domain`
	}
	for _, r := range d {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return fmt.Sprintf("must be letters, digits, _ and -, got %q", d)
		}
	}
	switch d {
	case "ACK", "FC", "SNAPSHOT", "EVENT":
		return fmt.Sprintf("%q is reserved by JetStream", d)
	}
	return ""
}

// leafRemote is the server's leaf node remote for r: its URLs, TLS when
// one of them is tls://, and its credentials, a NATS .creds file, or a
// user and password or a token, which go in the URLs.
func leafRemote(r prefs.Remote) (*server.RemoteLeafOpts, error) {
	creds, err := hubstore.ReadCredentials(r.Credentials)
	if err != nil {
		return nil, fmt.Errorf("remote: %w", err)
	}
	lo := &server.RemoteLeafOpts{LocalAccount: remoteAccount, Credentials: creds.Creds}
	for u := range strings.SplitSeq(r.URL, ",") {
		pu, err := url.Parse(strings.TrimSpace(u))
		if err != nil {
			return nil, fmt.Errorf("remote.url: %w", err)
		}
		switch {
		case creds.Token != "":
			pu.User = url.User(creds.Token)
		case creds.User != "":
			pu.User = url.UserPassword(creds.User, creds.Password)
		}
		lo.TLS = lo.TLS || pu.Scheme == "tls"
		lo.URLs = append(lo.URLs, pu)
	}
	return lo, nil
}

// leafAuth authenticates the clients of a hub that is a leaf node, by
// token: the hub's own puts a client in the global account, whose
// JetStream holds this machine's questions; the relay's puts it in
// remoteAccount.
type leafAuth struct {
	local, relay string
	accounts     map[string]*server.Account // by token
}

// Check lets in a client that gives one of the two tokens.
func (a *leafAuth) Check(c server.ClientAuthentication) bool {
	if c.Kind() != server.CLIENT {
		return false
	}
	given := []byte(c.GetOpts().Token)
	for token, acc := range a.accounts {
		if subtle.ConstantTimeCompare(given, []byte(token)) == 1 {
			c.RegisterUser(&server.User{Username: acc.Name, Account: acc})
			return true
		}
	}
	return false
}

// kick ends the client connections of remoteAccount on s, the relay's,
// which its client then makes again; not the leaf node's own.
func kick(s *server.Server) {
	cz, err := s.Connz(&server.ConnzOptions{Account: remoteAccount, State: server.ConnOpen, Limit: 1 << 16})
	if err != nil {
		return
	}
	for _, c := range cz.Conns {
		if s.GetLeafNode(c.Cid) == nil {
			_ = s.DisconnectClientByID(c.Cid)
		}
	}
}

// leafNode is a hub's leaf node: where it joins, and how its server
// lets clients in.
type leafNode struct {
	leaf Leaf
	url  string
	auth *leafAuth
}

// newLeafNode sets o up to join the remote r as a leaf node, with the
// hub's own token, and writes the relay's token to tokenFile.
func newLeafNode(o *server.Options, r prefs.Remote, l Leaf, token, tokenFile string) (*leafNode, error) {
	lo, err := leafRemote(r)
	if err != nil {
		return nil, err
	}
	relay, err := newToken()
	if err != nil {
		return nil, err
	}
	name, err := newToken()
	if err != nil {
		return nil, err
	}
	if err := writePrivate(tokenFile, relay); err != nil {
		return nil, err
	}
	// Each hub has a name of its own: the cluster replaces a leaf node
	// that joins with the name of another.
	o.ServerName = "askuser-hub-" + name[:12]
	o.Authorization = ""
	o.Accounts = []*server.Account{server.NewAccount(remoteAccount)}
	o.JsAccDefaultDomain = map[string]string{remoteAccount: l.Domain}
	o.LeafNode.Remotes = []*server.RemoteLeafOpts{lo}
	o.LeafNode.ReconnectInterval = leafReconnect
	auth := &leafAuth{local: token, relay: relay}
	o.CustomClientAuthentication = auth
	return &leafNode{leaf: l, url: r.URL, auth: auth}, nil
}

// bind binds the tokens to the accounts of s, before s serves.
func (n *leafNode) bind(s *server.Server) error {
	remote, err := s.LookupAccount(remoteAccount)
	if err != nil {
		return err
	}
	n.auth.accounts = map[string]*server.Account{n.auth.local: s.GlobalAccount(), n.auth.relay: remote}
	return nil
}

// enableJetStream gives the hub's own account, the global one, the
// JetStream it has when the hub is no leaf node, with the same store.
func (n *leafNode) enableJetStream(s *server.Server) error {
	if err := s.GlobalAccount().EnableJetStream(nil, nil); err != nil {
		return fmt.Errorf("the hub's JetStream: %w", err)
	}
	return nil
}

// watch says to log when the leaf node joins the cluster and when it
// loses it, until ctx is done; each time it joins, it ends the relay's
// connections, so that its client reconnects as it does to a remote it
// dials, and the relay reads the cluster's buckets again.
func (n *leafNode) watch(ctx context.Context, s *server.Server, log io.Writer) {
	t := time.NewTicker(leafLook)
	defer t.Stop()
	joined := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := s.NumLeafNodes() > 0
		switch {
		case now && !joined:
			fmt.Fprintf(log, "askuser hub: joined the cluster at %s as a leaf node (JetStream domain %s)\n", n.url, n.leaf.Domain)
			kick(s)
		case !now && joined:
			fmt.Fprintf(log, "askuser hub: lost the cluster at %s; this machine's questions are still asked and answered here\n", n.url)
		}
		joined = now
	}
}

// dial wraps dial, the relay's, so that its errors say what to look at:
// whether the leaf node of s has joined the cluster, and the domain.
func (n *leafNode) dial(s *server.Server, dial func(context.Context) (hubstore.Conn, error)) func(context.Context) (hubstore.Conn, error) {
	return func(ctx context.Context) (hubstore.Conn, error) {
		c, err := dial(ctx)
		switch {
		case err == nil:
			return c, nil
		case s.NumLeafNodes() == 0:
			return nil, fmt.Errorf("%w (this hub has not joined the cluster: is %s its leaf node port, and are the credentials right?)", err, n.url)
		}
		return nil, fmt.Errorf("%w (joined, but the cluster's JetStream does not answer in the domain %q: is that its jetstream { domain: … }?)", err, n.leaf.Domain)
	}
}

// writePrivate writes data to path, readable by its owner only.
func writePrivate(path, data string) error {
	if err := hubstore.WritePrivate(path, []byte(data+"\n")); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// leafTokenFile is where a hub that is a leaf node keeps its relay's
// token, in the hub's own directory, while it runs.
func leafTokenFile(p hub.Paths) string { return filepath.Join(p.Dir, "leaf.token") }
