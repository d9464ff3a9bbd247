package hubserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/internal/safetext"
)

// subBuffer is how many events a slow page may fall behind before its
// stream is closed; the browser then connects again and gets the list
// afresh.
const subBuffer = 256

// maxClosed bounds the notes kept on questions that left the list.
const maxClosed = 4096

// heartbeat keeps an idle stream open through anything that closes
// silent connections.
const heartbeat = 25 * time.Second

// Summary is a waiting question as the list shows it.
type Summary struct {
	ID       string `json:"id"`
	Agent    string `json:"agent"`
	Project  string `json:"project,omitempty"`
	Machine  string `json:"machine,omitempty"`
	Contract string `json:"contract"`
	// Kind is hub.KindApproval for an approval, which the page marks as
	// one; "" for a question.
	Kind      string `json:"kind,omitempty"`
	Questions int    `json:"questions"`
	// Title is the first question's text, or the questionnaire's
	// header; of an approval, who wants to do what, in which project:
	// "claude-code in ~/api wants to run a command".
	Title     string     `json:"title"`
	Created   time.Time  `json:"created"`
	Deadline  *time.Time `json:"deadline,omitempty"`
	StoppedBy string     `json:"stoppedBy,omitempty"`
}

// requestShape is what the page's server reads of a request of either
// contract: the first title, and the previews.
type requestShape struct {
	Header    string `json:"header"`
	Questions []struct {
		Title    string `json:"title"`
		Question string `json:"question"`
		Options  []struct {
			Preview string `json:"preview"`
		} `json:"options"`
	} `json:"questions"`
}

// maxTitle bounds, in bytes, the title of a row of the list: a title
// within its contract's limits always fits.
const maxTitle = 4 * contract.MaxPromptLen

// summarize is q's summary, with the project directories under home
// shortened to ~ in the title of an approval.
func summarize(q *hub.Question, home string) Summary {
	s := Summary{ID: q.ID, Agent: q.Tag.Agent, Project: q.Tag.Project, Machine: q.Tag.Machine,
		Contract: q.Tag.Contract, Kind: q.Tag.Kind, Questions: q.Tag.Questions, Created: q.Created, Deadline: q.Tag.Deadline, StoppedBy: q.StoppedBy}
	if _, ok := ask.LookupKind(q.Tag.Kind); ok {
		s.Title = notify.ApprovalLine(q.Tag.Agent, q.Tag.Project, q.Tag.Wants, home)
		return s
	}
	var r requestShape
	if json.Unmarshal(q.Request, &r) == nil {
		switch {
		case r.Header != "":
			s.Title = r.Header
		case len(r.Questions) > 0 && r.Questions[0].Title != "":
			s.Title = r.Questions[0].Title
		case len(r.Questions) > 0:
			s.Title = r.Questions[0].Question
		}
	}
	if len(s.Title) > maxTitle {
		s.Title = strings.ToValidUTF8(s.Title[:maxTitle], "") + "…"
	}
	return s
}

// closedWhere says where a question that left the list went.
func closedWhere(a *hub.Answer) string {
	if a == nil {
		return "removed from the hub: its asker went away, or its time ran out"
	}
	return a.Where()
}

// rewatchRetry is how long the page waits to watch the hub again when
// the hub refused a watch, as while its buckets are gone.
const rewatchRetry = time.Second

// watch follows the hub through events, the watch that cancel ends, and
// through a new watch each time Rewatch asks, until ctx is done.
func (s *Web) watch(ctx context.Context, events <-chan hub.WatchEvent, cancel context.CancelFunc) {
	for {
		again := s.follow(events)
		cancel()
		for range events {
			// The watch closes its channel once it sees its end.
		}
		if !again {
			s.setOnline(false)
			return
		}
		// Watch afresh, once the hub takes a watch.
		for {
			var wctx context.Context
			wctx, cancel = context.WithCancel(ctx)
			var err error
			if events, err = s.c.Watch(wctx); err == nil {
				break
			}
			cancel()
			s.setOnline(false)
			select {
			case <-ctx.Done():
				return
			case <-s.rewatch:
			case <-time.After(rewatchRetry):
			}
		}
	}
}

func (s *Web) setOnline(ok bool) {
	name := "lost"
	if ok {
		name = "synced"
	}
	s.mu.Lock()
	s.online = ok
	s.broadcast(event{name, []byte("{}")})
	s.mu.Unlock()
}

// follow keeps the list of what waits and tells the pages of each change,
// until events ends (false) or Rewatch asks for a new watch (true). The
// questions its watch has not reported by the time it is first synced
// are gone: they leave the list.
func (s *Web) follow(events <-chan hub.WatchEvent) bool {
	seen := map[string]bool{}
	for {
		var e hub.WatchEvent
		var ok bool
		select {
		case e, ok = <-events:
			if !ok {
				return false
			}
		case <-s.rewatch:
			return true
		}
		switch e.Kind {
		case hub.WatchWaiting:
			if seen != nil {
				seen[e.ID] = true
			}
			sum, _ := json.Marshal(summarize(e.Question, s.home))
			s.mu.Lock()
			s.waiting[e.ID] = &entry{q: e.Question, summary: sum}
			s.broadcast(event{"waiting", sum})
			s.mu.Unlock()
		case hub.WatchClosed:
			s.close(e.ID, closedWhere(e.Answer))
		case hub.WatchSynced:
			if seen != nil {
				s.mu.Lock()
				var gone []string
				for id := range s.waiting {
					if !seen[id] {
						gone = append(gone, id)
					}
				}
				s.mu.Unlock()
				for _, id := range gone {
					s.close(id, closedWhere(nil))
				}
				seen = nil
			}
			s.setOnline(true)
		case hub.WatchLost:
			s.setOnline(false)
		}
	}
}

// close takes the question id off the list, gone where.
func (s *Web) close(id, where string) {
	data, _ := json.Marshal(struct {
		ID    string `json:"id"`
		Where string `json:"where"`
	}{id, where})
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.waiting, id)
	if len(s.closed) >= maxClosed {
		clear(s.closed)
	}
	s.closed[id] = where
	s.broadcast(event{"closed", data})
}

// broadcast sends e to every page; s.mu is held. A page too far behind
// loses its stream.
func (s *Web) broadcast(e event) {
	for ch := range s.subs {
		select {
		case ch <- e:
		default:
			close(ch)
			delete(s.subs, ch)
		}
	}
}

// firstPage is how many questions the first event of a stream holds:
// the page shows them at once, and gets the others in a second event.
const firstPage = 50

// snapshot is the list, newest first, as two events: the first page,
// with the time and the count, then the rest.
func (s *Web) snapshot() (first, rest event) {
	es := make([]*entry, 0, len(s.waiting))
	for _, e := range s.waiting {
		es = append(es, e)
	}
	sort.Slice(es, func(i, j int) bool {
		if !es[i].q.Created.Equal(es[j].q.Created) {
			return es[i].q.Created.After(es[j].q.Created)
		}
		return es[i].q.ID < es[j].q.ID
	})
	list := func(b []byte, es []*entry) []byte {
		b = append(b, `"questions":[`...)
		for i, e := range es {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, e.summary...)
		}
		return append(b, "]}"...)
	}
	n := min(firstPage, len(es))
	now, _ := json.Marshal(time.Now())
	b := fmt.Appendf(nil, `{"online":%t,"now":%s,"total":%d,`, s.online, now, len(es))
	first = event{"snapshot", list(b, es[:n])}
	rest = event{"rest", list([]byte("{"), es[n:])}
	return first, rest
}

// serveEvents streams the list: a snapshot in two parts, then each
// change.
func (s *Web) serveEvents(w http.ResponseWriter, r *http.Request) {
	dev := deviceOf(r)
	// The stream lasts: no read deadline, and a write deadline for each
	// event, so that a client that takes nothing loses its stream.
	rc := http.NewResponseController(w)
	if err := rc.SetReadDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return
	}
	ch := make(chan event, subBuffer)
	s.mu.Lock()
	first, rest := s.snapshot()
	s.subs[ch] = dev
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.subs, ch)
		s.mu.Unlock()
	}()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	write := func(e event) bool {
		rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		if e.name == "" {
			_, err := io.WriteString(w, ": alive\n\n")
			return err == nil && rc.Flush() == nil
		}
		_, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, e.data)
		return err == nil && rc.Flush() == nil
	}
	if !write(first) || !write(rest) {
		return
	}
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case e, ok := <-ch:
			if !ok || !write(e) {
				return
			}
		case <-tick.C:
			if !write(event{}) {
				return
			}
		}
	}
}

// Detail is one waiting question as its form is built from: its summary,
// its request in its contract's JSON, and each option's preview as a
// tree keyed by "question.option" indexes.
type Detail struct {
	Summary
	Request  json.RawMessage   `json:"request"`
	Previews map[string][]Node `json:"previews,omitempty"`
	// AnswerToken is what a request that answers, dismisses or stops the
	// countdown of this question carries, for this device.
	AnswerToken string `json:"answerToken"`
}

// plainText is the tree of a preview shown as it is, as preformatted
// text: an approval's (package approval), which is what an agent wants
// to do, never Markdown. Its line breaks are kept, and every control
// character, bidi override and invisible character is shown as a visible
// stand-in, as the terminal shows it (safetext.Text): what the person
// allows is what they read, in the order it runs.
func plainText(src string) []Node { return []Node{{T: "pre", Text: safetext.Text(src)}} }

// checkRequest checks the questionnaire of q against its contract's
// rules, its limits included (a preview of at most 16,000 characters),
// and its kind: the hub of another machine may have stored anything.
func checkRequest(q *hub.Question) error {
	if err := hub.CheckKind(q.Tag); err != nil {
		return err
	}
	c, ok := ask.Lookup(q.Tag.Contract)
	if !ok {
		return fmt.Errorf("its contract %q is not one askuser knows", q.Tag.Contract)
	}
	_, err := c.Questions(q.Request)
	return err
}

// serveQuestion serves the question the query's id names, or says where
// it went.
func (s *Web) serveQuestion(w http.ResponseWriter, r *http.Request) {
	id := questionID(r)
	s.mu.Lock()
	e := s.waiting[id]
	where, closed := s.closed[id]
	s.mu.Unlock()
	var q *hub.Question
	switch {
	case e != nil:
		q = e.q
	case closed:
		refuse(w, http.StatusGone, "%s", where)
		return
	default:
		got, ans, err := s.c.Question(r.Context(), id)
		var re *hub.RefusedError
		switch {
		case errors.As(err, &re):
			refuse(w, http.StatusNotFound, "%s", re.Message)
			return
		case err != nil:
			refuse(w, http.StatusBadGateway, "the hub did not answer: %v", err)
			return
		case ans != nil:
			refuse(w, http.StatusGone, "%s", ans.Where())
			return
		}
		q = got
	}
	if err := checkRequest(q); err != nil {
		msg := err.Error()
		if len(msg) > 2000 {
			msg = strings.ToValidUTF8(msg[:2000], "") + "…"
		}
		refuse(w, http.StatusUnprocessableEntity, "this question breaks the rules of its contract, so the page does not show it: %s", msg)
		return
	}
	d := Detail{Summary: summarize(q, s.home), Request: q.Request, AnswerToken: s.mac("answer", deviceOf(r), q.ID)}
	var shape requestShape
	if json.Unmarshal(q.Request, &shape) == nil {
		for i, qq := range shape.Questions {
			for j, o := range qq.Options {
				if o.Preview == "" {
					continue
				}
				if d.Previews == nil {
					d.Previews = map[string][]Node{}
				}
				tree := Markdown
				if k, ok := ask.LookupKind(q.Tag.Kind); ok && k.PlainPreviews {
					// What the agent wants to do, exactly as it is.
					tree = plainText
				}
				d.Previews[fmt.Sprintf("%d.%d", i, j)] = tree(o.Preview)
			}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(d)
}
