package hubserver

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Bounds on the page's connections: in all, and from one client address.
// They keep far below the file descriptors of the process (often 1024),
// which the hub's queue shares: no number of connections to the page
// keeps askuser pending or an asker from the hub.
const (
	DefaultMaxConns          = 256
	DefaultMaxConnsPerClient = 32
)

// Timeouts of the page's connections. An event stream sets its own write
// deadline for each event and has no read deadline.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 30 * time.Second
	idleTimeout       = 60 * time.Second
	maxHeaderBytes    = 64 << 10
)

// connLimit admits the connections of a listener within its bounds. A
// connection over a bound takes the place of the oldest one that holds no
// request (new, or idle between requests) of the same client, or of any
// client when all are taken; failing that, of the oldest one whose
// request has not yet shown a credential (sending its headers slowly, or
// never); with none such, it is closed at once. So connections without a
// credential, idle or slow, however many, never keep out a client that
// has one. It learns each connection's state from http.Server.ConnState,
// and that it showed a credential from trust.
type connLimit struct {
	net.Listener
	max, perClient int
	log            *rateLog

	mu       sync.Mutex
	conns    map[net.Conn]*connInfo
	byClient map[string]int
}

type connInfo struct {
	client  string
	busy    bool // reading or serving a request
	trusted bool // a request on it showed a credential
	since   time.Time
}

func newConnLimit(ln net.Listener, max, perClient int, log *rateLog) *connLimit {
	return &connLimit{Listener: ln, max: max, perClient: perClient, log: log,
		conns: map[net.Conn]*connInfo{}, byClient: map[string]int{}}
}

// Accept returns the next connection admitted.
func (l *connLimit) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.admit(c) {
			return c, nil
		}
		c.Close()
	}
}

// clientOf names the client c comes from: its IPv4 address, or the /64
// network of its IPv6 address, which one host commonly holds whole.
func clientOf(c net.Conn) string {
	host, _, err := net.SplitHostPort(c.RemoteAddr().String())
	if err != nil {
		return c.RemoteAddr().String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.To4() == nil {
		return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	return host
}

// admit takes c in, in the place of an older connection that holds no
// request when a bound is reached, and says whether it did.
func (l *connLimit) admit(c net.Conn) bool {
	client := clientOf(c)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byClient[client] >= l.perClient && !l.evict(client) {
		l.log.printf("refused a connection from %s: it has %d open, each busy", client, l.byClient[client])
		return false
	}
	if len(l.conns) >= l.max && !l.evict("") {
		l.log.printf("refused a connection from %s: %d are open, each busy", client, len(l.conns))
		return false
	}
	l.conns[c] = &connInfo{client: client, since: time.Now()}
	l.byClient[client]++
	return true
}

// evict closes the oldest connection of client ("" for any) that holds
// no request, or else the oldest whose request showed no credential;
// l.mu is held.
func (l *connLimit) evict(client string) bool {
	victim := l.oldest(client, func(in *connInfo) bool { return !in.busy })
	if victim == nil {
		victim = l.oldest(client, func(in *connInfo) bool { return !in.trusted })
	}
	if victim == nil {
		return false
	}
	l.forget(victim)
	victim.Close()
	return true
}

// oldest returns the oldest connection of client ("" for any) that ok
// takes, or nil; l.mu is held.
func (l *connLimit) oldest(client string, ok func(*connInfo) bool) net.Conn {
	var victim net.Conn
	var since time.Time
	for c, in := range l.conns {
		if !ok(in) || (client != "" && in.client != client) {
			continue
		}
		if victim == nil || in.since.Before(since) {
			victim, since = c, in.since
		}
	}
	return victim
}

// trust marks c as a connection whose request showed a credential: it is
// never closed for another while it serves a request.
func (l *connLimit) trust(c net.Conn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if in, ok := l.conns[c]; ok {
		in.trusted = true
	}
}

// trustKey keys, in a request's context, the function that marks its
// connection as trusted.
type trustKey struct{}

// context gives each connection's requests the function that marks it as
// trusted, as http.Server.ConnContext.
func (l *connLimit) context(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, trustKey{}, func() { l.trust(c) })
}

// trust marks the connection each request comes on as one that showed
// a credential, then passes the request on: it guards the routes that
// take a device token, inside the guard that checks it.
func trust(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f, ok := r.Context().Value(trustKey{}).(func()); ok {
			f()
		}
		next.ServeHTTP(w, r)
	})
}

// forget drops c from the counts; l.mu is held.
func (l *connLimit) forget(c net.Conn) {
	in, ok := l.conns[c]
	if !ok {
		return
	}
	delete(l.conns, c)
	if l.byClient[in.client]--; l.byClient[in.client] <= 0 {
		delete(l.byClient, in.client)
	}
}

// state follows the connections' states, as http.Server.ConnState.
func (l *connLimit) state(c net.Conn, st http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch st {
	case http.StateClosed, http.StateHijacked:
		l.forget(c)
	case http.StateActive, http.StateIdle:
		if in, ok := l.conns[c]; ok {
			in.busy = st == http.StateActive
			in.since = time.Now()
		}
	}
}

// rateLog writes at most burst lines each period to w, then says how many
// it left out: a flood of refused or broken connections does not flood
// the hub's log. It is safe for concurrent use.
type rateLog struct {
	w      io.Writer
	prefix string
	burst  int
	period time.Duration

	mu      sync.Mutex
	start   time.Time
	written int
	dropped int
}

func newRateLog(w io.Writer, prefix string) *rateLog {
	return &rateLog{w: w, prefix: prefix, burst: 10, period: time.Minute}
}

// Write writes one line, p, within the rate: http.Server's ErrorLog
// writes through it.
func (r *rateLog) Write(p []byte) (int, error) {
	r.printf("%s", p)
	return len(p), nil
}

func (r *rateLog) printf(format string, args ...any) {
	if r == nil || r.w == nil {
		return
	}
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if now.Sub(r.start) >= r.period {
		if r.dropped > 0 {
			fmt.Fprintf(r.w, "%s%d more lines like these were left out in %v\n", r.prefix, r.dropped, r.period)
		}
		r.start, r.written, r.dropped = now, 0, 0
	}
	if r.written >= r.burst {
		r.dropped++
		return
	}
	r.written++
	line := fmt.Sprintf(format, args...)
	if len(line) == 0 || line[len(line)-1] != '\n' {
		line += "\n"
	}
	io.WriteString(r.w, r.prefix+line)
}
