package hubserver_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/hubserver"
)

// pub is a public key in the form askuser hub recipient prints.
const pub = "askuser-pub-hR7gzBekqP73t3cHmlaEGxWokKTM2DRFRX4zUc9ZEOM"

// TestRemoteConfig reads the hub config's remote: a good one whole, and
// each mistake with the member that holds it.
func TestRemoteConfig(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // the error says each; none: accepted
	}{
		{"good", `{"remote": {"url": "tls://a:4222, nats://b:4222", "credentials": "/c/hub.creds", "recipients": ["` + pub + `"]}}`, nil},
		{"good with replicas", `{"remote": {"url": "nats://a:4222", "credentials": "/c/hub.creds", "recipients": ["` + pub + `"], "replicas": 5}}`, nil},
		{"empty", `{"remote": {}}`, []string{"remote.url: is required", "remote.credentials: is required", "remote.recipients: must list at least one public key"}},
		{"wrong", `{"remote": {"url": "http://u:p@x:1", "credentials": "hub.creds", "recipients": ["XABC"]}}`, []string{
			`remote.url: must be nats://HOST:PORT or tls://HOST:PORT, without a user or password (those go in credentials), got "http://u:p@x:1"`,
			`remote.credentials: must be an absolute path, got "hub.creds"`,
			`remote.recipients[0]: a public key starts with askuser-pub-; got "XABC"`}},
		{"short key", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["askuser-pub-AAAA"]}}`, []string{
			"remote.recipients[0]: a public key is askuser-pub- and 43 characters of base64url"}},
		{"types", `{"remote": {"url": 1, "credentials": "/c", "recipients": "x"}}`, []string{"remote.url: must be a string", "remote.recipients: must be an array"}},
		{"replicas", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "replicas": 0}}`, []string{"remote.replicas: must be a whole number from 1 to 5", "got 0"}},
		{"replicas type", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "replicas": 2.5}}`, []string{"remote.replicas: must be a whole number", "got 2.5"}},
		{"unknown member", `{"remote": {"url": "nats://a:1", "token": "t"}}`, []string{"remote", "token"}},
		{"leaf", `{"remote": {"url": "tls://a:7422", "credentials": "/c/hub.creds", "recipients": ["` + pub + `"], "leaf": {"domain": "askuser-1"}}}`, nil},
		{"leaf without domain", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "leaf": {}}}`, []string{
			"remote.leaf.domain: is required: the JetStream domain of the cluster"}},
		{"leaf domain", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "leaf": {"domain": "a.b"}}}`, []string{
			`remote.leaf.domain: must be letters, digits, _ and -, got "a.b"`}},
		{"leaf reserved domain", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "leaf": {"domain": "FC"}}}`, []string{
			`remote.leaf.domain: "FC" is reserved by JetStream`}},
		{"leaf true", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "leaf": true}}`, []string{
			`remote.leaf: `, `it is {"domain": "…"}, the cluster's JetStream domain`}},
		{"leaf member", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "leaf": {"domain": "d", "hub": true}}}`, []string{
			`remote.leaf: `, "hub"}},
		{"leaf domain type", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "leaf": {"domain": 1}}}`, []string{
			`remote.leaf.domain: must be a string`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := hubserver.ParseConfig([]byte(tt.in))
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				if c.Remote == nil || c.Remote.Credentials != "/c/hub.creds" || !slices.Equal(c.Remote.Recipients, []string{pub}) {
					t.Fatalf("remote = %+v", c.Remote)
				}
				if leaf := strings.Contains(tt.in, `"leaf"`); leaf != (c.Leaf != nil) || leaf && c.Leaf.Domain != "askuser-1" {
					t.Fatalf("leaf = %+v", c.Leaf)
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted: %+v", c.Remote)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}
