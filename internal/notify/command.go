package notify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
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
// killed.
const CommandTimeout = 30 * time.Second

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
// killed after CommandTimeout. report is called once, from another
// goroutine, if it cannot start, fails or is killed; it may be nil. An
// empty argv runs nothing. The channel returned is closed once the
// command has ended and its failure, if any, was reported.
func Command(argv []string, environ []string, e Event, report func(error)) <-chan struct{} {
	done := make(chan struct{})
	if len(argv) == 0 {
		close(done)
		return done
	}
	if report == nil {
		report = func(error) {}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(append([]string{}, environ...), e.Env()...)
	cmd.Stdin = bytes.NewReader(e.JSON())
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		go func() {
			defer close(done)
			report(fmt.Errorf("the notify command %s could not start: %w", quoteProgram(argv[0]), err))
		}()
		return done
	}
	go func() {
		defer close(done)
		var killed atomic.Bool
		t := time.AfterFunc(CommandTimeout, func() {
			killed.Store(true)
			_ = cmd.Process.Kill()
		})
		err := cmd.Wait()
		t.Stop()
		switch {
		case killed.Load():
			report(fmt.Errorf("the notify command %s ran for %s and was stopped", quoteProgram(argv[0]), CommandTimeout))
		case err != nil:
			msg := fmt.Sprintf("the notify command %s failed: %v", quoteProgram(argv[0]), err)
			if s := stderr.text(); s != "" {
				msg += ": " + s
			}
			report(fmt.Errorf("%s", msg))
		}
	}()
	return done
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
