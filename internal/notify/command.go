package notify

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Event is what the notify command is told of an opening questionnaire:
// never its questions, options or answers.
type Event struct {
	// Header is the questionnaire's header, made safe by Header; "" for
	// none.
	Header string `json:"header"`
	// Questions is the number of questions.
	Questions int `json:"questions"`
	// Deadline is when the questionnaire times out; the zero time for
	// none.
	Deadline time.Time `json:"-"`
	// Host is the host that asks: "terminal", "pi" or "mcp".
	Host string `json:"host"`
	// Route is "custom" or "native".
	Route string `json:"route"`
	// Tool is the contract: "ask_user" or "AskUserQuestion".
	Tool string `json:"tool"`
}

// CommandTimeout is how long the notify command may run before it is
// stopped.
const CommandTimeout = 30 * time.Second

// StopGrace is how long a notify command being stopped has between
// SIGTERM and SIGKILL, and then for its end to be seen: a stop takes at
// most twice as long.
const StopGrace = 150 * time.Millisecond

// pipeWait bounds how long the end of a notify command waits, once the
// command has exited, for its standard error to close: a process it
// started outside its process group may hold it open.
const pipeWait = time.Second

// maxReported is how much of the command's standard error a failure
// report quotes.
const maxReported = 200

// Env is the environment the command gets on top of askuser's own:
// ASKUSER_HEADER, ASKUSER_QUESTIONS, ASKUSER_DEADLINE (RFC 3339, "" for
// none), ASKUSER_DEADLINE_MS (Unix time in milliseconds, "" for none),
// ASKUSER_HOST, ASKUSER_ROUTE and ASKUSER_TOOL.
func (e Event) Env() []string {
	deadline, ms := "", ""
	if !e.Deadline.IsZero() {
		deadline = e.Deadline.UTC().Format(time.RFC3339)
		ms = strconv.FormatInt(e.Deadline.UnixMilli(), 10)
	}
	return []string{
		"ASKUSER_HEADER=" + Header(e.Header),
		"ASKUSER_QUESTIONS=" + strconv.Itoa(e.Questions),
		"ASKUSER_DEADLINE=" + deadline,
		"ASKUSER_DEADLINE_MS=" + ms,
		"ASKUSER_HOST=" + e.Host,
		"ASKUSER_ROUTE=" + e.Route,
		"ASKUSER_TOOL=" + e.Tool,
	}
}

// JSON is the same as Env as one JSON object, which the command reads on
// its standard input: {"header":…,"questions":…,"deadline":…,
// "deadlineMs":…,"host":…,"route":…,"tool":…}; deadline and deadlineMs
// are null without a deadline.
func (e Event) JSON() []byte {
	type wire struct {
		Header     string  `json:"header"`
		Questions  int     `json:"questions"`
		Deadline   *string `json:"deadline"`
		DeadlineMs *int64  `json:"deadlineMs"`
		Host       string  `json:"host"`
		Route      string  `json:"route"`
		Tool       string  `json:"tool"`
	}
	w := wire{Header: Header(e.Header), Questions: e.Questions, Host: e.Host, Route: e.Route, Tool: e.Tool}
	if !e.Deadline.IsZero() {
		d := e.Deadline.UTC().Format(time.RFC3339)
		ms := e.Deadline.UnixMilli()
		w.Deadline, w.DeadlineMs = &d, &ms
	}
	data, _ := json.Marshal(w)
	return append(data, '\n')
}

// Command runs the user's notify command, argv, for an event: started at
// once and not waited for, with the event in its environment (on top of
// environ) and as JSON on its standard input, its output discarded, and
// stopped after CommandTimeout. On unix it runs in a process group of
// its own, and a stop ends the whole group: SIGTERM, then SIGKILL after
// StopGrace. report is called once, from another goroutine, if it cannot
// start, fails or reaches its limit; it may be nil. An empty argv runs
// nothing.
func Command(argv []string, environ []string, e Event, report func(error)) *Run {
	return start(argv, environ, e, report, CommandTimeout)
}

// Run is a notify command that Command started.
type Run struct {
	done    chan struct{}
	ended   chan struct{} // closed once the command's own process has been waited for
	claimed chan struct{} // closed once its group is being stopped
	cmd     *exec.Cmd     // nil when nothing runs

	mu    sync.Mutex
	owner string // who stops the group: "" for no one yet, "limit" or "stop"
}

// Done is closed once the command has ended and its failure, if any, was
// reported.
func (r *Run) Done() <-chan struct{} { return r.done }

// Stop ends the command, and on unix every process left in its group,
// without reporting it: SIGTERM, then SIGKILL to what is left after
// StopGrace. It returns once the command has ended, or at most
// 2×StopGrace after it was called. A group is signalled only until the
// command's limit, when what is left of it is stopped anyway. Stop is
// safe to call more than once and from any goroutine.
func (r *Run) Stop() {
	if r.cmd == nil {
		return
	}
	if r.claim("stop") {
		r.end()
		return
	}
	t := time.NewTimer(2 * StopGrace)
	defer t.Stop()
	select {
	case <-r.ended:
	case <-t.C:
	}
}

// claim makes who the one that stops the group, and reports whether it
// is: the first to claim it.
func (r *Run) claim(who string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.owner != "" {
		return false
	}
	r.owner = who
	close(r.claimed)
	return true
}

func (r *Run) stoppedBy() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.owner
}

// end stops the command's group: SIGTERM, SIGKILL once the command has
// ended or after StopGrace, and then up to StopGrace for its end.
func (r *Run) end() {
	terminate(r.cmd.Process)
	t := time.NewTimer(StopGrace)
	defer t.Stop()
	select {
	case <-r.ended:
		// What the command started may outlive it; the group goes too.
		kill(r.cmd.Process)
		return
	case <-t.C:
	}
	kill(r.cmd.Process)
	t.Reset(StopGrace)
	select {
	case <-r.ended:
	case <-t.C:
	}
}

func start(argv []string, environ []string, e Event, report func(error), limit time.Duration) *Run {
	r := &Run{done: make(chan struct{}), ended: make(chan struct{}), claimed: make(chan struct{})}
	if len(argv) == 0 {
		close(r.done)
		close(r.ended)
		return r
	}
	if report == nil {
		report = func(error) {}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(append([]string{}, environ...), e.Env()...)
	cmd.Stdin = bytes.NewReader(e.JSON())
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	cmd.WaitDelay = pipeWait
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		close(r.ended)
		go func() {
			defer close(r.done)
			report(fmt.Errorf("the notify command %s could not start: %w", quoteProgram(argv[0]), err))
		}()
		return r
	}
	r.cmd = cmd
	exited := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		close(r.ended)
		exited <- err
	}()
	go func() {
		t := time.NewTimer(limit)
		defer t.Stop()
		var err error
		select {
		case err = <-exited:
		case <-t.C:
			if r.claim("limit") {
				r.end()
			}
			err = <-exited
		}
		switch r.stoppedBy() {
		case "stop":
		case "limit":
			report(fmt.Errorf("the notify command %s ran for %s and was stopped", quoteProgram(argv[0]), limit))
		default:
			// A process the command left behind holding its standard
			// error is stopped at the limit, and is no failure of the
			// command itself.
			if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
				msg := fmt.Sprintf("the notify command %s failed: %v", quoteProgram(argv[0]), err)
				if s := stderr.text(); s != "" {
					msg += ": " + s
				}
				report(fmt.Errorf("%s", msg))
			}
		}
		close(r.done)
		// What the command started in its group may run on until the
		// limit, as the command itself could have.
		select {
		case <-t.C:
			if r.claim("limit") {
				r.end()
			}
		case <-r.claimed:
		}
	}()
	return r
}

func quoteProgram(p string) string { return strconv.Quote(Header(p)) }

// limitedBuffer keeps the first maxReported bytes written to it.
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := maxReported - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// text is the first line of what was written, made safe.
func (l *limitedBuffer) text() string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(l.b)), "\n")
	return Header(s)
}
