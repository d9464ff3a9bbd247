package config

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/askuser/askuser/internal/hubremote"
	"github.com/askuser/askuser/internal/strictjson"
)

// Remote is the remote hub that the config's hub names as an object:
// the NATS server or cluster of the person's machines. An agent whose
// config names one publishes its questions, sealed to the recipients,
// through this machine's hub, which relays them there; when no hub runs,
// askuser starts one, which stops by itself after IdleMs with nothing
// to do.
type Remote struct {
	hubremote.Remote
	// IdleMs is how long a hub that askuser starts for the remote runs
	// with no question waiting and no askuser connected before it
	// stops, in milliseconds; 0 means DefaultIdleMs.
	IdleMs int64
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
func checkRemote(r *Remote, at func(member string) int64, add func(path string, off int64, format string, args ...any)) {
	for _, pr := range hubremote.Problems(r.Remote) {
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
func (p *parser) hubRemote(off int64, raw json.RawMessage) (Remote, bool) {
	var r Remote
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
		return Remote{}, false
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
