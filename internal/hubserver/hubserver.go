// Package hubserver runs askuser's hub: an embedded NATS server with
// JetStream, listening on 127.0.0.1 only, its file store in the user's
// state directory, its token in an info file only the user can read.
// One hub runs per user: a second one refuses and names the first.
// With --web it serves the hub's web page too (web.go): the questions
// that wait, each as a form, for a browser on this machine and for the
// devices paired with the hub.
//
// It is kept apart from package hub, the client, so that only the hub's
// own binary carries the server.
package hubserver

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/prefs"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// readyTimeout bounds the server's start, JetStream's store recovery
// included.
const readyTimeout = 10 * time.Second

var errLocked = errors.New("locked")

// RunningError is the error Run returns when a hub already runs for the
// user: it names that one.
type RunningError struct {
	// Info is the running hub's, when it has written its info file.
	Info *hub.Info
	// Lock is the lock file it holds.
	Lock string
}

// Error names the running hub.
func (e *RunningError) Error() string {
	if e.Info == nil {
		return fmt.Sprintf("a hub already runs for this user: it holds %s and is still starting", e.Lock)
	}
	msg := fmt.Sprintf("a hub already runs for this user: process %d at %s, started %s", e.Info.PID, e.Info.URL, e.Info.Started.Format(time.RFC3339))
	if e.Info.IdleMs > 0 {
		msg += fmt.Sprintf("; it stops by itself once idle for %v (no question waiting, no askuser connected), as a hub askuser started does", time.Duration(e.Info.IdleMs)*time.Millisecond)
	}
	return msg
}

// Options configures Run. A nil *Options means the defaults.
type Options struct {
	// Paths are the hub's files; the zero value means hub.Locate's with
	// Getenv.
	Paths hub.Paths
	// Getenv reads the environment for hub.Locate; nil reads none.
	Getenv func(string) string
	// Port is the port to listen on, on 127.0.0.1; 0 picks a free one.
	Port int
	// Log receives a line when the hub is ready and when it stops; nil
	// discards them.
	Log io.Writer
	// Ready is called once the hub serves and its info file is written.
	Ready func(hub.Info)
	// ConfigFile is the hub's config file (see Config); "" means
	// ConfigPath's when Getenv is set, and none otherwise.
	ConfigFile string
	// Web, when set, is the address (host:port) the hub's web page
	// listens on (see web.go); "" serves no page. Without TLS it
	// must be a loopback address. Its access token is new at each start,
	// so that one a tab sends after the hub stopped dies with it, and is
	// in the info file's Page; its paired devices are kept in the hub's
	// directory, in DevicesFile.
	Web string
	// WebTLS serves the page over HTTPS with the hub's own certificate,
	// made once and kept in the hub's directory (CertFile and
	// KeyFile), or with WebCert and WebKey when they are set.
	WebTLS bool
	// WebCert and WebKey are the user's certificate and key for the
	// page, in PEM files; setting them turns WebTLS on.
	WebCert, WebKey string
	// WebURL is the https address other devices reach the page at, such
	// as a reverse proxy's or a private network's name for this machine;
	// "" means the address the page listens on, when it serves HTTPS.
	// Pairing links, and pushes with no link of their own, point there.
	WebURL string
	// WebReady, when set, is called with the page's address, its access
	// token in it, once the page serves.
	WebReady func(url string)
	// Remote, when set, is the remote hub to relay with, in place of the
	// config file's (see Config.Remote). Unlike the config file's, a
	// credentials file that cannot be used stops the hub at the start.
	Remote *prefs.Remote
	// Idle, when more than 0, stops the hub once it has had nothing to
	// do for that long: no question waiting and no askuser connected.
	// It is how a hub that an agent started leaves nothing behind.
	Idle time.Duration
}

// Run runs the hub until ctx is done, then stops it: clients are
// disconnected, the store is flushed and closed, and the info file is
// removed. Every question and answer stored before is kept for the next
// hub. It returns a *RunningError when a hub already runs for the user.
func Run(ctx context.Context, opts *Options) error {
	if opts == nil {
		opts = &Options{}
	}
	paths := opts.Paths
	if paths.Dir == "" {
		p, err := hub.Locate(opts.Getenv)
		if err != nil {
			return err
		}
		paths = p
	}
	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	if opts.Web != "" {
		if err := checkWeb(opts); err != nil {
			return err
		}
	}
	lock, err := lockDir(paths)
	if err != nil {
		return err
	}
	defer lock.Close()
	cfg, err := runConfig(opts)
	if err != nil {
		return err
	}
	hs, err := newServer(opts.Port, cfg, paths)
	if err != nil {
		return err
	}
	s, leaf, token := hs.Server, hs.leaf, hs.token
	if leaf != nil {
		defer os.Remove(leafTokenFile(paths))
	}
	store := newStoreWatch(s, paths.Store, log)
	go s.Start()
	defer func() {
		s.Shutdown()
		s.WaitForShutdown()
	}()
	port, err := hs.ready(ctx)
	if err != nil {
		return err
	}
	services, cancelServices := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancelServices()
	store.restart = func() error { return hs.restartJetStream(services) }
	if err := store.run(services, &wg, token); err != nil {
		return err
	}
	info := hub.Info{
		URL:         fmt.Sprintf("nats://127.0.0.1:%d", port),
		Token:       token,
		Fingerprint: hubstore.CertFingerprint(hs.cert.Certificate[0]),
		PID:         os.Getpid(),
		Started:     time.Now().UTC().Truncate(time.Millisecond),
		Store:       paths.Store,
		IdleMs:      opts.Idle.Milliseconds(),
	}
	if cfg.Remote != nil {
		info.Remote = cfg.Remote.URL
	}
	page, said := "", ""
	if opts.Web != "" {
		if page, info.Page, said, err = startWeb(services, &wg, s, info, paths, opts, log); err != nil {
			return err
		}
	}
	// Written once the page is served, so that it names the page.
	if err := WriteInfo(paths.Info, info); err != nil {
		return err
	}
	defer os.Remove(paths.Info)
	// The page is told of once askuser hub status can print its address.
	io.WriteString(log, said)
	if cfg.Push != nil {
		p := *cfg.Push
		if p.Link == "" && strings.HasPrefix(page, "https://") {
			// A push opens the question on the page of the paired devices.
			p.Link = page
		}
		if err := startPush(services, &wg, s, info, p, opts.Getenv, log); err != nil {
			return err
		}
	}
	if cfg.Remote != nil {
		if err := relayRemote(services, &wg, s, leaf, info, paths, *cfg.Remote, log); err != nil {
			return err
		}
	}
	idle := make(<-chan struct{})
	if opts.Idle > 0 {
		if idle, err = watchIdle(services, &wg, s, info, opts.Idle); err != nil {
			return err
		}
		fmt.Fprintf(log, "askuser hub: stops after %v with no question waiting and no askuser connected\n", opts.Idle)
	}
	fmt.Fprintf(log, "askuser hub: ready at %s, store %s, info %s\n", info.URL, paths.Store, paths.Info)
	if opts.Ready != nil {
		opts.Ready(info)
	}
	select {
	case <-ctx.Done():
		fmt.Fprintf(log, "askuser hub: stopping\n")
	case <-idle:
		fmt.Fprintf(log, "askuser hub: stopping: idle for %v\n", opts.Idle)
	}
	return nil
}

// lockDir makes the hub's private directory and locks it for this hub:
// the lock holds while the returned file is open. It returns a
// *RunningError when another hub holds it.
func lockDir(paths hub.Paths) (*os.File, error) {
	if err := os.MkdirAll(paths.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("make the hub's directory: %w", err)
	}
	if err := os.Chmod(paths.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("make the hub's directory private: %w", err)
	}
	lock, err := os.OpenFile(paths.Lock, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the hub's lock: %w", err)
	}
	if err := lockFile(lock); err != nil {
		lock.Close()
		if errors.Is(err, errLocked) {
			re := &RunningError{Lock: paths.Lock}
			if info, err := hub.ReadInfo(paths.Info); err == nil {
				re.Info = &info
			}
			return nil, re
		}
		return nil, fmt.Errorf("lock %s: %w", paths.Lock, err)
	}
	return lock, nil
}

// runConfig is the config the hub runs with: its config file's, with
// opts.Remote in place of the file's remote when it is set.
func runConfig(opts *Options) (Config, error) {
	cfgPath := opts.ConfigFile
	if cfgPath == "" && opts.Getenv != nil {
		// With neither XDG_CONFIG_HOME nor HOME there is no place for
		// the file, and so no config.
		cfgPath, _ = ConfigPath(opts.Getenv)
	}
	var cfg Config
	if cfgPath != "" {
		var err error
		if cfg, err = LoadConfig(cfgPath); err != nil {
			return Config{}, err
		}
	}
	if opts.Remote != nil {
		// A hub started for an agent has nobody watching its log: a
		// remote it could never reach is refused at once, and the agent
		// says why.
		if _, err := hubstore.ReadCredentials(opts.Remote.Credentials); err != nil {
			return Config{}, fmt.Errorf("remote: %w", err)
		}
		// A client of the remote, as an agent's is: not a leaf node.
		cfg.Remote, cfg.Leaf = opts.Remote, nil
	}
	return cfg, nil
}

// natsServer is the hub's NATS server, with what it was made with.
type natsServer struct {
	*server.Server
	opts  *server.Options
	leaf  *leafNode // nil unless the hub joins its remote as a leaf node
	token string    // the clients'
	cert  tls.Certificate
}

// newServer makes the hub's NATS server, on port (0 for any free one),
// storing in paths.Store, with a new token and certificate, and a leaf
// node when cfg names a remote to join as one.
func newServer(port int, cfg Config, paths hub.Paths) (*natsServer, error) {
	token, err := newToken()
	if err != nil {
		return nil, err
	}
	cert, err := serverCert()
	if err != nil {
		return nil, err
	}
	ns := &natsServer{opts: serverOptions(port, paths, token, cert), token: token, cert: cert}
	if cfg.Remote != nil && cfg.Leaf != nil {
		if ns.leaf, err = newLeafNode(ns.opts, *cfg.Remote, *cfg.Leaf, token, leafTokenFile(paths)); err != nil {
			return nil, err
		}
	}
	ns.Server, err = server.NewServer(ns.opts)
	if err == nil && ns.leaf != nil {
		err = ns.leaf.bind(ns.Server)
	}
	if err != nil {
		if ns.leaf != nil {
			os.Remove(leafTokenFile(paths))
		}
		return nil, fmt.Errorf("configure the hub's server: %w", err)
	}
	return ns, nil
}

// ready waits for the started server to take connections, enables the
// leaf node's JetStream, makes the hub's buckets, and returns the port
// the server listens on.
func (ns *natsServer) ready(ctx context.Context) (int, error) {
	if !ns.ReadyForConnections(readyTimeout) {
		return 0, fmt.Errorf("the hub's server was not ready within %v", readyTimeout)
	}
	if ns.leaf != nil {
		if err := ns.leaf.enableJetStream(ns.Server); err != nil {
			return 0, err
		}
	}
	addr, ok := ns.Addr().(*net.TCPAddr)
	if !ok {
		return 0, fmt.Errorf("the hub's server listens on %v, not TCP", ns.Addr())
	}
	if err := makeBuckets(ctx, ns.Server, ns.token); err != nil {
		return 0, err
	}
	return addr.Port, nil
}

// restartJetStream restarts the server's JetStream after its store
// failed, with the leaf node's, through the function restartJetStream.
func (ns *natsServer) restartJetStream(ctx context.Context) error {
	var enable func() error
	if ns.leaf != nil {
		enable = func() error { return ns.leaf.enableJetStream(ns.Server) }
	}
	return restartJetStream(ctx, ns.Server, ns.opts, ns.token, enable)
}

// serverOptions are the options of the hub's NATS server, on port (0
// for any free one) of the loopback, storing in paths.Store, taking
// clients with token, over TLS with cert.
func serverOptions(port int, paths hub.Paths, token string, cert tls.Certificate) *server.Options {
	if port == 0 {
		port = server.RANDOM_PORT
	}
	return &server.Options{
		ServerName:    "askuser-hub",
		Host:          "127.0.0.1",
		Port:          port,
		Authorization: token,
		JetStream:     true,
		StoreDir:      paths.Store,
		NoSigs:        true,
		NoLog:         true,
		MaxPayload:    1 << 20,
		// askuser's clients pin the certificate the info file names, so
		// that whatever listens on this port once the hub stopped gets
		// neither their token nor their trust; an askuser from before
		// the pin still connects without TLS.
		TLSConfig:   &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS13},
		AllowNonTLS: true,
		// A client's TLS handshake and its CONNECT may take as long as
		// the client waits for them (hub.DialOptions.Timeout, 5 s), not
		// the server's 2 s, which a busy machine overruns.
		TLSTimeout:  5,
		AuthTimeout: 5,
		// Otherwise three quarters of the disk (see maxStoreBytes).
		JetStreamMaxStore: maxStoreBytes,
	}
}

// relayRemote relays questions, on wg until ctx is done, between the
// hub, its server s at info, and the remote hub r: through the leaf node
// of s when leaf is set, else as a client of r's server.
func relayRemote(ctx context.Context, wg *sync.WaitGroup, s *server.Server, leaf *leafNode, info hub.Info, paths hub.Paths, r prefs.Remote, log io.Writer) error {
	// Every machine signs what it stores on the remote hub with a key of
	// its own, made once.
	key := paths.Key()
	if _, err := hubstore.MakeKey(key); err != nil {
		return err
	}
	dial, where := remoteDial(r, key, log), "the remote hub at "+r.URL
	if leaf != nil {
		// The relay reaches the cluster through this hub's own server,
		// as a client of the account bound to the leaf node.
		dial = leaf.dial(s, remoteDial(prefs.Remote{URL: info.URL, Credentials: leafTokenFile(paths), Recipients: r.Recipients, Replicas: r.Replicas}, key, log))
		where = "the cluster at " + r.URL + " through this hub's leaf node"
		wg.Go(func() { leaf.watch(ctx, s, log) })
	}
	return startRelay(ctx, wg, info, dial, where, log)
}

// watchIdle returns a channel, on wg until ctx is done, that is closed
// once the hub's server s has had, for idle, no question waiting and no
// client but the hub's own (named "askuser hub …", or in-process).
func watchIdle(ctx context.Context, wg *sync.WaitGroup, s *server.Server, info hub.Info, idle time.Duration) (<-chan struct{}, error) {
	c, err := hub.Dial(ctx, &hub.DialOptions{Info: &info, Name: "askuser hub idle"})
	if err != nil {
		return nil, fmt.Errorf("watch for idleness: connect to the hub: %w", err)
	}
	done := make(chan struct{})
	every := min(max(idle/10, 50*time.Millisecond), 10*time.Second)
	wg.Go(func() {
		defer c.Close()
		tick := time.NewTicker(every)
		defer tick.Stop()
		since := time.Now()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if busy(ctx, s, c) {
				since = time.Now()
			} else if time.Since(since) >= idle {
				close(done)
				return
			}
		}
	})
	return done, nil
}

// busy reports whether a question waits on the hub or a client other
// than the hub's own is connected to s. A hub it cannot ask counts as
// busy.
func busy(ctx context.Context, s *server.Server, c *hub.Client) bool {
	conns, err := s.Connz(&server.ConnzOptions{Limit: 1 << 16})
	if err != nil {
		return true
	}
	for _, ci := range conns.Conns {
		if ci.Name != "" && !strings.HasPrefix(ci.Name, "askuser hub") {
			return true
		}
	}
	qs, err := c.Pending(ctx)
	return err != nil || len(qs) > 0
}

// startPush runs the pushes of cfg on wg until ctx is done, through the
// hub's own server s.
func startPush(ctx context.Context, wg *sync.WaitGroup, s *server.Server, info hub.Info, cfg notify.PushConfig, getenv func(string) string, log io.Writer) error {
	c, err := hub.Dial(ctx, &hub.DialOptions{Info: &info, Name: "askuser hub push"})
	if err != nil {
		return fmt.Errorf("push: connect to the hub: %w", err)
	}
	nc, err := nats.Connect("", nats.InProcessServer(s), nats.Token(info.Token))
	if err != nil {
		c.Close()
		return fmt.Errorf("push: connect to the hub's own server: %w", err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		c.Close()
		nc.Close()
		return err
	}
	home := homeDir(getenv)
	wg.Go(func() {
		defer c.Close()
		defer nc.Close()
		err := notify.Push(ctx, &notify.PushOptions{Config: cfg, Watch: c.Watch, JetStream: js, Home: home, Log: log})
		if ctx.Err() == nil {
			fmt.Fprintf(log, "askuser hub: pushes stopped: %v\n", err)
		}
	})
	fmt.Fprintf(log, "askuser hub: pushes questions unanswered after %v to the ntfy server at %s\n", cfg.Delay, cfg.Server)
	return nil
}

// checkWeb checks the web page's options.
// homeDir is the home directory getenv names, "" for none: the pushes and
// the page shorten the project directories under it to ~.
func homeDir(getenv func(string) string) string {
	if getenv == nil {
		return ""
	}
	return getenv("HOME")
}

func checkWeb(opts *Options) error {
	if opts.WebURL != "" {
		u, err := url.Parse(opts.WebURL)
		if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return fmt.Errorf("the web page's address %q: give the https address devices reach it at, with no user, query or fragment, such as https://laptop.example.ts.net/", opts.WebURL)
		}
	}
	if (opts.WebCert == "") != (opts.WebKey == "") {
		return errors.New("the web page: give both the certificate and its key (--cert FILE --key FILE)")
	}
	return CheckAddr(opts.Web, opts.WebTLS || opts.WebCert != "")
}

// startWeb serves the hub's web page on wg until ctx is done, and its
// devices' requests through the hub's own server s. It returns the
// address devices open it at, "" for none, and its address on this
// machine with the access token, which it does not write to log, and
// the lines that tell of it, which Run writes to log once hub.json names
// the page.
func startWeb(ctx context.Context, wg *sync.WaitGroup, s *server.Server, info hub.Info, paths hub.Paths, opts *Options, log io.Writer) (base, local, said string, err error) {
	withTLS := opts.WebTLS || opts.WebCert != ""
	var cert tls.Certificate
	if withTLS {
		if cert, err = LoadCert(paths.Dir, opts.WebCert, opts.WebKey); err != nil {
			return "", "", "", err
		}
	}
	ln, err := net.Listen("tcp", opts.Web)
	if err != nil {
		return "", "", "", fmt.Errorf("the web page: %w", err)
	}
	at := ln.Addr().(*net.TCPAddr)
	base = opts.WebURL
	fingerprint := ""
	if withTLS {
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
		fingerprint = Fingerprint(cert)
		if base == "" {
			base = "https://" + net.JoinHostPort(reachableHost(at.IP), strconv.Itoa(at.Port)) + "/"
		}
	}
	c, err := hub.Dial(ctx, &hub.DialOptions{Info: &info, Name: "askuser hub web"})
	if err != nil {
		ln.Close()
		return "", "", "", fmt.Errorf("the web page: connect to the hub: %w", err)
	}
	w, err := NewWeb(ctx, c, &WebOptions{Devices: filepath.Join(paths.Dir, DevicesFile),
		Secure: withTLS || base != "", TLS: withTLS, Base: base, Fingerprint: fingerprint, Log: log, Home: homeDir(opts.Getenv)})
	if err == nil {
		err = serveControl(ctx, s, info.Token, w)
	}
	if err != nil {
		ln.Close()
		c.Close()
		return "", "", "", fmt.Errorf("the web page: %w", err)
	}
	addr := at.String()
	if at.IP.IsUnspecified() {
		addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(at.Port))
	}
	local = w.URL(addr)
	wg.Go(func() {
		defer c.Close()
		if err := w.Serve(ctx, ln); err != nil {
			fmt.Fprintf(log, "askuser hub: the web page stopped: %v\n", err)
		}
	})
	var b strings.Builder
	fmt.Fprintf(&b, "askuser hub: web page at %s (with its access token: askuser hub status)\n", w.Address(addr))
	if base != "" {
		fmt.Fprintf(&b, "askuser hub: other devices open it at %s once paired: askuser hub pair\n", base)
	}
	if fingerprint != "" {
		fmt.Fprintf(&b, "askuser hub: its certificate's SHA-256 fingerprint is %s\n", fingerprint)
	}
	said = b.String()
	if opts.WebReady != nil {
		opts.WebReady(local)
	}
	return w.Base(), local, said, nil
}

// reachableHost is the host name other devices reach a page listening
// on ip at: ip itself, or, for all addresses, this machine's first
// address that is neither loopback nor link-local.
func reachableHost(ip net.IP) string {
	if !ip.IsUnspecified() {
		return ip.String()
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && n.IP.IsGlobalUnicast() {
				return n.IP.String()
			}
		}
	}
	return "127.0.0.1"
}

// makeBuckets creates the hub's buckets before any client comes.
func makeBuckets(ctx context.Context, s *server.Server, token string) error {
	nc, err := nats.Connect("", nats.InProcessServer(s), nats.Token(token))
	if err != nil {
		return fmt.Errorf("connect to the hub's own server: %w", err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	bctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	if _, _, err := hubstore.Buckets(bctx, js); err != nil {
		return fmt.Errorf("make the hub's buckets: %w", err)
	}
	return boundBuckets(bctx, js)
}

// serverCert makes the certificate the hub's server presents: its own,
// for this run only, its key never written down, so that no process but
// this one can present it.
func serverCert() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("make the hub's certificate: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("make the hub's certificate: %w", err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "askuser hub"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.AddDate(10, 0, 0),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("make the hub's certificate: %w", err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}

func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make the hub's token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// Start runs a hub as Run does, on a goroutine of its own, and returns
// once it serves, with its info and a function that stops it and returns
// Run's error. opts.Ready, when set, is still called. It fails with Run's
// error when the hub ends before it serves, or with ctx's when ctx is
// done first.
func Start(ctx context.Context, opts *Options) (hub.Info, func() error, error) {
	o := Options{}
	if opts != nil {
		o = *opts
	}
	ready := make(chan hub.Info, 1)
	then := o.Ready
	o.Ready = func(i hub.Info) {
		if then != nil {
			then(i)
		}
		ready <- i
	}
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan error, 1)
	go func() { done <- Run(rctx, &o) }()
	stop := func() error {
		cancel()
		return <-done
	}
	select {
	case i := <-ready:
		return i, stop, nil
	case err := <-done:
		cancel()
		return hub.Info{}, nil, err
	case <-ctx.Done():
		stop()
		return hub.Info{}, nil, ctx.Err()
	}
}
