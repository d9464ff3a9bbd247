package hub

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/prefs"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// answerGrace is how long an answer or closing note outlives its
// question's deadline, so that a late answer is told what happened
// rather than that the id is unknown.
const answerGrace = 2 * time.Minute

// noDeadlineKeep is how long the answer to a question without a deadline
// is kept.
const noDeadlineKeep = time.Hour

// requestTimeout bounds one request to the hub: a request sent as the
// hub went away gets no reply, and must not hold up its caller until its
// caller's own deadline.
const requestTimeout = 2 * time.Second

// dialTimeout is the default DialOptions.Timeout. A hub on this machine
// answers in milliseconds; but on a loaded machine (a build, tests under
// the race detector) either end can wait for a CPU for hundreds of
// milliseconds at each step of the handshake (TCP, TLS, the CONNECT and
// its PONG), and a handshake cut short is a hub taken for unreachable,
// or a reconnection that fails again and again while the hub runs. The
// wait costs only when a hub's process runs but does not answer: a hub
// that is gone refuses the connection at once.
const dialTimeout = 5 * time.Second

// listTimeout bounds a whole listing.
const listTimeout = 10 * time.Second

// listQuiet bounds the wait for the next question of a listing.
const listQuiet = 3 * time.Second

// DialOptions configures Dial. A nil *DialOptions reads the info file
// from the default place, with no environment.
type DialOptions struct {
	// Getenv reads the environment, for Locate; nil reads none.
	Getenv func(string) string
	// Info, when set, is where to connect instead of the info file: a
	// hub or NATS server this process was told about.
	Info *Info
	// Name is the connection's name, as the server shows it.
	Name string
	// Timeout bounds the connection and the first requests, and each
	// reconnection's handshake; 0 means five seconds.
	Timeout time.Duration

	// Log, when set, is told what the dial did besides connecting: the
	// buckets it made, and with how many replicas and why; and, once per
	// address and reason, a server it refused to reconnect to because it
	// could not prove to be the hub its info file names.
	Log func(string)

	remote *remoteHub // set by dialRemote
}

// Client is a connection to a hub. It reconnects by itself when the hub
// restarts. It is safe for concurrent use. Close it when done.
type Client struct {
	nc        *nats.Conn
	js        jetstream.JetStream
	questions jetstream.KeyValue
	answers   jetstream.KeyValue
	info      Info
	timeout   time.Duration
	reconnect chan struct{} // signalled, without blocking, on each reconnect
	seal      sealer
}

// Dial connects to the user's hub. Without a running hub it returns an
// error wrapping ErrNoHub; a hub that does not answer within the timeout
// is another error, which says where it was looked for.
func Dial(ctx context.Context, opts *DialOptions) (*Client, error) {
	if opts == nil {
		opts = &DialOptions{}
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = dialTimeout
	}
	var info Info
	var seal sealer
	auth := []nats.Option{}
	where := func() string { return info.URL }
	switch {
	case opts.remote != nil:
		info.URL, seal = opts.remote.url, opts.remote.seal
		auth = append(auth, opts.remote.auth)
	case opts.Info != nil:
		info = *opts.Info
		auth = append(auth, nats.Token(info.Token))
		if info.Fingerprint != "" {
			auth = append(auth, nats.Secure(pinned(func() string { return info.Fingerprint })))
		}
	default:
		p, err := Locate(opts.Getenv)
		if err != nil {
			return nil, err
		}
		info, err = ReadInfo(p.Info)
		if err != nil {
			return nil, err
		}
		// A hub that restarts listens elsewhere with a new token and a
		// new certificate: each reconnection reads the info file again,
		// and goes on only with the server that proves to hold the
		// certificate read with it, never with whatever listens on a
		// port a hub left.
		f := &infoFile{path: p.Info, last: info, timeout: timeout, pin: info.Fingerprint != ""}
		auth = append(auth, nats.SetCustomDialer(f), nats.TokenHandler(f.token))
		where = f.url
		if info.Fingerprint != "" {
			auth = append(auth, nats.Secure(pinned(f.fingerprint)))
		}
	}
	c := &Client{info: info, timeout: timeout, reconnect: make(chan struct{}, 1), seal: seal}
	name := opts.Name
	if name == "" {
		name = "askuser"
	}
	nc, err := connect(ctx, info.URL, append(auth,
		nats.Name(name),
		nats.Timeout(timeout),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(100*time.Millisecond),
		nats.ReconnectJitter(50*time.Millisecond, 50*time.Millisecond),
		nats.ReconnectHandler(func(*nats.Conn) {
			select {
			case c.reconnect <- struct{}{}:
			default:
			}
		}),
		nats.ReconnectErrHandler(refusals(opts.Log, where)),
		// nats.go writes the connection's errors to standard error by
		// default, which is the terminal a dialog or the inbox draws on.
		// What they cost shows where it matters: as a request's error,
		// and as a watch's WatchLost.
		nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {}),
		nats.NoCallbacksAfterClientClose(),
	)...)
	if err != nil {
		return nil, fmt.Errorf("connect to the hub at %s: %w", info.URL, err)
	}
	c.nc = nc
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("connect to the hub at %s: %w", info.URL, err)
	}
	c.js = js
	bctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var made string
	if opts.remote != nil {
		made, err = opts.remote.open(bctx, c)
	} else {
		c.questions, c.answers, err = hubstore.Buckets(bctx, js)
	}
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("open the hub's buckets at %s: %w", info.URL, err)
	}
	if made != "" && opts.Log != nil {
		opts.Log(made)
	}
	return c, nil
}

// connect is nats.Connect, given up when ctx is done first: a server
// that cannot be reached, or that does not speak, holds nats.Connect for
// its whole timeout, which a hub that stops must not wait out. A
// connection made after ctx was done is closed.
func connect(ctx context.Context, url string, opts ...nats.Option) (*nats.Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type result struct {
		nc  *nats.Conn
		err error
	}
	got := make(chan result, 1)
	go func() {
		nc, err := nats.Connect(url, opts...)
		got <- result{nc, err}
	}()
	select {
	case r := <-got:
		return r.nc, r.err
	case <-ctx.Done():
		go func() {
			if r := <-got; r.nc != nil {
				r.nc.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// dialRemote connects to the remote hub r with this machine's key at
// key (see hubstore.DialRemote). Every question published through it is
// sealed to r's recipients, and the answers to them taken only when
// sealed back by one; questions sealed to the key are opened, and their
// answers sealed back (see seal.Box). A server that has no buckets of
// the hub yet gets them with r.Replicas replicas, and opts.Log is told
// so. opts's Info and Getenv are not used.
//
// Its reads are consistent: a question or an answer is read through the
// leader of its bucket's stream, not from whichever replica answers
// first, so that a read right after a write, by this client or any
// other, finds what was written; and a question the leader never held
// is looked for again for some 200 ms, since a watch served by another
// replica may show it a moment before the leader has it. So Question,
// Answer, Dismiss and StopCountdown never call a question unknown that
// was stored before them, or that a watch showed. The newest questions
// a watch shows first are read from any replica, and read again while
// that replica is behind.
func dialRemote(ctx context.Context, r prefs.Remote, key string, opts *DialOptions) (*Client, error) {
	var o DialOptions
	if opts != nil {
		o = *opts
	}
	if len(r.Recipients) == 0 {
		return nil, errors.New("a remote hub needs at least one recipient key to seal its questions to")
	}
	if r.Replicas < 0 || r.Replicas > config.MaxReplicas {
		return nil, fmt.Errorf("a remote hub's buckets have 1 to %d replicas, not %d", config.MaxReplicas, r.Replicas)
	}
	s, err := newSealing(r.Recipients, key, o.Log)
	if err != nil {
		return nil, err
	}
	auth, err := remoteAuth(r.Credentials)
	if err != nil {
		return nil, err
	}
	o.remote = &remoteHub{url: r.URL, auth: auth, seal: s, open: openRemote(r.Replicas)}
	return Dial(ctx, &o)
}

// remoteHub is where and how dialRemote has Dial connect.
type remoteHub struct {
	url  string
	auth nats.Option
	seal sealer
	// open opens the remote hub's buckets for the client, and says in
	// words what it made (see openRemote). It is a function here, as
	// seal is an interface, so that the programs that never reach a
	// remote hub carry none of its code.
	open func(ctx context.Context, c *Client) (made string, err error)
}

// remoteAuth is how to authenticate with the credentials file at path.
func remoteAuth(path string) (nats.Option, error) {
	c, err := hubstore.ReadCredentials(path)
	switch {
	case err != nil:
		return nil, err
	case c.Creds != "":
		return nats.UserCredentials(c.Creds), nil
	case c.Token != "":
		return nats.Token(c.Token), nil
	}
	return nats.UserInfo(c.User, c.Password), nil
}

// infoFile dials the hub its info file names, read again at each dial,
// and gives the token read with it.
type infoFile struct {
	path    string
	timeout time.Duration
	// pin says the connection checks the hub's certificate: it was
	// set up when the info file named one.
	pin bool

	mu   sync.Mutex
	last Info
}

// Dial dials the hub of the info file. Without an info file no hub
// runs: the port the last one listened on may be anybody's now, and is
// not dialed.
func (f *infoFile) Dial(network, _ string) (net.Conn, error) {
	info, err := ReadInfo(f.path)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(info.URL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("the hub's info file %s: bad url %q", f.path, info.URL)
	}
	if info.Fingerprint != "" && !f.pin {
		// The hub restarted with a certificate, which this connection,
		// set up without TLS, cannot check: following it would take
		// whatever listens for the hub.
		return nil, fmt.Errorf("the hub's info file %s names a certificate now, which this connection was set up without: dial the hub again", f.path)
	}
	f.mu.Lock()
	f.last = info
	f.mu.Unlock()
	return net.DialTimeout(network, u.Host, f.timeout)
}

func (f *infoFile) token() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.last.Token
}

func (f *infoFile) url() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.last.URL
}

func (f *infoFile) fingerprint() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.last.Fingerprint
}

// NotHubError is why a server was refused: it did not present the
// certificate of the hub whose info file named its address.
type NotHubError struct {
	// Got is the SHA-256 fingerprint of the certificate the server
	// presented, "" for none; Want is the hub's.
	Got, Want string
}

func (e *NotHubError) Error() string {
	if e.Want == "" {
		return "the hub's info file names no certificate to check the server against"
	}
	return fmt.Sprintf("the server presented the certificate %s, not the hub's %s", e.Got, e.Want)
}

// pinned is the TLS configuration that accepts only a server presenting
// the certificate whose fingerprint want returns, read at each
// handshake: the hub's certificate is its own, made at its start, and
// named in its info file, which only its user reads.
func pinned(want func() string) *tls.Config {
	return &tls.Config{
		MinVersion: tls.VersionTLS13,
		// The certificate is checked below, against the pin, not against
		// any authority.
		InsecureSkipVerify: true,
		VerifyConnection: func(cs tls.ConnectionState) error {
			e := &NotHubError{Want: want()}
			if len(cs.PeerCertificates) > 0 {
				e.Got = hubstore.CertFingerprint(cs.PeerCertificates[0].Raw)
			}
			if e.Want == "" || e.Got != e.Want {
				return e
			}
			return nil
		},
	}
}

// refusals returns what a client tells log of a failed reconnection:
// that a server was refused as not the hub, once per address and
// reason. Other failures, such as a port nobody listens on while the
// hub restarts, are not told.
func refusals(log func(string), where func() string) nats.ConnErrHandler {
	var mu sync.Mutex
	told := map[string]bool{}
	return func(_ *nats.Conn, err error) {
		var notHub *NotHubError
		if log == nil || !errors.As(err, &notHub) && !errors.Is(err, nats.ErrSecureConnWanted) {
			return
		}
		msg := fmt.Sprintf("refused the server at %s, which is not the hub: %v; waiting for the hub", where(), err)
		if notHub == nil {
			msg = fmt.Sprintf("refused the server at %s, which is not the hub: it offers no TLS, and the hub's info file names its certificate; waiting for the hub", where())
		}
		mu.Lock()
		defer mu.Unlock()
		if told[msg] || len(told) > 16 {
			return
		}
		told[msg] = true
		log(msg)
	}
}

// Close closes the connection. It does not wait for anything.
func (c *Client) Close() { c.nc.Close() }

// Info returns where the client connected.
func (c *Client) Info() Info { return c.info }

// Request sends data on subject to the hub and returns the data of its
// reply, or an error wrapping nats.ErrNoResponders when nothing on the
// hub serves subject.
func (c *Client) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	m, err := c.nc.RequestWithContext(ctx, subject, data)
	if err != nil {
		return nil, err
	}
	return m.Data, nil
}

// Pending returns the questions that wait for an answer, newest first:
// those in the store whose deadline has not passed and that no surface
// has answered or closed.
func (c *Client) Pending(ctx context.Context) ([]Question, error) {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	closed := map[string]bool{}
	err := each(ctx, c.answers, func(e jetstream.KeyValueEntry) { closed[e.Key()] = true }, jetstream.MetaOnly())
	if err != nil {
		return nil, fmt.Errorf("list the hub's answers at %s: %w", c.info.URL, err)
	}
	now := time.Now()
	var out []Question
	err = each(ctx, c.questions, func(e jetstream.KeyValueEntry) {
		var q Question
		if c.read(nil, e.Value(), &q) != nil || closed[e.Key()] {
			return
		}
		if d := q.Tag.Deadline; d != nil && !now.Before(*d) {
			return
		}
		out = append(out, q)
	})
	if err != nil {
		return nil, fmt.Errorf("list the hub's questions at %s: %w", c.info.URL, err)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Created.After(out[j].Created) })
	return out, nil
}

// each calls fn with every entry of kv that holds a value. A hub that
// goes away mid-listing sends nothing more: a silence of listQuiet ends
// the listing with an error.
func each(ctx context.Context, kv jetstream.KeyValue, fn func(jetstream.KeyValueEntry), opts ...jetstream.WatchOpt) error {
	w, err := kv.WatchAll(ctx, append(opts, jetstream.IgnoreDeletes())...)
	if err != nil {
		return err
	}
	defer w.Stop()
	quiet := time.NewTimer(listQuiet)
	defer quiet.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-quiet.C:
			return fmt.Errorf("the hub sent nothing for %v", listQuiet)
		case e, ok := <-w.Updates():
			if !ok {
				return errors.New("the listing stopped")
			}
			if e == nil {
				return nil
			}
			quiet.Reset(listQuiet)
			fn(e)
		}
	}
}

// Question returns the question with id, and its answer or closing note
// when it has one. A question that is not in the store, answered or not,
// is a *RefusedError with reason RefusedUnknown, unless its answer is
// still kept: then the answer comes back with a nil question.
func (c *Client) Question(ctx context.Context, id string) (*Question, *Answer, error) {
	if !validID(id) {
		return nil, nil, refused(RefusedUnknown, "%q is not a question id: ids are 12 lowercase letters and digits, as askuser pending lists them", id)
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	// The question is read before its answer: whoever closes a question
	// stores the answer first and removes the question after, so one of
	// the two is always found.
	e, qerr := c.questions.Get(ctx, id)
	if qerr != nil && !errors.Is(qerr, jetstream.ErrKeyNotFound) {
		return nil, nil, fmt.Errorf("read the hub's question %s: %w", id, qerr)
	}
	var ans *Answer
	if ae, err := c.answers.Get(ctx, id); err == nil {
		var a Answer
		if err := json.Unmarshal(ae.Value(), &a); err == nil {
			ans = &a
		}
	} else if !errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, nil, fmt.Errorf("read the hub's answer to %s: %w", id, err)
	}
	if qerr != nil {
		if ans != nil {
			return nil, ans, nil
		}
		return nil, nil, refused(RefusedUnknown, "no question %s waits on the hub: the id is unknown, or the question expired and left the store", id)
	}
	var q Question
	if err := c.read(nil, e.Value(), &q); err != nil {
		return nil, nil, fmt.Errorf("read the hub's question %s: %w", id, err)
	}
	return &q, ans, nil
}

// MaxByLen bounds the name an answering program gives itself.
const MaxByLen = 120

// Answer answers the question id with data, the result JSON askuser ask
// prints for the question's contract (see CheckAnswer), on behalf of by,
// which names the answering surface or program for the asker and its
// model. It returns the stored answer when it won.
//
// A refusal is a *RefusedError: RefusedInvalid, with the reason, when
// the answer breaks the contract's rules (the question stays open);
// RefusedLate after the deadline; RefusedUnknown for an id the hub does
// not have; RefusedAnswered, saying by whom, when another answer or the
// asker closed the question first, even at the same moment: of
// answers given at once, exactly one wins.
func (c *Client) Answer(ctx context.Context, id string, data []byte, by string) (Answer, error) {
	return c.settle(ctx, id, by, StatusAnswered, func(q *Question) (json.RawMessage, error) { return CheckAnswer(q, data) })
}

// settle closes the question id with status on behalf of by, with the
// result that result makes of the question (nil for none), unless it is
// unknown, late, or closed already: Answer and Dismiss share its checks
// and its claim, by which exactly one of the answers given at once wins.
func (c *Client) settle(ctx context.Context, id, by, status string, result func(*Question) (json.RawMessage, error)) (Answer, error) {
	if err := checkBy(by); err != nil {
		return Answer{}, err
	}
	q, prior, err := c.Question(ctx, id)
	if err != nil {
		return Answer{}, err
	}
	if prior != nil {
		return Answer{}, alreadyAnswered(id, *prior)
	}
	return c.settleKnown(ctx, q, by, status, result)
}

// settleKnown is settle of the question q, read already: the relay
// answers a question it holds without reading it again from a replica
// that may not have it yet.
func (c *Client) settleKnown(ctx context.Context, q *Question, by, status string, result func(*Question) (json.RawMessage, error)) (Answer, error) {
	id := q.ID
	var err error
	now := time.Now()
	if d := q.Tag.Deadline; d != nil && !now.Before(*d) {
		return Answer{}, refused(RefusedLate, "question %s is late: its deadline passed at %s", id, d.Format(time.RFC3339))
	}
	a := Answer{ID: id, Status: status, By: strings.TrimSpace(by), At: now}
	if result != nil {
		if a.Result, err = result(q); err != nil {
			return Answer{}, err
		}
	}
	cctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	won, prior2, err := c.claim(cctx, q, a, q.Tag.Deadline)
	if err != nil {
		return Answer{}, err
	}
	if !won {
		return Answer{}, alreadyAnswered(id, prior2)
	}
	// The asker is told at once; if it is away, it finds the answer when
	// it is back.
	_ = c.nc.Publish(answeredSubject+"."+id, nil)
	_ = c.questions.Delete(cctx, id)
	return a, nil
}

func alreadyAnswered(id string, a Answer) error {
	err := refused(RefusedAnswered, "question %s was already %s at %s", id, a.Where(), a.At.Format(time.RFC3339))
	err.(*RefusedError).prior = &a
	return err
}

// claim creates a's entry, the answer to q, in the answers bucket unless
// one exists; it reports whether a won, and otherwise the entry that did.
func (c *Client) claim(ctx context.Context, q *Question, a Answer, deadline *time.Time) (bool, Answer, error) {
	data, err := c.store(q, a)
	if err != nil {
		return false, Answer{}, err
	}
	_, err = c.answers.Create(ctx, a.ID, data, jetstream.KeyTTL(answerKeep(deadline)))
	if err == nil {
		return true, a, nil
	}
	if !errors.Is(err, jetstream.ErrKeyExists) {
		return false, Answer{}, fmt.Errorf("store the answer to %s: %w", a.ID, err)
	}
	e, err := c.answers.Get(ctx, a.ID)
	if err != nil {
		return false, Answer{}, fmt.Errorf("read the answer to %s that came first: %w", a.ID, err)
	}
	var prior Answer
	if err := c.read(q, e.Value(), &prior); err != nil {
		return false, Answer{}, fmt.Errorf("read the answer to %s that came first: %w", a.ID, err)
	}
	return false, prior, nil
}

// answerKeep is how long the answer to a question with deadline (nil
// for none) is kept.
func answerKeep(deadline *time.Time) time.Duration {
	keep := noDeadlineKeep
	if deadline != nil {
		keep = max(time.Until(*deadline), 0) + answerGrace
	}
	return roundTTL(keep)
}

// roundTTL rounds d up to whole seconds, the TTL's unit, and to at
// least one second.
func roundTTL(d time.Duration) time.Duration {
	return max((d+time.Second-1)/time.Second, 1) * time.Second
}

// publish stores q in the questions bucket, to expire at its deadline.
func (c *Client) publish(ctx context.Context, q Question) error {
	if err := c.refuseWhenFull(ctx); err != nil {
		return err
	}
	data, err := c.store(nil, q)
	if err != nil {
		return err
	}
	var opts []jetstream.KVCreateOpt
	if d := q.Tag.Deadline; d != nil {
		// A second past the deadline leaves its asker time to stop the
		// countdown at the last moment (keepWaiting); readers judge by the
		// deadline, not by the entry.
		opts = append(opts, jetstream.KeyTTL(roundTTL(time.Until(*d))+time.Second))
	}
	if _, err := c.questions.Create(ctx, q.ID, data, opts...); err != nil {
		return fmt.Errorf("publish the question to the hub at %s: %w", c.info.URL, err)
	}
	return nil
}

// An asker looks at the answers bucket every lookEvery, besides when it is
// told of an answer and when its connection comes back. That look finds
// an answer whose notice was never sent, as when the answering process
// died between storing the answer and telling; it is rare, so it is every
// five seconds: ten thousand waiting questions ask the hub two thousand
// times a second, not ten thousand. In between, a waiting asker sleeps.
const lookEvery = 5 * time.Second

// After a notice of an answer that a get does not find yet, the asker
// looks again noticeTries times, noticeWait, then twice that, and so on.
const (
	noticeTries = 5
	noticeWait  = 20 * time.Millisecond
)

// keepWaiting stores q again without its deadline, as its asker stopped
// the countdown: the question then waits until it is answered or closed.
// The hub's relay hears of it as it hears of StopCountdown.
func (c *Client) keepWaiting(ctx context.Context, q Question) error {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	e, err := c.questions.Get(ctx, q.ID)
	if err != nil {
		return err
	}
	q.Tag.Deadline = nil
	data, err := c.store(nil, q)
	if err != nil {
		return err
	}
	if _, err = c.questions.Update(ctx, q.ID, data, e.Revision()); err != nil {
		return err
	}
	_ = c.nc.Publish(stoppedSubject+"."+q.ID, nil)
	return nil
}

// listen subscribes to the notices that the question id was answered
// and that its countdown was stopped; unsubscribe ends both.
func (c *Client) listen(id string) (notes, stops <-chan *nats.Msg, unsubscribe func(), err error) {
	n := make(chan *nats.Msg, 4)
	sub, err := c.nc.ChanSubscribe(answeredSubject+"."+id, n)
	if err != nil {
		return nil, nil, nil, err
	}
	s := make(chan *nats.Msg, 1)
	ssub, err := c.nc.ChanSubscribe(stoppedSubject+"."+id, s)
	if err != nil {
		sub.Unsubscribe()
		return nil, nil, nil, err
	}
	return n, s, func() { sub.Unsubscribe(); ssub.Unsubscribe() }, nil
}

// await waits until the question q has an entry in the answers bucket and
// returns it. An answer that breaks q's contract, stored past the door,
// is removed so that the question is open again, and the wait goes on.
// follow, when not nil, is called once here is closed (the asker stopped
// its countdown) and at each periodic look; stopped is called when a
// surface may have stopped q's countdown: when told so, and when the
// connection comes back.
// It looks when told that an answer was stored, when the connection comes
// back, and every lookEvery, so that an answer stored while this process
// was away is found.
func (c *Client) await(ctx context.Context, q *Question, here <-chan struct{}, follow, stopped func(context.Context)) (Answer, error) {
	notes, stops, unsubscribe, err := c.listen(q.ID)
	if err != nil {
		return Answer{}, err
	}
	defer unsubscribe()
	if stopped == nil {
		stopped = func(context.Context) {}
	}
	if follow == nil {
		follow = func(context.Context) {}
	}
	ticker := time.NewTicker(lookEvery)
	defer ticker.Stop()
	// A notice that finds no answer came from a server of a cluster whose
	// replica this get read has not stored it yet: it looks again soon.
	var again <-chan time.Time
	tries := 0
	get, noticed := true, false
	for {
		if get {
			gctx, cancel := context.WithTimeout(ctx, requestTimeout)
			e, err := c.answers.Get(gctx, q.ID)
			cancel()
			if errors.Is(err, jetstream.ErrKeyNotFound) && noticed && tries < noticeTries {
				tries++
				again = time.After(time.Duration(tries) * noticeWait)
			}
			if err == nil {
				var a Answer
				if c.read(q, e.Value(), &a) == nil {
					if a.Status != StatusAnswered {
						return a, nil
					}
					if _, err := checkAnswer(q, a.Result); err == nil {
						return a, nil
					}
				}
				pctx, cancel := context.WithTimeout(ctx, requestTimeout)
				_ = c.answers.Purge(pctx, q.ID, jetstream.LastRevision(e.Revision()))
				cancel()
			}
		}
		get, noticed = false, false
		select {
		case <-ctx.Done():
			return Answer{}, context.Cause(ctx)
		case <-notes:
			get, noticed, tries = true, true, 0
		case <-again:
			again = nil
			get, noticed = true, true
		case <-stops:
			stopped(ctx)
		case <-c.reconnect:
			get = true
			stopped(ctx)
		case <-here:
			here = nil
			follow(ctx)
		case <-ticker.C:
			get = true
			follow(ctx)
		}
	}
}
