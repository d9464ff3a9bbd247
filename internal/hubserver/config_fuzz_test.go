package hubserver_test

import (
	"net"
	"net/url"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/strictjson"
)

// FuzzConfig feeds ParseConfig any text: it never panics, and what it
// accepts names an https server (or http on 127.0.0.1) and a topic.
func FuzzConfig(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `"x"`, `{"push": {}}`,
		`{"push": {"delayMs": 0, "ntfy": {"server": "https://ntfy.sh", "topic": "t", "token": "tk", "link": "https://x/"}}}`,
		`{"push": {"ntfy": {"server": "http://127.0.0.1:8080", "topic": "a_b-c"}}}`,
		`{"push": {"ntfy": {"server": "http://10.0.0.1", "topic": "t"}}}`,
		`{"push": {"delayMs": 1e3, "ntfy": {"server": "https://ntfy.sh", "topic": "t"}}}`,
		`{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["askuser-pub-hR7gzBekqP73t3cHmlaEGxWokKTM2DRFRX4zUc9ZEOM"]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		strictjson.FuzzBound(t, data, func() {
			c, err := hubserver.ParseConfig(data)
			if err != nil || c.Push == nil {
				return
			}
			u, perr := url.Parse(c.Push.Server)
			loopback := perr == nil && u.Scheme == "http" && net.ParseIP(u.Hostname()) != nil && net.ParseIP(u.Hostname()).IsLoopback()
			if perr != nil || (u.Scheme != "https" && !loopback) || strings.ContainsAny(c.Push.Server, "?#") || c.Push.Topic == "" || c.Push.Delay < 0 {
				t.Fatalf("accepted %q as %+v", data, *c.Push)
			}
		})
	})
}
