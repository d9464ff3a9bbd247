package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/strictjson"
)

// PushConfig is the push member of the hub's config file:
//
//	"push": {
//	  "delayMs": 30000,                       // unanswered this long: push; 0: at once
//	  "ntfy": {
//	    "server": "https://ntfy.sh",          // https, or http on 127.0.0.1 only
//	    "topic": "a-long-random-topic",
//	    "token": "tk_…",                      // optional: an ntfy access token
//	    "link": "https://laptop.example:8443/" // optional: the hub's page, which the push opens
//	  }
//	}
type PushConfig struct {
	// Delay is how long a question waits unanswered before it is pushed.
	Delay time.Duration
	// Server is the ntfy server's URL.
	Server string
	// Topic is the ntfy topic the person's phone subscribes to.
	Topic string
	// Token, when set, is sent as a bearer token.
	Token string
	// Link, when set, is the hub's page: a push opens the question there.
	Link string
}

// The members of the push config.
var (
	pushKeys = []string{"delayMs", "ntfy"}
	ntfyKeys = []string{"server", "topic", "token", "link"}
)

// maxDelay bounds the delay: a day.
const maxDelay = 24 * time.Hour

// ParsePushConfig reads the push member of a config file, raw, whose path in
// the file is at ("push"). Every problem is reported with its path.
func ParsePushConfig(raw []byte, at string) (PushConfig, error) {
	var problems []string
	add := func(path, format string, args ...any) {
		problems = append(problems, path+": "+fmt.Sprintf(format, args...))
	}
	c := PushConfig{Delay: DefaultPushDelay}
	m, err := strictjson.Members(raw, pushKeys...)
	if err != nil {
		return PushConfig{}, fmt.Errorf("%s: %w", at, err)
	}
	if d, ok := m["delayMs"]; ok {
		ms, msg := strictjson.WholeMillis(string(d), maxDelay.Milliseconds())
		if msg != "" {
			add(at+".delayMs", "%s", msg)
		}
		c.Delay = time.Duration(ms) * time.Millisecond
	}
	nraw, ok := m["ntfy"]
	if !ok {
		add(at, "names no ntfy server: give ntfy with its server and topic")
		return PushConfig{}, errors.New(strings.Join(problems, "; "))
	}
	nat := at + ".ntfy"
	nm, err := strictjson.Members(nraw, ntfyKeys...)
	if err != nil {
		return PushConfig{}, fmt.Errorf("%s: %w", nat, err)
	}
	str := func(key string, required bool) string {
		v, ok := nm[key]
		if !ok {
			if required {
				add(nat, "has no %s", key)
			}
			return ""
		}
		var s string
		switch err := json.Unmarshal(v, &s); {
		case err != nil:
			add(nat+"."+key, "must be a string")
		case s == "" && required:
			add(nat+"."+key, "must not be empty")
		}
		return s
	}
	c.Server, c.Topic, c.Token, c.Link = str("server", true), str("topic", true), str("token", false), str("link", false)
	if c.Server != "" {
		if err := checkServer(c.Server); err != nil {
			add(nat+".server", "%v", err)
		}
	}
	if c.Topic != "" && !validTopic(c.Topic) {
		add(nat+".topic", "must be 1 to 64 letters, digits, - or _, as ntfy's topics are")
	}
	if strings.ContainsAny(c.Token, "\r\n\x00") || len(c.Token) > 512 {
		add(nat+".token", "must be one line of at most 512 bytes")
	}
	if c.Link != "" {
		if u, err := url.Parse(c.Link); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || strings.ContainsAny(c.Link, "?#") {
			add(nat+".link", "must be the http or https address of the hub's page, with no user, query or fragment")
		}
	}
	if problems != nil {
		return PushConfig{}, errors.New(strings.Join(problems, "; "))
	}
	return c, nil
}

// checkServer refuses a server address a push must not go to: anything
// but https, or http to this machine.
func checkServer(s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.User != nil || strings.ContainsAny(s, "?#") || (u.Path != "" && u.Path != "/") {
		return errors.New("must be the server's address alone, such as https://ntfy.sh")
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if ip := net.ParseIP(u.Hostname()); ip != nil && ip.IsLoopback() {
			return nil
		}
		return errors.New("must use https: a push over http to another machine could be read and forged on the way")
	}
	return errors.New("must be an https address, such as https://ntfy.sh")
}

func validTopic(t string) bool {
	if t == "" || len(t) > 64 {
		return false
	}
	for _, r := range t {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// send posts q's push to the ntfy server. Its errors name neither the
// topic nor the token.
func (p *pusher) send(ctx context.Context, q *hub.Question, now time.Time) error {
	c := p.opts.Config
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	target := strings.TrimSuffix(c.Server, "/") + "/" + c.Topic
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, strings.NewReader(PushText(q, now, p.opts.Home)))
	if err != nil {
		return errors.New("the ntfy server's address cannot be used")
	}
	title, tag := PushTitle(q)
	req.Header.Set("Title", title)
	req.Header.Set("Tags", tag)
	if c.Link != "" {
		req.Header.Set("Click", QuestionLink(c.Link, q.ID))
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	resp, err := p.http.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL holds the topic
		}
		return fmt.Errorf("the ntfy server at %s cannot be reached: %v", c.Server, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 == 3 {
		return fmt.Errorf("the ntfy server at %s answered %s, which a push does not follow: "+
			"a redirect could send it to another host, or over plain http; set the server to the address the push belongs at", c.Server, resp.Status)
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("the ntfy server at %s refused the push: %s", c.Server, resp.Status)
	}
	return nil
}

// refuseRedirect is the pushes' http.Client.CheckRedirect: the server
// configured was checked to be https, or http on this machine, and a
// redirect's target was not, so the redirect itself is the answer.
func refuseRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// QuestionLink is the address at which the hub's page at base opens the
// question id. It carries no token: a device that was paired has its own.
func QuestionLink(base, id string) string {
	return strings.TrimSuffix(base, "/") + "/#q=" + url.QueryEscape(id)
}
