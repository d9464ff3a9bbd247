package hub_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/prefs"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// A real NATS cluster for the tests: three nats-server processes, built
// from the module the hub embeds, on 127.0.0.1 with routes between them
// and JetStream in a domain of its own, the hub's buckets replicated on
// all three, and a port for leaf nodes on each. Agents use the account
// APP; the operator also has the system account SYS.

// clusterDomain is the cluster's JetStream domain, which a hub joining
// it as a leaf node names.
const clusterDomain = "askuser"

// natsServerPkg is the nats-server command, at the version in go.mod.
const natsServerPkg = "github.com/nats-io/nats-server/v2"

type cluster struct {
	dir   string
	nodes []*clusterNode
	pw    map[string]string // user to password
}

type clusterNode struct {
	name               string
	port, cport, lport int // clients', routes' and leaf nodes'
	store              string
	cmd                *exec.Cmd
	done               chan struct{}
}

func (n *clusterNode) url() string { return fmt.Sprintf("nats://127.0.0.1:%d", n.port) }

// handedOut holds every port freePorts has returned in this process:
// tests that run in parallel each start their servers on ports of their
// own, never on one another test was given and has not bound yet.
var handedOut struct {
	sync.Mutex
	ports map[int]bool
}

// freePorts returns n ports free on 127.0.0.1 now, none of them returned
// before in this process.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	handedOut.Lock()
	defer handedOut.Unlock()
	if handedOut.ports == nil {
		handedOut.ports = map[int]bool{}
	}
	var out []int
	var lns []net.Listener
	for len(out) < n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		if p := ln.Addr().(*net.TCPAddr).Port; !handedOut.ports[p] {
			handedOut.ports[p] = true
			out = append(out, p)
		}
	}
	for _, ln := range lns {
		ln.Close()
	}
	return out
}

func secret() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// startCluster runs the cluster until the test ends, and returns it once
// JetStream has made the hub's buckets with three replicas.
func startCluster(t testing.TB) *cluster {
	t.Helper()
	bin, err := testkit.Build(natsServerPkg)
	if err != nil {
		t.Fatal(err)
	}
	c := &cluster{dir: t.TempDir(), pw: map[string]string{}}
	for _, u := range []string{"operator", "owner", "agent", "person"} {
		c.pw[u] = secret()
	}
	ports := freePorts(t, 9)
	var routes []string
	for i := range 3 {
		routes = append(routes, fmt.Sprintf("nats://127.0.0.1:%d", ports[3+i]))
	}
	for i := range 3 {
		n := &clusterNode{name: fmt.Sprintf("n%d", i+1), port: ports[i], cport: ports[3+i], lport: ports[6+i], done: make(chan struct{})}
		n.store = filepath.Join(c.dir, n.name)
		conf := fmt.Sprintf(`server_name: %s
listen: 127.0.0.1:%d
jetstream { store_dir: %q, domain: %s }
cluster { name: askuser, listen: 127.0.0.1:%d, routes: [%s] }
leafnodes { listen: 127.0.0.1:%d, no_advertise: true }
accounts {
  SYS { users: [{user: operator, password: %q}] }
  APP { jetstream: enabled, users: [{user: owner, password: %q}, {user: agent, password: %q}, {user: person, password: %q}] }
}
system_account: SYS
`, n.name, n.port, n.store, clusterDomain, n.cport, strings.Join(routes, ", "), n.lport, c.pw["operator"], c.pw["owner"], c.pw["agent"], c.pw["person"])
		path := filepath.Join(c.dir, n.name+".conf")
		if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
			t.Fatal(err)
		}
		log, err := os.Create(filepath.Join(c.dir, n.name+".log"))
		if err != nil {
			t.Fatal(err)
		}
		n.cmd = exec.Command(bin, "-c", path)
		n.cmd.Stdout, n.cmd.Stderr = log, log
		// A test killed before its cleanup leaves no server behind.
		n.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := n.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() {
			n.cmd.Wait()
			log.Close()
			close(n.done)
		}()
		c.nodes = append(c.nodes, n)
	}
	t.Cleanup(func() {
		for _, n := range c.nodes {
			n.cmd.Process.Kill()
			<-n.done
		}
	})
	// The buckets are made by the account's owner, with three replicas,
	// once JetStream has its leader.
	nc := c.connect(t, "owner", c.nodes[0].url())
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	deadline := testkit.PatienceDeadline(t)
	for _, b := range []string{hubstore.QuestionsBucket, hubstore.AnswersBucket} {
		for {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			_, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: b, History: 1, Storage: jetstream.FileStorage, Replicas: 3, LimitMarkerTTL: time.Minute})
			cancel()
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("make the bucket %s on the cluster: %v\n%s", b, err, c.logs())
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	return c
}

// connect connects as user to url, waiting for the server to listen.
func (c *cluster) connect(t testing.TB, user, url string) *nats.Conn {
	t.Helper()
	deadline := testkit.PatienceDeadline(t)
	for {
		nc, err := nats.Connect(url, nats.UserInfo(user, c.pw[user]), nats.MaxReconnects(-1), nats.ReconnectWait(50*time.Millisecond))
		if err == nil {
			return nc
		}
		if time.Now().After(deadline) {
			t.Fatalf("connect to %s: %v\n%s", url, err, c.logs())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (c *cluster) urls() string {
	var u []string
	for _, n := range c.nodes {
		u = append(u, n.url())
	}
	return strings.Join(u, ",")
}

func (c *cluster) logs() string {
	var b strings.Builder
	for _, n := range c.nodes {
		data, _ := os.ReadFile(filepath.Join(c.dir, n.name+".log"))
		fmt.Fprintf(&b, "--- %s\n%s", n.name, lastLines(string(data), 15))
	}
	return b.String()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n") + "\n"
}

// credentials writes user's password file, as a remote hub's config
// names it.
func (c *cluster) credentials(t testing.TB, user string) string {
	t.Helper()
	path := filepath.Join(c.dir, user+".cred")
	if err := os.WriteFile(path, []byte(user+":"+c.pw[user]+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// person is the person's side: a state directory holding the hub key,
// whose public key agents seal to.
type person struct {
	getenv    func(string) string
	recipient string
	creds     string
}

func newPerson(t testing.TB, c *cluster) person {
	t.Helper()
	state := t.TempDir()
	getenv := func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}
	paths, err := hub.Locate(getenv)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := hubstore.MakeKey(paths.Key())
	if err != nil {
		t.Fatal(err)
	}
	return person{getenv: getenv, recipient: pub, creds: c.credentials(t, "person")}
}

// machineKey makes the key of an agent machine, which signs its
// questions, in a directory of the test's, and returns its path.
func machineKey(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "key")
	if _, err := hubstore.MakeKey(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// dial connects a program of the person's to the cluster through url.
func (p person) dial(t testing.TB, url string) *hub.Client {
	t.Helper()
	paths, _ := hub.Locate(p.getenv)
	cl, err := hub.DialRemote(context.Background(), prefs.Remote{URL: url, Credentials: p.creds, Recipients: []string{p.recipient}}, paths.Key(), &hub.DialOptions{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// hub runs the person's own hub, relaying with the cluster, until the
// test ends, and returns a client of it.
func (p person) hub(t testing.TB, c *cluster) *hub.Client {
	t.Helper()
	paths, _ := hub.Locate(p.getenv)
	_, cl := relayingHub(t, paths, c.urls(), p.creds, p.recipient)
	return cl
}

// relayingHub runs a hub in paths, relaying with the cluster at url as
// the user of creds, sealing to recipient, until the test ends; it
// returns its info and a client of it.
func relayingHub(t testing.TB, paths hub.Paths, url, creds, recipient string) (hub.Info, *hub.Client) {
	t.Helper()
	return relayingHubWith(t, paths, map[string]any{"url": url, "credentials": creds, "recipients": []string{recipient}}, nil)
}

// relayingHubWith runs a hub in paths whose config's remote is remote,
// its log going to log (nil for none), until the test ends; it returns
// its info and a client of it.
func relayingHubWith(t testing.TB, paths hub.Paths, remote map[string]any, log io.Writer) (hub.Info, *hub.Client) {
	t.Helper()
	info, _ := startHubAt(t, paths, remote, log)
	cl, err := hub.Dial(context.Background(), &hub.DialOptions{Info: &info})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return info, cl
}

// forwardEnv makes the test binary the agent's side of a network
// namespace: it brings its loopback up, checks that the cluster's own
// ports cannot be reached from there, listens on 127.0.0.1:4222 and
// forwards each connection to the unix socket the variable names, then
// runs the command after -- and exits with its status.
const forwardEnv = "ASKUSER_HUB_TEST_FORWARD"

func TestMain(m *testing.M) {
	if sock := os.Getenv(forwardEnv); sock != "" {
		os.Exit(forward(sock, os.Args))
	}
	code := m.Run()
	testkit.RemoveBuilds()
	os.Exit(code)
}

func forward(sock string, args []string) int {
	i := 0
	for i < len(args) && args[i] != "--" {
		i++
	}
	if i+1 >= len(args) {
		fmt.Fprintln(os.Stderr, "forward: no command after --")
		return 97
	}
	if out, err := exec.Command("ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "forward: ip link set lo up: %v %s\n", err, out)
		return 97
	}
	for _, p := range strings.Split(os.Getenv(forwardEnv+"_UNREACHABLE"), ",") {
		if conn, err := net.DialTimeout("tcp", "127.0.0.1:"+p, time.Second); err == nil {
			conn.Close()
			fmt.Fprintf(os.Stderr, "forward: the cluster's port %s is reachable inside the namespace\n", p)
			return 98
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:4222")
	if err != nil {
		fmt.Fprintf(os.Stderr, "forward: %v\n", err)
		return 97
	}
	go relay(ln, func() (net.Conn, error) { return net.Dial("unix", sock) })
	cmd := exec.Command(args[i+1], args[i+2:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.Env = os.Environ()
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		fmt.Fprintf(os.Stderr, "forward: %v\n", err)
		return 97
	}
	return 0
}

// relay accepts connections on ln until it is closed, and pipes each to
// a connection dial makes.
func relay(ln net.Listener, dial func() (net.Conn, error)) {
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			up, err := dial()
			if err != nil {
				conn.Close()
				return
			}
			pipe(conn, up)
		}()
	}
}

// pipe copies a and b both ways until either ends.
func pipe(a, b net.Conn) {
	done := make(chan struct{}, 2)
	go func() { io.Copy(a, b); done <- struct{}{} }()
	go func() { io.Copy(b, a); done <- struct{}{} }()
	<-done
	a.Close()
	b.Close()
}

// bridge serves the unix socket the namespaces' agents reach the cluster
// through: each connection goes to the first node that takes it.
func (c *cluster) bridge(t testing.TB) string {
	t.Helper()
	sock := filepath.Join(c.dir, "bridge.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go relay(ln, func() (net.Conn, error) {
		err := errors.New("no node")
		for _, n := range c.nodes {
			var up net.Conn
			if up, err = net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", n.port), time.Second); err == nil {
				return up, nil
			}
		}
		return nil, err
	})
	return sock
}

// namespaces reports whether this machine lets the test make network
// namespaces, and why not.
func namespaces() (bool, string) {
	out, err := exec.Command("unshare", "--net", "ip", "link", "set", "lo", "up").CombinedOutput()
	if err != nil {
		return false, fmt.Sprintf("unshare --net: %v %s", err, bytes.TrimSpace(out))
	}
	return true, ""
}

// snoop records every message of every subject the operator can see: the
// system account's and the agents' account's, as its owner.
type snoop struct {
	mu   sync.Mutex
	seen [][]byte
}

func (s *snoop) watch(t *testing.T, c *cluster, user string) {
	nc := c.connect(t, user, c.urls())
	t.Cleanup(nc.Close)
	if _, err := nc.Subscribe(">", func(m *nats.Msg) {
		var b bytes.Buffer
		b.WriteString(m.Subject + " " + m.Reply + "\n")
		for k, vs := range m.Header {
			b.WriteString(k + ": " + strings.Join(vs, ",") + "\n")
		}
		b.Write(m.Data)
		s.mu.Lock()
		s.seen = append(s.seen, b.Bytes())
		s.mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
}

// machineScript is one agent machine: its own askuser hub, relaying to
// the cluster, and askuser ask with no terminal, whose only route is
// that hub.
const machineScript = `"$ASKUSER_HUB" 2>"$MACHINE/hub.log" & hub=$!
i=0
while [ ! -f "$XDG_STATE_HOME/askuser/hub/hub.json" ]; do
  i=$((i+1)); [ $i -gt 400 ] && { echo "the hub did not start" >&2; cat "$MACHINE/hub.log" >&2; exit 90; }
  sleep 0.05
done
"$ASKUSER" ask --config "$MACHINE/config.json" "$MACHINE/q.json"; code=$?
kill $hub; wait $hub
exit $code
`

// TestClusterAgents runs agents on other machines against a real
// three-node cluster. Each machine is an askuser hub relaying to the
// cluster and an askuser ask process, separate processes, some in
// network namespaces of their own that reach only the cluster. The
// person answers half of the questions through their own hub, which
// relays the cluster's questions sealed to their key, and the other half
// from two programs on two nodes at once; one node is killed midway, and
// every agent gets exactly the one answer that won. The operator, who
// sees every message and every file of the cluster, finds no question
// text, option, answer or secret in any of them.
func TestClusterAgents(t *testing.T) {
	t.Parallel()
	askuser, askuserHub, c, snooped, me := agentsCluster(t)
	mine := me.hub(t, c)

	f := newFleet(t, c, askuser, askuserHub, c.credentials(t, "agent"), me.recipient)

	const agents = 6
	word := secret()
	var secrets []string
	var as []*agentMachine
	var titles []string
	for i := range agents {
		ag := f.start(t, fmt.Sprintf("Ship the %s build %d?", word, i), fmt.Sprintf("yes-%s-%d", word, i), fmt.Sprintf("no-%s-%d", word, i), i%2 == 1)
		secrets = append(secrets, ag.title, ag.a, ag.b)
		titles = append(titles, ag.title)
		as = append(as, ag)
	}

	// The person's own hub shows every question, opened; two programs of
	// theirs reach the cluster on two other nodes.
	byTitle := waitTitles(t, mine, titles, as)
	bob, carol := me.dial(t, c.nodes[1].url()), me.dial(t, c.nodes[2].url())

	// Questions 0, 2, 4 are answered on the person's hub; 1, 3, 5 by bob
	// and carol at once. Node 1 dies halfway.
	won := map[string]string{}
	for i, ag := range as {
		if i == agents/2 {
			t.Logf("killing %s", c.nodes[0].name)
			c.nodes[0].cmd.Process.Kill()
			<-c.nodes[0].done
		}
		q := byTitle[ag.title]
		if i%2 == 0 {
			if _, err := answerRetrying(t, mine, &q, ag.a, "alice"); err != nil {
				t.Errorf("answer %q on the person's hub: %v", ag.a, err)
			}
			won[ag.title] = ag.a
			continue
		}
		type res struct {
			label string
			err   error
		}
		results := make(chan res, 2)
		labels := map[string]string{"bob": ag.a, "carol": ag.b}
		for by, cl := range map[string]*hub.Client{"bob": bob, "carol": carol} {
			go func() {
				_, err := answerRetrying(t, cl, &q, labels[by], by)
				results <- res{labels[by], err}
			}()
		}
		wins := 0
		for range 2 {
			r := <-results
			var refused *hub.RefusedError
			switch {
			case r.err == nil:
				wins++
			case errors.As(r.err, &refused) && refused.Reason == hub.RefusedAnswered:
			default:
				t.Errorf("answer %q to %s: %v", r.label, q.ID, r.err)
			}
		}
		// The one answer stored says who gave it; an answer whose
		// acknowledgement was lost as the node died wins without its
		// giver hearing of it, so at most one is told it won.
		_, stored, err := carol.Question(context.Background(), q.ID)
		if err != nil || stored == nil {
			t.Fatalf("question %s: no answer stored (%v)", q.ID, err)
		}
		won[ag.title] = labels[stored.By]
		if wins > 1 || won[ag.title] == "" {
			t.Errorf("question %s: %d answers won, the one stored by %q", q.ID, wins, stored.By)
		}
	}

	for _, ag := range as {
		ag.check(t, won[ag.title])
	}

	// Everything the operator saw and keeps, the killed node's store
	// included.
	checkOperator(t, c, snooped, me, secrets)
}

// agentsCluster builds askuser and askuser-hub, and starts the cluster,
// its operator's snoop on the system account and the agents' account,
// and the person.
func agentsCluster(t *testing.T) (askuser, askuserHub string, c *cluster, snooped *snoop, me person) {
	t.Helper()
	var err error
	if askuser, err = testkit.Build("github.com/askuser/askuser/cmd/askuser"); err != nil {
		t.Fatal(err)
	}
	if askuserHub, err = testkit.Build("github.com/askuser/askuser/cmd/askuser-hub"); err != nil {
		t.Fatal(err)
	}
	c = startCluster(t)
	snooped = &snoop{}
	snooped.watch(t, c, "operator")
	snooped.watch(t, c, "owner")
	return askuser, askuserHub, c, snooped, newPerson(t, c)
}

// agentMachine is one agent's machine: its own askuser hub, relaying to
// the cluster, and askuser ask with no terminal, whose only route is
// that hub, asking title with the options a and b.
type agentMachine struct {
	title, a, b string
	cmd         *exec.Cmd
	out, errOut testkit.Buffer
	done        chan error
	machine     string // "host" or "namespace"
}

// fleet starts agent machines, some in network namespaces of their own
// that reach only the cluster, when this machine allows them.
type fleet struct {
	c                   *cluster
	askuser, askuserHub string
	creds, recipient    string
	self, sock          string // the test binary and the cluster's bridge, with namespaces
	// key is the key of every agent machine's hub: they run on this one
	// machine, under its host name, which its key signs for.
	key string
}

func newFleet(t *testing.T, c *cluster, askuser, askuserHub, creds, recipient string) *fleet {
	t.Helper()
	f := &fleet{c: c, askuser: askuser, askuserHub: askuserHub, creds: creds, recipient: recipient, key: machineKey(t)}
	inNS, why := namespaces()
	if !inNS {
		t.Logf("agents run without network namespaces: %s", why)
		return f
	}
	f.sock = c.bridge(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f.self = self
	return f
}

// start starts an agent machine asking title, in a network namespace
// when ns is set and this machine allows it.
func (f *fleet) start(t *testing.T, title, a, b string, ns bool) *agentMachine {
	t.Helper()
	ag := &agentMachine{title: title, a: a, b: b, done: make(chan error, 1), machine: "host"}
	dir := t.TempDir()
	url := f.c.urls()
	if ns && f.sock != "" {
		url = "nats://127.0.0.1:4222"
		ag.machine = "namespace"
	}
	req, _ := json.Marshal(map[string]any{"questions": []map[string]any{{"title": title, "options": []map[string]any{{"label": a}, {"label": b}}}}})
	hubCfg, _ := json.Marshal(map[string]any{"remote": map[string]any{"url": url, "credentials": f.creds, "recipients": []string{f.recipient}}})
	key, err := os.ReadFile(f.key)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"state/askuser/hub/key":   key,
		"config.json":             []byte(`{"timeoutPerQuestionMs": 60000}`),
		"q.json":                  req,
		"config/askuser/hub.json": hubCfg,
	} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"sh", "-c", machineScript}
	if ag.machine == "namespace" {
		args = append([]string{"unshare", "--net", "--", f.self, "--"}, args...)
	}
	ag.cmd = exec.Command(args[0], args[1:]...)
	ag.cmd.Env = []string{"HOME=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state"), "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"MACHINE=" + dir, "ASKUSER=" + f.askuser, "ASKUSER_HUB=" + f.askuserHub, "PATH=" + os.Getenv("PATH"), "TERM=dumb"}
	if ag.machine == "namespace" {
		n := f.c.nodes
		ag.cmd.Env = append(ag.cmd.Env, forwardEnv+"="+f.sock, fmt.Sprintf("%s_UNREACHABLE=%d,%d,%d,%d,%d,%d", forwardEnv, n[0].port, n[1].port, n[2].port, n[0].lport, n[1].lport, n[2].lport))
	}
	ag.cmd.Stdout, ag.cmd.Stderr = &ag.out, &ag.errOut
	// No controlling terminal: the hub is each agent's only route.
	ag.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	if err := ag.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { ag.done <- ag.cmd.Wait() }()
	t.Cleanup(func() {
		// The whole session: the machine's hub too.
		syscall.Kill(-ag.cmd.Process.Pid, syscall.SIGKILL)
	})
	return ag
}

// check waits for the agent to end and checks that it printed the one
// answer want.
func (ag *agentMachine) check(t *testing.T, want string) {
	t.Helper()
	select {
	case err := <-ag.done:
		if err != nil {
			t.Errorf("agent (%s) %q: %v\nstderr: %s", ag.machine, ag.title, err, ag.errOut.String())
			return
		}
	case <-time.After(testkit.Patience(t)):
		t.Errorf("agent (%s) %q did not end\nstderr: %s", ag.machine, ag.title, ag.errOut.String())
		return
	}
	var res struct {
		Status  string `json:"status"`
		Answers []struct {
			Selections []string `json:"selections"`
		} `json:"answers"`
	}
	if err := json.Unmarshal([]byte(ag.out.String()), &res); err != nil || res.Status != "answered" || len(res.Answers) != 1 {
		t.Errorf("agent (%s) printed %s (%v)", ag.machine, ag.out.String(), err)
		return
	}
	if got := res.Answers[0].Selections; len(got) != 1 || got[0] != want {
		t.Errorf("agent (%s) got %v, but %q won", ag.machine, got, want)
	}
}

// waitTitles waits until the hub of c shows a question with each of
// titles, asked by the agents of as, and returns them by title.
func waitTitles(t *testing.T, c *hub.Client, titles []string, as []*agentMachine) map[string]hub.Question {
	t.Helper()
	byTitle := map[string]hub.Question{}
	deadline := testkit.PatienceDeadline(t)
	for {
		missing := 0
		for _, title := range titles {
			if _, ok := byTitle[title]; !ok {
				missing++
			}
		}
		if missing == 0 {
			return byTitle
		}
		if time.Now().After(deadline) {
			var errs []string
			for _, ag := range as {
				errs = append(errs, ag.errOut.String())
			}
			t.Fatalf("%d of %d questions did not reach the person's hub; agents said:\n%s", missing, len(titles), strings.Join(errs, "\n"))
		}
		qs, err := c.Pending(context.Background())
		if err != nil {
			t.Logf("pending: %v", err)
		}
		for _, q := range qs {
			var r struct {
				Questions []struct{ Title string } `json:"questions"`
			}
			if json.Unmarshal(q.Request, &r) == nil && len(r.Questions) == 1 {
				byTitle[r.Questions[0].Title] = q
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// checkOperator checks everything the operator of c saw, through
// snooped, and keeps in the nodes' stores: no secret, nor the cluster
// passwords, nor the person's key, is in any of them, and some question
// tags, in the clear, are.
func checkOperator(t *testing.T, c *cluster, snooped *snoop, me person, secrets []string) {
	t.Helper()
	secrets = append(secrets, c.pw["agent"], c.pw["person"])
	seed, _ := os.ReadFile(filepath.Join(me.getenv("XDG_STATE_HOME"), "askuser", "hub", "key"))
	secrets = append(secrets, strings.TrimSpace(string(seed)))
	snooped.mu.Lock()
	seen := snooped.seen
	snooped.mu.Unlock()
	var stored [][]byte
	for _, n := range c.nodes {
		filepath.WalkDir(n.store, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				data, _ := os.ReadFile(path)
				stored = append(stored, data)
			}
			return nil
		})
	}
	for what, blobs := range map[string][][]byte{"message": seen, "stored file": stored} {
		tagged := 0
		for _, b := range blobs {
			for _, s := range secrets {
				if bytes.Contains(b, []byte(s)) {
					t.Errorf("a %s the operator can read holds %q:\n%.300q", what, s, b)
				}
			}
			if bytes.Contains(b, []byte(`"agent":"askuser ask"`)) {
				tagged++
			}
		}
		// The check can fail: the tags are there in the clear.
		if tagged == 0 {
			t.Errorf("no %s of %d holds a question's tag: the operator's view was not looked at", what, len(blobs))
		}
		t.Logf("%d %ss looked at, %d with a tag", len(blobs), what, tagged)
	}
}

// offline is how long TestClusterLeaf keeps the laptop offline.
const offline = 12 * time.Second

// answerRetrying answers q with label on behalf of by, trying again while
// the cluster elects a new leader after a node died, for as long as the
// test's patience lasts.
func answerRetrying(t testing.TB, c *hub.Client, q *hub.Question, label, by string) (hub.Answer, error) {
	for deadline := testkit.PatienceDeadline(t); ; time.Sleep(250 * time.Millisecond) {
		a, err := answerOnce(c, q, label, by)
		var refused *hub.RefusedError
		if err == nil || errors.As(err, &refused) && refused.Reason != hub.RefusedUnknown || time.Now().After(deadline) {
			return a, err
		}
	}
}

// answerOnce answers q with label on behalf of by.
func answerOnce(c *hub.Client, q *hub.Question, label, by string) (hub.Answer, error) {
	req, _, err := contract.Parse(q.Request)
	if err != nil {
		return hub.Answer{}, err
	}
	ans := contract.NewAnswer(req, 0)
	ans.Selections = []string{label}
	data, err := json.Marshal(contract.Result{Status: contract.StatusAnswered, Route: contract.RouteCustom, Answers: []contract.Answer{ans}})
	if err != nil {
		return hub.Answer{}, err
	}
	return c.Answer(context.Background(), q.ID, data, by)
}

// TestClusterLeaf runs the person's laptop hub, a separate askuser-hub
// process, as a leaf node of a real three-node cluster (the config's
// remote.leaf), through a network link the test cuts and mends. Agents
// on other machines ask through their own hubs, which relay to the
// cluster as clients; the person answers on the laptop's hub, and each
// agent gets that one answer. With the link cut, a question asked on
// the laptop is asked and answered there, while an agent's question
// waits on the cluster; once the link is back, the laptop's hub joins
// again by itself and the waiting question reaches it and is answered
// there. The operator sees no question text or option in any message or
// stored file.
func TestClusterLeaf(t *testing.T) {
	t.Parallel()
	askuser, askuserHub, c, snooped, me := agentsCluster(t)
	var leafPorts []string
	for _, n := range c.nodes {
		leafPorts = append(leafPorts, fmt.Sprintf("127.0.0.1:%d", n.lport))
	}
	wire := newLink(t, leafPorts)
	hubLog := laptopHub(t, askuserHub, me, "nats://"+wire.addr, clusterDomain)
	waitLog(t, hubLog, "joined the cluster at", 1)
	// A hub that names another domain joins, and says what to look at.
	wrong := newPerson(t, c)
	wrong.creds = me.creds
	wrongLog := laptopHub(t, askuserHub, wrong, "nats://"+wire.addr, "elsewhere")
	waitLog(t, wrongLog, `the cluster's JetStream does not answer in the domain "elsewhere"`, 1)
	mine, err := hub.Dial(context.Background(), &hub.DialOptions{Getenv: me.getenv})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(mine.Close)
	if leafs := c.leafs(t); !slices.ContainsFunc(leafs, func(l string) bool { return strings.HasPrefix(l, "askuser-hub-") && strings.HasSuffix(l, " APP") }) {
		t.Fatalf("the cluster has no askuser hub among its leaf nodes: %q", leafs)
	}

	f := newFleet(t, c, askuser, askuserHub, c.credentials(t, "agent"), me.recipient)
	word := secret()
	var secrets []string
	agent := func(i int) *agentMachine {
		ag := f.start(t, fmt.Sprintf("Merge the %s branch %d?", word, i), fmt.Sprintf("yes-%s-%d", word, i), fmt.Sprintf("no-%s-%d", word, i), i%2 == 1)
		secrets = append(secrets, ag.title, ag.a, ag.b)
		return ag
	}
	cluster := me.dial(t, c.nodes[0].url())
	// answer answers each agent's question on the laptop's hub, and
	// checks that the agent, and the cluster, got that one answer.
	answer := func(as ...*agentMachine) {
		var titles []string
		for _, ag := range as {
			titles = append(titles, ag.title)
		}
		byTitle := waitTitles(t, mine, titles, as)
		for _, ag := range as {
			q := byTitle[ag.title]
			if _, err := answerRetrying(t, mine, &q, ag.a, "alice"); err != nil {
				t.Fatalf("answer %q on the laptop's hub: %v", ag.a, err)
			}
			ag.check(t, ag.a)
			_, stored, err := cluster.Question(context.Background(), q.ID)
			if err != nil || stored == nil || stored.By != "alice" {
				t.Errorf("question %s: the cluster stored %+v (%v), not alice's answer", q.ID, stored, err)
			}
		}
	}
	answer(agent(0), agent(1))

	// Offline: the laptop asks and answers its own question; an agent's
	// question waits on the cluster.
	wire.cut()
	cut := time.Now()
	waitLog(t, hubLog, "lost the cluster at", 1)
	waiting := agent(2)
	waitTitles(t, cluster, []string{waiting.title}, []*agentMachine{waiting})
	l := hub.NewLink(&hub.LinkOptions{Dial: func(ctx context.Context) (*hub.Client, error) {
		return hub.Dial(ctx, &hub.DialOptions{Getenv: me.getenv})
	}})
	defer closeLink(l)
	if err := l.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	asker := newAsker(t, l, ask.Capabilities{CustomReason: "none", NativeReason: "none"}, 60000)
	title, yes, no := "Rebase the "+word+" branch offline?", "rebase-"+word, "keep-"+word
	secrets = append(secrets, title, yes, no)
	req, _ := json.Marshal(map[string]any{"questions": []map[string]any{{"title": title, "options": []map[string]any{{"label": yes}, {"label": no}}}}})
	results := make(chan contract.Result, 1)
	go func() { results <- ask.AskJSON(context.Background(), asker, ask.AskUser, req, nil) }()
	local := waitTitles(t, mine, []string{title}, nil)[title]
	if qs, err := mine.Pending(context.Background()); err != nil || slices.ContainsFunc(qs, func(q hub.Question) bool { return strings.Contains(string(q.Request), waiting.title) }) {
		t.Fatalf("with the link cut, the cluster's question reached the laptop's hub (%v)", err)
	}
	if _, err := answerOnce(mine, &local, yes, "alice"); err != nil {
		t.Fatalf("answer the laptop's own question offline: %v", err)
	}
	select {
	case res := <-results:
		if res.Status != contract.StatusAnswered || len(res.Answers) != 1 || !slices.Equal(res.Answers[0].Selections, []string{yes}) {
			t.Fatalf("offline, the laptop's asker got %+v", res)
		}
	case <-time.After(testkit.Patience(t)):
		t.Fatal("offline, the laptop's asker got no result")
	}

	// Back: the laptop's hub joins again, and the question that waited
	// on the cluster reaches it.
	// Offline for longer than the relay's watch of the cluster waits for
	// a sign of life (twice its 5 s heartbeat) before it starts again.
	time.Sleep(time.Until(cut.Add(offline)))
	mended := time.Now()
	wire.mend(t)
	waitLog(t, hubLog, "joined the cluster at", 2)
	t.Logf("the laptop's hub joined again %v after the link came back", time.Since(mended).Round(time.Millisecond))
	answer(waiting)
	t.Logf("the question that waited on the cluster was answered on the laptop, and its agent had the answer, %v after the link came back", time.Since(mended).Round(time.Millisecond))

	checkOperator(t, c, snooped, me, secrets)
}

// laptopHub runs askuser-hub, the program at bin, as the person's hub,
// joining the cluster at url as a leaf node in domain, until the test
// ends, and returns its log.
func laptopHub(t *testing.T, bin string, me person, url, domain string) *testkit.Buffer {
	t.Helper()
	dir := t.TempDir()
	cfg, _ := json.Marshal(map[string]any{"remote": map[string]any{"url": url, "credentials": me.creds, "recipients": []string{me.recipient},
		"leaf": map[string]any{"domain": domain}}})
	path := filepath.Join(dir, "config", "askuser", "hub.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	log := &testkit.Buffer{}
	cmd := exec.Command(bin)
	cmd.Env = []string{"HOME=" + dir, "XDG_STATE_HOME=" + me.getenv("XDG_STATE_HOME"), "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "PATH=" + os.Getenv("PATH")}
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	return log
}

// waitLog waits until log says what n times.
func waitLog(t *testing.T, log *testkit.Buffer, what string, n int) {
	t.Helper()
	for deadline := testkit.PatienceDeadline(t); strings.Count(log.String(), what) < n; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the hub did not say %q %d times; it said:\n%s", what, n, log.String())
		}
	}
}

// leafs lists the cluster's leaf nodes, each as its name and account,
// as its operator asks the servers.
func (c *cluster) leafs(t *testing.T) []string {
	t.Helper()
	nc := c.connect(t, "operator", c.urls())
	defer nc.Close()
	inbox := nats.NewInbox()
	replies, err := nc.SubscribeSync(inbox)
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.PublishRequest("$SYS.REQ.SERVER.PING.LEAFZ", inbox, nil); err != nil {
		t.Fatal(err)
	}
	var out []string
	for {
		m, err := replies.NextMsg(time.Second)
		if err != nil {
			return out
		}
		var r struct {
			Data struct {
				Leafs []struct{ Name, Account string } `json:"leafs"`
			} `json:"data"`
		}
		if err := json.Unmarshal(m.Data, &r); err != nil {
			t.Fatalf("leafz: %v: %s", err, m.Data)
		}
		for _, l := range r.Data.Leafs {
			out = append(out, l.Name+" "+l.Account)
		}
	}
}

// link is a network link between the laptop and the cluster's leaf node
// ports, which the test cuts and mends: it listens on addr, on
// 127.0.0.1, and pipes each connection to the first port that takes it.
type link struct {
	addr string
	to   []string

	mu    sync.Mutex
	ln    net.Listener
	conns []net.Conn // to the cluster
	down  bool
}

func newLink(t *testing.T, to []string) *link {
	l := &link{addr: fmt.Sprintf("127.0.0.1:%d", freePorts(t, 1)[0]), to: to}
	l.mend(t)
	t.Cleanup(l.cut)
	return l
}

// mend listens again.
func (l *link) mend(t *testing.T) {
	t.Helper()
	ln, err := net.Listen("tcp", l.addr)
	if err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	l.ln, l.down = ln, false
	l.mu.Unlock()
	go relay(ln, l.dial)
}

// cut closes the listener and every connection through it.
func (l *link) cut() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.down = true
	l.ln.Close()
	for _, c := range l.conns {
		c.Close()
	}
	l.conns = nil
}

func (l *link) dial() (net.Conn, error) {
	err := errors.New("no port")
	for _, to := range l.to {
		var c net.Conn
		if c, err = net.DialTimeout("tcp", to, time.Second); err == nil {
			l.mu.Lock()
			defer l.mu.Unlock()
			if l.down {
				c.Close()
				return nil, errors.New("the link is cut")
			}
			l.conns = append(l.conns, c)
			return c, nil
		}
	}
	return nil, err
}

// TestClusterStopCountdown stops the countdown of a question asked on an
// agent machine with a 4 s deadline, through a real three-node cluster:
// on the person's hub, as its inbox or web page does; on the agent
// machine's hub; and in the asking agent's own dialog (Alt+Q). Each time
// the question loses its deadline on the agent's hub, on the cluster and
// on the person's hub, stopped by the same name, outlives its deadline,
// and is then answered on the person's hub: the agent gets that answer. The operator sees who
// stopped it, in the clear as who answered, and no question text or
// option.
func TestClusterStopCountdown(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	snooped := &snoop{}
	snooped.watch(t, c, "owner")
	me := newPerson(t, c)
	agentInfo, agentHub := relayingHub(t, pathsIn(t.TempDir()), c.nodes[0].url(), c.credentials(t, "agent"), me.recipient)
	paths, _ := hub.Locate(me.getenv)
	_, mine := relayingHub(t, paths, c.nodes[1].url(), me.creds, me.recipient)
	cluster := me.dial(t, c.nodes[2].url())

	l := hub.NewLink(&hub.LinkOptions{Dial: func(ctx context.Context) (*hub.Client, error) {
		return hub.Dial(ctx, &hub.DialOptions{Info: &agentInfo})
	}})
	defer closeLink(l)
	if err := l.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The agent's dialog shows the question until the hub's answer wins.
	dialog, sessions := showingDialog()
	asker := newAsker(t, l, ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, dialog), 4000)
	word := secret()
	title, yes, no := "Ship the "+word+" build?", "yes-"+word, "no-"+word
	req, _ := json.Marshal(map[string]any{"questions": []map[string]any{{"title": title, "options": []map[string]any{{"label": yes}, {"label": no}}}}})
	// A twin of the question, asked after it with the same timeout and
	// with no surface to answer it, times out once its deadline is past.
	twin := newAsker(t, l, ask.Capabilities{}, 4000)
	twinReq, _ := json.Marshal(map[string]any{"questions": []map[string]any{{"title": "Wait out the " + word + " deadline?", "options": []map[string]any{{"label": yes}, {"label": no}}}}})
	hubs := map[string]*hub.Client{"the agent's hub": agentHub, "the cluster": cluster, "the person's hub": mine}
	seen := map[string]bool{}
	for _, tc := range []struct {
		where, by string
	}{
		{"the person's hub", "alice on her laptop"},
		{"the agent's hub", "bob on the build server"},
		{"the agent's dialog", ""},
	} {
		results := make(chan contract.Result, 1)
		go func() { results <- ask.AskJSON(context.Background(), asker, ask.AskUser, req, nil) }()
		session := <-sessions
		var q hub.Question
		for wait := testkit.PatienceDeadline(t); q.ID == ""; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(wait) {
				t.Fatalf("stopped on %s: the question did not reach the person's hub", tc.where)
			}
			qs, err := mine.Pending(context.Background())
			if err != nil {
				t.Logf("pending: %v", err)
			}
			for _, p := range qs {
				if !seen[p.ID] && bytes.Contains(p.Request, []byte(title)) {
					q, seen[p.ID] = p, true
				}
			}
		}
		if q.Tag.Deadline == nil {
			t.Fatalf("stopped on %s: the question reached the person's hub without its deadline", tc.where)
		}
		if h := hubs[tc.where]; h != nil {
			if err := h.StopCountdown(context.Background(), q.ID, tc.by); err != nil {
				t.Fatalf("stop the countdown on %s: %v", tc.where, err)
			}
		} else if !session.Countdown.Cancel() {
			t.Fatal("the agent's dialog had no countdown to stop")
		}
		for name, h := range hubs {
			for wait := testkit.PatienceDeadline(t); ; time.Sleep(20 * time.Millisecond) {
				got, prior, err := h.Question(context.Background(), q.ID)
				var state string
				switch {
				case err != nil || got == nil:
					state = fmt.Sprintf("no longer waits (%v, %+v)", err, prior)
				case got.Tag.Deadline == nil && got.StoppedBy == tc.by:
				default:
					state = fmt.Sprintf("waits with deadline %v, stopped by %q", got.Tag.Deadline, got.StoppedBy)
				}
				if state == "" {
					break
				}
				if time.Now().After(wait) {
					t.Fatalf("stopped on %s: on %s the question %s; want no deadline, stopped by %q", tc.where, name, state, tc.by)
				}
			}
		}
		timesOut(t, twin, twinReq)
		if _, err := answerRetrying(t, mine, &q, yes, "alice"); err != nil {
			t.Fatalf("stopped on %s: answer after the deadline on the person's hub: %v", tc.where, err)
		}
		select {
		case res := <-results:
			if res.Status != contract.StatusAnswered || len(res.Answers) != 1 || !slices.Equal(res.Answers[0].Selections, []string{yes}) {
				t.Fatalf("stopped on %s: the agent got %+v", tc.where, res)
			}
		case <-time.After(testkit.Patience(t)):
			t.Fatalf("stopped on %s: the agent got no result", tc.where)
		}
		if tc.by == "" {
			continue
		}
		// The check can fail: the operator saw the stop.
		snooped.mu.Lock()
		saw := slices.ContainsFunc(snooped.seen, func(b []byte) bool { return bytes.Contains(b, []byte(`"stopped_by":"`+tc.by+`"`)) })
		snooped.mu.Unlock()
		if !saw {
			t.Errorf("stopped on %s: no message the operator saw says who stopped it", tc.where)
		}
	}
	snooped.mu.Lock()
	defer snooped.mu.Unlock()
	for _, b := range snooped.seen {
		for _, s := range []string{title, yes, no} {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("a message the operator can read holds %q:\n%.300q", s, b)
			}
		}
	}
}

// BenchmarkCluster measures, across the three-node cluster on loopback,
// with everything sealed, the time from a question asked through the Go
// API on one node (DialRemote) to its being shown by the person's watch
// on another (visible), and from the person's answer there to the asking
// call's result (answer); it reports the 50th and 99th percentiles of
// each, and the slowest. The budget is 100 ms for each p99.
func BenchmarkCluster(b *testing.B) {
	c := startCluster(b)
	me := newPerson(b, c)
	agentCreds := c.credentials(b, "agent")
	remote, remoteKey := prefs.Remote{URL: c.nodes[0].url(), Credentials: agentCreds, Recipients: []string{me.recipient}}, machineKey(b)
	benchAsk(b, func(ctx context.Context) (*hub.Client, error) {
		return hub.DialRemote(ctx, remote, remoteKey, &hub.DialOptions{Timeout: 5 * time.Second})
	}, me.dial(b, c.nodes[1].url()))
}

// BenchmarkClusterRelayed measures the same as people use it: the agent
// asks its own machine's hub, which relays to the cluster on one node;
// the person's hub relays from another node, and the person watches and
// answers there.
func BenchmarkClusterRelayed(b *testing.B) {
	c := startCluster(b)
	me := newPerson(b, c)
	agentHub, _ := relayingHub(b, pathsIn(b.TempDir()), c.nodes[0].url(), c.credentials(b, "agent"), me.recipient)
	paths, _ := hub.Locate(me.getenv)
	_, mine := relayingHub(b, paths, c.nodes[1].url(), me.creds, me.recipient)
	benchAsk(b, func(ctx context.Context) (*hub.Client, error) {
		return hub.Dial(ctx, &hub.DialOptions{Info: &agentHub})
	}, mine)
}

// benchAsk asks through dial's hub and answers through watcher's, and
// reports the percentiles of BenchmarkCluster.
func benchAsk(b *testing.B, dial func(context.Context) (*hub.Client, error), watcher *hub.Client) {
	l := hub.NewLink(&hub.LinkOptions{Dial: dial})
	defer closeLink(l)
	if err := l.Connect(context.Background()); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, err := watcher.Watch(ctx)
	if err != nil {
		b.Fatal(err)
	}
	waiting := make(chan *hub.Question, 1)
	go func() {
		seen := map[string]bool{}
		for e := range events {
			if e.Kind == hub.WatchWaiting && e.Question.Request != nil && !seen[e.ID] {
				seen[e.ID] = true
				waiting <- e.Question
			}
		}
	}()
	ms := int64(60000)
	asker := ask.NewAsker(ask.NewHost(l.Join(ask.Capabilities{CustomReason: "none", NativeReason: "none"}), &ask.HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: &ms}}), nil)
	var visible, answered []time.Duration
	for b.Loop() {
		start := time.Now()
		results := make(chan contract.Result, 1)
		go func() { results <- ask.AskJSON(context.Background(), asker, ask.AskUser, []byte(askUserReq), nil) }()
		q := <-waiting
		visible = append(visible, time.Since(start))
		start = time.Now()
		if _, err := answerRetrying(b, watcher, q, "prod", "bench"); err != nil {
			b.Fatal(err)
		}
		if res := <-results; res.Status != contract.StatusAnswered {
			b.Fatalf("result = %+v", res)
		}
		answered = append(answered, time.Since(start))
	}
	for name, d := range map[string][]time.Duration{"visible": visible, "answer": answered} {
		slices.Sort(d)
		b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, name+"-p50-ms")
		b.ReportMetric(float64(d[len(d)*99/100].Microseconds())/1000, name+"-p99-ms")
		b.ReportMetric(float64(d[len(d)-1].Microseconds())/1000, name+"-max-ms")
	}
}
