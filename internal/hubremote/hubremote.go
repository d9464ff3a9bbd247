// Package hubremote is the setting that names a remote hub: the NATS
// server or cluster that a person's machines share, the credentials file
// to reach it with, and the public keys its questions are sealed to. The
// hub's own config (hub.json's remote) and the agent's (the config's hub)
// both name one, and both check it here, by the same rules.
//
// It holds no NATS code and no cryptography, so that checking a config
// costs the agent's binary almost nothing.
package hubremote

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/askuser/askuser/internal/sealkey"
)

// Remote names a remote hub.
type Remote struct {
	// URL is the server's address, nats:// or tls://, or several,
	// comma-separated, of one cluster.
	URL string
	// Credentials is the absolute path of a NATS .creds file, or of a
	// file holding a token or user:password on one line.
	Credentials string
	// Recipients are the public keys (askuser-pub-…) every question is
	// sealed to.
	Recipients []string
}

// Problem is one thing wrong with a Remote: the member it concerns
// ("url", "credentials", "recipients" or "recipients[i]") and why.
type Problem struct {
	Member, Message string
}

// Problems checks r and lists every problem, in the order of the
// members; nil means r is good.
func Problems(r Remote) []Problem {
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
		if _, err := sealkey.Parse(k, sealkey.Public, "public key"); err != nil {
			add(fmt.Sprintf("recipients[%d]", i), "%v; got %q", err, k)
		}
	}
	return out
}
