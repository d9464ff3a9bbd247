package config

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/askuser/askuser/internal/strictjson"
	"github.com/askuser/askuser/prefs"
)

// MaxReplicas is the most replicas prefs.Remote.Replicas asks for: a NATS
// cluster's limit for a stream.
const MaxReplicas = 5

// Problem is one thing wrong with a prefs.Remote: the member it concerns
// ("url", "credentials", "recipients" or "recipients[i]") and why.
type Problem struct {
	Member, Message string
}

// RemoteProblems checks r's URL, Credentials and Recipients and lists
// every problem, in the order of the members; nil means they are good.
// The agent's config (its hub object) and the hub's own (hub.json's
// remote) both check the remote hub they name with it.
func RemoteProblems(r *prefs.Remote) []Problem {
	var out []Problem
	add := func(member, format string, args ...any) {
		out = append(out, Problem{member, fmt.Sprintf(format, args...)})
	}
	if r.URL == "" {
		add("url", `is required: the NATS server's address, such as "tls://nats.example.net:4222"`)
	} else {
		for u := range strings.SplitSeq(r.URL, ",") {
			pu, err := url.Parse(strings.TrimSpace(u))
			if err != nil || (pu.Scheme != "nats" && pu.Scheme != "tls") || pu.Host == "" || pu.User != nil {
				add("url", "must be nats://HOST:PORT or tls://HOST:PORT, without a user or password (those go in credentials), got %q", u)
			}
		}
	}
	switch {
	case r.Credentials == "":
		add("credentials", "is required: the path of a NATS .creds file, or of a file holding a token or user:password")
	case !filepath.IsAbs(r.Credentials):
		add("credentials", "must be an absolute path, got %q", r.Credentials)
	}
	if len(r.Recipients) == 0 {
		add("recipients", "must list at least one public key to seal questions to: askuser hub recipient prints a machine's")
	}
	for i, k := range r.Recipients {
		if _, err := ParseSealKey(k, SealPublic, "public key"); err != nil {
			add(fmt.Sprintf("recipients[%d]", i), "%v; got %q", err, k)
		}
	}
	return out
}

// DefaultIdleMs is the idle time of a hub askuser starts, ten minutes;
// MaxIdleMs the longest a config sets, a week.
const (
	DefaultIdleMs = 10 * 60 * 1000
	MaxIdleMs     = 7 * 24 * 60 * 60 * 1000
)

// The members of the hub object.
const (
	keyURL         = "url"
	keyCredentials = "credentials"
	keyRecipients  = "recipients"
	keyIdle        = "idleMs"
)

var hubKeys = []string{keyURL, keyCredentials, keyRecipients, keyIdle}

const idleWant = "must be a whole number of milliseconds from 1 to 604800000 (a week)"

const hubWant = `"auto", "off" or an object naming a remote hub, {"url": …, "credentials": …, "recipients": […]}`

// checkRemote reports every problem of a Remote, each at the path of
// its member; at gives the offset of a member, -1 when unknown.
func checkRemote(r *prefs.Remote, at func(member string) int64, add func(path string, off int64, format string, args ...any)) {
	for _, pr := range RemoteProblems(r) {
		member := pr.Member
		if strings.HasPrefix(member, keyRecipients) {
			member = keyRecipients
		}
		add(keyHub+"."+pr.Member, at(member), "%s", pr.Message)
	}
	if r.IdleMs < 0 || r.IdleMs > MaxIdleMs {
		add(keyHub+"."+keyIdle, at(keyIdle), idleWant+", got %d", r.IdleMs)
	}
}

// hubRemote reads the hub object of a config file.
func (p *parser) hubRemote(off int64, raw json.RawMessage) (prefs.Remote, bool) {
	var r prefs.Remote
	before := len(p.problems)
	seen := map[string]int64{}
	for _, m := range p.fields(keyHub, off, raw) {
		path, at, v := m.path, m.at, m.raw
		seen[m.key] = at
		switch m.key {
		case keyURL, keyCredentials:
			s, ok := p.text(path, at, v)
			if !ok {
				continue
			}
			if m.key == keyURL {
				r.URL = s
			} else {
				r.Credentials = s
			}
		case keyRecipients:
			var items []json.RawMessage
			if v[0] != '[' || json.Unmarshal(v, &items) != nil {
				p.add(path, at, `must be an array of public keys such as ["askuser-pub-…"], got %s`, describe(v))
				continue
			}
			r.Recipients = []string{}
			for i, it := range items {
				if s, ok := p.text(fmt.Sprintf("%s[%d]", path, i), at, it); ok {
					r.Recipients = append(r.Recipients, s)
				}
			}
		case keyIdle:
			n, problem := strictjson.WholeMillis(string(v), MaxIdleMs)
			if v[0] < '0' || v[0] > '9' || problem != "" || n == 0 {
				got := describe(v)
				if got == "a number" {
					got = fmt.Sprintf("%.32s", v)
				}
				p.add(path, at, idleWant+"; leave it out for ten minutes; got %s", got)
				continue
			}
			r.IdleMs = n
		default:
			p.unknownIn(keyHub, hubKeys, m.key, at)
		}
	}
	if len(p.problems) > before {
		return prefs.Remote{}, false
	}
	checkRemote(&r, func(member string) int64 {
		if at, ok := seen[member]; ok {
			return at
		}
		return off
	}, p.add)
	return r, len(p.problems) == before
}

// text reads a JSON string that is text: no unpaired surrogate escape.
func (p *parser) text(path string, off int64, raw json.RawMessage) (string, bool) {
	if raw[0] != '"' {
		p.add(path, off, "must be a string, got %s", describe(raw))
		return "", false
	}
	s, badAt := strictjson.NewScanner(raw).String()
	if badAt >= 0 {
		p.add(path, off, "holds an unpaired surrogate escape, which is not text; write the character itself")
		return "", false
	}
	return s, true
}
