package hubserver

// The hub's web page (the files web*.go): the list of the questions that
// wait on the hub and each questionnaire as a form, for a browser on the
// same machine and, over HTTPS, for the devices paired with the hub.
//
// Every request of the API must carry a device token in its Authorization
// header, never a cookie (cookies ignore ports: every other service of
// the host would receive it): the access token, which the address
// askuser hub status prints holds in its fragment (/#token=…) and which
// is taken from this machine only, or the token a device got for a
// pairing link (askuser hub pair), which works once and for minutes. The
// page's script keeps the first for its tab (sessionStorage), the second
// for its origin (localStorage). Without HTTPS every request must name a
// loopback host. Every request that changes something must also come from
// the page's own origin, and one on a question carry that question's own
// answer token. A revoked device is refused at once, its event stream
// closed.
// The page is embedded, fetches nothing from elsewhere and runs under a
// strict Content-Security-Policy; it shows the model's text as text only.

import (
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/hub"
)

// DefaultAddr is where the page listens when no address is given.
const DefaultAddr = "127.0.0.1:7373"

// answerHeader carries the answer token of the question a request
// answers, dismisses or stops the countdown of.
const answerHeader = "X-Askuser-Answer"

// localDevice is the device ID of this machine's browser, which the
// access token lets in.
const localDevice = "local"

// csp lets the page run its own script and style only.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

//go:embed assets
var assets embed.FS

// WebOptions configures NewWeb. A nil *WebOptions means the defaults.
type WebOptions struct {
	// Token is the access token; "" means a new random one.
	Token string
	// By names the page when this machine's browser answers, dismisses
	// or stops a countdown, for the asker and its model; "" means "the
	// web page of the hub on" the host name. A paired device is named by
	// its paired name.
	By string
	// Devices is the file that keeps the paired devices (DevicesFile in
	// the hub's directory); "" keeps them in memory.
	Devices string
	// Secure says the page is reached over HTTPS, its own or a reverse
	// proxy's: any host name is served, since a device token is needed
	// anyway. Reached through a reverse proxy (Secure without TLS), every
	// request comes from this machine, so the access token is refused:
	// this machine's browser pairs too.
	Secure bool
	// TLS says the page serves HTTPS itself.
	TLS bool
	// Base is the address devices open the page at, such as
	// https://laptop.example.ts.net/, for pairing links and pushes; a
	// request from its origin is the page's own.
	Base string
	// Fingerprint is the SHA-256 fingerprint of the page's certificate,
	// when it serves HTTPS itself, shown with each pairing link.
	Fingerprint string
	// MaxConns and MaxConnsPerClient bound the page's connections, in
	// all and from one address; 0 means DefaultMaxConns and
	// DefaultMaxConnsPerClient.
	MaxConns, MaxConnsPerClient int
	// Log receives, at a bounded rate, what goes wrong with connections;
	// nil means standard error.
	Log io.Writer
	// Home shortens the project directories under it to ~ in the line
	// that marks an approval; "" for none.
	Home string
}

// Web is the page's HTTP handler. It follows the hub through one
// watch while its context lives. It is safe for concurrent use.
type Web struct {
	c           *hub.Client
	token       string
	by          string
	secure      bool
	tls         bool
	base        string
	baseOrigin  string
	fingerprint string
	home        string
	devices     *devices
	maxConns    int
	perClient   int
	log         *rateLog

	mu      sync.Mutex
	waiting map[string]*entry
	closed  map[string]string     // id → where, for questions that left
	subs    map[chan event]string // → the device's ID
	online  bool
	rewatch chan struct{}
	handler http.Handler
}

// entry is one waiting question with its summary line, encoded once.
type entry struct {
	q       *hub.Question
	summary json.RawMessage
}

// event is one server-sent event.
type event struct {
	name string
	data []byte
}

// AddrError is the error CheckAddr returns for an address the page may
// not listen on.
type AddrError struct{ Addr, Reason string }

// Error says which address was refused and why.
func (e *AddrError) Error() string {
	return fmt.Sprintf("the web page may not listen on %s: %s", e.Addr, e.Reason)
}

// CheckAddr checks that addr is host:port, with a loopback host unless
// the page serves HTTPS (secure): nothing listens beyond this machine
// without TLS.
func CheckAddr(addr string, secure bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return &AddrError{addr, "give host:port, such as " + DefaultAddr}
	}
	if !secure && !loopbackHost(host) {
		return &AddrError{addr, "only a loopback address (127.0.0.1, ::1, localhost) is served without TLS: add --tls for HTTPS with the hub's own certificate, or --cert FILE --key FILE"}
	}
	return nil
}

func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	return ip != nil && ip.IsLoopback()
}

func newWebToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// New returns the page of the hub c. It watches the hub until ctx is
// done; the page then serves an empty list.
func NewWeb(ctx context.Context, c *hub.Client, opts *WebOptions) (*Web, error) {
	if opts == nil {
		opts = &WebOptions{}
	}
	s := &Web{c: c, token: opts.Token, by: opts.By, secure: opts.Secure, tls: opts.TLS, base: opts.Base, fingerprint: opts.Fingerprint, home: opts.Home,
		waiting: map[string]*entry{}, closed: map[string]string{}, subs: map[chan event]string{}, rewatch: make(chan struct{}, 1),
		maxConns: cmp.Or(opts.MaxConns, DefaultMaxConns), perClient: cmp.Or(opts.MaxConnsPerClient, DefaultMaxConnsPerClient),
		log: newRateLog(cmp.Or[io.Writer](opts.Log, os.Stderr), "askuser hub: the web page: ")}
	if s.token == "" {
		s.token = newWebToken()
	}
	if s.base != "" {
		u, err := url.Parse(s.base)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Errorf("the web page's address %q: give an http or https address with no user, query or fragment, such as https://laptop.example.ts.net/", s.base)
		}
		s.baseOrigin = u.Scheme + "://" + u.Host
		s.base = strings.TrimSuffix(s.base, "/") + "/"
	}
	var err error
	if s.devices, err = loadDevices(opts.Devices); err != nil {
		return nil, err
	}
	if s.handler, err = s.newHandler(); err != nil {
		return nil, err
	}
	if s.by == "" {
		host, _ := os.Hostname()
		s.by = strings.TrimSpace("the web page of the hub on " + host)
	}
	wctx, cancel := context.WithCancel(ctx)
	events, err := c.Watch(wctx)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("watch the hub's questions: %w", err)
	}
	go s.watch(ctx, events, cancel)
	return s, nil
}

// Rewatch has the page watch the hub afresh: after the hub's buckets
// were deleted or made again, a watch follows streams that are gone.
// Questions the new watch does not find leave the list. It does not
// wait.
func (s *Web) Rewatch() {
	select {
	case s.rewatch <- struct{}{}:
	default:
	}
}

// Token returns the access token.
func (s *Web) Token() string { return s.token }

// Address returns the page's address for the page listening on addr,
// without the access token.
func (s *Web) Address(addr string) string {
	scheme := "http://"
	if s.tls {
		scheme = "https://"
	}
	return scheme + addr + "/"
}

// URL returns the address to open on this machine for the page
// listening on addr, the access token in its fragment, which the
// browser never sends and the page's script removes from the address
// and its history. Behind a reverse proxy, where the access token is
// refused, it is the address devices open the page at, to be paired.
func (s *Web) URL(addr string) string {
	if s.proxied() {
		return s.base
	}
	return s.Address(addr) + "#token=" + s.token
}

// proxied says the page is reached through a reverse proxy: Secure,
// without TLS of its own.
func (s *Web) proxied() bool { return s.secure && !s.tls }

// Base returns the address devices open the page at, WebOptions.Base.
func (s *Web) Base() string { return s.base }

// mac is the HMAC of the parts under a key drawn from the access token.
func (s *Web) mac(parts ...string) string {
	m := hmac.New(sha256.New, []byte(s.token))
	m.Write([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(m.Sum(nil))
}

// Pair makes a pairing link that works once, within ttl (DefaultPairing
// when 0, at most MaxPairing), for a device to be called name.
func (s *Web) Pair(ttl time.Duration, name string) (Pairing, error) {
	switch {
	case s.base == "":
		return Pairing{}, errors.New("the page has no address for other devices: start the hub with --web ADDR and --tls (or --cert and --key), or --url for a reverse proxy")
	case ttl == 0:
		ttl = DefaultPairing
	case ttl < 0 || ttl > MaxPairing:
		return Pairing{}, fmt.Errorf("a pairing link works for at most %v, not %v", MaxPairing, ttl)
	}
	now := time.Now()
	c := s.devices.newCode(ttl, name, now)
	return Pairing{Link: s.base + "pair#code=" + c, Expires: now.Add(ttl).UTC().Truncate(time.Second), Fingerprint: s.fingerprint}, nil
}

// Devices returns the paired devices, revoked ones too.
func (s *Web) Devices() []Device { return s.devices.all() }

// Revoke revokes the device id: its event streams are closed at once,
// and each later request of it refused.
func (s *Web) Revoke(id string) (Device, error) {
	d, err := s.devices.revoke(id, time.Now())
	if err != nil {
		return d, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch, dev := range s.subs {
		if dev == id {
			close(ch)
			delete(s.subs, ch)
		}
	}
	return d, nil
}

// Serve serves the page on ln until ctx is done, then closes it. It
// bounds the connections it keeps (WebOptions.MaxConns), and how long each
// may take to send a request, to take an answer, and to idle.
func (s *Web) Serve(ctx context.Context, ln net.Listener) error {
	lim := newConnLimit(ln, s.maxConns, s.perClient, s.log)
	srv := &http.Server{Handler: s, ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: readTimeout,
		WriteTimeout: writeTimeout, IdleTimeout: idleTimeout, MaxHeaderBytes: maxHeaderBytes,
		ConnState: lim.state, ConnContext: lim.context, ErrorLog: log.New(s.log, "", 0)}
	ln = lim
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			srv.Close()
		}
	}()
	// Server-sent event streams never end by themselves.
	srv.RegisterOnShutdown(s.closeSubs)
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func (s *Web) closeSubs() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.subs {
		close(ch)
		delete(s.subs, ch)
	}
}
