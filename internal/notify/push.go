// Pushes tell the person's phone that a question waits on the hub,
// through an ntfy server (https://ntfy.sh or one of the person's own): a
// push says which agent asks, in which project, how many questions and
// how long is left, and opens the question on the hub's page; of an
// approval, it says so and what the agent wants to do ("run a
// command"). It never carries a question, an option, an answer, the
// command or file an approval is about, or a token, since ntfy has no
// end-to-end encryption.
//
// A push is an escalation: it goes out only when a question is still not
// answered Delay after it was asked (0: at once), once per question, and
// a second time as the reminder the terminal gets before the deadline
// (see RemindLead). What was pushed is marked on the hub, so that a hub
// that restarts does not push it again.

package notify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/safetext"
	"github.com/nats-io/nats.go/jetstream"
)

// DefaultPushDelay is how long a question waits unanswered before it is
// pushed, unless the config says otherwise.
const DefaultPushDelay = 30 * time.Second

// PushMarksBucket holds, per question, what was pushed for it.
const PushMarksBucket = "askuser_pushed"

// sendTimeout bounds one request to the ntfy server.
const sendTimeout = 10 * time.Second

// maxSending bounds the pushes in flight at once.
const maxSending = 4

// PushOptions configure Push.
type PushOptions struct {
	// Config says where to push and when.
	Config PushConfig
	// Watch reads what waits on the hub: a *hub.Client's Watch.
	Watch func(ctx context.Context) (<-chan hub.WatchEvent, error)
	// JetStream holds the marks of what was pushed.
	JetStream jetstream.JetStream
	// HTTP sends the pushes; nil means a client of its own. Push follows
	// no redirect with either: a push goes to the configured server or
	// nowhere.
	HTTP *http.Client
	// Home shortens project directories under it to ~; "" for none.
	Home string
	// Log is told of a push that failed, without its topic or token;
	// nil for nothing.
	Log io.Writer
}

// kind is which of a question's two pushes.
type kind string

const (
	first  kind = "w" // the question waits, Delay after it was asked
	remind kind = "r" // the reminder before the deadline
)

// Push pushes every question that waits on the hub as opts.Config says,
// until ctx is done. It returns ctx's cause, or why the hub could not be
// read.
func Push(ctx context.Context, opts *PushOptions) error {
	marks, err := markBucket(ctx, opts.JetStream)
	if err != nil {
		return err
	}
	events, err := opts.Watch(ctx)
	if err != nil {
		return fmt.Errorf("push: watch the hub: %w", err)
	}
	cl := http.Client{Timeout: sendTimeout}
	if opts.HTTP != nil {
		cl = *opts.HTTP
	}
	cl.CheckRedirect = refuseRedirect
	p := &pusher{opts: opts, marks: marks, http: &cl, due: make(chan due, 16), waiting: map[string]*waiting{},
		sending: make(chan struct{}, maxSending)}
	defer p.wg.Wait()
	defer p.stopAll()
	for {
		select {
		case <-ctx.Done():
			// The watch closes its channel once ctx is done; it is read
			// until then.
			go func() {
				for range events {
				}
			}()
			return context.Cause(ctx)
		case e, ok := <-events:
			if !ok {
				return errors.New("push: the hub's watch ended")
			}
			p.event(e)
		case d := <-p.due:
			p.fire(ctx, d)
		}
	}
}

// pusher is Push's state, owned by its goroutine but for the sends.
type pusher struct {
	opts    *PushOptions
	marks   jetstream.KeyValue
	http    *http.Client
	due     chan due
	waiting map[string]*waiting
	sending chan struct{}
	wg      sync.WaitGroup
}

// waiting is one question that waits, with its pushes to come.
type waiting struct {
	q      *hub.Question
	timers map[kind]*time.Timer
}

// due says that a push of a question is due.
type due struct {
	id   string
	kind kind
	q    *hub.Question // the question the timer was set for
}

func (p *pusher) event(e hub.WatchEvent) {
	switch e.Kind {
	case hub.WatchWaiting:
		p.schedule(e.Question)
	case hub.WatchClosed:
		if w := p.waiting[e.ID]; w != nil {
			w.stop()
			delete(p.waiting, e.ID)
		}
	}
}

// schedule sets the timers of q's pushes, again when q changed (its
// countdown was stopped).
func (p *pusher) schedule(q *hub.Question) {
	if old := p.waiting[q.ID]; old != nil {
		old.stop()
	}
	w := &waiting{q: q, timers: map[kind]*time.Timer{}}
	p.waiting[q.ID] = w
	at, rat, reminds := times(q, p.opts.Config.Delay)
	if reminds && !rat.After(at) {
		// The reminder would come before the first push, or with it:
		// the first push is the one.
		reminds = false
	}
	if d := q.Tag.Deadline; d != nil && !at.Before(*d) {
		return // answered or not, it ends before a push could help
	}
	w.after(p, first, at)
	if reminds {
		w.after(p, remind, rat)
	}
}

// times returns when q's first push is due and, when it has one, its
// reminder.
func times(q *hub.Question, delay time.Duration) (at, reminder time.Time, ok bool) {
	at = q.Created.Add(delay)
	d := q.Tag.Deadline
	if d == nil {
		return at, time.Time{}, false
	}
	lead, ok := RemindLead(d.Sub(q.Created))
	return at, d.Add(-lead), ok
}

func (w *waiting) after(p *pusher, k kind, at time.Time) {
	id, q := w.q.ID, w.q
	w.timers[k] = time.AfterFunc(time.Until(at), func() { p.due <- due{id: id, kind: k, q: q} })
}

func (w *waiting) stop() {
	for _, t := range w.timers {
		t.Stop()
	}
}

func (p *pusher) stopAll() {
	for _, w := range p.waiting {
		w.stop()
	}
	// A timer that fired as they stopped must not block on p.due.
	for {
		select {
		case <-p.due:
		default:
			return
		}
	}
}

// fire sends a push that is due, if its question still waits as it did
// when the push was set and nobody pushed it before.
func (p *pusher) fire(ctx context.Context, d due) {
	w := p.waiting[d.id]
	if w == nil || w.q != d.q {
		return
	}
	q := w.q
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		select {
		case p.sending <- struct{}{}:
			defer func() { <-p.sending }()
		case <-ctx.Done():
			return
		}
		if !p.mark(ctx, q, d.kind) {
			return
		}
		if err := p.send(ctx, q, time.Now()); err != nil && p.opts.Log != nil {
			fmt.Fprintf(p.opts.Log, "askuser hub: push for question %s: %v\n", q.ID, err)
		}
	}()
}

// mark records on the hub that q's push of kind k goes out; it reports
// false when it went out before (a hub that restarted) or cannot be
// marked.
func (p *pusher) mark(ctx context.Context, q *hub.Question, k kind) bool {
	keep := 25 * time.Hour
	if d := q.Tag.Deadline; d != nil {
		keep = max(time.Until(*d), 0) + time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	_, err := p.marks.Create(ctx, q.ID+"."+string(k), nil, jetstream.KeyTTL(keep.Round(time.Second)))
	if err != nil && !errors.Is(err, jetstream.ErrKeyExists) && p.opts.Log != nil {
		fmt.Fprintf(p.opts.Log, "askuser hub: push for question %s: mark it on the hub: %v\n", q.ID, err)
	}
	return err == nil
}

// PushText is what the push of q says at now: the agent, its project, how
// many questions and the time left, never the questions themselves. An
// approval says what the agent wants to do instead (ApprovalLine), never
// the command or the file it is about.
func PushText(q *hub.Question, now time.Time, home string) string {
	var b strings.Builder
	if _, ok := ask.LookupKind(q.Tag.Kind); ok {
		b.WriteString(ApprovalLine(q.Tag.Agent, q.Tag.Project, q.Tag.Wants, home))
	} else {
		b.WriteString(agentIn(q.Tag.Agent, q.Tag.Project, home))
		fmt.Fprintf(&b, " waits: %d question", q.Tag.Questions)
		if q.Tag.Questions != 1 {
			b.WriteString("s")
		}
	}
	if d := q.Tag.Deadline; d != nil {
		b.WriteString(", " + Left(d.Sub(now)) + " left")
	}
	return b.String()
}

// PushTitle is the title of q's push, and its ntfy tag: an approval's
// says that an approval waits.
func PushTitle(q *hub.Question) (title, tag string) {
	if k, ok := ask.LookupKind(q.Tag.Kind); ok {
		return "askuser: " + k.Waits + " waits", k.Icon
	}
	return "askuser: a question waits", "question"
}

// ApprovalLine is the line that marks an approval of agent in project
// (shortened as Project does, with home) that wants to do what, as
// Wants returns it: "claude-code in ~/api wants to run a command", "an
// agent asks for approval" when what is "". Each part is made fit by
// Header.
func ApprovalLine(agent, project, what, home string) string {
	s := agentIn(agent, project, home)
	if what = Header(what); what == "" {
		return s + " asks for approval"
	}
	return s + " wants to " + what
}

// agentIn names agent in project: "claude-code in ~/api", "an agent".
func agentIn(agent, project, home string) string {
	if agent = Header(agent); agent == "" {
		agent = "an agent"
	}
	if pr := Project(project, home); pr != "" {
		return agent + " in " + pr
	}
	return agent
}

// Project shortens a project directory for a push or a line that names
// it: under home it starts with ~, and only its last two elements are
// kept, made fit by Header.
func Project(dir, home string) string {
	dir = safetext.Line(dir)
	if dir == "" {
		return ""
	}
	if home != "" {
		if rel, err := filepath.Rel(home, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			dir = filepath.Join("~", rel)
		}
	}
	parts := strings.Split(dir, string(os.PathSeparator))
	if len(parts) > 3 {
		dir = filepath.Join(append([]string{"…"}, parts[len(parts)-2:]...)...)
	}
	return Header(dir)
}

func markBucket(ctx context.Context, js jetstream.JetStream) (jetstream.KeyValue, error) {
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	kv, err := js.KeyValue(ctx, PushMarksBucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{
			Bucket:         PushMarksBucket,
			Description:    "askuser: what was pushed for each question",
			History:        1,
			Storage:        jetstream.FileStorage,
			LimitMarkerTTL: time.Second,
		})
		if errors.Is(err, jetstream.ErrBucketExists) {
			kv, err = js.KeyValue(ctx, PushMarksBucket)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("push: open the hub's bucket %s: %w", PushMarksBucket, err)
	}
	return kv, nil
}
